package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// FairyStockfish returns the Fairy-Stockfish to test against: the given
// path when not empty, else $MAKRUKTB_FAIRY_STOCKFISH, else Debian's
// package (/usr/games/fairy-stockfish, or fairy-stockfish on the PATH).
// Without one the test is skipped, or fails when $MAKRUKTB_E2E is 1 (as
// in CI, which installs it).
func FairyStockfish(t testing.TB, path string) string {
	t.Helper()
	for _, p := range []string{path, os.Getenv("MAKRUKTB_FAIRY_STOCKFISH"), "/usr/games/fairy-stockfish", "fairy-stockfish"} {
		if p == "" {
			continue
		}
		if found, err := exec.LookPath(p); err == nil {
			return found
		}
	}
	if os.Getenv("MAKRUKTB_E2E") == "1" {
		t.Fatal("MAKRUKTB_E2E=1 but no fairy-stockfish (apt-get install fairy-stockfish)")
	}
	t.Skip("no fairy-stockfish installed")
	return ""
}

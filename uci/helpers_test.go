package uci

import (
	"os"
	"testing"

	"github.com/makruktb/makruktb/internal/testtables"
)

func TestMain(m *testing.M) {
	if os.Getenv("MAKRUKTB_FAKE_ENGINE") != "" {
		fakeEngine()
		return
	}
	code := m.Run()
	testtables.Cleanup()
	os.Exit(code)
}

//go:build unix

package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
)

// Fairy-Stockfish behind the adapter converts every position won inside
// a fresh count and holds every blessed loss (rook, Khon and board's-honour
// endings), at 50 ms a move; the match fails on any game that is not.
func TestMatchThroughAdapter(t *testing.T) {
	fsf := testenv.FairyStockfish(t, "")
	dir := t.TempDir()
	r := runBinary(t, "gen", "--tables", dir, "--dtb", "thai", "KRvK", "KRvKN", "KRvKM", "KSSvK", "KSMvK")
	require.Equal(t, 0, r.code, r.stderr)
	r = runBinary(t, "match", "--tables", dir, "--engine", binary(t), "--materials", "KRvK,KRvKN,KRvKM,KSSvK,KSMvK", "--positions", "4", "--movetime", "50ms",
		"--", "uci", "--tables", dir, "--engine", fsf)
	require.Equal(t, 0, r.code, "%s\n%s", r.stdout, r.stderr)
	require.Contains(t, r.stdout, "| KRvKN | 4/4 | 4/4 |")
	require.Contains(t, r.stdout, "40 of 40 games converted or held")
	require.Equal(t, 40, strings.Count(r.stderr, ": ok\n"), r.stderr)
}

// uci, match and cluster check their flags before starting anything.
func TestUCIMatchClusterFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"uci"}, "--engine: name the engine to wrap"},
		{[]string{"match"}, "--engine: name the engine to play"},
		{[]string{"match", "--engine", "x", "--variant", "chess"}, `--variant "chess": want one of cambodian, makruk`},
		{[]string{"match", "--engine", "x", "--mode", "attack"}, "--mode \"attack\": want convert, hold or both"},
		{[]string{"match", "--engine", "x", "--positions", "0"}, "--positions 0: want at least 1"},
		{[]string{"match", "--engine", "x", "--option", "Threads"}, "--option \"Threads\": want NAME=VALUE"},
		{[]string{"match", "--engine", "x", "--materials", "KRvQ"}, "--materials"},
		{[]string{"uci", "--engine", "/nonexistent/engine", "--tables", "."}, "starting engine"},
		{[]string{"uci", "--engine", "/nonexistent/engine --threads 2", "--tables", "."}, `--engine "/nonexistent/engine --threads 2": no such program; give the engine's own arguments after --, e.g. --engine /nonexistent/engine -- --threads 2`},
		{[]string{"uci", "--engine", "x", "extra"}, `unexpected argument "extra": the engine's own arguments go after --`},
		{[]string{"match", "--engine", "x", "--tables", ".", "--materials", "KRvK"}, "table KRvK.mtbm not found in . (makruktb gen KRvK makes it)"},
		{[]string{"cluster", "status"}, "give --max-pieces N or materials"},
		{[]string{"cluster", "submit", "--cpus", "0", "KRvK"}, "--cpus 0: want 1 to 256"},
		{[]string{"cluster", "submit", "--dtb", "foo", "KRvK"}, `--dtb: rules "foo"`},
		{[]string{"cluster", "submit", "--scratch", "tmp", "KRvK"}, `--scratch "tmp": want an absolute path`},
		{[]string{"cluster", "submit", "--game", "chess", "KRvK"}, `--game: unknown game "chess"`},
		{[]string{"cluster", "submit", "--game", "shatranj", "--dtb", "thai", "KRvKQ"}, "shatranj has no counting rule"},
		{[]string{"cluster", "status", "--game", "shatranj", "KRvKS"}, `unknown piece 'S'`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := runBinary(t, c.args...)
			require.Equal(t, 1, r.code, "%v: %s", c.args, r.stderr)
			require.Contains(t, r.stderr, c.want, "%v", c.args)
		})
	}
}

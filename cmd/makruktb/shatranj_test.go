package main

import (
	"encoding/json"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/api"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/report"
)

// TestShatranjCommands: gen, verify, probe, line and check of a Shatranj
// table, named beside Makruk's in one directory, and the refusals.
func TestShatranjCommands(t *testing.T) {
	dir := t.TempDir()
	out, err := run(t, "gen", "--game", "shatranj", "--tables", dir, "KRvKQ")
	require.NoError(t, err, out)
	require.Contains(t, out, "KRvKQ.shatranj")
	require.NotContains(t, out, "count-draws", "Shatranj has no count")
	require.FileExists(t, filepath.Join(dir, "KRvKQ.shatranj.mtbm"))
	// The Makruk table of the same slots (KRvKM) beside it.
	_, err = run(t, "gen", "--tables", dir, "--dtb", "none", "KRvKM")
	require.NoError(t, err)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Subset(t, names, []string{"KRvKQ.shatranj.mtbm", "KRvKM.mtbm"})

	out, err = run(t, "verify", "--game", "shatranj", "--tables", dir)
	require.NoError(t, err, out)
	require.Contains(t, out, "KRvKQ.shatranj              ok  checksum and every value")

	const fen = "8/8/4k3/8/8/8/8/R3K2q w - - 0 1"
	out, err = run(t, "probe", "--game", "shatranj", "--tables", dir, fen)
	require.NoError(t, err, out)
	require.Contains(t, out, "KRvKQ  White to move\nWhite mates in 2 (3 plies) (win)")
	out, err = run(t, "line", "--game", "shatranj", "--tables", dir, "--every", "100", fen)
	require.NoError(t, err, out)
	require.Contains(t, out, "White mates in 2 (3 plies) (win)\n", "no count to name")
	require.Contains(t, out, "Kxg2    bare king")
	out, _ = run(t, "check", "--game", "shatranj", "--tables", dir, "8/8/8/8/8/3k4/8/K2R4 b")
	require.Contains(t, out, "Black is left with a bare king: White wins")
	out, _ = run(t, "check", "--game", "shatranj", "--tables", dir, "8/8/8/8/8/3k4/3R4/K7 b")
	require.Contains(t, out, "Draw: Black's bare king takes White's last piece, and both kings are bare")
	// White to move beside a bare Black king: the game is over, won
	// (issue 58.9), in check, probe and their JSON.
	const over = "8/8/4k3/8/8/8/8/R3K3 w - - 0 1"
	out, err = run(t, "check", "--game", "shatranj", "--tables", dir, over)
	require.NoError(t, err, out)
	require.Equal(t, "Black has a bare king: White wins (the game is over)\n", out)
	out, err = run(t, "probe", "--game", "shatranj", "--tables", dir, over)
	require.NoError(t, err, out)
	require.Equal(t, "KRvK  White to move\nBlack has a bare king: White wins (the game is over) (win)\n", out)
	out, err = run(t, "check", "--json", "--game", "shatranj", "--tables", dir, over)
	require.NoError(t, err, out)
	var over1 report.Check
	require.NoError(t, json.Unmarshal([]byte(out), &over1))
	require.Equal(t, "white-wins", over1.Result)
	require.Equal(t, "win", over1.WDL)
	out, _ = run(t, "check", "--game", "shatranj", "--tables", dir, fen)
	require.Contains(t, out, "White wins: mate in 2 moves (3 plies); shatranj has no count → WIN")
	out, err = run(t, "probe", "--game", "shatranj", "--tables", dir, "8/8/8/8/8/3k4/3R4/K7 b")
	require.NoError(t, err, out)
	require.Contains(t, out, "d3d2   draw", "the bare king takes the last piece: a draw")

	// The refusals.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"probe", "--tables", dir, fen}, `'q' on rank 1 is not a piece (K M S N R P`},
		{[]string{"probe", "--game", "shatranj", "--rules", "thai", "--tables", dir, fen}, `--rules "thai": shatranj has no counting rule`},
		{[]string{"probe", "--game", "chess", "--tables", dir, fen}, `--game: unknown game "chess" (makruk or shatranj)`},
		{[]string{"gen", "--game", "shatranj", "--tables", dir, "--dtb", "thai", "KRvKQ"}, "--dtb: shatranj has no counting rule"},
		{[]string{"gen", "--game", "shatranj", "--tables", dir, "KRvK"}, "KRvK has a bare king: in shatranj it is decided by the bare-king rule and has no table"},
		{[]string{"gen", "--game", "shatranj", "--tables", dir, "KSvKQ"}, `unknown piece 'S' (expected R B N Q)`},
		{[]string{"probe", "--game", "shatranj", "--tables", dir, "8/8/8/8/8/3k4/8/K2R4 w"}, "Black is in check but it is White's move"},
		{[]string{"probe", "--game", "shatranj", "--tables", dir, "8/8/4k3/8/8/8/8/R3K2b w"}, "table KRvKB.shatranj not found in"},
	} {
		out, err := run(t, c.args...)
		require.Error(t, err, "%v: %s", c.args, out)
		require.Contains(t, err.Error(), c.want, c.args)
	}
}

// TestShatranjStats: the full-board counts and the study counts of a
// Shatranj table, without the count's categories.
func TestShatranjStats(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--game", "shatranj", "--tables", dir, "KRvKQ")
	require.NoError(t, err)
	out, err := run(t, "stats", "--game", "shatranj", "--tables", dir, "KRvKQ")
	require.NoError(t, err, out)
	require.Contains(t, out, "Shatranj KRvKQ (full board, every legal placement counted once)")
	require.Contains(t, out, "8/8/8/8/2q5/8/2k5/KR6 w - - 0 1          mate in 20 moves (39 plies)")
	require.NotContains(t, out, "honour count")
	out, err = run(t, "stats", "--game", "shatranj", "--json", "--tables", dir, "KRvKQ")
	require.NoError(t, err, out)
	require.Contains(t, out, `"game": "shatranj"`)
	require.Contains(t, out, `"legal": 10780728`)

	out, err = run(t, "study", "--game", "shatranj", "--tables", dir, "--list", "1", "KRvKQ")
	require.NoError(t, err, out)
	require.Contains(t, out, "Shatranj KRvKQ (full board, every legal placement counted once; plain mate results)")
	require.Regexp(t, `wins with a single winning move +27,092 +1,664,440`, out)
	// The ferz takes the rook beside its king: White is left bare and
	// cannot take back, a win in one ply.
	require.Contains(t, out, "8/8/8/8/8/8/q7/KRk5 b - - 0 1            Qxb1, mate in 1 (1 ply)")
	out, err = run(t, "study", "--game", "shatranj", "--json", "--tables", dir, "KRvKQ")
	require.NoError(t, err, out)
	require.Contains(t, out, `"game": "shatranj"`)
	require.Contains(t, out, `"material": "KRvKQ"`)
	_, err = run(t, "study", "--game", "shatranj", "--rules", "thai", "--tables", dir, "KRvKQ")
	require.ErrorContains(t, err, `--rules "thai": shatranj has no counting rule`)
}

// TestShatranjPerft: perft --game shatranj counts as Fairy-Stockfish's
// shatranj does (a line of tb/testdata/perft-shatranj-fairy-stockfish.txt).
func TestShatranjPerft(t *testing.T) {
	out, err := run(t, "perft", "--game", "shatranj", "--depth", "3", "8/2n4k/2R5/2q5/K7/8/8/3B4 w - - 0 1")
	require.NoError(t, err, out)
	require.Equal(t, "2631\n", out)
	_, err = run(t, "perft", "--depth", "3", "8/2n4k/2R5/2q5/K7/8/8/3B4 w - - 0 1")
	require.ErrorContains(t, err, "not a piece", "a Makruk FEN has no ferz")
}

// TestShatranjReferences makes every four-piece Shatranj table in both
// formats: gen accepts each only byte for byte its reference checksum
// (data/checksums-v2.txt, data/checksums.txt).
func TestShatranjReferences(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the four-piece Shatranj set twice")
	}
	for _, format := range []string{"1", "2"} {
		dir := t.TempDir()
		out, err := run(t, "gen", "--game", "shatranj", "--format", format, "--tables", dir, "--max-pieces", "4")
		require.NoError(t, err, out)
		sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
		require.NoError(t, err)
		require.Len(t, strings.Fields(string(sums)), 20, "ten tables")
		catalogue, err := os.ReadFile(filepath.Join(dir, "catalogue.md"))
		require.NoError(t, err)
		require.NotRegexp(t, `\d{4}-\d{2}-\d{2} \(`, string(catalogue), "accepted by their reference, not by verifying")
	}
}

// TestShatranjServer: the API answers for a Shatranj table with
// ?game=shatranj, beside the Makruk tables of one directory, and refuses
// a count for a game without one.
func TestShatranjServer(t *testing.T) {
	ts := newShatranjServer(t)
	const fen = "8/8/4k3/8/8/8/8/R3K2q w - - 0 1"

	status, _, body := get(t, ts, fenQuery("/api/v1/probe", fen)+"&game=shatranj")
	require.Equal(t, 200, status, string(body))
	var doc report.Probe
	require.NoError(t, json.Unmarshal(body, &doc))
	require.Equal(t, "shatranj", doc.Game)
	require.Equal(t, "KRvKQ", doc.Material)
	require.Equal(t, 3, *doc.DTM)
	require.Equal(t, "e1f2", doc.Best)
	require.Equal(t, "none", doc.Count.Rules)

	status, _, body = get(t, ts, fenQuery("/api/v1/line", fen)+"&game=shatranj")
	require.Equal(t, 200, status, string(body))
	require.Contains(t, string(body), `"san": "Kxg2"`)

	status, _, body = get(t, ts, "/api/v1/stats/KRvKQ?game=shatranj")
	require.Equal(t, 200, status, string(body))
	require.Contains(t, string(body), `"legal": 10780728`)
	status, _, body = get(t, ts, "/api/v1/study/KRvKQ?game=shatranj")
	require.Equal(t, 200, status, string(body))
	require.Contains(t, string(body), `"game": "shatranj"`)
	status, _, body = get(t, ts, "/api/v1/random?game=shatranj&material=KRvKQ&seed=1")
	require.Equal(t, 200, status, string(body))
	require.Contains(t, string(body), `"material": "KRvKQ"`)

	// A Makruk probe of the same directory is unchanged: no game named.
	status, _, body = get(t, ts, fenQuery("/api/v1/probe", longestKRvK))
	require.Equal(t, 200, status, string(body))
	require.NotContains(t, string(body), `"game"`)

	for _, c := range []struct{ path, want string }{
		{fenQuery("/api/v1/probe", fen) + "&game=shatranj&rules=thai", `rules \"thai\": shatranj has no counting rule`},
		{fenQuery("/api/v1/probe", fen) + "&game=chess", `game \"chess\": makruk or shatranj`},
		{fenQuery("/api/v1/probe", fen), `'q' on rank 1 is not a piece`},
		{"/api/v1/heatmap/KRvKQ?game=shatranj", "heat maps: Makruk tables only for now"},
		{"/api/v1/stats/KRvKB?game=shatranj", "KRvKB.shatranj"},
	} {
		status, _, body := get(t, ts, c.path)
		require.GreaterOrEqual(t, status, 400, c.path)
		require.Less(t, status, 500, c.path)
		require.Contains(t, string(body), c.want, c.path)
	}
}

// newShatranjServer serves a directory with Shatranj's KRvKQ and Makruk's
// KRvK.
func newShatranjServer(t *testing.T) *httptest.Server {
	t.Helper()
	dir := t.TempDir()
	_, err := run(t, "gen", "--game", "shatranj", "--tables", dir, "KRvKQ")
	require.NoError(t, err)
	_, err = run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	ts := httptest.NewServer(api.NewServer(tables, 1<<20, log.New(io.Discard, "", 0)).Handler())
	t.Cleanup(func() { ts.Close(); tables.Close() })
	return ts
}

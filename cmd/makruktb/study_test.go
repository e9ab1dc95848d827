package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// study prints the counts, and its JSON has exactly the fields the issue
// names (issue 39); it refuses what it cannot count.
func TestStudy(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--dtb", "none", "--no-wdl", "KSvK")
	require.NoError(t, err)
	out, err := run(t, "study", "--tables", dir, "KSvK")
	require.NoError(t, err)
	require.Contains(t, out, "White to move draws, Black to move loses             12\n")
	require.Contains(t, out, "wins with a single winning move                          124               0\n")
	out, err = run(t, "study", "--tables", dir, "--json", "KvKS")
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, map[string]any{
		"material": "KSvK",
		"rules":    "none",
		"mutual_zugzwangs": map[string]any{
			"whoever_moves_loses":                     0.0,
			"white_to_move_loses_black_to_move_draws": 0.0,
			"white_to_move_draws_black_to_move_loses": 12.0,
		},
		"single_winning_move": map[string]any{"w": 124.0, "b": 0.0},
		"wins":                map[string]any{"w": 162.0, "b": 0.0},
	}, doc)
	epd := filepath.Join(t.TempDir(), "ksvk.epd")
	out, err = run(t, "study", "--tables", dir, "--list", "2", "--epd", epd, "KSvK")
	require.NoError(t, err)
	require.Contains(t, out, "\nWhite to move wins with a single winning move:\n")
	records, err := os.ReadFile(epd)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(records)), "\n")
	require.Len(t, lines, 4, "two single winning moves and two zugzwangs")
	require.Regexp(t, `^\S+ w - - dm \d+; bm [KS]\S+; c0 "KSvK single_winning_move_w";$`, lines[len(lines)-1])
	_, err = run(t, "study", "--tables", dir, "--epd", epd, "KSvK")
	require.ErrorContains(t, err, "give --list N")
	out, err = run(t, "study", "--tables", dir, "--rules", "thai", "--list", "1", "KSvK")
	require.NoError(t, err)
	require.Contains(t, out, "\nunder a fresh thai count\nwins inside the count ")
	require.Contains(t, out, "cursed wins short by fewer than 4 plies")
	out, err = run(t, "study", "--tables", dir, "--rules", "thai", "--json", "KSvK")
	require.NoError(t, err)
	require.Contains(t, out, `"rules": "thai"`)
	require.Contains(t, out, `"count_critical": {`)
	_, err = run(t, "study", "--tables", dir, "--rules", "thai", "--close", "0", "KSvK")
	require.ErrorContains(t, err, "--close 0")
	_, err = run(t, "study", "--tables", dir, "KRvK")
	require.ErrorContains(t, err, "table KRvK not found")
	_, err = run(t, "study", "--tables", dir)
	require.ErrorContains(t, err, "give one material")
}

// Under board's honour study judges by the material's DTB table, and says
// which one it needs when it is missing.
func TestStudyUnderBoardCount(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--dtb", "thai", "--no-wdl", "KRvKN")
	require.NoError(t, err)
	out, err := run(t, "study", "--tables", dir, "--rules", "thai", "--list", "1", "KRvKN")
	require.NoError(t, err)
	require.Contains(t, out, "wins inside the count                              3,970,316              32\n")
	require.Contains(t, out, "count-critical (one move keeps it)                 1,584,348              32\n")
	require.Contains(t, out, "cursed wins                                        1,240,604               0\n")
	require.Contains(t, out, "\nWhite to move wins inside the count with one move only:\n")
	_, err = run(t, "study", "--tables", dir, "--rules", "cambodian", "KRvKN")
	require.ErrorContains(t, err, "KRvKN.cambodian")
}

// stats --heatmap maps KRvK square by square (issue 39, item 2), as text,
// JSON, an SVG board and through the API.
func TestHeatmap(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--dtb", "none", "--no-wdl", "KRvK")
	require.NoError(t, err)
	svg := filepath.Join(t.TempDir(), "k.svg")
	out, err := run(t, "stats", "--tables", dir, "--heatmap", "k", "--svg", svg, "KRvK")
	require.NoError(t, err)
	require.Contains(t, out, "checkmates by the mated king's square\n  8    24     5     5     5     5     5     5    24\n")
	require.Contains(t, out, "longest mate, moves\n  8    12    14    14    14    14    14    14    12\n")
	board, err := os.ReadFile(svg)
	require.NoError(t, err)
	require.Equal(t, 64, strings.Count(string(board), `<rect class="heat"`))
	out, err = run(t, "stats", "--tables", dir, "--heatmap", "R", "--json", "KRvK")
	require.NoError(t, err)
	var h struct {
		Piece   string `json:"piece"`
		Squares []struct {
			Square    string `json:"square"`
			Positions uint64 `json:"positions"`
			Wins      uint64 `json:"wins"`
		} `json:"squares"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &h))
	require.Equal(t, "R", h.Piece)
	require.Len(t, h.Squares, 64)
	var total uint64
	for _, s := range h.Squares {
		total += s.Positions
	}
	require.Equal(t, uint64(175168), total, "every legal KRvK position with White to move, once")
	_, err = run(t, "stats", "--tables", dir, "--heatmap", "N", "KRvK")
	require.ErrorContains(t, err, `piece "N": give a piece of KRvK`)
}

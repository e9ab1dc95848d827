package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A row renders as the lines of the reference table data/tables.md.
func TestRowMarkdownMatchesReference(t *testing.T) {
	row := Row{
		Table: "KRvK", Pieces: 3, PerSide: 29568, Positions: 50015, LongestWhite: 16, LongestBlack: -1,
		Bytes: 14284, BitsPerPosition: 2.2847, Seconds: 0.04, CountDraws: "16.7%",
		SHA256: "66ea5bc1" + strings.Repeat("0", 56), Verified: "2026-11-29",
	}
	reference, err := os.ReadFile("../data/tables.md")
	require.NoError(t, err)
	require.Contains(t, string(reference), row.Markdown()+"\n")
}

// The JSON rows are the catalogue; the markdown is rendered from them,
// sorted by pieces and name.
func TestCatalogueRoundTrip(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, UpdateRow(dir, Row{Table: "KRRvK", Pieces: 4, LongestWhite: 7, LongestBlack: -1, SHA256: "aa"}))
	require.NoError(t, UpdateRow(dir, Row{Table: "KRvK", Pieces: 3, LongestWhite: 16, LongestBlack: -1, SHA256: "bb"}))
	rows, err := ReadCatalogue(dir)
	require.NoError(t, err)
	require.Len(t, rows, 2)
	require.Equal(t, 7, rows["KRRvK"].LongestWhite)
	md, err := os.ReadFile(filepath.Join(dir, CatalogueMarkdown))
	require.NoError(t, err)
	require.Less(t, strings.Index(string(md), "| KRvK |"), strings.Index(string(md), "| KRRvK |"), "3 pieces before 4")

	require.NoError(t, os.WriteFile(filepath.Join(dir, CatalogueFile), []byte("{not json"), 0o644))
	_, err = ReadCatalogue(dir)
	require.ErrorContains(t, err, CatalogueFile, "a broken catalogue is named")
}

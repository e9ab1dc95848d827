package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// The catalogue: one row per table generated in the directory, written by
// gen; stats refreshes its count-draw share and verify its verified mark.
// catalogue.json holds the rows for programs; catalogue.md is rendered
// from it for people, in the columns of the repository's reference table
// data/tables.md (edited by the developers who measure reference runs).

// The catalogue's files in the table directory.
const (
	CatalogueFile     = "catalogue.json"
	CatalogueMarkdown = "catalogue.md"
)

// Row is a table's entry in the catalogue.
type Row struct {
	Table     string `json:"table"` // "KRvKN" (DTM) or "KRvKN.thai" (DTB)
	Pieces    int    `json:"pieces"`
	PerSide   uint64 `json:"index_per_side"`
	Positions uint64 `json:"positions"` // legal canonical positions, both sides to move
	// LongestWhite and LongestBlack are the longest mate (DTB: goal) in
	// moves for that side to move, -1 when it never wins.
	LongestWhite    int     `json:"longest_white"`
	LongestBlack    int     `json:"longest_black"`
	Bytes           int64   `json:"file_bytes"`
	BitsPerPosition float64 `json:"bits_per_position"`
	Seconds         float64 `json:"seconds"`     // generation and writing
	CountDraws      string  `json:"count_draws"` // e.g. "24.2%", "0.0% +99.9% DTB", "no wins"
	SHA256          string  `json:"sha256"`      // of the file as generated
	// Verified is the day verify last passed the file of SHA256, e.g.
	// "2026-11-30"; "" when it has not.
	Verified string `json:"verified,omitempty"`
}

const catalogueHeader = `# Tables in this directory

Written by ` + "`makruktb gen`" + `, one row per table as last generated here.
Positions: legal canonical positions, both sides to move. Longest: longest
mate in moves for the side to move that wins, White (first-named side) / Black.
Thai count-draws: of all wins and losses (full board, both sides to move),
the share that a fresh thai count turns into draws (cursed wins, blessed
losses); with pieces on both sides it comes from the thai DTB table, and
"+N% DTB" is the share still waiting for it. Rows "MATERIAL.PROFILE" are the
board's-honour (DTB) tables: longest is the longest distance to the goal
(mate, or a capture of the last piece into a win inside the fresh count),
count-draws under that profile. Verified: the day ` + "`makruktb verify`" + ` last passed
the table (checksums and every value), with the first 8 hex digits of the
SHA-256 of the file it checked.

| material | pieces | index per side | positions | longest w/b | file bytes | bits/position | time (s) | thai count-draws | verified |
|---|---|---|---|---|---|---|---|---|---|
`

// moves writes a longest-mate cell: a number of moves, or "-".
func moves(n int) string {
	if n < 0 {
		return "-"
	}
	return fmt.Sprint(n)
}

// Markdown renders the row as a line of catalogue.md (and of data/tables.md).
func (r *Row) Markdown() string {
	verified := ""
	if r.Verified != "" && len(r.SHA256) >= 8 {
		verified = r.Verified + " (" + r.SHA256[:8] + ")"
	}
	return fmt.Sprintf("| %s | %d | %d | %d | %s/%s | %d | %.3f | %.1f | %s | %s |",
		r.Table, r.Pieces, r.PerSide, r.Positions, moves(r.LongestWhite), moves(r.LongestBlack),
		r.Bytes, r.BitsPerPosition, r.Seconds, r.CountDraws, verified)
}

// VerifiedAs reports whether the row says verify passed the file of SHA-256
// sum.
func (r *Row) VerifiedAs(sum string) bool {
	return r != nil && r.Verified != "" && r.SHA256 == sum
}

// UpdateRow replaces or adds a table's row. The verified mark stays if
// the old row's file is the new one: gen rewrites a table byte for byte,
// and a file that differs needs verifying anew.
func UpdateRow(dir string, row Row) error {
	return EditCatalogue(dir, func(rows map[string]*Row) {
		if old := rows[row.Table]; old.VerifiedAs(row.SHA256) {
			row.Verified = old.Verified
		}
		rows[row.Table] = &row
	})
}

// MarkVerified records in the catalogue of dir, if there is one, that
// table id, whose file has SHA-256 sum, passed verify today.
func MarkVerified(dir string, id probe.ID, sum string) error {
	if !fileExists(filepath.Join(dir, CatalogueFile)) {
		return nil
	}
	return EditCatalogue(dir, func(rows map[string]*Row) {
		if r, ok := rows[id.String()]; ok {
			r.SHA256, r.Verified = sum, time.Now().Format("2006-01-02")
		}
	})
}

// EditCatalogue rewrites the catalogue after edit has changed its rows
// (by table name), under the directory's lock: catalogue.json and, from
// it, catalogue.md, with the rows sorted by piece count and name.
func EditCatalogue(dir string, edit func(rows map[string]*Row)) error {
	unlock, err := Lock(dir)
	if err != nil {
		return err
	}
	defer unlock()
	rows, err := ReadCatalogue(dir)
	if err != nil {
		return err
	}
	edit(rows)
	list := make([]*Row, 0, len(rows))
	for _, r := range rows {
		list = append(list, r)
	}
	pieces := func(r *Row) int {
		material, _, _ := strings.Cut(r.Table, ".")
		m, _ := tb.ParseMaterial(material)
		return m.Pieces()
	}
	sort.Slice(list, func(i, j int) bool {
		if pi, pj := pieces(list[i]), pieces(list[j]); pi != pj {
			return pi < pj
		}
		return list[i].Table < list[j].Table
	})
	data, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteBytes(filepath.Join(dir, CatalogueFile), append(data, '\n')); err != nil {
		return err
	}
	var md strings.Builder
	md.WriteString(catalogueHeader)
	for _, r := range list {
		md.WriteString(r.Markdown() + "\n")
	}
	return atomicfile.WriteBytes(filepath.Join(dir, CatalogueMarkdown), []byte(md.String()))
}

// ReadCatalogue returns the rows of the catalogue of dir by table name;
// none if there is no catalogue yet.
func ReadCatalogue(dir string) (map[string]*Row, error) {
	rows := map[string]*Row{}
	path := filepath.Join(dir, CatalogueFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return rows, nil
	}
	if err != nil {
		return nil, err
	}
	var list []*Row
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, r := range list {
		rows[r.Table] = r
	}
	return rows, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/probe/atomicfile"
	"github.com/makruktb/makruktb/tb"
)

// The catalogue, catalogue.md in the table directory: one row per table
// generated there, written by gen; stats refreshes its count-draw cell and
// verify its verified cell. It records the user's own runs; the
// repository's reference table, data/tables.md, has the same columns and
// is edited by the developers who measure the reference runs.

// CatalogueFile is the table directory's catalogue, one row per table.
const CatalogueFile = "catalogue.md"

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

// The cells of a row, counted from 0 after its leading "|".
const (
	CountDrawsCell = 8
	VerifiedCell   = 9
	rowCells       = 10
)

// rowCell returns cell n of a row, trimmed ("" if the row is shorter).
func Cell(row string, n int) string {
	cells := strings.Split(strings.Trim(row, "|"), "|")
	if n >= len(cells) {
		return ""
	}
	return strings.TrimSpace(cells[n])
}

// setRowCell returns row with cell n set to text; a row written before
// the table had all its columns gets the missing cells, empty.
func SetCell(row string, n int, text string) string {
	cells := strings.Split(strings.Trim(row, "|"), "|")
	for len(cells) < rowCells {
		cells = append(cells, " ")
	}
	cells[n] = " " + text + " "
	return "|" + strings.Join(cells[:rowCells], "|") + "|"
}

// setCountDraws puts the count-draw cell into an existing row.
func SetCountDraws(row, text string) string { return SetCell(row, CountDrawsCell, text) }

// verifiedMark is the verified cell of a table whose file, of SHA-256 sum,
// passed verify on day.
func VerifiedMark(sum string, day time.Time) string {
	return day.Format("2006-01-02") + " (" + sum[:8] + ")"
}

// UpdateRow replaces or adds the row of table name in the catalogue. The
// verified mark stays if it names sum, the new file's checksum: gen
// rewrites a table byte for byte, and a file that differs needs verifying
// anew.
func UpdateRow(dir, name, row, sum string) error {
	return EditCatalogue(dir, func(rows map[string]string) {
		if old := rows[name]; VerifiedAs(old, sum) {
			row = SetCell(row, VerifiedCell, Cell(old, VerifiedCell))
		}
		rows[name] = row
	})
}

// markVerified records in the table of tables of dir, if there is one,
// that table id, whose file has SHA-256 sum, passed verify today.
func MarkVerified(dir string, id probe.ID, sum string) error {
	if !fileExists(filepath.Join(dir, CatalogueFile)) {
		return nil
	}
	return EditCatalogue(dir, func(rows map[string]string) {
		if row, ok := rows[id.String()]; ok {
			rows[id.String()] = SetCell(row, VerifiedCell, VerifiedMark(sum, time.Now()))
		}
	})
}

// editTableList rewrites tables.md after edit has changed its rows (keyed
// by material), sorted by piece count and name, under the directory's lock.
func EditCatalogue(dir string, edit func(rows map[string]string)) error {
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
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	pieces := func(row string) int {
		material, _, _ := strings.Cut(row, ".")
		m, _ := tb.ParseMaterial(material)
		return m.Pieces()
	}
	sort.Slice(names, func(i, j int) bool {
		if pi, pj := pieces(names[i]), pieces(names[j]); pi != pj {
			return pi < pj
		}
		return names[i] < names[j]
	})
	var b strings.Builder
	b.WriteString(catalogueHeader)
	for _, n := range names {
		b.WriteString(rows[n] + "\n")
	}
	return atomicfile.WriteBytes(filepath.Join(dir, CatalogueFile), []byte(b.String()))
}

// readTableList returns the rows of tables.md in dir by table name, with
// all their cells; none if there is no such file.
func ReadCatalogue(dir string) (map[string]string, error) {
	rows := map[string]string{}
	list, err := os.ReadFile(filepath.Join(dir, CatalogueFile))
	if errors.Is(err, fs.ErrNotExist) {
		return rows, nil
	}
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(list), "\n") {
		if strings.HasPrefix(line, "| K") {
			rows[Cell(line, 0)] = SetCell(line, VerifiedCell, Cell(line, VerifiedCell))
		}
	}
	return rows, nil
}

// verifiedAs reports whether a row's verified mark names the checksum sum.
func VerifiedAs(row, sum string) bool {
	return len(sum) >= 8 && strings.HasSuffix(Cell(row, VerifiedCell), "("+sum[:8]+")")
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

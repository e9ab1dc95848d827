package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/probe/atomicfile"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
)

// tableDir resolves the table directory: --tables, then $MAKRUKTB_PATH,
// then ./data.
func tableDir(flag string) string {
	if flag != "" {
		return flag
	}
	if env := os.Getenv("MAKRUKTB_PATH"); env != "" {
		return env
	}
	return "data"
}

// tablesHint is what an error about a missing table directory adds.
const tablesHint = "give the table directory with --tables DIR or $MAKRUKTB_PATH (default ./data, which make tables fills)"

// openTables opens the table directory for probing, saying where to
// point when it is not there.
func openTables(dir string) (*probe.Tables, error) {
	t, err := probe.Open(tableDir(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w; %s", err, tablesHint)
	}
	return t, err
}

// parseMaterialArg reads a material name and returns its canonical form.
func parseMaterialArg(name string) (tb.Material, error) {
	m, err := tb.ParseMaterial(name)
	if err != nil {
		return m, err
	}
	if m.HasPawns() {
		return m, fmt.Errorf("material %s has pawns: the tables are pawnless", m)
	}
	m, _ = m.Canonical()
	return m, nil
}

// selectMaterials returns the materials named by --max-pieces N (every
// pawnless table up to N pieces) or by the arguments, canonical.
func selectMaterials(maxPieces int, args []string) ([]tb.Material, error) {
	var out []tb.Material
	switch {
	case maxPieces > 0 && len(args) > 0:
		return nil, errors.New("give either --max-pieces or materials, not both")
	case maxPieces < 0 || maxPieces > index.MaxPieces:
		return nil, fmt.Errorf("--max-pieces %d: tables have 3 to %d pieces", maxPieces, index.MaxPieces)
	case maxPieces > 0 && maxPieces < 3:
		return nil, fmt.Errorf("--max-pieces %d: the smallest tables have 3 pieces (KvK is a draw and has none)", maxPieces)
	case maxPieces > 0:
		for _, m := range tb.Pawnless(maxPieces) {
			if m.Pieces() > 2 {
				out = append(out, m)
			}
		}
	case len(args) > 0:
		for _, a := range args {
			m, err := parseMaterialArg(a)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
	default:
		return nil, errors.New("give --max-pieces N or materials such as KRvK")
	}
	return out, nil
}

// tablesInDir lists the materials of the DTM tables in dir.
func tablesInDir(dir string) ([]tb.Material, error) {
	found, err := filepath.Glob(filepath.Join(dir, "*"+probe.DTM.Extension()))
	if err != nil {
		return nil, err
	}
	var out []tb.Material
	for _, f := range found {
		name := strings.TrimSuffix(filepath.Base(f), probe.DTM.Extension())
		m, err := parseMaterialArg(name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no tables in %s; %s", dir, tablesHint)
	}
	return out, nil
}

// tableID names a table file: the DTM table of a material (rules "") or
// its DTB table under a rule profile.
type tableID struct {
	material tb.Material
	rules    string
}

func dtmID(m tb.Material) tableID { return tableID{material: m} }

// fileName is e.g. "KRvKN.mtbm" or "KRvKN.thai.mtbb".
func (id tableID) fileName() string {
	if id.rules == "" {
		return probe.FileName(id.material, probe.DTM)
	}
	return probe.BoardFileName(id.material, id.rules)
}

// String is e.g. "KRvKN" or "KRvKN.thai" (the row names of tables.md).
func (id tableID) String() string {
	if id.rules == "" {
		return id.material.String()
	}
	return id.material.String() + "." + id.rules
}

func (id tableID) path(dir string) string { return filepath.Join(dir, id.fileName()) }

// tablePath returns the DTM file of m in dir.
func tablePath(dir string, m tb.Material) string { return dtmID(m).path(dir) }

// loadTable reads a whole DTM table into memory.
func loadTable(dir string, m tb.Material) (*retro.Table, error) { return loadTableID(dir, dtmID(m)) }

// loadTableID reads a whole table into memory.
func loadTableID(dir string, id tableID) (*retro.Table, error) {
	f, err := probe.OpenFile(id.path(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &probe.MissingError{Material: id.String(), Dir: dir}
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.Header.Material != id.material || f.Header.Rules != id.rules {
		return nil, &probe.CorruptError{File: id.path(dir), Reason: fmt.Sprintf("holds the %s table of %s (rules %q)", f.Header.Metric, f.Header.Material, f.Header.Rules)}
	}
	vals, err := f.LoadAll()
	if err != nil {
		return nil, err
	}
	return &retro.Table{Space: f.Space, Values: vals}, nil
}

// tableCache loads tables from a directory on demand and keeps the small
// ones (fewer than keepBelow pieces) for later look-ups.
type tableCache struct {
	dir       string
	keepBelow int
	mu        sync.Mutex
	tables    map[tableID]*retro.Table
}

func newTableCache(dir string, keepBelow int) *tableCache {
	return &tableCache{dir: dir, keepBelow: keepBelow, tables: map[tableID]*retro.Table{}}
}

// get returns the DTM table of m (a retro.Source).
func (c *tableCache) get(m tb.Material) (*retro.Table, error) { return c.load(dtmID(m)) }

// board returns the retro.Source of the DTB tables of a rule profile.
func (c *tableCache) board(rules string) retro.Source {
	return func(m tb.Material) (*retro.Table, error) { return c.load(tableID{m, rules}) }
}

func (c *tableCache) load(id tableID) (*retro.Table, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t, ok := c.tables[id]; ok {
		return t, nil
	}
	t, err := loadTableID(c.dir, id)
	if err != nil {
		return nil, err
	}
	if id.material.Pieces() < c.keepBelow {
		c.tables[id] = t
	}
	return t, nil
}

func (c *tableCache) put(id tableID, t *retro.Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id.material.Pieces() < c.keepBelow {
		c.tables[id] = t
	}
}

// checksumFile is the table directory's own record of the checksums of
// the tables generated there, in sha256sum's format (sha256sum -c
// SHA256SUMS checks the files). The repository's reference checksums,
// data/checksums.txt, are compiled in (package data): a user's generation
// never rewrites them.
const checksumFile = "SHA256SUMS"

// referenceChecksums are the SHA-256 every generation must reproduce.
var referenceChecksums = sync.OnceValue(data.Checksums)

// referenceFile names the reference checksums in messages.
const referenceFile = "the reference data/checksums.txt"

// fileSHA256 returns the hex SHA-256 of a file.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// readChecksums reads "sha256  file" lines; a missing file is empty.
func readChecksums(dir string) (map[string]string, error) {
	sums := map[string]string{}
	f, err := os.Open(filepath.Join(dir, checksumFile))
	if errors.Is(err, fs.ErrNotExist) {
		return sums, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 2 {
			sums[fields[1]] = fields[0]
		}
	}
	return sums, sc.Err()
}

// writeChecksums writes the list atomically, sorted by file name.
func writeChecksums(dir string, sums map[string]string) error {
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[n], n)
	}
	return atomicfile.WriteBytes(filepath.Join(dir, checksumFile), []byte(b.String()))
}

package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
)

// StatsDir is the subdirectory of a table directory that keeps the
// statistics of its tables: stats reads them back in milliseconds where
// computing them reads each table whole and derives the side a version-2
// file does not store (KRRvKN: about 16 s on two cores). gen writes them
// as it makes the tables (it counts them anyway, for the catalogue's
// count-draw share); stats writes what it had to compute.
//
// One JSON file per table, named after it ("KRRvKN.mtbm.json",
// "KRRvKN.thai.mtbb.json"): a DTM table's retro.Stats, a DTB table's
// board's-honour counts under its profile (retro.BoardCounts). Each names
// the files it was computed from — the DTM file, and the DTB file for the
// board's-honour counts — with their SHA-256, and is used only while those
// files are those bytes: a table made again, converted or damaged is
// counted again. Hashing the files costs a few milliseconds a megabyte.
const StatsDir = ".stats"

// statsVersion is raised when what the statistics count changes, so that
// older records are counted again rather than read.
const statsVersion = 1

// statsRecord is one file of StatsDir.
type statsRecord struct {
	Version int               `json:"version"`
	Files   map[string]string `json:"files"` // file name → hex SHA-256
	// One of the two, by the table's metric.
	Stats  *retro.Stats                `json:"stats,omitempty"`
	Counts map[string]retro.CountStats `json:"counts,omitempty"`
}

// SaveStats records st, the statistics of the DTM table id in dir.
func SaveStats(dir string, id probe.ID, st *retro.Stats) error {
	return saveStats(dir, id, []probe.ID{id}, statsRecord{Stats: st})
}

// LoadStats returns the statistics recorded for the DTM table id in dir,
// or nil when there are none or the file is no longer what they were
// computed from.
func LoadStats(dir string, id probe.ID) (*retro.Stats, error) {
	var r statsRecord
	ok, err := loadStats(dir, id, []probe.ID{id}, &r)
	if !ok || r.Stats == nil {
		return nil, err
	}
	return r.Stats, nil
}

// SaveBoardCounts records counts, the board's-honour counts of the DTB
// table id in dir (with its material's DTM table) under id's profile.
func SaveBoardCounts(dir string, id probe.ID, counts map[string]retro.CountStats) error {
	return saveStats(dir, id, []probe.ID{probe.DTMID(id.Material), id}, statsRecord{Counts: counts})
}

// LoadBoardCounts returns the board's-honour counts recorded for the DTB
// table id in dir, or nil when there are none or its files are no longer
// what they were computed from.
func LoadBoardCounts(dir string, id probe.ID) (map[string]retro.CountStats, error) {
	var r statsRecord
	ok, err := loadStats(dir, id, []probe.ID{probe.DTMID(id.Material), id}, &r)
	if !ok || r.Counts == nil {
		return nil, err
	}
	return r.Counts, nil
}

// statsPath is the record of table id in dir.
func statsPath(dir string, id probe.ID) string {
	return filepath.Join(dir, StatsDir, id.FileName()+".json")
}

// sumsOf returns the SHA-256 of the files of tables in dir.
func sumsOf(dir string, tables []probe.ID) (map[string]string, error) {
	sums := map[string]string{}
	for _, t := range tables {
		sum, err := FileSHA256(t.Path(dir))
		if err != nil {
			return nil, err
		}
		sums[t.FileName()] = sum
	}
	return sums, nil
}

func saveStats(dir string, id probe.ID, from []probe.ID, r statsRecord) error {
	sums, err := sumsOf(dir, from)
	if err != nil {
		return fmt.Errorf("statistics of %s: %w", id, err)
	}
	r.Version, r.Files = statsVersion, sums
	doc, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("statistics of %s: %w", id, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, StatsDir), 0o777); err != nil {
		return err
	}
	return atomicfile.WriteBytes(statsPath(dir, id), append(doc, '\n'))
}

// loadStats reads the record of id into r and reports whether it holds
// for the files of tables from as they are now. A record that cannot be
// read or parsed is not used (it is counted again and rewritten); an error
// is returned only when the table files themselves cannot be read.
func loadStats(dir string, id probe.ID, from []probe.ID, r *statsRecord) (bool, error) {
	doc, err := os.ReadFile(statsPath(dir, id))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil || json.Unmarshal(doc, r) != nil || r.Version != statsVersion || len(r.Files) != len(from) {
		return false, nil
	}
	sums, err := sumsOf(dir, from)
	if err != nil {
		return false, fmt.Errorf("statistics of %s: %w", id, err)
	}
	for name, sum := range sums {
		if r.Files[name] != sum {
			return false, nil
		}
	}
	return true, nil
}

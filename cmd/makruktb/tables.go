package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
)

// tablesHint is what an error about a missing table directory adds.
const tablesHint = "give the table directory with --tables DIR or $MAKRUKTB_PATH (default ./data, which make tables fills)"

// openTables opens the table directory for probing, saying where to
// point when it is not there.
func openTables(dir string) (*probe.Tables, error) {
	t, err := probe.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w; %s", err, tablesHint)
	}
	return t, err
}

// tablesIn lists the materials of the DTM tables in dir, saying where to
// point when there are none.
func tablesIn(dir string) ([]tb.Material, error) {
	d, err := store.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	materials := d.Materials()
	if len(materials) == 0 {
		return nil, fmt.Errorf("no tables in %s; %s", dir, tablesHint)
	}
	return materials, nil
}

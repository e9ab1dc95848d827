package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
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

// selectMaterials returns the materials named by --max-pieces N (every
// pawnless table up to N pieces) or by the arguments, canonical.
func selectMaterials(maxPieces int, args []string) ([]tb.Material, error) {
	return selectMaterialsIn(tb.Makruk, maxPieces, args)
}

// selectMaterialsIn is selectMaterials for the tables of game g: its
// letters, and with --max-pieces only the materials g has tables for.
func selectMaterialsIn(g tb.Game, maxPieces int, args []string) ([]tb.Material, error) {
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
			if m.Pieces() > 2 && retro.SupportedIn(g, m) == nil {
				out = append(out, m)
			}
		}
	case len(args) > 0:
		for _, a := range args {
			m, err := g.ParseTableMaterial(a)
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

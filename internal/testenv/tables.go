// Package testenv gives tests what they share: small tables generated
// for them, and the real Fairy-Stockfish.
package testenv

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

var (
	mu    sync.Mutex
	dir   string
	built = map[tb.Material]*retro.Table{}
)

// Tables generates the named tables for tests — DTM with their
// sub-tables, and thai and cambodian DTB where both sides have pieces —
// into a directory shared by the test binary (each table once), and
// returns it. Remove it with Cleanup when the tests end.
func Tables(t testing.TB, names ...string) string {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if dir == "" {
		d, err := os.MkdirTemp("", "makruktb-testtables")
		if err != nil {
			t.Fatal(err)
		}
		dir = d
	}
	for _, name := range names {
		m, err := tb.ParseMaterial(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := build(m); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// OpenTables is Tables, opened for probing (closed when the test ends).
func OpenTables(t testing.TB, names ...string) *probe.Tables {
	t.Helper()
	tables, err := probe.Open(Tables(t, names...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tables.Close() })
	return tables
}

// Cleanup removes the directory (call it from TestMain).
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir)
	}
}

func build(target tb.Material) error {
	ctx := context.Background()
	dtm := func(m tb.Material) (*retro.Table, error) { return built[m], nil }
	none := func(tb.Material) (*retro.Table, error) { return nil, nil }
	for _, m := range retro.Dependencies(target) {
		if built[m] != nil {
			continue
		}
		table, err := retro.Generate(ctx, m, dtm, retro.Options{})
		if err != nil {
			return err
		}
		if err := probe.WriteFile(probe.DTMID(m).Path(dir), table.Space, probe.DTM, "", table.Values); err != nil {
			return err
		}
		built[m] = table
		if !honour.HasBoardHonour(m) {
			continue
		}
		for _, r := range []honour.Rules{honour.ThaiRules, honour.CambodianRules} {
			board, err := retro.GenerateDTB(ctx, m, &r, dtm, none, retro.Options{})
			if err != nil {
				return err
			}
			if err := probe.WriteFile(probe.ID{Material: m, Rules: r.Name}.Path(dir), board.Space, probe.DTB, r.Name, board.Values); err != nil {
				return err
			}
		}
	}
	return nil
}

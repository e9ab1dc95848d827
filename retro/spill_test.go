package retro

import (
	"context"
	"os"
	"testing"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
	"github.com/stretchr/testify/require"
)

// Out of core, the tables come out the same, DTM and DTB, with and
// without the full symmetry, with positions decided by their moves; and no
// scratch file is left behind.
func TestOutOfCoreSameValues(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"KRvKN", "KSvKM", "KRRvK"} {
		want := solve(t, name)
		got, err := Generate(context.Background(), tb.MustParseMaterial(name), shared.get, Options{Scratch: dir})
		require.NoError(t, err)
		require.True(t, got.OutOfCore())
		for side := range got.Values {
			require.Equal(t, want.Values[side].All(), got.Values[side].All(), name)
		}
		require.NoError(t, got.Close())
		require.False(t, got.OutOfCore())
	}
	m := tb.MustParseMaterial("KMvKM")
	wantDTB := solveDTB(t, "KMvKM", &honour.ThaiRules)
	dtb := func(m tb.Material) (*Table, error) { return solveDTB(t, m.String(), &honour.ThaiRules), nil }
	defer func(limit int) { counterLimit = limit }(counterLimit)
	counterLimit = 2 // every position with more than one move decided by its moves
	// The draws read a king pair at a time, as from a table file.
	draws := rangeOnly{solve(t, "KMvKM")}
	got, err := GenerateDTB(context.Background(), m, &honour.ThaiRules, shared.get, dtb, Options{Scratch: dir, Threads: 2, Draws: draws})
	require.NoError(t, err)
	for side := range got.Values {
		require.Equal(t, wantDTB.Values[side].All(), got.Values[side].All(), "KMvKM.thai")
	}
	require.NoError(t, got.Close())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries, "scratch files are unlinked as soon as made")
}

// A scratch directory without room is refused before any work.
func TestOutOfCoreNeedsRoom(t *testing.T) {
	_, err := Generate(context.Background(), tb.MustParseMaterial("KRvK"), shared.get, Options{Scratch: "/nonexistent/scratch"})
	require.ErrorContains(t, err, "scratch directory")
}

// The window of a pass visits every side and king pair once, lets every
// slice go once in each phase that touches it, and holds a small part of
// the table at a time.
func TestWindow(t *testing.T) {
	for _, name := range []string{"KRvK", "KSvK", "KSNvKSN"} {
		space, err := index.New(tb.MustParseMaterial(name))
		require.NoError(t, err)
		n := space.KingPairs()
		for _, neighbours := range []bool{false, true} {
			w := newWindow(space, neighbours)
			require.Len(t, w.units, 2*n)
			seen, released := map[slice]bool{}, map[[2]slice]bool{}
			for u, s := range w.units {
				require.False(t, seen[s], "%s unit %d repeats %v", name, u, s)
				seen[s] = true
				for _, r := range w.release[u] {
					phase := slice{side: s.side}
					require.False(t, released[[2]slice{phase, r}], "%s releases %v twice in a phase", name, r)
					released[[2]slice{phase, r}] = true
				}
			}
			// Each phase lets go its own frontier slices, and with
			// neighbours the other side's too.
			want := 2 * n
			if neighbours {
				want = 4 * n
			}
			require.Len(t, released, want)
			if !neighbours {
				require.Equal(t, 1, w.peak)
				continue
			}
			// Under the eight symmetries a king step that leaves the
			// canonical region moves the other king far away.
			share := 4
			if !space.FullSymmetry() {
				share = 40
			}
			require.Less(t, w.peak, 2*n/share, "%s holds %d of %d slices", name, w.peak, 2*n)
		}
	}
}

// rangeOnly hides a Table behind RangeTable, as a table file is.
type rangeOnly struct{ t *Table }

func (r rangeOnly) Range(side tb.Color, lo, hi uint64, dst []value.Value) ([]value.Value, error) {
	return r.t.Range(side, lo, hi, dst)
}

func (r rangeOnly) Material() tb.Material { return r.t.Material() }

// Two workers out of core release and fetch slices concurrently (run
// under the race detector by make race).
func TestOutOfCoreTwoWorkers(t *testing.T) {
	want := solve(t, "KRvKN")
	got, err := Generate(context.Background(), tb.MustParseMaterial("KRvKN"), shared.get, Options{Scratch: t.TempDir(), Threads: 2})
	require.NoError(t, err)
	defer got.Close()
	for side := range got.Values {
		require.Equal(t, want.Values[side].All(), got.Values[side].All())
	}
}

// A table loaded out of core reads as the one it came from, values beyond
// a byte included, and verifies.
func TestLoadOutOfCore(t *testing.T) {
	table := solve(t, "KRvKN")
	got, err := LoadOutOfCore(context.Background(), rangeOnly{table}, table.Space, t.TempDir(), Options{Threads: 2})
	require.NoError(t, err)
	for side := range got.Values {
		require.Equal(t, table.Values[side].All(), got.Values[side].All())
	}
	require.NoError(t, Verify(context.Background(), got, shared.get, Options{}))
	require.NoError(t, got.Close())

	space, err := index.New(tb.MustParseMaterial("KRvK"))
	require.NoError(t, err)
	var wide Table
	wide.Space = space
	for side := range wide.Values {
		vals := make([]value.Value, space.Size())
		for i := range vals {
			vals[i] = value.Value(i*7+side) % 600
		}
		wide.Values[side] = value.ArrayOf(vals)
	}
	got, err = LoadOutOfCore(context.Background(), rangeOnly{&wide}, space, t.TempDir(), Options{})
	require.NoError(t, err)
	defer got.Close()
	for side := range got.Values {
		require.Equal(t, wide.Values[side].All(), got.Values[side].All())
	}
	_, err = LoadOutOfCore(context.Background(), rangeOnly{&wide}, table.Space, t.TempDir(), Options{})
	require.ErrorContains(t, err, "index of KRvKN given for a table of KRvK")
}

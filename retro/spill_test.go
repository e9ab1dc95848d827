package retro

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/parallel"
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
				require.Equal(t, maxLead, w.peak) // the units at work, one slice each
				continue
			}
			// Under the eight symmetries a king step that leaves the
			// canonical region moves the other king far away.
			share := 3
			if !space.FullSymmetry() {
				share = 40
			}
			t.Logf("%s holds %d of %d slices", name, w.peak, 2*n)
			require.Less(t, w.peak, 2*n/share, "%s holds %d of %d slices", name, w.peak, 2*n)
		}
	}
}

// A worker held up on the lowest unit holds the others back within
// maxLead units, and every slice still goes once, when its last unit and
// every unit below are done.
func TestReleaserHoldsBackTheLead(t *testing.T) {
	space, err := index.New(tb.MustParseMaterial("KSvK"))
	require.NoError(t, err)
	w := newWindow(space, true)
	var mu sync.Mutex
	dropped := map[slice]int{}
	r := newReleaser(w, func(s slice) { mu.Lock(); dropped[s]++; mu.Unlock() })
	slow := make(chan struct{})
	var highest int64
	errc := make(chan error, 1)
	go func() {
		errc <- parallel.For(context.Background(), int64(len(w.units)), 3, func(u int64) error {
			r.start(int(u))
			if u == 0 {
				<-slow
			} else {
				mu.Lock()
				highest = max(highest, u)
				mu.Unlock()
			}
			r.finished(int(u))
			return nil
		}, nil)
	}()
	require.Eventually(t, func() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.waiting > 0 }, 5*time.Second, time.Millisecond)
	mu.Lock()
	require.Less(t, highest, int64(maxLead), "a unit ran %d ahead of the lowest one at work", highest)
	require.Empty(t, dropped, "slices went before the lowest unit was done")
	mu.Unlock()
	close(slow)
	require.NoError(t, <-errc)
	want := map[slice]int{}
	for u := range w.units {
		for _, s := range w.release[u] {
			want[s]++
		}
	}
	require.Equal(t, want, dropped)
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

package retro

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// memorySource solves sub-tables on demand and keeps them in memory.
type memorySource struct {
	mu     sync.Mutex
	tables map[tb.Material]*Table
}

var shared = &memorySource{tables: map[tb.Material]*Table{}}

func (s *memorySource) get(m tb.Material) (*Table, error) {
	s.mu.Lock()
	t, ok := s.tables[m]
	s.mu.Unlock()
	if ok {
		return t, nil
	}
	t, err := Generate(context.Background(), m, s.get, Options{})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.tables[m] = t
	s.mu.Unlock()
	return t, nil
}

func solve(t testing.TB, name string) *Table {
	table, err := shared.get(tb.MustParseMaterial(name))
	require.NoError(t, err)
	return table
}

func TestKnownChessResults(t *testing.T) {
	// KRvK: the rook side mates in at most 16 moves (31 plies).
	krk := solve(t, "KRvK")
	require.Equal(t, 31, longestWin(krk, tb.White))
	require.Equal(t, -1, longestWin(krk, tb.Black))
	require.Equal(t, 32, longestLoss(krk, tb.Black))
	// KNNvK: no forced win. The bare king is never forced into mate (its
	// only losses are positions already mated); the knights win only where
	// the defender has already walked into a mate in one.
	knnk := solve(t, "KNNvK")
	require.Equal(t, 0, longestLoss(knnk, tb.Black))
	require.Equal(t, 1, longestWin(knnk, tb.White))
}

func TestKRvKN(t *testing.T) {
	if testing.Short() {
		t.Skip("solves KRvKN")
	}
	// The rook side mates in at most 40 moves (79 plies).
	require.Equal(t, 79, longestWin(solve(t, "KRvKN"), tb.White))
}

// longestWin returns the longest win in plies of a side to move, -1 if
// it never wins.
func longestWin(table *Table, side tb.Color) int {
	_, longest := table.Census(side)
	return longest
}

func longestLoss(table *Table, side tb.Color) int {
	best := -1
	for _, v := range table.Values[side].All() {
		if v.IsLoss() && v.Plies() > best {
			best = v.Plies()
		}
	}
	return best
}

func TestMatePositions(t *testing.T) {
	krk := solve(t, "KRvK")
	for _, tc := range []struct {
		fen  string
		want value.Value
	}{
		{"k7/8/1K6/8/8/8/8/7R w - - 0 1", value.Mate(1)},
		{"R1k5/8/2K5/8/8/8/8/8 b - - 0 1", value.Mate(0)},
		{"k6R/8/1K6/8/8/8/8/8 b - - 0 1", value.Mate(0)},
	} {
		t.Run(tc.fen, func(t *testing.T) {
			p, err := tb.ParseFEN(tc.fen)
			require.NoError(t, err)
			if tc.want == value.Mate(0) {
				require.True(t, p.IsCheckmate(), "not mate")
			}
			i, ok := krk.Space.Index(&p)
			require.True(t, ok)
			require.Equal(t, tc.want, krk.Values[p.Side].At(i))
		})
	}
}

// TestVerifyAllSmall solves and verifies every table up to four pieces.
func TestVerifyAllSmall(t *testing.T) {
	max := 4
	if testing.Short() {
		max = 3
	}
	for _, m := range tb.Pawnless(max) {
		if m.Pieces() < 3 {
			continue
		}
		table := solve(t, m.String())
		require.NoError(t, Verify(context.Background(), table, shared.get, Options{}), m.String())
	}
}

// TestVerifyCatchesCorruption: a changed value is reported.
func TestVerifyCatchesCorruption(t *testing.T) {
	orig := solve(t, "KRvK")
	table := &Table{Space: orig.Space}
	var vals [2][]value.Value
	for side := range table.Values {
		vals[side] = orig.Values[side].All()
	}
	p, err := tb.ParseFEN("k7/8/1K6/8/8/8/8/7R w - - 0 1")
	require.NoError(t, err)
	i, _ := table.Space.Index(&p)
	vals[tb.White][i] = value.Mate(3)
	for side := range vals {
		table.Values[side] = value.ArrayOf(vals[side])
	}
	err = Verify(context.Background(), table, shared.get, Options{})
	var mm *MismatchError
	require.ErrorAs(t, err, &mm)
	require.Equal(t, value.Mate(3), mm.Stored)
	require.GreaterOrEqual(t, mm.Count, int64(1))
}

// What the generator cannot do is refused up front, with the reason and
// the table's name once; so is a thread count out of range.
func TestRefusals(t *testing.T) {
	for name, msg := range map[string]string{
		"KvK":      "KvK is a draw and has no table",
		"KRPvK":    "KRPvK has pawns",
		"KRRRRRvK": "KRRRRRvK has 7 pieces: the generator supports at most 6",
		"KvKR":     "KvKR is not canonical: its table is KRvK",
	} {
		m := tb.MustParseMaterial(name)
		require.ErrorContains(t, Supported(tb.Makruk, m), msg, name)
		_, err := Generate(context.Background(), m, shared.get, Options{})
		require.EqualError(t, err, "generate "+name+": "+Supported(tb.Makruk, m).Error(), "the name once, no work done")
	}
	require.NoError(t, Supported(tb.Makruk, tb.MustParseMaterial("KRRRNvK")))
	require.NoError(t, Supported(tb.Makruk, tb.MustParseMaterial("KRRRRvK")), "no limit on the moves of a position")
	for _, threads := range []int{-1, MaxThreads + 1, 99999999999} {
		_, err := Generate(context.Background(), tb.MustParseMaterial("KRvK"), shared.get, Options{Threads: threads})
		require.ErrorContains(t, err, "give 1 to 256, or 0 for every core")
		_, err = ComputeStats(context.Background(), solve(t, "KRvK"), Options{Threads: threads})
		require.ErrorContains(t, err, "give 1 to 256, or 0 for every core")
	}
}

// The estimates agree with what generating measured (KRSvKN, KRRvKN) and
// with the memory model of the byte states: KRNvKRN's 7.75 G indices per
// side fit 24 GB.
func TestEstimates(t *testing.T) {
	for _, c := range []struct {
		material string
		lo, hi   int64 // bytes
	}{
		{"KRSvKN", 1.1e9, 1.4e9},
		{"KRRvKN", 0.12e9, 0.25e9},
		{"KRNvKRN", 17e9, 20e9},
	} {
		t.Run(c.material, func(t *testing.T) {
			e, err := EstimateTable(tb.Makruk, tb.MustParseMaterial(c.material), false)
			require.NoError(t, err)
			require.GreaterOrEqual(t, e.Memory, c.lo, c.material)
			require.LessOrEqual(t, e.Memory, c.hi, c.material)
		})
	}
	// Out of core: a window of the state, the presence bits and the
	// sub-tables; the largest six-piece tables then fit in a few GiB.
	for _, c := range []struct {
		material string
		hi       int64
	}{{"KRSvKN", 256 << 20}, {"KSNvKSN", 6 << 30}} {
		t.Run(c.material, func(t *testing.T) {
			e, err := EstimateTable(tb.Makruk, tb.MustParseMaterial(c.material), false)
			require.NoError(t, err)
			require.Less(t, e.OutOfCoreMemory, c.hi, c.material)
			require.Less(t, e.OutOfCoreMemory, e.Memory/4, c.material)
			require.Equal(t, 2*int64(e.Indices+(e.Indices+63)/64*8), e.Scratch, c.material)
		})
	}
	dtm, err := EstimateTable(tb.Makruk, tb.MustParseMaterial("KRvKN"), false)
	require.NoError(t, err)
	dtb, err := EstimateTable(tb.Makruk, tb.MustParseMaterial("KRvKN"), true)
	require.NoError(t, err)
	require.Equal(t, dtm.Memory, dtb.Memory, "DTB lets the table of its draws go, and its summary reads DTM by ranges")
}

// Positions with more moves than a counter holds are decided by generating
// their moves (KRRRRvK's rooks have up to 64). With the counter's limit
// lowered to one move, nearly every position of both sides goes that way,
// DTB included, and the tables come out the same.
func TestDecidedByMoves(t *testing.T) {
	want := map[string]*Table{"KRvKN": solve(t, "KRvKN"), "KMvKM": solve(t, "KMvKM")}
	wantDTB := solveDTB(t, "KMvKM", &honour.ThaiRules)
	defer func(limit int) { counterLimit = limit }(counterLimit)
	counterLimit = 2
	for name, table := range want {
		got, err := Generate(context.Background(), tb.MustParseMaterial(name), shared.get, Options{})
		require.NoError(t, err)
		for side := range got.Values {
			require.Equal(t, table.Values[side].All(), got.Values[side].All(), name)
		}
	}
	m := tb.MustParseMaterial("KMvKM")
	dtb := func(m tb.Material) (*Table, error) { return solveDTB(t, m.String(), &honour.ThaiRules), nil }
	got, err := GenerateDTB(context.Background(), m, &honour.ThaiRules, shared.get, dtb, Options{})
	require.NoError(t, err)
	for side := range got.Values {
		require.Equal(t, wantDTB.Values[side].All(), got.Values[side].All(), "KMvKM.thai")
	}
}

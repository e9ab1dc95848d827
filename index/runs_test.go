package index

import (
	"math/rand/v2"
	"testing"

	"github.com/makruktb/makruktb/tb"
	"github.com/stretchr/testify/require"
)

// TestKingStepRun: a king step followed for a whole run lands every lane
// where the full encoding puts the position, and is refused only where the
// new king pair is Tied.
func TestKingStepRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range []string{"KRvK", "KRRvKN", "KRSvKN", "KNvKM", "KSMvKM"} {
		s, err := New(tb.MustParseMaterial(name))
		require.NoError(t, err)
		_, _, ok := s.LanePiece()
		require.True(t, ok, name)
		tested := 0
		for tested < 300 {
			r := uint64(rng.Int64N(int64(s.Size()/64))) * 64
			k := s.KingPairOf(r)
			prefix, ok := s.RunPrefix(r, tb.White)
			if !ok || s.Tied(k) {
				continue
			}
			for c := tb.White; c <= tb.Black; c++ {
				from := prefix.KingSquare(c)
				for to := tb.Attacks(tb.King, c, from, 0) &^ prefix.Occupied(); to != 0; {
					sq := to.PopFirst()
					moved := prefix
					moved.Remove(from)
					moved.Put(c, tb.King, sq)
					if tb.Attacks(tb.King, c, sq, 0).Has(moved.KingSquare(c.Other())) {
						continue // kings side by side: no position
					}
					run, kj, lanes, ok := s.KingStepRun(r, k, &prefix, c, sq)
					requireRun(t, s, &moved, run, kj, lanes, ok)
					tested++
				}
			}
		}
	}
}

// TestRunOf: for random placements of every piece but the last (kings
// anywhere, so every symmetry is met), each lane lands where the full
// encoding puts the position; only Tied king pairs are refused.
func TestRunOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range []string{"KRvK", "KRRvKN", "KRSvKN", "KNvKM", "KSMvKM", "KRvKR"} {
		s, err := New(tb.MustParseMaterial(name))
		require.NoError(t, err)
		_, _, ok := s.LanePiece()
		require.True(t, ok, name)
		groups := s.Groups()
		refused := 0
		for tested := 0; tested < 300; {
			var prefix tb.Position
			free := ^tb.Bitboard(0)
			put := func(c tb.Color, pt tb.PieceType) {
				for {
					sq := tb.Square(rng.IntN(64))
					if free.Has(sq) {
						prefix.Put(c, pt, sq)
						free &^= sq.Bitboard()
						return
					}
				}
			}
			put(tb.White, tb.King)
			put(tb.Black, tb.King)
			if tb.Attacks(tb.King, tb.White, prefix.KingSquare(tb.White), 0).Has(prefix.KingSquare(tb.Black)) {
				continue
			}
			for _, g := range groups[:len(groups)-1] {
				for range g.Count {
					put(g.Color, g.Type)
				}
			}
			run, k, lanes, ok := s.RunOf(&prefix)
			requireRun(t, s, &prefix, run, k, lanes, ok)
			if !ok {
				refused++
			}
			tested++
		}
		require.Less(t, refused, 100, "%s: most king pairs are not Tied", name)
	}
	// Not a prefix: the last piece present, or a piece missing.
	s, err := New(tb.MustParseMaterial("KRvKN"))
	require.NoError(t, err)
	p, err := tb.ParseFEN("8/8/8/3k4/8/8/1R6/K6n w - - 0 1")
	require.NoError(t, err)
	_, _, _, ok := s.RunOf(&p)
	require.False(t, ok, "a full position is not a prefix")
	p.Remove(tb.NewSquare(1, 1))
	_, _, _, ok = s.RunOf(&p)
	require.False(t, ok, "a prefix lacking another piece")
}

// requireRun checks a run as KingStepRun or RunOf returned it for prefix
// (every piece but the last): on each free square, the last piece gives the
// position that Index puts at run + lanes.Square(square), in king pair k; a
// refused run (ok false) must be a Tied king pair. Mapping the free squares
// all at once (lanes.Lanes) gives the same lanes as one by one.
func requireRun(t *testing.T, s *Space, prefix *tb.Position, run uint64, k int, lanes LaneMap, ok bool) {
	t.Helper()
	lc, lt, _ := s.LanePiece()
	var each tb.Bitboard
	for lane := tb.Square(0); lane < 64; lane++ {
		if prefix.Occupied().Has(lane) {
			continue
		}
		p := *prefix
		p.Put(lc, lt, lane)
		j, found := s.Index(&p)
		require.True(t, found)
		if !ok {
			require.True(t, s.Tied(s.KingPairOf(j)), "%s %s: refused an untied king pair", s.Material(), p.FEN())
			continue
		}
		require.Equal(t, j, run+uint64(lanes.Square(lane)), "%s %s", s.Material(), p.FEN())
		require.Equal(t, k, s.KingPairOf(j))
		each |= lanes.Square(lane).Bitboard()
	}
	if ok {
		require.Equal(t, each, lanes.Lanes(^prefix.Occupied()), "%s: lanes mapped at once", s.Material())
	}
}

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
		lc, lt, ok := s.LanePiece()
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
					for lane := tb.Square(0); lane < 64; lane++ {
						if moved.Occupied().Has(lane) {
							continue
						}
						p := moved
						p.Put(lc, lt, lane)
						j, found := s.Index(&p)
						require.True(t, found)
						if !ok {
							require.True(t, s.Tied(s.KingPairOf(j)), "%s: refused a step onto an untied pair", name)
							continue
						}
						require.Equal(t, j, run+uint64(lanes[lane]), "%s %s", name, p.FEN())
						require.Equal(t, kj, s.KingPairOf(j))
					}
					tested++
				}
			}
		}
	}
}

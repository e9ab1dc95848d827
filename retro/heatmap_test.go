package retro

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/tb"
)

// ComputeHeatmap counts what a brute force over the full board counts,
// square by square, for each piece of KRvK and KSvK.
func TestHeatmapAgainstBruteForce(t *testing.T) {
	for name, piece := range map[string]tb.PieceType{"KRvK": tb.Rook, "KSvK": tb.Khon} {
		m := tb.MustParseMaterial(name)
		table := solve(t, name)
		for _, pc := range []struct {
			c tb.Color
			t tb.PieceType
		}{{tb.Black, tb.King}, {tb.White, tb.King}, {tb.White, piece}} {
			got, err := ComputeHeatmap(context.Background(), table, pc.c, pc.t, Options{Threads: 2})
			require.NoError(t, err)
			var want [64]HeatSquare
			hists := [64]map[int]uint64{}
			for s := range want {
				want[s] = HeatSquare{Square: tb.Square(s).String()}
				hists[s] = map[int]uint64{}
			}
			eachLegal(m, func(q tb.Position) {
				if q.IsCheckmate() {
					want[q.KingSquare(q.Side)].Mates++
				}
				if q.Side != tb.White {
					return
				}
				v := valueOf(t, q)
				for b := q.Pieces(pc.c, pc.t); b != 0; {
					s := b.PopFirst()
					want[s].Positions++
					if v.IsWin() {
						want[s].Wins++
						hists[s][v.Plies()]++
					}
				}
			})
			for s := range want {
				want[s].Longest, want[s].Median = longestAndMedian(hists[s])
			}
			require.Equal(t, want[:], got.Squares, "%s %s", name, got.Piece)
		}
	}
	_, err := ComputeHeatmap(context.Background(), solve(t, "KRvK"), tb.White, tb.Knight, Options{})
	require.ErrorContains(t, err, "KRvK has no piece N")
}

func TestLongestAndMedian(t *testing.T) {
	l, m := longestAndMedian(map[int]uint64{1: 1, 3: 1, 5: 1})
	require.Equal(t, []int{5, 3}, []int{l, m})
	l, m = longestAndMedian(map[int]uint64{1: 2, 9: 2})
	require.Equal(t, []int{9, 1}, []int{l, m}, "the lower middle")
	l, m = longestAndMedian(nil)
	require.Equal(t, []int{-1, -1}, []int{l, m})
}

package value

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMateDistances(t *testing.T) {
	require.Equal(t, Mate(31), MateIn(16))
	require.True(t, MateIn(16).IsWin())
	require.Equal(t, 31, MateIn(16).Plies())
	require.Equal(t, 16, MateIn(16).Moves())
	require.Equal(t, Mate(4), MatedIn(2))
	require.True(t, MatedIn(2).IsLoss())
	require.Equal(t, 2, MatedIn(2).Moves())
	require.True(t, MatedIn(0).IsLoss(), "checkmated now")
	require.False(t, Draw.IsMate())
	require.False(t, Illegal.IsMate())

	// One ply earlier, from the other side: mated in 0 is a mate in 1.
	require.Equal(t, MateIn(1), MatedIn(0).Negate())
	require.Equal(t, MatedIn(1), MateIn(1).Negate())
	require.Equal(t, Draw, Draw.Negate())

	// The quickest win is best, the longest loss is better than a short one.
	require.Positive(t, Compare(MateIn(2), MateIn(3)))
	require.Positive(t, Compare(MateIn(30), Draw))
	require.Positive(t, Compare(Draw, MatedIn(30)))
	require.Positive(t, Compare(MatedIn(5), MatedIn(4)))

	require.Equal(t, WinWDL, MateIn(3).WDL())
	require.Equal(t, LossWDL, MatedIn(3).WDL())
	require.Equal(t, DrawWDL, Draw.WDL())
	require.Equal(t, "win in 5 plies", MateIn(3).String())
	require.Equal(t, "loss in 6 plies", MatedIn(3).String())
	require.Equal(t, "draw", Draw.String())
}

// FromRank undoes Rank on Draw and every mate distance.
func TestFromRank(t *testing.T) {
	require.Equal(t, Draw, FromRank(Rank(Draw)))
	for d := range MaxPlies + 1 {
		if v := Mate(d); FromRank(Rank(v)) != v {
			t.Fatalf("FromRank(Rank(%v)) = %v", v, FromRank(Rank(v)))
		}
	}
}

package report

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Under rules whose board's count the side with fewer pieces runs, the
// verdict says who counts and whose win the count limits, and the count
// document names the counter.
func TestVerdictCountByFewer(t *testing.T) {
	fewer := honour.ThaiRules
	fewer.Name, fewer.BoardCountBy = "fewer", honour.CountByFewer
	require.NoError(t, fewer.Validate())
	judge := func(fen string, v, dtb value.Value) (*tb.Position, honour.Judgement) {
		p, err := tb.ParseFEN(fen)
		require.NoError(t, err)
		return &p, fewer.JudgeBoard(v, dtb, fewer.CountOf(&p))
	}

	// KRRvKN, White to move and winning with its goal 151 plies away:
	// Black's count binds it.
	p, j := judge("4k3/8/8/3n4/8/8/R7/1R2K3 w - - 0 1", value.Mate(171), value.Mate(151))
	c := NewCheck(p, j, &fewer)
	require.Equal(t, ResultDraw, c.Result)
	require.Contains(t, c.Verdict, "run by Black, the side with fewer pieces, from its move")
	require.Equal(t, "black", c.Position.Count.Counter)

	// Black to move winning as far away: its own count does not bind it.
	p, j = judge("4k3/8/8/3n4/8/8/R7/1R2K3 b - - 0 1", value.Mate(171), value.Mate(151))
	c = NewCheck(p, j, &fewer)
	require.Equal(t, "black-wins", c.Result)
	require.Contains(t, c.Verdict, "run by Black, the side with fewer pieces, which may stop it: it does not limit Black's win; mate or a winning capture of the last piece in 151 plies (fewer rules) → Black WINS")
	require.Equal(t, "black", c.Position.Count.Counter)

	// White to move winning with Black's count running: it binds White.
	p, j = judge("4k3/8/8/3n4/8/8/R7/1R2K3 w - 128 20 1", value.Mate(21), value.Mate(21))
	c = NewCheck(p, j, &fewer)
	require.Equal(t, "white-wins", c.Result)
	require.Contains(t, c.Verdict, "limit 64 moves, run by Black, the side with fewer pieces, count at ply 20 → 108 plies left")

	// A rook against a knight: no count runs.
	p, j = judge("4k3/8/8/3n4/8/8/8/1R2K3 w - - 0 1", value.Mate(171), value.Mate(151))
	c = NewCheck(p, j, &fewer)
	require.Equal(t, "white-wins", c.Result)
	require.Contains(t, c.Verdict, "no count runs while both sides have as many pieces; mate or a winning capture of the last piece in 151 plies (fewer rules) → White WINS")
	require.Equal(t, "none", c.Position.Count.Counter)

	// Two pieces each: a capture could start a count no table models.
	p, j = judge("4k3/8/3m4/3m4/8/8/8/1RN1K3 w - - 0 1", value.Mate(31), value.Mate(31))
	c = NewCheck(p, j, &fewer)
	require.Equal(t, ResultUnknown, c.Result)
	require.Contains(t, c.Verdict, "a capture that leaves both sides pieces would start a count the tables do not model")

	// A neutral count names no counter.
	p, _ = judge("4k3/8/8/3n4/8/8/8/1R2K3 w - - 0 1", value.Draw, value.Draw)
	require.Empty(t, NewCount(honour.ThaiRules.CountOf(p), p.Side, &honour.ThaiRules).Counter)
}

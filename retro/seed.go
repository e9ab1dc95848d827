package retro

import (
	"context"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// seed decodes every index once: holes, checkmates, stalemates and the
// values of captures into the sub-tables; quiet moves are only counted.
// In a space of runs, the moves of a run's positions are found together
// (tb.LaneMoves): Walk visits a run's positions one after another.
func (g *generator) seed(ctx context.Context) error {
	per := g.space.PerKingPair()
	laneColor, laneType, runs := g.space.LanePiece()
	return g.parallel(ctx, StageSeed, 0, func(side tb.Color, k int) {
		states := g.states[side]
		lo, hi := uint64(k)*per, uint64(k+1)*per
		for i := lo; i < hi; i++ {
			states[i] = makeState(value.Illegal, 0)
		}
		var moves tb.MoveList
		var lane tb.LaneMoves
		run := ^uint64(0)
		var drawn []value.Value
		if g.drawn != nil {
			drawn = g.drawn.Values[side]
		}
		g.space.Walk(k, side, func(i uint64, p *tb.Position) {
			if drawn != nil && drawn[i] == value.Draw {
				// No predecessor can win through it, nor lose by it.
				states[i] = makeState(value.Draw, cannotLose)
				g.settled.set(side, i)
				return
			}
			moves.N = 0
			var quiet int
			if runs {
				square := tb.Square(i % 64)
				if i/64 != run {
					run = i / 64
					prefix := *p
					prefix.Remove(square)
					lane = prefix.LaneMoves(laneColor, laneType)
				}
				quiet = lane.LegalCaptures(square, &moves)
			} else {
				quiet = p.LegalCaptures(&moves)
			}
			s := g.seedState(p, quiet, moves.Slice())
			states[i] = s
			if stateCounter(s) == 0 {
				g.settled.set(side, i) // lost, every move known
			}
			if v := stateValue(s); v.IsMate() {
				g.present.mark(side, i, v)
			}
		})
	})
}

// seedState returns the initial state of a legal position with the given
// number of quiet moves and legal captures.
func (g *generator) seedState(p *tb.Position, quiet int, captures []tb.Move) value.Value {
	var bestWin, worstLoss value.Value // through captures; 0 = none
	canDraw := false
	for _, m := range captures {
		c, t := p.PieceAt(m.To())
		v := captureValue(g.subs, p, m, c, t).Negate()
		switch {
		case v.IsWin():
			if bestWin == 0 || v < bestWin {
				bestWin = v
			}
		case v.IsLoss():
			worstLoss = max(worstLoss, v)
		default:
			canDraw = true
		}
	}
	noMoves := quiet == 0 && len(captures) == 0
	switch {
	case noMoves && p.InCheck(p.Side):
		return makeState(value.MatedIn(0), 0)
	case noMoves:
		return makeState(value.Draw, cannotLose) // stalemate
	case bestWin != 0:
		g.noteDepth(bestWin)
		return makeState(bestWin, cannotLose)
	case canDraw:
		return makeState(value.Draw, cannotLose)
	case quiet == 0:
		g.noteDepth(worstLoss)
		return makeState(worstLoss, 0) // every move is a losing capture
	}
	if 2*quiet > maxCounter {
		g.tooManyMoves.Store(true)
		return makeState(value.Draw, cannotLose)
	}
	return makeState(worstLoss, 2*quiet)
}

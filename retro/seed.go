package retro

import (
	"context"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// seed decodes every index once: holes, checkmates, stalemates and the
// values of captures into the sub-tables; quiet moves are only counted.
func (g *generator) seed(ctx context.Context) error {
	per := g.space.PerKingPair()
	return g.parallel(ctx, "seed", 0, func(side tb.Color, k int) {
		states := g.states[side]
		var moves tb.MoveList
		for i := uint64(k) * per; i < uint64(k+1)*per; i++ {
			p, ok := g.space.Position(i, side)
			if !ok {
				states[i] = makeState(probe.Illegal, 0)
				continue
			}
			moves.N = 0
			p.LegalMoves(&moves)
			states[i] = g.seedState(&p, moves.Slice())
		}
	})
}

// seedState returns the initial state of a legal position with the given
// legal moves.
func (g *generator) seedState(p *tb.Position, moves []tb.Move) probe.Value {
	quiet := 0
	var bestWin, worstLoss probe.Value // through captures; 0 = none
	canDraw := false
	them := p.ByColor(p.Side.Other())
	for _, m := range moves {
		if !them.Has(m.To()) {
			quiet++
			continue
		}
		c, t := p.PieceAt(m.To())
		v := g.subs.value(p, m, c, t).Negate()
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
	switch {
	case len(moves) == 0 && p.InCheck(p.Side):
		return makeState(probe.Loss(0), 0)
	case len(moves) == 0:
		return makeState(probe.Draw, cannotLose) // stalemate
	case bestWin != 0:
		g.noteDepth(bestWin)
		return makeState(bestWin, cannotLose)
	case canDraw:
		return makeState(probe.Draw, cannotLose)
	case quiet == 0:
		g.noteDepth(worstLoss)
		return makeState(worstLoss, 0) // every move is a losing capture
	}
	return makeState(worstLoss, 2*quiet)
}

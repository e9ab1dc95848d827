package retro

import (
	"context"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// iterate runs the frontier by depth: for d = 0, 1, … it finds the
// positions decided as mate in d plies and un-moves them.
func (g *generator) iterate(ctx context.Context) error {
	per := g.space.PerKingPair()
	for d := 0; d+2 <= int(g.deepest.Load()) || d == 0; d++ {
		if g.tooDeep.Load() {
			return nil
		}
		code := probe.Mate(d)
		err := g.parallel(ctx, "iterate", d, func(side tb.Color, k int) {
			states := g.states[side]
			for i := uint64(k) * per; i < uint64(k+1)*per; i++ {
				s := loadState(states, i)
				if stateValue(s) != code || (code.IsLoss() && stateCounter(s) != 0) {
					continue
				}
				g.propagate(side, i, code)
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// propagate un-moves the position (side, i), decided with value v, and
// updates its predecessors.
func (g *generator) propagate(side tb.Color, i uint64, v probe.Value) {
	p, _ := g.space.Position(i, side)
	var unmoves tb.MoveList
	p.UnMoves(&unmoves)
	pred := g.states[side.Other()]
	next := v.Negate()
	if v.IsLoss() {
		for _, m := range unmoves.Slice() {
			setWin(pred, g.space.MovedIndex(i, &p, m.To(), m.From()), next)
		}
		g.noteDepth(next)
		return
	}
	stab := g.stabiliser(&p)
	for _, m := range unmoves.Slice() {
		j := g.space.MovedIndex(i, &p, m.To(), m.From())
		weight := 2 / stab
		if g.space.FullSymmetry() && g.space.Tied(int(j/g.space.PerKingPair())) {
			q, _ := g.space.Position(j, side.Other())
			weight = 2 * g.stabiliser(&q) / stab
		}
		if loss, decided := removeEscape(pred, j, weight, next); decided {
			g.noteDepth(loss)
		}
	}
}

// stabiliser returns the number of symmetries (used by the space) that map
// the canonical position p to itself: 2 for a position symmetric in the
// a1–h8 diagonal, 1 otherwise.
func (g *generator) stabiliser(p *tb.Position) int {
	if !g.space.FullSymmetry() {
		return 1
	}
	return 8 / g.space.Multiplicity(p)
}

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
		s := &g.states[side]
		lo, hi := uint64(k)*per, uint64(k+1)*per
		s.fill(lo, hi, holeByte)
		// The unit owns the words inside its range; only a range that
		// does not start and end on a word shares words with its
		// neighbours, and then every byte goes through compare-and-swap.
		w := seedWriter{s, lo%4 == 0 && hi%4 == 0}
		var moves tb.MoveList
		cursor := tb.NewLaneCursor(laneColor, laneType)
		cache := laneCaptures{lane: tb.NoSquare}
		g.space.Walk(k, side, func(i uint64, p *tb.Position) {
			if s.isSettled(i) {
				// A known draw (markDraws): no predecessor can win
				// through it, nor lose by it.
				w.put(i, byte(value.Draw))
				return
			}
			moves.N = 0
			var quiet int
			if runs {
				square := tb.Square(i % 64)
				lane, fresh := cursor.Moves(i/64, square, p)
				if fresh {
					cache.known = 0
				}
				cache.lane = square
				quiet = lane.LegalCaptures(square, &moves)
			} else {
				quiet = p.LegalCaptures(&moves)
			}
			g.seedState(w, i, p, quiet, moves.Slice(), &cache)
		})
	})
}

// seedState writes the initial state of the legal position (s, i) with
// the given number of quiet moves and legal captures.
func (g *generator) seedState(w seedWriter, i uint64, p *tb.Position, quiet int, captures []tb.Move, cache *laneCaptures) {
	s := w.states
	var bestWin, worstLoss value.Value // through captures; 0 = none
	canDraw := false
	for _, m := range captures {
		v := cache.value(g.subs, p, m).Negate()
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
	case noMoves && p.LostWithoutMove() && g.subs.mated(p.Side).IsLoss():
		s.setFinal(i, value.MatedIn(0))
		g.present.mark(p.Side, i, value.MatedIn(0))
	case noMoves, bestWin == 0 && canDraw:
		w.put(i, byte(value.Draw)) // stalemate, or a drawing capture: cannot lose
	case bestWin != 0:
		// A win to propagate when the frontier reaches it, unless an
		// un-move finds a faster one first.
		g.noteDepth(bestWin)
		if bestWin >= value.Overflow {
			s.overflow.put(i, bestWin)
		}
		w.put(i, codeByte(bestWin))
		g.present.mark(p.Side, i, bestWin)
	case quiet == 0:
		g.noteDepth(worstLoss) // every move is a losing capture
		s.setFinal(i, worstLoss)
		g.present.mark(p.Side, i, worstLoss)
	case 2*quiet > counterLimit:
		w.put(i, manyByte)
	default:
		w.put(i, counterByte(2*quiet, worstLoss != 0))
	}
}

// seedWriter writes the bytes of one unit of the seed: plain stores when
// the unit owns every word of its range (own), else compare-and-swap.
type seedWriter struct {
	*states
	own bool
}

func (w seedWriter) put(i uint64, b byte) {
	if w.own {
		w.codes[i] = b
		return
	}
	w.store(i, b)
}

// laneCaptures remembers, within one run, the values of the lane piece's
// captures: the lane piece taking the piece on a square leaves the same
// position whichever lane it came from, so the run looks each one up
// once. The seed resets known at each run and sets lane at each position;
// outside a space of runs lane is NoSquare and nothing is remembered.
type laneCaptures struct {
	lane  tb.Square
	known tb.Bitboard
	v     [64]value.Value
}

// value returns captureValue of the capture m of p.
func (lc *laneCaptures) value(cv captureValues, p *tb.Position, m tb.Move) value.Value {
	c, t := p.PieceAt(m.To())
	if m.From() != lc.lane {
		return captureValue(cv, p, m, c, t)
	}
	if lc.known.Has(m.To()) {
		return lc.v[m.To()]
	}
	v := captureValue(cv, p, m, c, t)
	lc.v[m.To()] = v
	lc.known |= m.To().Bitboard()
	return v
}

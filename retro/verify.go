package retro

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// MismatchError reports a stored value that differs from the value its
// successors give.
type MismatchError struct {
	Material   tb.Material
	FEN        string
	Stored     probe.Value
	Recomputed probe.Value
	Count      int64 // mismatches found in total
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("verify %s: %d mismatches, first %s: stored %v, successors give %v",
		e.Material, e.Count, e.FEN, e.Stored, e.Recomputed)
}

// Verify checks every legal position of a finished table against a one-ply
// search: the best of its moves, each looked up in this table (quiet moves)
// or in a sub-table (captures). It uses nothing of the generator's
// bookkeeping (counters, frontier, capture bounds), only the move
// generator and the index, whose shortcuts the index tests check against
// the full encoding. Progress, if set in opts, is reported under
// the stage "verify".
func Verify(ctx context.Context, table *Table, src Source, opts Options) error {
	subs, err := loadSubTables(table.Material(), src)
	if err != nil {
		return err
	}
	return verify(ctx, table, subs, opts)
}

// verify checks table with captures resolved by subs.
func verify(ctx context.Context, table *Table, subs captureValues, opts Options) error {
	space := table.Space
	g := &generator{space: space, opts: opts}
	var (
		count    atomic.Int64
		firstMu  sync.Mutex
		first    *MismatchError
		material = space.Material()
	)
	err := g.parallel(ctx, "verify", 0, func(side tb.Color, k int) {
		var moves tb.MoveList
		space.Walk(k, side, func(i uint64, p *tb.Position) {
			moves.N = 0
			p.LegalMoves(&moves)
			want := oneMoveValue(table, subs, p, i, k, moves.Slice())
			if got := table.Values[side][i]; got != want {
				count.Add(1)
				firstMu.Lock()
				if first == nil {
					first = &MismatchError{Material: material, FEN: p.FEN(), Stored: got, Recomputed: want}
				}
				firstMu.Unlock()
			}
		})
	})
	if err != nil {
		return err
	}
	if first != nil {
		first.Count = count.Load()
		return first
	}
	return nil
}

// oneMoveValue returns the value of p (index i, king pair k) from the
// values of its successors.
func oneMoveValue(table *Table, subs captureValues, p *tb.Position, i uint64, k int, moves []tb.Move) probe.Value {
	if len(moves) == 0 {
		if p.InCheck(p.Side) {
			return probe.Loss(0)
		}
		return probe.Draw
	}
	best, first := probe.Draw, true
	space := table.Space
	next := table.Values[p.Side.Other()]
	// Moves come grouped by piece: one Stepper serves all quiet moves of a
	// non-king piece (when the king pair allows the shortcut).
	var (
		from    = tb.NoSquare
		stepper index.Stepper
		step    bool
	)
	for _, m := range moves {
		var v probe.Value
		if c, t := p.PieceAt(m.To()); t != tb.NoPiece {
			v = subs.value(p, m, c, t)
		} else {
			if m.From() != from {
				from = m.From()
				c, t := p.PieceAt(from)
				step = t != tb.King && !space.Tied(k)
				if step {
					stepper = space.Stepper(i, space.GroupOf(c, t), p.Pieces(c, t), from)
				}
			}
			var j uint64
			if step {
				j = stepper.To(m.To())
			} else {
				j, _ = space.MovedIndex(i, k, p, m.From(), m.To())
			}
			v = next[j]
		}
		v = v.Negate()
		if first || probe.Compare(v, best) > 0 {
			best, first = v, false
		}
	}
	return best
}

package retro

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

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
// search: the best of its moves, each looked up in this table (quiet
// moves, by a full Index) or in a sub-table (captures). It uses nothing of
// the generator's bookkeeping. Progress, if set in opts, is reported under
// the stage "verify".
func Verify(ctx context.Context, table *Table, src Source, opts Options) error {
	space := table.Space
	subs, err := loadSubTables(space.Material(), src)
	if err != nil {
		return err
	}
	g := &generator{space: space, opts: opts}
	var (
		count    atomic.Int64
		firstMu  sync.Mutex
		first    *MismatchError
		per      = space.PerKingPair()
		material = space.Material()
	)
	err = g.parallel(ctx, "verify", 0, func(side tb.Color, k int) {
		var moves tb.MoveList
		for i := uint64(k) * per; i < uint64(k+1)*per; i++ {
			p, ok := space.Position(i, side)
			if !ok {
				continue
			}
			moves.N = 0
			p.LegalMoves(&moves)
			want := oneMoveValue(table, subs, &p, moves.Slice())
			if got := table.Values[side][i]; got != want {
				count.Add(1)
				firstMu.Lock()
				if first == nil {
					first = &MismatchError{Material: material, FEN: p.FEN(), Stored: got, Recomputed: want}
				}
				firstMu.Unlock()
			}
		}
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

// oneMoveValue returns the value of p from the values of its successors.
func oneMoveValue(table *Table, subs *subTables, p *tb.Position, moves []tb.Move) probe.Value {
	if len(moves) == 0 {
		if p.InCheck(p.Side) {
			return probe.Loss(0)
		}
		return probe.Draw
	}
	best, first := probe.Draw, true
	for _, m := range moves {
		var v probe.Value
		if c, t := p.PieceAt(m.To()); t != tb.NoPiece {
			v = subs.value(p, m, c, t)
		} else {
			q := p.Play(m)
			j, _ := table.Space.Index(&q)
			v = table.Values[q.Side][j]
		}
		v = v.Negate()
		if first || probe.Compare(v, best) > 0 {
			best, first = v, false
		}
	}
	return best
}

package probe

import (
	"sort"

	"github.com/makruktb/makruktb/tb/value"

	"github.com/makruktb/makruktb/tb"
)

// value.WDL returns win, draw or loss for the side to move of p.
func (t *Tables) WDL(p *tb.Position) (value.WDL, error) {
	v, err := t.Value(p)
	return v.WDL(), err
}

// MoveResult is a legal move and the value of the position after it, from
// the point of view of the side to move there (as the lichess API gives it).
type MoveResult struct {
	Move  tb.Move
	After value.Value
}

// ForMover returns the move's value for the side that makes it.
func (r MoveResult) ForMover() value.Value { return r.After.Negate() }

// Moves returns every legal move of p with its result, best first for the
// side to move: quickest win, then draws, then the longest loss.
func (t *Tables) Moves(p *tb.Position) ([]MoveResult, error) {
	if _, err := t.Value(p); err != nil {
		return nil, err
	}
	var l tb.MoveList
	p.LegalMoves(&l)
	out := make([]MoveResult, 0, l.N)
	for _, m := range l.Slice() {
		q := p.Play(m)
		v, err := t.Value(&q)
		if err != nil {
			return nil, err
		}
		out = append(out, MoveResult{Move: m, After: v})
	}
	sort.SliceStable(out, func(a, b int) bool {
		return value.Compare(out[a].ForMover(), out[b].ForMover()) > 0
	})
	return out, nil
}

// BestMove returns a best move of p and the value of p (the shortest win,
// the longest loss, or a drawing move). It returns tb.NoMove when the side
// to move has no legal move.
func (t *Tables) BestMove(p *tb.Position) (tb.Move, value.Value, error) {
	moves, err := t.Moves(p)
	if err != nil || len(moves) == 0 {
		v, verr := t.Value(p)
		if err == nil {
			err = verr
		}
		return tb.NoMove, v, err
	}
	return moves[0].Move, moves[0].ForMover(), nil
}

// Line returns an optimal line from p to mate: best moves for both sides
// until the mate. A drawn position (or one already mated) gives no moves.
func (t *Tables) Line(p *tb.Position) ([]tb.Move, error) {
	v, err := t.Value(p)
	if err != nil || !v.IsMate() {
		return nil, err
	}
	var line []tb.Move
	pos := *p
	for range v.Plies() {
		m, _, err := t.BestMove(&pos)
		if err != nil {
			return line, err
		}
		if m == tb.NoMove {
			break
		}
		line = append(line, m)
		pos = pos.Play(m)
	}
	return line, nil
}

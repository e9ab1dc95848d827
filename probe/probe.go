package probe

import (
	"sort"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

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
//
// In a game where a bare king loses (Shatranj), a bare king to move has
// lost unless it takes the other side's last piece at once: Moves lists
// that capture alone, or nothing when it has lost (the game is over).
func (t *Tables) Moves(p *tb.Position) ([]MoveResult, error) {
	if _, err := t.Value(p); err != nil {
		return nil, err
	}
	var l tb.MoveList
	p.LegalMoves(&l)
	out := make([]MoveResult, 0, l.N)
	for _, m := range l.Slice() {
		if !p.Game().BareKingAllows(p, m) {
			continue
		}
		q := p.Play(m)
		v, _, err := t.dtmValueOf(&q, true)
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

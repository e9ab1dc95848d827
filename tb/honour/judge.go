package honour

import "github.com/makruktb/makruktb/tb/value"

// Judgement is a position's value under a count.
type Judgement struct {
	Value    value.Value
	Count    Count
	Category Category
	// DTB is the board's-honour value (rules of the count) when the count
	// is board's honour and its DTB table was read; 0 otherwise.
	DTB value.Value
	// Exact is false when the count is board's honour and no DTB table
	// was read: a mate, even a quick one, may pass through a capture that
	// bares a side and starts a shorter pieces' count, so DTM alone cannot
	// tell. Category is then the plain DTM result.
	Exact bool
}

// Judge returns the category of a position of value v and count c under
// r, from DTM alone. Pieces' honour is exact: the side that mates wins
// inside the count iff the mating move is made before the count passes its
// limit (DTM ≤ r.MatingPlies(c)). Board's honour needs the DTB value: use
// JudgeBoard.
func (r *Rules) Judge(v value.Value, c Count) Judgement {
	j := Judgement{Value: v, Count: c, Category: plainCategory(v), Exact: true}
	if !v.IsMate() || c.Kind == NoCountKind {
		return j
	}
	switch {
	case c.Kind == BoardCount:
		j.Exact = v.Plies() == 0 // checkmate on the board stands
	case v.Plies() <= r.MatingPlies(c):
	case v.IsWin():
		j.Category = CursedWin
	default:
		j.Category = BlessedLoss
	}
	return j
}

// JudgeBoard judges a position under a board's-honour count c from its DTM
// value v and its DTB value dtb (same rules): the side that reaches its
// goal — mate, or a capture that bares the opponent into a win inside the
// fresh pieces' count — before the count passes its limit wins; a DTM
// result beyond that is cursed (or blessed). A win the count does not bind
// (its side runs the count, or none runs: Count.Binds) needs only to reach
// the goal at all. Where no count runs but a capture could start one that
// the DTB table does not model (NoCounterUntilCapture) the judgement is
// not exact.
func (r *Rules) JudgeBoard(v, dtb value.Value, c Count) Judgement {
	j := Judgement{Value: v, Count: c, Category: plainCategory(v), DTB: dtb, Exact: c.Counter != NoCounterUntilCapture}
	if !v.IsMate() || (dtb.IsMate() && (!c.Binds(v.IsWin()) || dtb.Plies() <= r.MatingPlies(c))) {
		return j
	}
	if v.IsWin() {
		j.Category = CursedWin
	} else {
		j.Category = BlessedLoss
	}
	return j
}

// plainCategory is the category of a value when no count runs.
func plainCategory(v value.Value) Category {
	switch {
	case v.IsWin():
		return Win
	case v.IsLoss():
		return Loss
	}
	return Draw
}

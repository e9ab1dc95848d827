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

// Categories is a judgement's category for every pair of DTM and DTB
// values below 256 (every value of most tables), looked up, and for the
// rare others computed: for code that judges each position of a table.
type Categories struct {
	judge func(dtm, dtb value.Value) Category
	small [256 * 256]Category // [dtm<<8 | dtb]
}

// NewCategories tabulates judge, which must depend on its values only.
func NewCategories(judge func(dtm, dtb value.Value) Category) *Categories {
	t := &Categories{judge: judge}
	for i := range t.small {
		t.small[i] = judge(value.Value(i>>8), value.Value(i&255))
	}
	return t
}

// Of returns the category judge gives dtm and dtb.
func (t *Categories) Of(dtm, dtb value.Value) Category {
	if dtm < 256 && dtb < 256 {
		return t.small[int(dtm)<<8|int(dtb)]
	}
	return t.judge(dtm, dtb)
}

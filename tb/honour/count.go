package honour

import (
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// CountKind says which honour count applies to a material.
type CountKind string

const (
	NoCountKind CountKind = "none"
	PiecesCount CountKind = "pieces"
	BoardCount  CountKind = "board"
)

// Count is the state of an honour count in plies. Ply is −1 for a board
// count that starts after the move to make (Rules.BoardCounters,
// Rules.BoardCountBy): the side to move may not count, the other side may.
type Count struct {
	Kind  CountKind
	Limit int
	Ply   int
	// Counter says whose win a board's count can turn into a draw. The
	// zero value is the neutral count of every built-in profile.
	Counter Counter
}

// Counter is who runs a board's count, relative to the side to move
// (Rules.Next turns it with every move). The neutral count (EitherSide)
// turns any win that comes too late into a draw. A count that one side
// runs (Rules.BoardCountBy "fewer": the side with fewer pieces) spares
// that side's own win, which the texts let it claim by stopping the
// count; only the other side's win must come inside it. Where both sides
// have as many pieces no count runs (NoCounter) until a capture puts one
// side behind, and the verdict is DTB's sign alone: a goal reached at
// any distance.
//
// NoCounterUntilCapture is NoCounter in a material where a capture need
// not bare a side (two pieces or more each: six pieces and up). Such a
// capture starts a count the side captured from runs, a goal of the
// capturer only when the win fits that fresh count, so the neutral DTB
// table does not decide these positions: they would need a table of
// their own, which is not built, and their judgement is not exact.
type Counter int8

const (
	EitherSide            Counter = iota // neutral: whoever wins must do it inside the count
	MoverCounts                          // the side to move counts: the other side's win must fit
	OtherCounts                          // the other side counts: the mover's win must fit
	NoCounter                            // no count runs; every capture bares a side
	NoCounterUntilCapture                // no count runs; a capture may start one (not modelled)
)

// turned returns the counter seen from the other side, after a move.
func (c Counter) turned() Counter {
	switch c {
	case MoverCounts:
		return OtherCounts
	case OtherCounts:
		return MoverCounts
	}
	return c
}

// Binds reports whether the count limits the win of the side to move
// (mover true) or of the other side: a board's count binds every win
// unless that side counts or no count runs; a pieces' count binds the
// stronger side.
func (c Count) Binds(mover bool) bool {
	switch {
	case c.Counter == MoverCounts:
		return !mover
	case c.Counter == OtherCounts:
		return mover
	}
	return !c.Waiting()
}

// CountingSide returns the side that runs a board's count c, mover to
// move, and false where no side does (a neutral count, or none running).
func (c Count) CountingSide(mover tb.Color) (side tb.Color, counted bool) {
	switch c.Counter {
	case MoverCounts:
		return mover, true
	case OtherCounts:
		return mover.Other(), true
	}
	return mover, false
}

// Waiting reports whether a board's count waits for a capture to start
// (as many pieces each under BoardCountBy "fewer": NoCounter,
// NoCounterUntilCapture).
func (c Count) Waiting() bool { return c.Counter == NoCounter || c.Counter == NoCounterUntilCapture }

// Started reports whether the count runs already (Ply ≥ 0).
func (c Count) Started() bool { return c.Ply >= 0 }

// Remaining returns Limit − Ply.
func (c Count) Remaining() int { return c.Limit - c.Ply }

// PiecesLimitFor returns the pieces'-honour limit in plies for material m
// whose weaker side (bare) is the given colour, or 0 when none applies.
func (r *Rules) PiecesLimitFor(m tb.Material, bare tb.Color) int {
	strong := bare.Other()
	for _, l := range r.Pieces {
		t, ok := l.Piece.Type()
		if !ok || m.Count(strong, t) >= l.AtLeast {
			return l.Plies
		}
	}
	return 0
}

// HasBoardHonour reports whether a material has a board's-honour count,
// and so a DTB table: both sides have pieces besides the king.
func HasBoardHonour(m tb.Material) bool {
	return m.SidePieces(tb.White) > 0 && m.SidePieces(tb.Black) > 0
}

// Bare returns the colour with only its king while the other side has
// more, and true; false when both or neither side have pieces.
func Bare(m tb.Material) (tb.Color, bool) {
	w, b := m.SidePieces(tb.White), m.SidePieces(tb.Black)
	switch {
	case w == 0 && b > 0:
		return tb.White, true
	case b == 0 && w > 0:
		return tb.Black, true
	}
	return tb.White, false
}

// FreshCount returns the count that starts in a pawnless position p (as a
// FEN with "-" in the count field is judged): pieces' honour when one side
// is bare, board's honour when both have pieces, none otherwise.
func (r *Rules) FreshCount(p *tb.Position) Count { return r.FreshCountFor(tb.MaterialOf(p), p.Side) }

// FreshCountFor is FreshCount for any position of material m with the given
// side to move (the count depends on nothing else).
func (r *Rules) FreshCountFor(m tb.Material, side tb.Color) Count {
	if bare, ok := Bare(m); ok {
		limit := r.PiecesLimitFor(m, bare)
		if limit == 0 {
			return Count{Kind: NoCountKind}
		}
		steps := 0
		switch r.Start {
		case StartAll:
			steps = m.Pieces()
		case StartStrong:
			steps = 1 + m.SidePieces(bare.Other())
		case StartStrongPieces:
			steps = m.SidePieces(bare.Other())
		}
		start := r.Unit.plies(steps)
		if start > 0 && side != bare && r.Unit != UnitHalfMoves {
			// Counted in moves, the strong side moves first: the count
			// began a ply earlier. Half-moves count every ply as it is.
			start--
		}
		return Count{Kind: PiecesCount, Limit: limit, Ply: start}
	}
	if HasBoardHonour(m) && r.BoardPlies > 0 {
		c := Count{Kind: BoardCount, Limit: r.BoardPlies}
		if n := r.BoardCounters; n > 0 && 1+m.SidePieces(side) > n {
			if 1+m.SidePieces(side.Other()) > n {
				return Count{Kind: NoCountKind} // neither side may count
			}
			c.Ply = -1 // it starts once the other side is to move
		}
		if r.BoardCountBy == CountByFewer {
			own, other := m.SidePieces(side), m.SidePieces(side.Other())
			switch {
			case own == other && own >= 2:
				return Count{Kind: BoardCount, Limit: r.BoardPlies, Ply: -1, Counter: NoCounterUntilCapture}
			case own == other:
				return Count{Kind: BoardCount, Limit: r.BoardPlies, Ply: -1, Counter: NoCounter}
			case own < other:
				c.Counter = MoverCounts
			default: // (a side behind with too many pieces to count was refused above)
				c.Counter, c.Ply = OtherCounts, -1 // the side behind starts it on its move
			}
		}
		return c
	}
	return Count{Kind: NoCountKind}
}

// CountOf returns the count of p: the FEN's count fields when a count is
// running, else a fresh count. The kind always follows the material.
func (r *Rules) CountOf(p *tb.Position) Count { return r.CountOfMaterial(p, tb.MaterialOf(p)) }

// CountOfMaterial is CountOf for a position whose material m the caller
// has at hand (a prober saves computing it twice).
//
// A FEN does not say who runs a board's count. Under BoardCountBy
// "fewer" the side with fewer pieces now does; where both have as many (a
// count started before a capture evened them) the FEN's count is taken as
// neutral, binding whichever side wins.
func (r *Rules) CountOfMaterial(p *tb.Position, m tb.Material) Count {
	c := r.FreshCountFor(m, p.Side)
	if p.CountLimit != tb.NoCount && c.Kind != NoCountKind {
		c.Limit, c.Ply = p.CountLimit, p.CountPly
		if c.Waiting() {
			c.Counter = EitherSide
		}
	}
	return c
}

// MatingPlies returns the largest mate distance (plies, counted from p)
// that still wins inside count c: the mating move must be made from a
// position whose count has not passed the limit.
func (r *Rules) MatingPlies(c Count) int {
	d := c.Limit - c.Ply + 1
	if r.drawsOnReaching(c.Kind) {
		d--
	}
	return d
}

// GoalPlies returns the longest mate, in plies, that a capture leaving
// side bare in material after may lead to and still win: the mate must
// fit the fresh pieces' count. Without a count any mate does (unlimited).
// Such a capture is a goal of board's honour (DTB).
func (r *Rules) GoalPlies(after tb.Material, bare tb.Color) (plies int, unlimited bool) {
	count := r.FreshCountFor(after, bare)
	if count.Kind == NoCountKind {
		return 0, true
	}
	return r.MatingPlies(count), false
}

// BaringCapture returns the DTB value, for the bare side to move, of the
// position after a capture that leaves side bare in material after, whose
// DTM value is dtm: a loss in no moves (the capturer reached its goal)
// when dtm is a loss that fits the fresh pieces' count (GoalPlies), else a
// draw — the bare side cannot mate, and the count will not let the other
// side.
func (r *Rules) BaringCapture(after tb.Material, bare tb.Color, dtm value.Value) value.Value {
	if !dtm.IsLoss() {
		return value.Draw
	}
	if limit, unlimited := r.GoalPlies(after, bare); unlimited || dtm.Plies() <= limit {
		return value.MatedIn(0)
	}
	return value.Draw
}

// Next returns the count after move m is played from p (count c): one
// ply more, or a fresh pieces' count when the move bares a side (its limit
// then fixed by the material left). A capture by the bare king goes on
// with the same count, or, where the rules say it restarts
// (CaptureRestarts), starts a fresh count of the material left.
//
// A board's count that one side runs stays with that side through
// captures that change who is behind; where no count runs (NoCounter), a
// capture that leaves both sides pieces starts the count of the material
// left, which the side captured from runs.
func (r *Rules) Next(p *tb.Position, m tb.Move, c Count) Count {
	q := p.Play(m)
	after := tb.MaterialOf(&q)
	if c.Kind == BoardCount && p.IsCapture(m) {
		if _, bare := Bare(after); bare {
			return r.FreshCountFor(after, q.Side)
		}
		if c.Waiting() {
			return r.FreshCountFor(after, q.Side)
		}
	}
	if c.Kind == BoardCount && c.Waiting() {
		return c
	}
	c.Counter = c.Counter.turned()
	if c.Kind == PiecesCount && r.BareKingCapture == CaptureRestarts && p.IsCapture(m) && after.Pieces() > 2 {
		return r.FreshCountFor(after, q.Side)
	}
	if c.Kind != NoCountKind {
		c.Ply++
	}
	if c.Kind == PiecesCount && after.Pieces() == 2 {
		return Count{Kind: NoCountKind} // KvK
	}
	return c
}

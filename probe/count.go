package probe

import (
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// Category is a result under an honour count, from the side to move's point
// of view, named as the lichess API and Syzygy name them.
type Category string

const (
	CategoryWin         Category = "win"
	CategoryCursedWin   Category = "cursed-win" // mate exists, the count runs out first
	CategoryDraw        Category = "draw"
	CategoryBlessedLoss Category = "blessed-loss"
	CategoryLoss        Category = "loss"
)

// Judgement is a position's value under a count.
type Judgement struct {
	Value    value.Value
	Count    tb.Count
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
// rules r, from DTM alone. Pieces' honour is exact: the side that mates
// wins inside the count iff the mating move is made before the count
// passes its limit (DTM ≤ r.MatingPlies(c)). Board's honour needs the DTB
// value: use JudgeBoard (or Tables.Judge, which reads it).
func Judge(v value.Value, c tb.Count, r *tb.Rules) Judgement {
	j := Judgement{Value: v, Count: c, Category: plainCategory(v), Exact: true}
	if !v.IsMate() || c.Kind == tb.NoCountKind {
		return j
	}
	switch {
	case c.Kind == tb.BoardCount:
		j.Exact = v.Plies() == 0 // checkmate on the board stands
	case v.Plies() <= r.MatingPlies(c):
	case v.IsWin():
		j.Category = CategoryCursedWin
	default:
		j.Category = CategoryBlessedLoss
	}
	return j
}

// JudgeBoard judges a position under a board's-honour count c from its DTM
// value v and its DTB value dtb (same rules): the side that reaches its
// goal — mate, or a capture that bares the opponent into a win inside the
// fresh pieces' count — before the count passes its limit wins; a DTM
// result beyond that is cursed (or blessed).
func JudgeBoard(v, dtb value.Value, c tb.Count, r *tb.Rules) Judgement {
	j := Judgement{Value: v, Count: c, Category: plainCategory(v), DTB: dtb, Exact: true}
	if !v.IsMate() || (dtb.IsMate() && dtb.Plies() <= r.MatingPlies(c)) {
		return j
	}
	if v.IsWin() {
		j.Category = CategoryCursedWin
	} else {
		j.Category = CategoryBlessedLoss
	}
	return j
}

// Judge returns the value of p and its category under its count (as rules
// r read the FEN's count fields), reading the DTB table where the count is
// board's honour and the directory has one.
func (t *Tables) Judge(p *tb.Position, r *tb.Rules) (Judgement, error) {
	v, s, err := t.dtmValue(p)
	if err != nil {
		return Judgement{}, err
	}
	c := r.CountOfMaterial(p, s.given)
	j := Judge(v, c, r)
	if j.Exact {
		return j, nil
	}
	dtb, ok, err := t.boardValue(s, r.Name)
	if err != nil || !ok {
		return j, err
	}
	return JudgeBoard(v, dtb, c, r), nil
}

// judge judges the legal position p of value v under count c.
func (t *Tables) judge(p *tb.Position, v value.Value, c tb.Count, r *tb.Rules) (Judgement, error) {
	j := Judge(v, c, r)
	if j.Exact {
		return j, nil
	}
	dtb, ok, err := t.BoardValue(p, r.Name)
	if err != nil || !ok {
		return j, err
	}
	return JudgeBoard(v, dtb, c, r), nil
}

// JudgedMoves returns every legal move of p, best first as Moves orders
// them, with the position after each judged under the count that follows
// the move (DTB read where the count is board's honour).
func (t *Tables) JudgedMoves(p *tb.Position, r *tb.Rules) ([]JudgedMove, error) {
	moves, err := t.Moves(p)
	if err != nil {
		return nil, err
	}
	return t.judgeMoves(p, r.CountOf(p), moves, r)
}

func (t *Tables) judgeMoves(p *tb.Position, c tb.Count, moves []MoveResult, r *tb.Rules) ([]JudgedMove, error) {
	out := make([]JudgedMove, len(moves))
	for i, m := range moves {
		q := p.Play(m.Move)
		j, err := t.judge(&q, m.After, NextCount(p, m.Move, c, r), r)
		if err != nil {
			return nil, err
		}
		out[i] = JudgedMove{m.Move, j}
	}
	return out, nil
}

func plainCategory(v value.Value) Category {
	switch {
	case v.IsWin():
		return CategoryWin
	case v.IsLoss():
		return CategoryLoss
	}
	return CategoryDraw
}

// NextCount returns the count after move m is played from p (count c):
// one ply more, or a fresh pieces' count when the move bares a side (its
// limit then fixed by the material left). A capture by the bare king
// neither resets the count nor changes its limit.
func NextCount(p *tb.Position, m tb.Move, c tb.Count, r *tb.Rules) tb.Count {
	q := p.Play(m)
	if c.Kind == tb.BoardCount && p.IsCapture(m) {
		if _, bare := tb.Bare(tb.MaterialOf(&q)); bare {
			return r.FreshCount(&q)
		}
	}
	if c.Kind != tb.NoCountKind {
		c.Ply++
	}
	if c.Kind == tb.PiecesCount && !hasPieces(&q) {
		return tb.Count{Kind: tb.NoCountKind} // KvK
	}
	return c
}

func hasPieces(p *tb.Position) bool {
	m := tb.MaterialOf(p)
	return m.SidePieces(tb.White)+m.SidePieces(tb.Black) > 0
}

// Opposite returns the category from the other side's point of view: the
// mover's result when c judges the position after the move.
func (c Category) Opposite() Category {
	switch c {
	case CategoryWin:
		return CategoryLoss
	case CategoryLoss:
		return CategoryWin
	case CategoryCursedWin:
		return CategoryBlessedLoss
	case CategoryBlessedLoss:
		return CategoryCursedWin
	}
	return c
}

// JudgedMove is a legal move with the position after it judged under the
// count that follows the move, from that position's side to move's point
// of view (After.Category.Opposite() is the mover's result).
type JudgedMove struct {
	Move  tb.Move
	After Judgement
}

// categoryRank orders the mover's categories, worst first.
var categoryRank = map[Category]int{
	CategoryLoss: 0, CategoryBlessedLoss: 1, CategoryDraw: 2, CategoryCursedWin: 3, CategoryWin: 4,
}

// Better reports whether a is a better result than b for the side it
// belongs to.
func (a Category) Better(b Category) bool { return categoryRank[a] > categoryRank[b] }

// BestJudged returns the index of the mover's best move among moves in the
// order Tables.Moves gives them (quickest win first, longest loss last):
// the best category under the count; within it, the quickest goal (or the
// longest resistance) by DTB where the count is board's honour, else the
// first — the quickest mate or the longest loss. So: the quickest win
// inside the count, else the quickest cursed win, a draw, or the longest
// resistance. It returns -1 when there are no moves.
func BestJudged(moves []JudgedMove) int {
	best := -1
	for i, m := range moves {
		if best < 0 {
			best = i
			continue
		}
		a, b := m.After, moves[best].After
		ca, cb := a.Category.Opposite(), b.Category.Opposite()
		if ca.Better(cb) || ca == cb && a.DTB.IsMate() && b.DTB.IsMate() && value.Compare(a.DTB.Negate(), b.DTB.Negate()) > 0 {
			best = i
		}
	}
	return best
}

// maxLinePlies bounds the length of a JudgedLine: no goal and mate after
// it of any table are that far apart.
const maxLinePlies = 2048

// JudgedLine returns the count-aware optimal line from p: both sides play
// BestJudged under the running count (which starts in p as rules r read
// its FEN) until mate. A drawn position gives no moves. Each move carries
// the position after it judged under the count after it.
func (t *Tables) JudgedLine(p *tb.Position, r *tb.Rules) ([]JudgedMove, error) {
	v, err := t.Value(p)
	if err != nil || !v.IsMate() {
		return nil, err
	}
	var line []JudgedMove
	pos, count := *p, r.CountOf(p)
	// Under pieces' honour every best move brings the mate one ply nearer;
	// under board's honour every best move brings the goal one ply nearer,
	// and after it the mate. The bound guards against a damaged table
	// sending the line round in circles.
	for range maxLinePlies {
		moves, err := t.Moves(&pos)
		if err != nil {
			return line, err
		}
		judged, err := t.judgeMoves(&pos, count, moves, r)
		if err != nil {
			return line, err
		}
		i := BestJudged(judged)
		if i < 0 {
			break
		}
		line = append(line, judged[i])
		pos, count = pos.Play(judged[i].Move), judged[i].After.Count
	}
	return line, nil
}

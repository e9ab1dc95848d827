package probe

import "github.com/makruktb/makruktb/tb"

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
	Value    Value
	Count    tb.Count
	Category Category
	// Exact is false when the count is board's honour and the mate does
	// not fit inside it: whether a capture into a fresh pieces' count still
	// wins needs the board's-honour (DTB) tables, which are not generated
	// yet. Category is then the plain DTM result.
	Exact bool
}

// Judge returns the category of a position of value v and count c under
// rules r. Pieces' honour is exact from DTM: the side that mates wins
// inside the count iff the mating move is made before the count passes
// its limit (DTM ≤ r.MatingPlies(c)).
func Judge(v Value, c tb.Count, r *tb.Rules) Judgement {
	j := Judgement{Value: v, Count: c, Category: plainCategory(v), Exact: true}
	if !v.IsMate() || c.Kind == tb.NoCountKind {
		return j
	}
	fits := v.Plies() <= r.MatingPlies(c)
	switch {
	case fits:
	case c.Kind == tb.BoardCount:
		j.Exact = false
	case v.IsWin():
		j.Category = CategoryCursedWin
	default:
		j.Category = CategoryBlessedLoss
	}
	return j
}

func plainCategory(v Value) Category {
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

// JudgeMoves judges the moves of p (as Tables.Moves returns them) under the
// count c running in p.
func JudgeMoves(p *tb.Position, c tb.Count, moves []MoveResult, r *tb.Rules) []JudgedMove {
	out := make([]JudgedMove, len(moves))
	for i, m := range moves {
		out[i] = JudgedMove{m.Move, Judge(m.After, NextCount(p, m.Move, c, r), r)}
	}
	return out
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
// the first move of the best category under the count, so the quickest win
// inside the count, else the quickest cursed win, a draw, or the longest
// resistance. It returns -1 when there are no moves.
func BestJudged(moves []JudgedMove) int {
	best := -1
	for i, m := range moves {
		if best < 0 || m.After.Category.Opposite().Better(moves[best].After.Category.Opposite()) {
			best = i
		}
	}
	return best
}

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
	// Every best move of a mating line brings the mate one ply nearer, so
	// the line has v.Plies() moves; the bound guards against a damaged
	// table sending it round in circles.
	for range v.Plies() {
		moves, err := t.Moves(&pos)
		if err != nil {
			return line, err
		}
		judged := JudgeMoves(&pos, count, moves, r)
		i := BestJudged(judged)
		if i < 0 {
			break
		}
		line = append(line, judged[i])
		pos, count = pos.Play(judged[i].Move), judged[i].After.Count
	}
	return line, nil
}

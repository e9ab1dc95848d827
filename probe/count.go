package probe

import (
	"slices"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Judge returns the value of p and its category under its count (as rules
// r read the FEN's count fields), reading the DTB table where the count is
// board's honour and the directory has one.
func (t *Tables) Judge(p *tb.Position, r *honour.Rules) (honour.Judgement, error) {
	v, s, err := t.dtmValue(p)
	if err != nil {
		return honour.Judgement{}, err
	}
	c := r.CountOfMaterial(p, s.given)
	j := r.Judge(v, c)
	if j.Exact {
		return j, nil
	}
	dtb, ok, err := t.boardValue(p, s, boardFileOf(r, c, p.Side))
	if err != nil || !ok {
		return j, err
	}
	return r.JudgeBoard(v, dtb, c), nil
}

// JudgeUnder judges the legal position p of DTM value v (as Value or Moves
// gave it) under count c, whatever p's FEN fields say: a caller that keeps
// the count itself (a game, an engine adapter) judges with it.
func (t *Tables) JudgeUnder(p *tb.Position, v value.Value, c honour.Count, r *honour.Rules) (honour.Judgement, error) {
	j := r.Judge(v, c)
	if j.Exact {
		return j, nil
	}
	dtb, ok, err := t.BoardValueUnder(p, c, r)
	if err != nil || !ok {
		return j, err
	}
	return r.JudgeBoard(v, dtb, c), nil
}

// Root is what a root probe answers: a position judged under its count,
// every legal move judged by the position after it, and the best of them.
type Root struct {
	Position honour.Judgement
	// Moves are best first under the count (SortJudged).
	Moves []JudgedMove
	// Best indexes the mover's best move under the count: 0, or -1 when
	// there are no moves.
	Best int
}

// Root judges p under its count (as rules r read the FEN's count fields)
// with each of its moves: the one root probe behind the command line, the
// HTTP API and the C library.
func (t *Tables) Root(p *tb.Position, r *honour.Rules) (Root, error) {
	j, err := t.Judge(p, r)
	if err != nil {
		return Root{Best: -1}, err
	}
	moves, err := t.JudgedMoves(p, r)
	if err != nil {
		return Root{Best: -1}, err
	}
	return Root{Position: j, Moves: moves, Best: BestJudged(moves)}, nil
}

// JudgedMoves returns every legal move of p, best first under the count
// (SortJudged), with the position after each judged under the count that follows
// the move (DTB read where the count is board's honour).
func (t *Tables) JudgedMoves(p *tb.Position, r *honour.Rules) ([]JudgedMove, error) {
	moves, err := t.Moves(p)
	if err != nil {
		return nil, err
	}
	return t.judgeMoves(p, r.CountOf(p), moves, r)
}

func (t *Tables) judgeMoves(p *tb.Position, c honour.Count, moves []MoveResult, r *honour.Rules) ([]JudgedMove, error) {
	out := make([]JudgedMove, len(moves))
	for i, m := range moves {
		q := p.Play(m.Move)
		j, err := t.JudgeUnder(&q, m.After, r.Next(p, m.Move, c), r)
		if err != nil {
			return nil, err
		}
		out[i] = JudgedMove{Move: m.Move, After: j, ReachesGoal: ReachesGoal(p, &q, c, j)}
	}
	SortJudged(out)
	return out, nil
}

// JudgedMove is a legal move with the position after it judged under the
// count that follows the move, from that position's side to move's point
// of view (After.Category.Opposite() is the mover's result).
type JudgedMove struct {
	Move  tb.Move
	After honour.Judgement
	// ReachesGoal is set when the move is itself a board's-honour goal: a
	// capture of the opponent's last piece, made under a board's count,
	// into a win inside the fresh pieces' count (ReachesGoal).
	ReachesGoal bool
}

// ReachesGoal reports whether the move from p (count c) to q, judged j
// after it, is a capture that bares the side to move in q under a board's
// count into a win inside the fresh pieces' count: a board's-honour goal
// reached, as a mate is.
func ReachesGoal(p, q *tb.Position, c honour.Count, j honour.Judgement) bool {
	return c.Kind == honour.BoardCount && j.Category == honour.Loss &&
		honour.HasBoardHonour(tb.MaterialOf(p)) && !honour.HasBoardHonour(tb.MaterialOf(q))
}

// Goal returns the mover's distance to the goal that orders wins and
// losses under the count, as a value from the mover's point of view: one
// ply for a move that reaches a board's-honour goal, the board's-honour
// distance where the position after the move has one, else the mate
// distance (under pieces' honour, or without a count, the mate is the
// goal).
func (m JudgedMove) Goal() value.Value {
	switch {
	case m.ReachesGoal:
		return value.MatedIn(0).Negate()
	case m.After.DTB.IsMate():
		return m.After.DTB.Negate()
	}
	return m.After.Value.Negate()
}

// GoalPlies returns the mover's distance in plies to its goal and true
// when the goal is not the mate itself: what a list of moves shows beside
// the mate distance, as it decides the move's place.
func (m JudgedMove) GoalPlies() (int, bool) {
	g := m.Goal()
	if !g.IsMate() || g == m.After.Value.Negate() {
		return 0, false
	}
	return g.Plies(), true
}

// judgedBefore is the order of moves for the mover under the count: the
// better category first (win, cursed-win, draw, blessed-loss, loss);
// among wins inside the count the quickest goal, among losses the
// longest resistance to it (Goal); otherwise the order the moves came in
// (Tables.Moves: the quickest mate first, the longest loss last).
func judgedBefore(a, b JudgedMove) int {
	ca, cb := a.After.Category.Opposite(), b.After.Category.Opposite()
	switch {
	case ca.Better(cb):
		return -1
	case cb.Better(ca):
		return 1
	case ca == honour.Win || ca == honour.Loss:
		return -value.Compare(a.Goal(), b.Goal())
	}
	return 0
}

// SortJudged orders moves best first for the mover under the count
// (judgedBefore), keeping the given order among equals: after it
// BestJudged(moves) is 0. Every list of judged moves the project shows
// (probe, the API, the C library, the explorer) is in this order.
func SortJudged(moves []JudgedMove) {
	slices.SortStableFunc(moves, judgedBefore)
}

// BestJudged returns the index of the mover's best move among moves given
// in the order Tables.Moves gives them (quickest win first, longest loss
// last): the first in the order SortJudged makes. So: the quickest win
// inside the count (by its goal where the count is board's honour), else
// the quickest cursed win, a draw, or the longest resistance. It returns
// -1 when there are no moves.
func BestJudged(moves []JudgedMove) int {
	best := -1
	for i, m := range moves {
		if best < 0 || judgedBefore(m, moves[best]) < 0 {
			best = i
		}
	}
	return best
}

// MaxLinePlies bounds the length of a JudgedLine, and of any line of best
// play: no goal and mate after it of any table are that far apart.
const MaxLinePlies = 2048

// JudgedLine returns the count-aware optimal line from p: both sides play
// BestJudged under the running count (which starts in p as rules r read
// its FEN) until mate. A drawn position gives no moves. Each move carries
// the position after it judged under the count after it.
func (t *Tables) JudgedLine(p *tb.Position, r *honour.Rules) ([]JudgedMove, error) {
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
	for range MaxLinePlies {
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

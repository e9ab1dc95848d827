package uci

import (
	"errors"
	"fmt"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Oracle answers game positions from the tables under Fairy-Stockfish's
// count: the best move by the count (probe.BestJudged), and how the game
// ends with best play.
type Oracle struct {
	Tables *probe.Tables
}

// ErrNotInTables is returned for a position the tables cannot answer
// exactly: pawns on the board, more pieces than the tables have, a
// cambodian first move still possible, or no legal move.
var ErrNotInTables = errors.New("position not in the tables")

// MissingBoardError says that a judgement needs a DTB table the directory
// does not have: under board's honour DTM alone cannot tell.
type MissingBoardError struct {
	ID probe.ID
}

func (e *MissingBoardError) Error() string {
	return fmt.Sprintf("no %s table: the board's honour needs it (makruktb gen makes it)", e.ID.FileName())
}

// maxLookahead bounds the plies judged by their moves before the count is
// known (one suffices for every pawnless position: see honourCount).
const maxLookahead = 3

// Answer is the tables' answer for the side to move of a game.
type Answer struct {
	Move tb.Move
	// Category is the result for the side to move under the count.
	Category honour.Category
	// Plies is the length of the line to mate with best play under the
	// count when Category is Win or Loss (Scored only), else 0.
	Plies int
}

// Score returns the answer as a UCI score: "mate N" when the side to move
// mates in N moves inside the count, "mate -N" when it is mated in N, and
// "cp 0" for a draw, including a mate the count will not allow.
func (a Answer) Score() string {
	switch a.Category {
	case honour.Win:
		return fmt.Sprintf("mate %d", (a.Plies+1)/2)
	case honour.Loss:
		return fmt.Sprintf("mate -%d", a.Plies/2)
	}
	return "cp 0"
}

// Covers reports whether the tables can answer g's position.
func (o *Oracle) Covers(g *Game) bool {
	m := tb.MaterialOf(&g.Pos)
	return g.Rights == 0 && !m.HasPawns() && m.Pieces() <= o.Tables.MaxPieces() && g.Pos.HasLegalMove()
}

// Moves returns g's legal moves best first as probe.Tables.Moves orders
// them, each with the position after it judged under Fairy-Stockfish's
// count after it.
func (o *Oracle) Moves(g *Game) ([]probe.JudgedMove, error) {
	if !o.Covers(g) {
		return nil, ErrNotInTables
	}
	return o.judgedMoves(&g.Pos, g.Count, g.Dialect, 0)
}

// Best returns the best move of g's side to move and the result it keeps.
func (o *Oracle) Best(g *Game) (Answer, error) {
	moves, err := o.Moves(g)
	if err != nil {
		return Answer{}, err
	}
	i := probe.BestJudged(moves)
	return Answer{Move: moves[i].Move, Category: moves[i].After.Category.Opposite()}, nil
}

// Scored is Best with the length of the line to mate (Answer.Plies) when
// the result is a win or a loss inside the count: the line is played out.
func (o *Oracle) Scored(g *Game) (Answer, error) {
	a, err := o.Best(g)
	if err == nil && (a.Category == honour.Win || a.Category == honour.Loss) {
		a.Plies, err = o.linePlies(g, a.Move)
	}
	return a, err
}

// Judge returns the result of g for its side to move under the count.
func (o *Oracle) Judge(g *Game) (honour.Category, error) {
	if g.Pos.IsCheckmate() {
		return honour.Loss, nil
	}
	if !g.Pos.HasLegalMove() || g.Count.Expired() {
		return honour.Draw, nil
	}
	moves, err := o.Moves(g)
	if err != nil {
		return 0, err
	}
	return moves[probe.BestJudged(moves)].After.Category.Opposite(), nil
}

// linePlies returns the length of the line to mate that starts with
// move first, both sides then playing their best move under the count.
func (o *Oracle) linePlies(g *Game, first tb.Move) (int, error) {
	line := *g
	line.PlayMove(first)
	for plies := 1; plies <= probe.MaxLinePlies; plies++ {
		if !line.Pos.HasLegalMove() {
			return plies, nil
		}
		moves, err := o.judgedMoves(&line.Pos, line.Count, line.Dialect, 0)
		if err != nil {
			return 0, err
		}
		line.PlayMove(moves[probe.BestJudged(moves)].Move)
	}
	return 0, fmt.Errorf("%s: no mate within %d plies of best play (damaged table?)", g.FEN(), probe.MaxLinePlies)
}

// judgedMoves judges every legal move of p (count c) by the position after
// it under the count after it.
func (o *Oracle) judgedMoves(p *tb.Position, c Count, d *Dialect, depth int) ([]probe.JudgedMove, error) {
	moves, err := o.Tables.Moves(p)
	if err != nil {
		return nil, err
	}
	before, known := d.honourCount(p, c)
	out := make([]probe.JudgedMove, len(moves))
	for i, m := range moves {
		q := p.Play(m.Move)
		j, err := o.judgeAt(&q, m.After, d.Next(p, m.Move, c), d, depth)
		if err != nil {
			return nil, err
		}
		out[i] = probe.JudgedMove{Move: m.Move, After: j, ReachesGoal: known && probe.ReachesGoal(p, &q, before, j)}
	}
	return out, nil
}

// judgeAt judges the position q of DTM value v under Fairy-Stockfish's
// count c: directly when the count is known, else by q's own moves.
func (o *Oracle) judgeAt(q *tb.Position, v value.Value, c Count, d *Dialect, depth int) (honour.Judgement, error) {
	if hc, ok := d.honourCount(q, c); ok {
		j, err := o.Tables.JudgeUnder(q, v, hc, &d.Rules)
		if err == nil && !j.Exact {
			m, _ := tb.MaterialOf(q).Canonical()
			err = &MissingBoardError{ID: probe.ID{Material: m, Rules: d.Rules.Name}}
		}
		return j, err
	}
	j := honour.Judgement{Value: v, Category: honour.Draw, Exact: true}
	if !q.HasLegalMove() {
		if q.LostWithoutMove() {
			j.Category = honour.Loss
		}
		return j, nil
	}
	if depth >= maxLookahead {
		return j, fmt.Errorf("%s: the count is not known %d plies ahead", q.FEN(), maxLookahead)
	}
	moves, err := o.judgedMoves(q, c, d, depth+1)
	if err != nil {
		return j, err
	}
	j.Category = moves[probe.BestJudged(moves)].After.Category.Opposite()
	return j, nil
}

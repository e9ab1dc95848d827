package report

import (
	"fmt"
	"io"

	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// The text the probe and line commands print.

// valueText describes the value v of pos for its side to move in words.
func valueText(pos *tb.Position, v value.Value) string {
	side := pos.Side
	switch {
	case v.IsWin():
		return fmt.Sprintf("%s mates in %d (%s)", side.Name(), v.Moves(), units.Plural(v.Plies(), "ply", "plies"))
	case v.IsLoss() && v.Plies() == 0:
		return fmt.Sprintf("%s is %s", side.Name(), pos.LostBy())
	case v.IsLoss():
		return fmt.Sprintf("%s is mated in %d (%s)", side.Name(), v.Moves(), units.Plural(v.Plies(), "ply", "plies"))
	}
	return "draw"
}

// WriteProbeText writes what the probe command prints: the position's
// result under r (with the count as players call it when announce says
// so), then each move's, best first under the count. Where the count is
// board's honour and a goal other than the mate decides, the goal's
// distance is shown beside the mate's.
func WriteProbeText(w io.Writer, pos *tb.Position, j probe.Root, r *honour.Rules, announce honour.Announcement) {
	fmt.Fprintf(w, "%s  %s to move\n%s (%s)\n", pos.Game().MaterialName(tb.MaterialOf(pos)), pos.Side.Name(), headline(pos, j.Position), j.Position.Category)
	if called := j.Position.Count.Called(announce, r.Unit); called != "" {
		fmt.Fprintf(w, "The count called aloud, counting %s: %s.\n", announce, called)
	}
	if !j.Position.Exact {
		fmt.Fprintf(w, "Cannot tell the result under the %s count without the board's-honour table %s (makruktb gen makes it): the categories are the plain DTM results\n",
			r.Name, probe.BoardFileName(tb.MaterialOf(pos), r.Name))
	}
	if len(j.Moves) == 0 {
		return
	}
	fmt.Fprintln(w)
	goals := false
	for _, m := range j.Moves {
		mv := m.After.Value.Negate()
		var text string
		switch {
		case mv.IsWin():
			text = fmt.Sprintf("mate in %d", mv.Moves())
		case mv.IsLoss():
			text = fmt.Sprintf("mated in %d", mv.Moves())
		}
		if g, ok := m.GoalPlies(); ok {
			text += fmt.Sprintf(", goal in %d", movesOf(g))
			goals = true
		}
		fmt.Fprintf(w, "  %-6s %-13s %s\n", m.Move, m.After.Category.Opposite(), text)
	}
	if goals {
		fmt.Fprintln(w, "\ngoal: mate, or a capture of the last piece into a pieces' count that still wins; under board's honour the quickest goal decides")
	}
}

// headline describes the value of pos for its side to move, and where
// board's honour judges it by a goal other than the mate, that goal's
// distance: "White mates in 21 (41 plies) without the count; White's goal
// in 26 (51 plies)".
func headline(pos *tb.Position, j honour.Judgement) string {
	text := valueText(pos, j.Value)
	if !j.DTB.IsMate() || j.DTB == j.Value {
		return text
	}
	winner := pos.Side
	if j.DTB.IsLoss() {
		winner = winner.Other()
	}
	return fmt.Sprintf("%s without the count; %s's goal in %d (%s)", text, winner.Name(), movesOf(j.DTB.Plies()), units.Plural(j.DTB.Plies(), "ply", "plies"))
}

// movesOf returns a distance in plies as the winner's moves: a win in
// 2n−1 plies and a loss in 2n plies are both n moves.
func movesOf(plies int) int { return (plies + 1) / 2 }

// WriteLineText writes what the line command prints: the count-aware
// optimal line from pos under r, a move per line (in coordinates and in
// the notation players read, tb.Position.SAN) with the mate distance and
// the count after it, and a board every `every` plies and at the end
// (letters instead of pieces with ascii), the count also as players call
// it when announce is up or down.
func WriteLineText(w io.Writer, tables *probe.Tables, pos *tb.Position, rules *honour.Rules, every int, ascii bool, announce honour.Announcement) error {
	start, err := tables.Judge(pos, rules)
	if err != nil {
		return err
	}
	v := start.Value
	line, err := tables.JudgedLine(pos, rules)
	if err != nil {
		return err
	}
	if pos.Game().HasCount() {
		fmt.Fprintf(w, "%s\n%s (%s, %s)\n\n", pos.FEN(), valueText(pos, v), start.Category, rulesText(rules))
	} else {
		fmt.Fprintf(w, "%s\n%s (%s)\n\n", pos.FEN(), valueText(pos, v), start.Category)
	}
	writeBoard(w, pos, ascii)
	cur := *pos
	for i, m := range line {
		number := fmt.Sprintf("%d.", cur.Fullmove)
		if cur.Side == tb.Black {
			number = fmt.Sprintf("%d...", cur.Fullmove)
		}
		san := cur.SAN(m.Move)
		cur = cur.Play(m.Move)
		fmt.Fprintf(w, "%-6s %-6s %-7s %-14s %s\n", number, m.Move, san, afterText(&cur, m.After.Value), countText(m.After.Count, announce, rules.Unit))
		if (i+1)%every == 0 || i == len(line)-1 {
			fmt.Fprintln(w)
			writeBoard(w, &cur, ascii)
		}
	}
	return nil
}

// endText names, for a line, how the side to move lost (tb.Position.LostBy).
var endText = map[string]string{"checkmated": "checkmate", "stalemated": "stalemate", "left with a bare king": "bare king"}

// afterText describes the position after a move, pos, of value v.
func afterText(pos *tb.Position, v value.Value) string {
	switch {
	case v.IsLoss() && v.Plies() == 0:
		return endText[pos.LostBy()]
	case v.IsMate():
		return "DTM " + units.Plural(v.Plies(), "ply", "plies")
	}
	return "draw"
}

// countText shows a running count, e.g. "count 9/16 (pieces)", and as
// players call it when a announces it ("count 9/32 (pieces, called 5 of
// 16)").
func countText(c honour.Count, a honour.Announcement, u honour.Unit) string {
	if c.Kind == honour.NoCountKind {
		return ""
	}
	if !c.Started() {
		return fmt.Sprintf("count -/%d (%s, starts after this move)", c.Limit, c.Kind)
	}
	if called := c.Called(a, u); called != "" {
		return fmt.Sprintf("count %d/%d (%s, called %s)", c.Ply, c.Limit, c.Kind, called)
	}
	return fmt.Sprintf("count %d/%d (%s)", c.Ply, c.Limit, c.Kind)
}

var unicodePieces = [2][tb.NumPieceTypes]string{
	{tb.Rook: "♖", tb.Khon: "♗", tb.Knight: "♘", tb.Met: "♕", tb.Pawn: "♙", tb.King: "♔"},
	{tb.Rook: "♜", tb.Khon: "♝", tb.Knight: "♞", tb.Met: "♛", tb.Pawn: "♟", tb.King: "♚"},
}

// writeBoard draws the board from White's side, rank 8 first.
func writeBoard(w io.Writer, p *tb.Position, ascii bool) {
	for rank := 7; rank >= 0; rank-- {
		fmt.Fprintf(w, "  %d ", rank+1)
		for file := 0; file < 8; file++ {
			c, t := p.PieceAt(tb.NewSquare(file, rank))
			switch {
			case t == tb.NoPiece:
				fmt.Fprint(w, " .")
			case ascii && c == tb.White:
				fmt.Fprintf(w, " %c", p.Game().Letter(t))
			case ascii:
				fmt.Fprintf(w, " %c", p.Game().Letter(t)+'a'-'A')
			default:
				fmt.Fprintf(w, " %s", unicodePieces[c][t])
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "     a b c d e f g h   %s to move\n\n", p.Side.Name())
}

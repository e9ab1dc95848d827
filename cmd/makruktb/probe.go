package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/api"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// probed is a position given on the command line, with its tables and
// the chosen rules. The caller closes tables.
type probed struct {
	pos    tb.Position
	tables *probe.Tables
	rules  honour.Rules
}

// probePosition looks up the rules, parses the FEN given as arguments and
// opens the tables.
func probePosition(dir, rulesName string, args []string) (*probed, error) {
	rules, err := honour.LookupRules(rulesName)
	if err != nil {
		return nil, err
	}
	pos, err := tb.ParseFEN(strings.Join(args, " "))
	if err != nil {
		return nil, err
	}
	tables, err := openTables(dir)
	if err != nil {
		return nil, err
	}
	return &probed{pos: pos, tables: tables, rules: rules}, nil
}

func newProbeCommand() *cobra.Command {
	var dir, rulesName string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "probe [--rules R] [--tables DIR] [--json] FEN",
		Short: "Show a position's result and the result of every legal move",
		Long: `Show a position's mate distance and its category under the honour count
of the rules (win, cursed-win, draw, blessed-loss, loss: cursed and blessed
where the count turns the mate into a draw), then every legal move, best
first for the side to move, with the same for the position after it. The
FEN's count fields give the running count ("-": it starts now). --json
prints a document in the conventions of the lichess tablebase API.
Exit status: 0 with an answer, 1 on an error (a bad FEN, an illegal
position, a table the directory does not hold).`,
		Example: `  makruktb probe "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
  makruktb probe --json "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"`,
		Args: needFEN,
		RunE: func(cmd *cobra.Command, args []string) error {
			pr, err := probePosition(dir, rulesName, args)
			if err != nil {
				return err
			}
			defer pr.tables.Close()
			judged, err := pr.tables.Root(&pr.pos, &pr.rules)
			if err != nil {
				return err
			}
			if asJSON {
				return api.WriteJSON(cmd.OutOrStdout(), api.NewProbe(&pr.pos, judged, &pr.rules))
			}
			writeProbeText(cmd.OutOrStdout(), &pr.pos, judged, &pr.rules)
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addRulesFlag(cmd, &rulesName)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (lichess tablebase API conventions)")
	return cmd
}

// valueText describes a value for the side to move in words.
func valueText(side tb.Color, v value.Value) string {
	switch {
	case v.IsWin():
		return fmt.Sprintf("%s mates in %d (%d plies)", side.Name(), v.Moves(), v.Plies())
	case v.IsLoss() && v.Plies() == 0:
		return fmt.Sprintf("%s is checkmated", side.Name())
	case v.IsLoss():
		return fmt.Sprintf("%s is mated in %d (%d plies)", side.Name(), v.Moves(), v.Plies())
	}
	return "draw"
}

func writeProbeText(w io.Writer, pos *tb.Position, j probe.Root, r *honour.Rules) {
	v := j.Position.Value
	fmt.Fprintf(w, "%s  %s to move\n%s (%s)\n", tb.MaterialOf(pos), pos.Side.Name(), valueText(pos.Side, v), j.Position.Category)
	if !j.Position.Exact {
		fmt.Fprintf(w, "Cannot tell the result under the %s count without the board's-honour table %s (makruktb gen makes it): the categories are the plain DTM results\n",
			r.Name, probe.BoardFileName(tb.MaterialOf(pos), r.Name))
	}
	if len(j.Moves) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, m := range j.Moves {
		mv := m.After.Value.Negate()
		var text string
		switch {
		case mv.IsWin():
			text = fmt.Sprintf("mate in %d", mv.Moves())
		case mv.IsLoss():
			text = fmt.Sprintf("mated in %d", mv.Moves())
		}
		fmt.Fprintf(w, "  %-6s %-13s %s\n", m.Move, m.After.Category.Opposite(), text)
	}
}

func newLineCommand() *cobra.Command {
	var dir, rulesName string
	var ascii, asJSON bool
	var every int
	cmd := &cobra.Command{
		Use:   "line [--rules R] [--tables DIR] [--ascii] [--every N] [--json] FEN",
		Short: "Print an optimal line to mate, with boards along the way",
		Long: `Print the count-aware optimal line from a position: both sides play their
best move under the running honour count of the rules (the quickest win
inside the count, else the quickest cursed win, a draw, or the longest
resistance) until mate. Each move shows the mate distance and the count
after it; a board is drawn every --every plies and at the end. A drawn
position has no line. --json prints the document of /api/v1/line instead.`,
		Example: `  makruktb line "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
  makruktb line --ascii --every 4 "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
  makruktb line --json --rules cambodian "n7/8/7R/8/8/8/8/K3k3 w - - 0 1"`,
		Args: needFEN,
		RunE: func(cmd *cobra.Command, args []string) error {
			if every < 1 {
				return fmt.Errorf("--every %d: must be at least 1", every)
			}
			pr, err := probePosition(dir, rulesName, args)
			if err != nil {
				return err
			}
			defer pr.tables.Close()
			if asJSON {
				doc, err := api.JudgeLine(pr.tables, &pr.pos, &pr.rules)
				if err != nil {
					return err
				}
				return api.WriteJSON(cmd.OutOrStdout(), doc)
			}
			pos, tables, rules := pr.pos, pr.tables, pr.rules
			start, err := tables.Judge(&pos, &rules)
			if err != nil {
				return err
			}
			v := start.Value
			line, err := tables.JudgedLine(&pos, &rules)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%s\n%s (%s, %s rules)\n\n", pos.FEN(), valueText(pos.Side, v), start.Category, rules.Name)
			writeBoard(out, &pos, ascii)
			cur := pos
			for i, m := range line {
				number := fmt.Sprintf("%d.", cur.Fullmove)
				if cur.Side == tb.Black {
					number = fmt.Sprintf("%d...", cur.Fullmove)
				}
				cur = cur.Play(m.Move)
				fmt.Fprintf(out, "%-6s %-6s %-14s %s\n", number, m.Move, afterText(m.After.Value), countText(m.After.Count))
				if (i+1)%every == 0 || i == len(line)-1 {
					fmt.Fprintln(out)
					writeBoard(out, &cur, ascii)
				}
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addRulesFlag(cmd, &rulesName)
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw boards with letters instead of Unicode pieces")
	cmd.Flags().IntVar(&every, "every", 10, "draw the board every N plies")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the line as JSON (the document of /api/v1/line)")
	return cmd
}

// afterText describes the position after a move.
func afterText(v value.Value) string {
	switch {
	case v.IsLoss() && v.Plies() == 0:
		return "checkmate"
	case v.IsMate():
		return fmt.Sprintf("DTM %d plies", v.Plies())
	}
	return "draw"
}

// countText shows a running count, e.g. "count 9/16 (pieces)".
func countText(c honour.Count) string {
	if c.Kind == honour.NoCountKind {
		return ""
	}
	if !c.Started() {
		return fmt.Sprintf("count -/%d (%s, starts after this move)", c.Limit, c.Kind)
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
				fmt.Fprintf(w, " %c", t.Letter())
			case ascii:
				fmt.Fprintf(w, " %c", t.Letter()+'a'-'A')
			default:
				fmt.Fprintf(w, " %s", unicodePieces[c][t])
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "     a b c d e f g h   %s to move\n\n", p.Side.Name())
}

package main

import (
	"fmt"
	"io"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/spf13/cobra"
)

func newCheckCommand() *cobra.Command {
	var dir, rulesName string
	cmd := &cobra.Command{
		Use:   "check [--rules R] [--tables DIR] FEN",
		Short: "Does the position win within its honour count? A verdict for players and arbiters",
		Long: `Give a short verdict on a position under Makruk's honour counts. The FEN's
count fields (countLimit countPly, in plies) give the running count; "-"
means the count starts now.`,
		Example: `  makruktb check "k7/8/8/8/8/2R5/8/1R2K3 b - 16 8 1"
  makruktb check --rules cambodian "k7/8/8/8/8/2R5/8/1R2K3 b - - 0 1"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pr, err := probePosition(dir, rulesName, args)
			if err != nil {
				return err
			}
			defer pr.tables.Close()
			writeVerdict(cmd.OutOrStdout(), &pr.pos, pr.judgement, &pr.rules)
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addRulesFlag(cmd, &rulesName)
	return cmd
}

// countMoves and countPlies write a count with its noun: "1 move", "4 plies".
func countMoves(n int) string { return plural(n, "move", "moves") }
func countPlies(n int) string { return plural(n, "ply", "plies") }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// plies describes a number of plies, in moves when it is even.
func plies(n int) string {
	if n%2 == 0 {
		return countMoves(n / 2)
	}
	return countPlies(n)
}

// writeVerdict writes e.g. "White wins: mate in 7 moves; pieces' honour,
// limit 8 moves, count at ply 8 → 8 plies left → DRAW by the count
// (cursed win)".
func writeVerdict(w io.Writer, pos *tb.Position, j probe.Judgement, r *tb.Rules) {
	v := j.Value
	winner := pos.Side
	if v.IsLoss() {
		winner = pos.Side.Other()
	}
	var head string
	switch {
	case !v.IsMate():
		fmt.Fprintf(w, "Draw: no side can force mate (%s)\n", tb.MaterialOf(pos))
		return
	case v.IsLoss() && v.Plies() == 0:
		fmt.Fprintf(w, "%s is checkmated: %s wins\n", pos.Side.Name(), winner.Name())
		return
	default:
		head = fmt.Sprintf("%s wins: mate in %s (%s)", winner.Name(), countMoves(v.Moves()), countPlies(v.Plies()))
	}
	c := j.Count
	switch c.Kind {
	case tb.NoCountKind:
		fmt.Fprintf(w, "%s; no count runs (%s rules) → WIN\n", head, r.Name)
		return
	case tb.PiecesCount:
		head += "; pieces' honour"
	case tb.BoardCount:
		head += "; board's honour"
	}
	left := r.MatingPlies(c) - 1
	fmt.Fprintf(w, "%s, limit %s, count at ply %d → %s left", head, plies(c.Limit), c.Ply, countPlies(max(left, 0)))
	if j.DTB.IsMate() {
		fmt.Fprintf(w, "; mate or a winning capture of the last piece in %s", countPlies(j.DTB.Plies()))
	}
	fmt.Fprintf(w, " (%s rules) → ", r.Name)
	switch {
	case !j.Exact:
		fmt.Fprintf(w, "cannot tell without the board's-honour table %s (makruktb gen makes it)\n", probe.BoardFileName(tb.MaterialOf(pos), r.Name))
	case j.Category == probe.CategoryWin || j.Category == probe.CategoryLoss:
		fmt.Fprintf(w, "%s WINS within the count\n", winner.Name())
	default:
		fmt.Fprintf(w, "DRAW by the count (%s)\n", j.Category)
	}
}

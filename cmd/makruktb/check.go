package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// exitCannotTell is check's exit status when the verdict needs a table
// that is not there.
const exitCannotTell = 3

func newCheckCommand() *cobra.Command {
	var dir, rulesName string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check [--rules R] [--tables DIR] [--json] FEN",
		Short: "Does the position win within its honour count? A verdict for players and arbiters",
		Long: `Give a short verdict on a position under Makruk's honour counts. The FEN's
count fields (countLimit countPly, in plies) give the running count; "-"
means the count starts now.

Exit status: 0 with a verdict, 3 when the verdict needs a board's-honour
(DTB) table that is not in the table directory (the verdict says which;
"makruktb gen" makes it), 1 on an error.`,
		Example: `  makruktb check "k7/8/8/8/8/2R5/8/1R2K3 b - 16 8 1"
  makruktb check --rules cambodian "k7/8/8/8/8/2R5/8/1R2K3 b - - 0 1"
  makruktb check --json "n7/8/7R/8/8/8/8/K3k3 w - - 0 1"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pr, err := probePosition(dir, rulesName, args)
			if err != nil {
				return err
			}
			defer pr.tables.Close()
			v := judgeVerdict(&pr.pos, pr.judgement, &pr.rules)
			if asJSON {
				doc := checkJSON{positionJSON: newPositionJSON(&pr.pos, pr.judgement, &pr.rules), Result: v.result, Verdict: v.text}
				if err := writeJSON(cmd.OutOrStdout(), doc); err != nil {
					return err
				}
			} else {
				fmt.Fprintln(cmd.OutOrStdout(), v.text)
			}
			if v.result == resultUnknown {
				return &exitStatus{code: exitCannotTell}
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addRulesFlag(cmd, &rulesName)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the verdict as JSON: probe's fields for the position, result and verdict")
	return cmd
}

// checkJSON is check --json's document: the position as probe --json
// gives it (without the moves), the result within the count and the
// verdict in words.
type checkJSON struct {
	positionJSON
	// Result is "white-wins" or "black-wins" (within the count), "draw"
	// (no mate, or the count runs out first), or "unknown" when a missing
	// DTB table is needed to tell.
	Result  string `json:"result"`
	Verdict string `json:"verdict"`
}

// The results of a verdict.
const (
	resultDraw    = "draw"
	resultUnknown = "unknown"
)

// verdict is check's answer: the result and a line of text.
type verdict struct {
	result string
	text   string
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

// judgeVerdict gives the verdict on a judged position, e.g. "White wins:
// mate in 7 moves; pieces' honour, limit 8 moves, count at ply 8 → 8
// plies left → DRAW by the count (cursed-win)".
func judgeVerdict(pos *tb.Position, j honour.Judgement, r *honour.Rules) verdict {
	v := j.Value
	winner := pos.Side
	if v.IsLoss() {
		winner = pos.Side.Other()
	}
	wins := strings.ToLower(winner.Name()) + "-wins"
	switch {
	case !v.IsMate():
		return verdict{resultDraw, fmt.Sprintf("Draw: no side can force mate (%s)", tb.MaterialOf(pos))}
	case v.IsLoss() && v.Plies() == 0:
		return verdict{wins, fmt.Sprintf("%s is checkmated: %s wins", pos.Side.Name(), winner.Name())}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s wins: mate in %s (%s)", winner.Name(), countMoves(v.Moves()), countPlies(v.Plies()))
	c := j.Count
	switch c.Kind {
	case honour.NoCountKind:
		fmt.Fprintf(&b, "; no count runs (%s rules) → WIN", r.Name)
		return verdict{wins, b.String()}
	case honour.PiecesCount:
		b.WriteString("; pieces' honour")
	case honour.BoardCount:
		b.WriteString("; board's honour")
	}
	left := r.MatingPlies(c) - 1
	if c.Started() {
		fmt.Fprintf(&b, ", limit %s, count at ply %d → %s left", plies(c.Limit), c.Ply, countPlies(max(left, 0)))
	} else {
		fmt.Fprintf(&b, ", limit %s, starting after this move (%s has more pieces than may count) → %s left", plies(c.Limit), pos.Side.Name(), countPlies(max(left, 0)))
	}
	if j.DTB.IsMate() {
		fmt.Fprintf(&b, "; mate or a winning capture of the last piece in %s", countPlies(j.DTB.Plies()))
	}
	fmt.Fprintf(&b, " (%s rules) → ", r.Name)
	switch {
	case !j.Exact:
		fmt.Fprintf(&b, "cannot tell without the board's-honour table %s (makruktb gen makes it)", probe.BoardFileName(tb.MaterialOf(pos), r.Name))
		return verdict{resultUnknown, b.String()}
	case j.Category == honour.Win || j.Category == honour.Loss:
		fmt.Fprintf(&b, "%s WINS within the count", winner.Name())
		return verdict{wins, b.String()}
	}
	fmt.Fprintf(&b, "DRAW by the count (%s)", j.Category)
	return verdict{resultDraw, b.String()}
}

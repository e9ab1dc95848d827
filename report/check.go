package report

import (
	"fmt"
	"strings"

	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// Check is check --json's document: the position as probe --json gives
// it (without the moves), the result within the count and the verdict in
// words.
type Check struct {
	Position
	// Result is "white-wins" or "black-wins" (within the count), "draw"
	// (no mate, or the count runs out first), or "unknown" when a missing
	// DTB table is needed to tell.
	Result  string `json:"result"`
	Verdict string `json:"verdict"`
}

// The results of a verdict besides a side's win.
const (
	ResultDraw    = "draw"
	ResultUnknown = "unknown"
)

// verdict is check's answer: the result and a line of text.
type verdict struct {
	result string
	text   string
}

// countMoves and countPlies write a count with its noun: "1 move", "4 plies".
func countMoves(n int) string { return units.Plural(n, "move", "moves") }
func countPlies(n int) string { return units.Plural(n, "ply", "plies") }

// plies describes a number of plies, in moves when it is even.
func plies(n int) string {
	if n%2 == 0 {
		return countMoves(n / 2)
	}
	return countPlies(n)
}

// limitText is a count's limit as its rules count it: in moves (plies
// when odd), or in half-moves.
func limitText(limit int, r *honour.Rules) string {
	if r.Unit == honour.UnitHalfMoves {
		return units.Plural(limit, "half-move", "half-moves")
	}
	return plies(limit)
}

// rulesText names a profile in a sentence: "thai rules", and "rules none"
// for the profile without a count.
func rulesText(r *honour.Rules) string {
	if r.Name == honour.NoRules.Name {
		return "rules none"
	}
	return r.Name + " rules"
}

// NewCheck is the document of pos, judged j under r: its verdict, e.g.
// "White wins: mate in 7 moves; pieces' honour, limit 8 moves, count at
// ply 8 → 8 plies left → DRAW by the count (cursed-win)".
func NewCheck(pos *tb.Position, j honour.Judgement, r *honour.Rules) Check {
	v := judgeVerdict(pos, j, r)
	return Check{Position: NewPosition(pos, j, r), Result: v.result, Verdict: v.text}
}

// judgeVerdict gives the verdict on a judged position.
func judgeVerdict(pos *tb.Position, j honour.Judgement, r *honour.Rules) verdict {
	v := j.Value
	winner := pos.Side
	if v.IsLoss() {
		winner = pos.Side.Other()
	}
	wins := strings.ToLower(winner.Name()) + "-wins"
	switch {
	case !v.IsMate():
		if _, drawn := pos.Game().BareKingOutcome(pos); drawn {
			return verdict{ResultDraw, fmt.Sprintf("Draw: %s's bare king takes %s's last piece, and both kings are bare", pos.Side.Name(), pos.Side.Other().Name())}
		}
		return verdict{ResultDraw, fmt.Sprintf("Draw: no side can force mate (%s)", pos.Game().MaterialName(tb.MaterialOf(pos)))}
	case v.IsLoss() && v.Plies() == 0:
		return verdict{wins, fmt.Sprintf("%s is %s: %s wins", pos.Side.Name(), pos.LostBy(), winner.Name())}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s wins: mate in %s (%s)", winner.Name(), countMoves(v.Moves()), countPlies(v.Plies()))
	c := j.Count
	switch c.Kind {
	case honour.NoCountKind:
		if !pos.Game().HasCount() {
			fmt.Fprintf(&b, "; %s has no count → WIN", pos.Game())
			return verdict{wins, b.String()}
		}
		fmt.Fprintf(&b, "; no count runs (%s) → WIN", rulesText(r))
		return verdict{wins, b.String()}
	case honour.PiecesCount:
		b.WriteString("; pieces' honour")
	case honour.BoardCount:
		b.WriteString("; board's honour")
	}
	left := r.MatingPlies(c) - 1
	counter, _ := c.CountingSide(pos.Side)
	switch {
	case c.Kind == honour.BoardCount && c.Waiting():
		b.WriteString(": no count runs while both sides have as many pieces")
	case !c.Binds(winner == pos.Side):
		fmt.Fprintf(&b, " run by %s, the side with fewer pieces, which may stop it: it does not limit %s's win", counter.Name(), winner.Name())
	case c.Started() && c.Counter != honour.EitherSide:
		fmt.Fprintf(&b, ", limit %s, run by %s, the side with fewer pieces, count at ply %d → %s left", limitText(c.Limit, r), counter.Name(), c.Ply, countPlies(max(left, 0)))
	case c.Started():
		fmt.Fprintf(&b, ", limit %s, count at ply %d → %s left", limitText(c.Limit, r), c.Ply, countPlies(max(left, 0)))
	case c.Counter == honour.OtherCounts:
		fmt.Fprintf(&b, ", limit %s, run by %s, the side with fewer pieces, from its move → %s left", limitText(c.Limit, r), counter.Name(), countPlies(max(left, 0)))
	default:
		fmt.Fprintf(&b, ", limit %s, starting after this move (%s has more pieces than may count) → %s left", limitText(c.Limit, r), pos.Side.Name(), countPlies(max(left, 0)))
	}
	if j.DTB.IsMate() {
		fmt.Fprintf(&b, "; mate or a winning capture of the last piece in %s", countPlies(j.DTB.Plies()))
	}
	fmt.Fprintf(&b, " (%s) → ", rulesText(r))
	switch {
	case !j.Exact && c.Counter == honour.NoCounterUntilCapture:
		b.WriteString("cannot tell: a capture that leaves both sides pieces would start a count the tables do not model")
		return verdict{ResultUnknown, b.String()}
	case !j.Exact:
		fmt.Fprintf(&b, "cannot tell without the board's-honour table %s (makruktb gen makes it)", probe.BoardFileName(tb.MaterialOf(pos), r.Name))
		return verdict{ResultUnknown, b.String()}
	case (j.Category == honour.Win || j.Category == honour.Loss) && !c.Binds(winner == pos.Side):
		fmt.Fprintf(&b, "%s WINS", winner.Name())
		return verdict{wins, b.String()}
	case j.Category == honour.Win || j.Category == honour.Loss:
		fmt.Fprintf(&b, "%s WINS within the count", winner.Name())
		return verdict{wins, b.String()}
	}
	fmt.Fprintf(&b, "DRAW by the count (%s)", j.Category)
	return verdict{ResultDraw, b.String()}
}

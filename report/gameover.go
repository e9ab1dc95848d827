package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// A position whose game ended before its side to move moves has no value
// in the tables (probe.ErrGameOver): in Shatranj the side not to move was
// left with a bare king and did not bare the other in its move, so the
// side to move has won. Its documents give that result.

// gameOverText is the verdict on such a position.
func gameOverText(pos *tb.Position) string {
	return fmt.Sprintf("%s has a bare king: %s wins (the game is over)", pos.Side.Other().Name(), pos.Side.Name())
}

// gameOverPosition is the document of such a position: won by the side
// to move, without a distance.
func gameOverPosition(pos *tb.Position, r *honour.Rules) Position {
	return Position{
		FEN:      pos.FEN(),
		Material: pos.Game().MaterialName(tb.MaterialOf(pos)),
		WDL:      "win",
		Category: honour.Win.String(),
		Exact:    true,
		Count:    NewCount(honour.Count{Kind: honour.NoCountKind}, pos.Side, r),
		InCheck:  pos.InCheck(pos.Side),
		Game:     gameName(pos.Game()),
	}
}

// NewGameOverCheck is check's document of a position whose game is over.
func NewGameOverCheck(pos *tb.Position, r *honour.Rules) Check {
	return Check{Position: gameOverPosition(pos, r), Result: strings.ToLower(pos.Side.Name()) + "-wins", Verdict: gameOverText(pos)}
}

// NewGameOverProbe is probe's document of a position whose game is over:
// no moves.
func NewGameOverProbe(pos *tb.Position, r *honour.Rules) Probe {
	return Probe{Position: gameOverPosition(pos, r), Moves: []Move{}}
}

// WriteGameOverText writes what probe prints for a position whose game is
// over.
func WriteGameOverText(w io.Writer, pos *tb.Position) {
	fmt.Fprintf(w, "%s  %s to move\n%s (win)\n", pos.Game().MaterialName(tb.MaterialOf(pos)), pos.Side.Name(), gameOverText(pos))
}

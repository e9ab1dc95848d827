package uci

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The cambodian first moves the move generator does not make: the king's
// knight leap (not out of check) and the Met's two steps forward, each
// only while its right lasts, never into check. Fuzzing found a king
// "first move" that walked into a knight's check.
func TestCambodianFirstMoves(t *testing.T) {
	d, ok := DialectOf("cambodian")
	require.True(t, ok)
	for _, c := range []struct {
		position string
		legal    bool
	}{
		{"startpos moves d1b2", true},                              // the king leaps as a knight
		{"startpos moves d1b2 d8f7 b2d1", false},                   // its right is spent
		{"startpos moves e1e3", false},                             // the Met's square ahead holds a pawn
		{"fen 4k3/8/8/8/8/8/8/3KM3 w DE - 0 1 moves e1e3", true},   // the Met steps two forward
		{"fen 4k3/8/8/8/8/8/8/3KM3 w DE - 0 1 moves e1g3", false},  // not two diagonally
		{"fen 4k3/8/8/8/8/8/8/3KM3 w DE - 0 1 moves d1d3", false},  // the king does not step two
		{"fen 4m3/8/8/8/8/8/8/3K1k2 b DEe - 0 1 moves e8e6", true}, // Black's Met steps down
		{"fen 4k3/8/8/8/8/4n3/8/3K4 w D - 0 1 moves d1c2", false},  // into the knight's check
		{"fen 4k3/8/8/8/8/8/1n6/3K4 w D - 0 1 moves d1f2", false},  // no leap out of check
		{"fen 4k3/8/8/8/8/8/8/3K4 w D - 0 1 moves d1f2", true},
		{"fen 8/8/8/8/8/8/5k2/3K4 w D - 0 1 moves d1f2", false}, // onto a king
	} {
		t.Run(c.position, func(t *testing.T) {
			g, err := d.ParsePosition(c.position)
			if !c.legal {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.False(t, g.Pos.InCheck(g.Pos.Side.Other()), "the mover's king is not left in check")
		})
	}
}

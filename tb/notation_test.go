package tb

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSAN(t *testing.T) {
	for _, c := range []struct{ fen, uci, san string }{
		{"8/8/8/8/2k5/8/8/KR6 w - - 0 1", "b1d1", "Rd1"},
		{"8/8/8/8/8/2k5/1R6/K7 w - - 0 1", "b2b1", "Rb1"},
		{"k7/8/1K6/8/8/8/8/7R w - - 0 1", "h1h8", "Rh8#"},
		{"R6R/8/8/8/4k3/8/8/4K3 w - - 0 1", "a8d8", "Rad8"},   // the other rook could go to d1 too
		{"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},   // both on the a-file
		{"4k3/8/2n5/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+"},  // check
		{"4k3/8/2n5/8/8/8/8/2R1K3 w - - 0 1", "c1c6", "Rxc6"}, // capture
		{"4k3/8/8/8/8/8/3S4/4K3 w - - 0 1", "d2d3", "Sd3"},    // a Khon steps forward
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d2", "Kd2"},
	} {
		t.Run(c.san, func(t *testing.T) {
			p, err := ParseFEN(c.fen)
			require.NoError(t, err)
			m, ok := p.ParseMove(c.uci)
			require.True(t, ok, c.uci)
			require.Equal(t, c.san, p.SAN(m))
		})
	}
}

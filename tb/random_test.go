package tb

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// RandomPosition gives the material asked, says which placements are
// legal, and reaches every square.
func TestRandomPosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	m := MustParseMaterial("KRPvKN")
	legal, squares := 0, Bitboard(0)
	for range 2000 {
		p, ok := RandomPosition(rng, m, Black)
		require.Equal(t, m, MaterialOf(&p))
		require.Equal(t, Black, p.Side)
		require.Equal(t, ok, p.Validate() == nil, p.FEN())
		if ok {
			legal++
			squares |= p.Occupied()
		}
	}
	require.Greater(t, legal, 400) // a Makruk pawn stands on three ranks
	require.Less(t, legal, 2000, "a pawn on its last rank or White in check is not legal")
	require.Equal(t, ^Bitboard(0), squares)
}

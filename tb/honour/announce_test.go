package honour

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/tb"
)

// Counting aloud: up from where the rules start the count, down to zero.
func TestCalled(t *testing.T) {
	board := Count{Kind: BoardCount, Limit: 128}
	for _, c := range []struct {
		ply      int
		up, down string
	}{
		{0, "0 of 64", "64 left"},
		{1, "1 of 64", "64 left"},
		{2, "1 of 64", "63 left"},
		{3, "2 of 64", "63 left"},
		{127, "64 of 64", "1 left"},
		{128, "64 of 64", "0 left"},
		{130, "65 of 64", "0 left"},
	} {
		board.Ply = c.ply
		require.Equal(t, c.up, board.Called(AnnounceUp, UnitMoves), "ply %d", c.ply)
		require.Equal(t, c.down, board.Called(AnnounceDown, UnitMoves), "ply %d", c.ply)
		require.Empty(t, board.Called(AnnouncePlies, UnitMoves))
	}
	// Thai: a rook's count starts at the number of pieces, KRvK's at 3.
	krvk := ThaiRules.FreshCountFor(tb.MustParseMaterial("KRvK"), tb.Black)
	require.Equal(t, "3 of 16", krvk.Called(AnnounceUp, UnitMoves))
	require.Equal(t, "13 left", krvk.Called(AnnounceDown, UnitMoves))
	require.Empty(t, Count{Kind: NoCountKind}.Called(AnnounceUp, UnitMoves))
	require.Empty(t, Count{Kind: BoardCount, Limit: 128, Ply: -1}.Called(AnnounceDown, UnitMoves), "not started")
	for _, s := range []string{"", "plies", "up", "down"} {
		_, err := ParseAnnouncement(s)
		require.NoError(t, err, s)
	}
	_, err := ParseAnnouncement("sideways")
	require.ErrorContains(t, err, `announce "sideways": plies, up`)
}

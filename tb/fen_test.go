package tb

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFENRoundTrip(t *testing.T) {
	for _, fen := range []string{
		"k7/8/8/8/8/2R5/8/1R2K3 b - 16 8 1",
		"8/1K5R/8/8/8/8/8/k7 b - - 0 1",
		"rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
		"8/8/2s5/3K4/k7/8/8/3Sm3 w - 128 17 40",
	} {
		p, err := ParseFEN(fen)
		require.NoError(t, err, fen)
		require.Equal(t, fen, p.FEN())
	}
}

func TestFENDefaultsAndPromoted(t *testing.T) {
	p, err := ParseFEN("k7/8/8/8/8/2M~5/8/4K3 w")
	require.NoError(t, err)
	require.Equal(t, "k7/8/8/8/8/2M5/8/4K3 w - - 0 1", p.FEN())
	require.Equal(t, NoCount, p.CountLimit)
	c, pt := p.PieceAt(NewSquare(2, 2))
	require.Equal(t, White, c)
	require.Equal(t, Met, pt)
}

func TestFENErrors(t *testing.T) {
	for _, tc := range []struct{ fen, field, msg string }{
		{"", "board", "need at least the board and the side to move"},
		{"k7/8/8/8/8/8/8/7K", "board", "need at least the board and the side to move"},
		{"k7/8/8/8/8/8/7K w", "board", "7 ranks, expected 8"},
		{"k7K w", "board", "1 rank, expected 8"},
		{"k7/8/8/8/8/8/8/6K w", "board", "rank 1 has 7 squares, expected 8"},
		{"k7/8/8/8/8/8/8/7K1 w", "board", "rank 1 has more than 8 squares"},
		{"k7/8/8/8/8/8/8/K7Q w", "board", "'Q' on rank 1 is not a piece (K M S N R P, black in lower case) nor a run of 1 to 8 empty squares"},
		{"9/8/8/8/8/8/8/K7 w", "board", "'9' on rank 8: a run of empty squares is 1 to 8"},
		{"k7/8/8/8/8/8/8/K07 w", "board", "'0' on rank 1: a run of empty squares is 1 to 8"},
		{"k7/8/8/8/8/8/8/KR~6 w", "board", `"R~" on rank 1: only a met (M~) can be a promoted pawn`},
		{"8/8/8/8/8/8/8/K7 w", "position", "Black has no king"},
		{"kk6/8/8/8/8/8/8/K7 w", "position", "Black has 2 kings"},
		{"k7/8/8/8/8/8/8/K7 x", "side", `"x" is neither w nor b`},
		{"k7/8/8/8/8/8/8/K7 w KQ", "castling", `"KQ": Makruk has no castling, expected -`},
		{"k7/8/8/8/8/8/8/K7 w - x 0 1", "count limit", `"x" is neither - (no count yet) nor a number of plies`},
		{"k7/8/8/8/8/8/8/K7 w - 99999 0 1", "count limit", "99999 plies: at most 10000"},
		{"k7/8/8/8/8/8/8/K7 w - 16 10001 1", "count ply", "10001 plies: at most 10000"},
		{"k7/8/8/8/8/8/8/K7 w - 16 8 100001", "move number", "100001: at most 100000"},
		{"k7/8/8/8/8/8/8/K7 w - 16 y 1", "count ply", `"y" is not a number of plies`},
		{"k7/8/8/8/8/8/8/K7 w - - 7 1", "count ply", "7 plies counted, but the count limit is - (no count running): give the limit too (e.g. 16 7), or 0 plies"},
		{"k7/8/8/8/8/8/8/K7 w - 16 8 0", "move number", `"0" is not a positive number`},
		{"k7/8/8/8/8/8/8/K7 w - - 0 1 9", "position", "7 fields, at most 6 expected"},
		{"k7/8/8/8/8/8/P7/K7 w", "position", "White pawn on a2, a rank no pawn can stand on"},
		{"k7/8/8/8/8/p7/8/K7 w", "position", "Black pawn on a3, a rank no pawn can stand on"},
		{"k7/8/8/8/8/8/8/R6K w", "position", "Black is in check but it is White's move"},
		{"kK6/8/8/8/8/8/8/8 b", "position", "White is in check but it is Black's move"},
	} {
		t.Run(tc.fen, func(t *testing.T) {
			_, err := ParseFEN(tc.fen)
			var fe *FENError
			require.True(t, errors.As(err, &fe), "%q: %v", tc.fen, err)
			require.Equal(t, tc.field, fe.Field, tc.fen)
			require.Equal(t, tc.msg, fe.Msg, tc.fen)
		})
	}
}

// FuzzParseFEN: no input panics, and whatever parses formats to a FEN that
// parses to the same position.
func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		"k7/8/8/8/8/2R5/8/1R2K3 b - 16 8 1",
		"rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
		"8/8/2s5/3K4/k7/8/8/3Sm~3 w - - 0 1",
		"k7/8/8/8/8/8/8/K7 w",
		"8/8/8/8/8/8/8/8 w - - 0 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		q, err := ParseFEN(p.FEN())
		if err != nil {
			t.Fatalf("%q formats to %q which does not parse: %v", fen, p.FEN(), err)
		}
		if q != p {
			t.Fatalf("%q: round trip changed the position: %q", fen, q.FEN())
		}
	})
}

// A count limit of 0 is no count running, as Fairy-Stockfish reads it:
// the same position as "-", whatever the ply beside it (issue 58.8).
func TestFENCountLimitZero(t *testing.T) {
	for _, fen := range []string{"8/8/8/3k4/8/8/2R5/K7 b - 0 0 1", "8/8/8/3k4/8/8/2R5/K7 b - 0 7 1"} {
		p, err := ParseFEN(fen)
		require.NoError(t, err, fen)
		require.Equal(t, NoCount, p.CountLimit, fen)
		require.Equal(t, 0, p.CountPly, fen)
		require.Equal(t, "8/8/8/3k4/8/8/2R5/K7 b - - 0 1", p.FEN())
	}
}

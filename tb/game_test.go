package tb

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseGame(t *testing.T) {
	for _, g := range Games() {
		got, err := ParseGame(g.String())
		require.NoError(t, err)
		require.Equal(t, g, got)
	}
	g, err := ParseGame("Shatranj")
	require.NoError(t, err)
	require.Equal(t, Shatranj, g)
	_, err = ParseGame("chess")
	require.EqualError(t, err, `unknown game "chess" (makruk or shatranj)`)
	require.Equal(t, "game(7)", Game(7).String())
}

// The alfil leaps exactly two squares diagonally, over anything, the same
// way for both colours; the khon of the same slot steps, forward.
func TestAlfilMoves(t *testing.T) {
	d4 := NewSquare(3, 3)
	full := ^Bitboard(0)
	want := NewSquare(1, 1).Bitboard() | NewSquare(5, 1).Bitboard() | NewSquare(1, 5).Bitboard() | NewSquare(5, 5).Bitboard()
	for c := White; c <= Black; c++ {
		require.Equal(t, want, Shatranj.Attacks(Alfil, c, d4, full), c.Name())
	}
	require.Equal(t, Attacks(Khon, White, d4, 0), Makruk.Attacks(Khon, White, d4, 0))
	require.NotEqual(t, Makruk.Attacks(Khon, White, d4, 0), Makruk.Attacks(Khon, Black, d4, 0))
	require.Equal(t, NewSquare(2, 2).Bitboard(), Shatranj.Attacks(Alfil, White, NewSquare(0, 0), 0))

	// The alfil on c1 jumps over the rook on d2 to take the ferz on e3.
	p, err := Shatranj.ParseFEN("7k/8/8/8/8/4q3/3R4/K1B5 w - - 0 1")
	require.NoError(t, err)
	var l MoveList
	p.LegalMoves(&l)
	var moves []string
	for _, m := range l.Slice() {
		if p.Occupied().Has(m.To()) {
			moves = append(moves, m.String())
		}
	}
	require.ElementsMatch(t, []string{"c1e3"}, moves)
}

func TestShatranjFEN(t *testing.T) {
	p, err := Shatranj.ParseFEN("8/8/4k3/2B5/8/3Q4/8/R3K3 w - - 12 40")
	require.NoError(t, err)
	require.Equal(t, Shatranj, p.Game())
	require.Equal(t, "8/8/4k3/2B5/8/3Q4/8/R3K3 w - - 0 40", p.FEN())
	require.Equal(t, NoCount, p.CountLimit)
	require.Equal(t, "KRBQvK", Shatranj.MaterialName(MaterialOf(&p)))
	require.Equal(t, "KRSMvK", MaterialOf(&p).String(), "the same slots in Makruk's letters")

	for fen, want := range map[string]string{
		"8/8/4k3/8/2S5/8/8/R3K3 w":       `'S' on rank 4 is not a piece (K Q B N R, black in lower case) nor a run of 1 to 8 empty squares`,
		"8/8/4k3/8/8/8/4P3/R3K3 w":       "a Shatranj position with pawns (the tables and the move generator are pawnless in Shatranj)",
		"8/8/4k3/8/8/8/8/R3K3 w - e3":    `"e3": Shatranj pawns never step two squares, expected -`,
		"8/8/4k3/8/8/8/8/R3K3 w - - x":   `"x" is not a number of plies`,
		"8/8/4k3/8/8/8/8/R3K3 w KQ - 0":  `"KQ": Shatranj has no castling, expected -`,
		"8/8/4k3/8/8/8/8/R3K3 w - - 0 0": `"0" is not a positive number up to 100000`,
		"8/8/4k3/8/2B5/8/8/R3K3 w":       "Black is in check but it is White's move", // the alfil on c4 leaps to e6
	} {
		_, err := Shatranj.ParseFEN(fen)
		var fe *FENError
		require.ErrorAs(t, err, &fe, fen)
		require.Equal(t, want, fe.Msg, fen)
	}
	// Black's ferz on e2 does not attack e1 orthogonally: only a Makruk
	// reading would differ, and neither game calls this check.
	_, err = Shatranj.ParseFEN("4k3/8/8/8/8/8/4q3/4K3 w")
	require.NoError(t, err)
}

func TestShatranjMaterials(t *testing.T) {
	m, err := Shatranj.ParseMaterial("kbbvkq")
	require.NoError(t, err)
	require.Equal(t, 2, m.Count(White, Alfil))
	require.Equal(t, 1, m.Count(Black, Ferz))
	require.Equal(t, "KBBvKQ", Shatranj.MaterialName(m))
	_, err = Shatranj.ParseMaterial("KSvK")
	require.EqualError(t, err, `material "KSvK": unknown piece 'S' (expected R B N Q)`)
	_, err = Shatranj.ParseMaterial("KPvK")
	require.EqualError(t, err, `material "KPvK": unknown piece 'P' (expected R B N Q)`)
	_, err = ParseMaterial("KBvK")
	require.EqualError(t, err, `material "KBvK": unknown piece 'B' (expected R S N M P)`)
}

// The bare-king rule: a side left with its king alone loses, unless it can
// take the other side's last piece at once.
func TestBareKingOutcome(t *testing.T) {
	for _, c := range []struct {
		fen         string
		lost, drawn bool
		why         string
	}{
		{"8/8/8/8/8/3k4/3R4/K7 b", false, true, "the rook stands next to the bare king, unguarded"},
		{"8/8/8/8/8/3k4/3R4/2K5 b", true, false, "the white king guards the rook"},
		{"8/8/8/8/8/3k4/8/K2R4 b", true, false, "the rook is out of reach"},
		{"8/8/8/8/8/3k4/3R4/K2B4 b", true, false, "two pieces: taking one leaves the other"},
		{"8/8/8/8/8/3k4/3R4/K2b4 b", false, false, "Black is not bare"},
		{"8/8/8/8/8/3k4/8/K7 b", false, false, "both kings bare"},
	} {
		p, err := Shatranj.ParseFEN(c.fen)
		require.NoError(t, err, c.fen)
		lost, drawn := Shatranj.BareKingOutcome(&p)
		require.Equal(t, c.lost, lost, c.why)
		require.Equal(t, c.drawn, drawn, c.why)
		p.SetGame(Makruk)
		lost, drawn = Makruk.BareKingOutcome(&p)
		require.False(t, lost || drawn, "Makruk has no bare-king rule")
	}
}

// Without a legal move the side to move has lost when in check, or when
// stalemated where stalemate loses (Shatranj); a Makruk stalemate is a
// draw.
func TestLostWithoutMove(t *testing.T) {
	for _, c := range []struct {
		game Game
		fen  string
		lost bool
	}{
		{Makruk, "k7/1R6/1K6/8/8/8/8/8 b - - 0 1", false},  // stalemate
		{Makruk, "k7/1R6/2K5/8/8/8/8/R7 b - - 0 1", true},  // mated: b7 guarded, a-file held
		{Shatranj, "k7/1R6/1K6/8/8/8/8/8 b - - 0 1", true}, // stalemate loses
	} {
		p, err := c.game.ParseFEN(c.fen)
		require.NoError(t, err)
		require.False(t, p.HasLegalMove(), c.fen)
		require.Equal(t, c.lost, p.LostWithoutMove(), "%s %s", c.game, c.fen)
	}
}

// A bare king to move in Shatranj may only take the other side's last
// piece; with two pieces left it may not move at all. Makruk has no such
// rule.
func TestBareKingAllows(t *testing.T) {
	allowed := func(g Game, fen string) []string {
		p, err := g.ParseFEN(fen)
		require.NoError(t, err)
		var l MoveList
		p.LegalMoves(&l)
		var out []string
		for _, m := range l.Slice() {
			if g.BareKingAllows(&p, m) {
				out = append(out, m.String())
			}
		}
		return out
	}
	require.Equal(t, []string{"a1b2"}, allowed(Shatranj, "7k/8/8/8/8/8/1r6/K7 w - - 0 1"))
	require.Empty(t, allowed(Shatranj, "7k/8/8/8/8/8/1r6/K5r1 w - - 0 1"))
	require.Empty(t, allowed(Shatranj, "7k/8/8/8/8/2r5/8/K7 w - - 0 1"), "the last piece out of reach")
	require.Len(t, allowed(Makruk, "7k/8/8/8/8/2r5/8/K7 w - - 0 1"), 3)
	p, err := Shatranj.ParseFEN("7k/8/8/8/8/8/1r6/K7 w - - 0 1")
	require.NoError(t, err)
	require.True(t, p.Bare(White))
	require.False(t, p.Bare(Black))
}

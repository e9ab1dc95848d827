package uci

import (
	"fmt"
	"strings"

	"github.com/makruktb/makruktb/tb"
)

// Game is a position as a UCI position command reaches it: the board,
// Fairy-Stockfish's count, and (cambodian) the first-move rights still
// unused, which allow moves the tables do not know (the king's leap, the
// Met's double step).
type Game struct {
	Dialect *Dialect
	Pos     tb.Position
	Count   Count
	// Rights holds the squares of the kings and Mets that may still make
	// their cambodian first move (the FEN's third field, e.g. "DEde").
	Rights tb.Bitboard
}

// MoveError says which move of a position command could not be played.
type MoveError struct {
	Move string
	FEN  string // the position it was to be played from
}

func (e *MoveError) Error() string {
	return fmt.Sprintf("move %q is not legal in %s", e.Move, e.FEN)
}

// NewGame returns the game at a FEN, read as Fairy-Stockfish reads it for
// the dialect's variant.
func (d *Dialect) NewGame(fen string) (*Game, error) {
	fields := strings.Fields(fen)
	var rights tb.Bitboard
	if len(fields) > 2 && fields[2] != "-" {
		if !d.cambodian {
			return nil, &tb.FENError{FEN: fen, Field: "castling", Msg: fmt.Sprintf("%q: %s has no first-move rights, expected -", fields[2], d.Variant)}
		}
		for _, ch := range fields[2] {
			switch {
			case ch >= 'A' && ch <= 'H':
				rights |= tb.NewSquare(int(ch-'A'), 0).Bitboard()
			case ch >= 'a' && ch <= 'h':
				rights |= tb.NewSquare(int(ch-'a'), 7).Bitboard()
			default:
				return nil, &tb.FENError{FEN: fen, Field: "castling", Msg: fmt.Sprintf("%q: expected files of kings and Mets (as in DEde) or -", fields[2])}
			}
		}
		fields[2] = "-"
	}
	if len(fields) > 5 && fields[5] == "0" {
		fields[5] = "1" // a common misnumbering Fairy-Stockfish accepts
	}
	p, err := tb.ParseFEN(strings.Join(fields, " "))
	if err != nil {
		return nil, err
	}
	g := &Game{Dialect: d, Pos: p, Count: d.countOfFEN(&p)}
	g.Rights = rights & (g.Pos.ByType(tb.King) | g.Pos.ByType(tb.Met))
	return g, nil
}

// ParsePosition plays a UCI position command's arguments: "startpos" or
// "fen FIELDS…", then optionally "moves M…".
func (d *Dialect) ParsePosition(args string) (*Game, error) {
	words := strings.Fields(args)
	var fen string
	rest := words
	switch {
	case len(words) > 0 && words[0] == "startpos":
		fen, rest = d.StartFEN, words[1:]
	case len(words) > 1 && words[0] == "fen":
		end := 1
		for end < len(words) && words[end] != "moves" {
			end++
		}
		fen, rest = strings.Join(words[1:end], " "), words[end:]
	default:
		return nil, fmt.Errorf("position %q: expected startpos or fen", args)
	}
	g, err := d.NewGame(fen)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return nil, fmt.Errorf("position %q: expected moves after the position, not %q", args, rest[0])
		}
		for _, mv := range rest[1:] {
			if err := g.Play(mv); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}

// Play plays a move in UCI notation ("e3e4", "e5e6m" or "e5e6" for a
// promotion), keeping the count and the first-move rights.
func (g *Game) Play(move string) error {
	m, ok := g.Pos.ParseMove(move)
	if !ok && len(move) == 4 {
		m, ok = g.Pos.ParseMove(move + "m")
	}
	if !ok {
		m, ok = g.firstMove(move)
	}
	if !ok {
		return &MoveError{Move: move, FEN: g.Pos.FEN()}
	}
	g.PlayMove(m)
	return nil
}

// PlayMove plays a legal move.
func (g *Game) PlayMove(m tb.Move) {
	g.Count = g.Dialect.Next(&g.Pos, m, g.Count)
	g.Pos = g.Pos.Play(m)
	g.Rights &^= m.From().Bitboard() | m.To().Bitboard()
	g.Pos.CountLimit, g.Pos.CountPly = tb.NoCount, 0
	if g.Count.Running() {
		g.Pos.CountLimit, g.Pos.CountPly = g.Count.Limit, g.Count.Ply
	}
}

// firstMove reads a cambodian first move of a king or Met that still has
// its right (a move the move generator does not make): the king's leap as
// a knight, when it is not in check, or the Met's step two squares
// straight forward. Its piece must be the side to move's, its target not
// hold one of that side's pieces nor a king, and it may not leave its own
// king in check.
func (g *Game) firstMove(move string) (tb.Move, bool) {
	if len(move) != 4 {
		return tb.NoMove, false
	}
	from, ok1 := parseSquare(move[:2])
	to, ok2 := parseSquare(move[2:])
	if !ok1 || !ok2 || !g.Rights.Has(from) {
		return tb.NoMove, false
	}
	c, t := g.Pos.PieceAt(from)
	if c != g.Pos.Side || g.Pos.ByColor(c).Has(to) || g.Pos.ByType(tb.King).Has(to) {
		return tb.NoMove, false
	}
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	forward := 1
	if c == tb.Black {
		forward = -1
	}
	switch {
	case t == tb.King && df*df+dr*dr == 5 && !g.Pos.InCheck(c):
	case t == tb.Met && df == 0 && dr == 2*forward:
	default:
		return tb.NoMove, false
	}
	m := tb.NewMove(from, to)
	if q := g.Pos.Play(m); q.InCheck(c) {
		return tb.NoMove, false
	}
	return m, true
}

func parseSquare(s string) (tb.Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return 0, false
	}
	return tb.NewSquare(int(s[0]-'a'), int(s[1]-'1')), true
}

// FEN returns the game's position with its count fields ("-" and 0 when
// no count runs); cambodian first-move rights are not written.
func (g *Game) FEN() string { return g.Pos.FEN() }

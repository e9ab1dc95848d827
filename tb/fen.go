package tb

import (
	"fmt"
	"strconv"
	"strings"
)

// FENError says what is wrong with a FEN and in which field.
type FENError struct {
	FEN   string
	Field string // "board", "side", "castling", "count limit", "count ply", "en passant", "halfmove clock", "move number" or "position"
	Msg   string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("fen %q: %s: %s", e.FEN, e.Field, e.Msg)
}

// MaxCountPlies is the largest count a FEN's count fields (and a rule
// profile's limits) may give.
const MaxCountPlies = 10000

// The largest move number a FEN may give.
const maxFullmove = 100000

// ParseFEN parses a Makruk FEN as Fairy-Stockfish and pychess write it:
//
//	board side castling countLimit countPly fullmove
//
// e.g. "k7/8/8/8/8/2R5/8/1R2K3 b - 16 8 1". Only board and side are
// required; missing fields default to "- - 0 1". A promoted pawn "M~" is read
// as a Met. The position must be legal: one king of each colour, pawns only
// on ranks they can stand on, and the side not to move not in check.
func ParseFEN(fen string) (Position, error) { return Makruk.ParseFEN(fen) }

// ParseFEN parses a FEN of game g. Makruk's is described at the function
// ParseFEN; Shatranj's is Fairy-Stockfish's (letters R B N Q P K, B the
// alfil and Q the ferz):
//
//	board side castling enPassant halfmoveClock fullmove
//
// where castling and en passant are "-" and the halfmove clock, which no
// Shatranj rule reads, is checked and dropped; no count runs.
func (g Game) ParseFEN(fen string) (Position, error) {
	var p Position
	if !g.Valid() {
		return Position{}, &FENError{FEN: fen, Field: "position", Msg: g.String() + " is not a game"}
	}
	p.game = g
	fail := func(field, format string, args ...any) (Position, error) {
		return Position{}, &FENError{FEN: fen, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	fields := strings.Fields(fen)
	if len(fields) < 2 {
		return fail("board", "need at least the board and the side to move")
	}
	if len(fields) > 6 {
		return fail("position", "%d fields, at most 6 expected", len(fields))
	}
	if err := p.parseBoard(fields[0]); err != "" {
		return fail("board", "%s", err)
	}
	switch fields[1] {
	case "w":
		p.Side = White
	case "b":
		p.Side = Black
	default:
		return fail("side", "%q is neither w nor b", fields[1])
	}
	if len(fields) > 2 && fields[2] != "-" {
		return fail("castling", "%q: %s has no castling, expected -", fields[2], g.title())
	}
	p.CountLimit, p.Fullmove = NoCount, 1
	if g == Shatranj {
		return g.parseShatranjCounters(p, fields, fail)
	}
	// The numeric fields: which, its bounds, what a wrong one is not, and
	// where it goes.
	for _, f := range []struct {
		i        int
		field    string
		lo, hi   int
		unit     string
		expected string
		dst      *int
	}{
		{3, "count limit", 0, MaxCountPlies, " plies", "neither - (no count yet) nor a number of plies", &p.CountLimit},
		{4, "count ply", 0, MaxCountPlies, " plies", "not a number of plies", &p.CountPly},
		{5, "move number", 1, maxFullmove, "", "not a positive number", &p.Fullmove},
	} {
		if len(fields) <= f.i || f.i == 3 && fields[3] == "-" {
			continue
		}
		n, err := strconv.Atoi(fields[f.i])
		switch {
		case err != nil || n < f.lo:
			return fail(f.field, "%q is %s", fields[f.i], f.expected)
		case n > f.hi:
			return fail(f.field, "%d%s: at most %d", n, f.unit, f.hi)
		}
		*f.dst = n
	}
	// A limit of 0 is no count running, as Fairy-Stockfish reads it (its
	// count_limit 0: not counting), whatever the ply says: the same as -.
	if p.CountLimit == 0 {
		p.CountLimit, p.CountPly = NoCount, 0
	}
	if p.CountLimit == NoCount && p.CountPly != 0 {
		return fail("count ply", "%d plies counted, but the count limit is - (no count running): give the limit too (e.g. 16 %d), or 0 plies", p.CountPly, p.CountPly)
	}
	if msg := p.validate(); msg != "" {
		return fail("position", "%s", msg)
	}
	return p, nil
}

// parseBoard reads the piece placement; it returns a message on error.
func (p *Position) parseBoard(board string) string {
	ranks := strings.Split(board, "/")
	if len(ranks) != 8 {
		if len(ranks) == 1 {
			return "1 rank, expected 8"
		}
		return fmt.Sprintf("%d ranks, expected 8", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			if ch >= '0' && ch <= '9' {
				if ch == '0' || ch == '9' {
					return fmt.Sprintf("%q on rank %d: a run of empty squares is 1 to 8", ch, rank+1)
				}
				file += int(ch - '0')
				if file > 8 {
					return fmt.Sprintf("rank %d has more than 8 squares", rank+1)
				}
				continue
			}
			c := White
			if ch >= 'a' && ch <= 'z' {
				c, ch = Black, ch-'a'+'A'
			}
			t, ok := p.game.pieceOfLetter(ch)
			if !ok {
				return fmt.Sprintf("%q on rank %d is not a piece (K %s, black in lower case) nor a run of 1 to 8 empty squares", row[j], rank+1, p.game.fenLetterList())
			}
			if j+1 < len(row) && row[j+1] == '~' {
				if t != Met || p.game != Makruk {
					return fmt.Sprintf("%q on rank %d: only a met (M~) can be a promoted pawn", row[j:j+2], rank+1)
				}
				j++
			}
			if file >= 8 {
				return fmt.Sprintf("rank %d has more than 8 squares", rank+1)
			}
			p.Put(c, t, NewSquare(file, rank))
			file++
		}
		if file != 8 {
			return fmt.Sprintf("rank %d has %d squares, expected 8", rank+1, file)
		}
	}
	return ""
}

// validate checks that the placement is a legal Makruk position.
func (p *Position) validate() string {
	for c := White; c <= Black; c++ {
		switch n := p.Pieces(c, King).Count(); n {
		case 0:
			return c.Name() + " has no king"
		case 1:
		default:
			return fmt.Sprintf("%s has %d kings", c.Name(), n)
		}
		if p.game == Shatranj && p.Pieces(c, Pawn) != 0 {
			return "a Shatranj position with pawns (the tables and the move generator are pawnless in Shatranj)"
		}
		for pawns := p.Pieces(c, Pawn); pawns != 0; {
			s := pawns.PopFirst()
			lo, hi := startRank[c], promotionRank[c]-1
			if c == Black {
				lo, hi = promotionRank[c]+1, startRank[c]
			}
			if s.Rank() < lo || s.Rank() > hi {
				return fmt.Sprintf("%s pawn on %s, a rank no pawn can stand on", c.Name(), s)
			}
		}
	}
	if p.InCheck(p.Side.Other()) {
		return fmt.Sprintf("%s is in check but it is %s's move", p.Side.Other().Name(), p.Side.Name())
	}
	return ""
}

// Validate reports whether p is a legal position (see ParseFEN).
func (p *Position) Validate() error {
	if msg := p.validate(); msg != "" {
		return &FENError{FEN: p.FEN(), Field: "position", Msg: msg}
	}
	return nil
}

// BoardFEN returns the piece-placement field of the FEN.
func (p *Position) BoardFEN() string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			c, t := p.PieceAt(NewSquare(file, rank))
			if t == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			ch := p.game.Letter(t)
			if c == Black {
				ch += 'a' - 'A'
			}
			b.WriteByte(ch)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// FEN returns the position's FEN with all six fields.
func (p *Position) FEN() string {
	limit := "-"
	if p.CountLimit != NoCount {
		limit = strconv.Itoa(p.CountLimit)
	}
	move := p.Fullmove
	if move < 1 {
		move = 1
	}
	if p.game == Shatranj {
		return fmt.Sprintf("%s %s - - 0 %d", p.BoardFEN(), p.Side, move)
	}
	return fmt.Sprintf("%s %s - %s %d %d", p.BoardFEN(), p.Side, limit, p.CountPly, move)
}

// String returns the FEN.
func (p Position) String() string { return p.FEN() }

// parseShatranjCounters reads the last three fields of a Shatranj FEN:
// en passant ("-"), the halfmove clock (checked, dropped) and the move
// number.
func (g Game) parseShatranjCounters(p Position, fields []string, fail func(field, format string, args ...any) (Position, error)) (Position, error) {
	if len(fields) > 3 && fields[3] != "-" {
		return fail("en passant", "%q: Shatranj pawns never step two squares, expected -", fields[3])
	}
	if len(fields) > 4 {
		if n, err := strconv.Atoi(fields[4]); err != nil || n < 0 || n > maxFullmove {
			return fail("halfmove clock", "%q is not a number of plies", fields[4])
		}
	}
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 1 || n > maxFullmove {
			return fail("move number", "%q is not a positive number up to %d", fields[5], maxFullmove)
		}
		p.Fullmove = n
	}
	if msg := p.validate(); msg != "" {
		return fail("position", "%s", msg)
	}
	return p, nil
}

// title is the game's name with a capital, for messages.
func (g Game) title() string {
	s := g.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

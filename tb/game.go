package tb

import (
	"fmt"
	"strings"
)

// Game is the game whose rules a position follows: Makruk, or Shatranj,
// the ancestor Makruk shares most of its endgame pieces with.
//
// The two games differ in one piece and in three rules, so a Game is data
// the move generator and the solver read, not a second implementation:
//
//	                 Makruk                        Shatranj
//	elephant slot    khon (S): a step forward or   alfil (B): a leap of exactly
//	                 diagonally                    two squares diagonally, over
//	                                               anything
//	met slot         met (M): a step diagonally    ferz (Q): the same move
//	rook, knight,    R, N, K                       R, N, K, the same moves
//	king
//	stalemate        a draw                        a loss for the side stalemated
//	bare king        the game goes on (the         loses, unless it bares the
//	                 counting rules end it)        other king at once (a draw)
//	counting rule    the honour counts             none
//
// The Khon descends from the alfil (both are the elephant of the Indian
// game), so one piece type, Khon, holds both: it moves as a khon in Makruk
// and as an alfil in Shatranj. Alfil and Ferz name the slots in Shatranj
// code. The zero Game is Makruk, so a Position that never heard of games is
// a Makruk position.
type Game uint8

const (
	Makruk Game = iota
	Shatranj
	numGames
)

// Alfil and Ferz are Shatranj's names of the piece types it shares with
// Makruk's khon and met slots.
const (
	Alfil = Khon
	Ferz  = Met
)

// Games lists every game, Makruk first.
func Games() []Game { return []Game{Makruk, Shatranj} }

var gameNames = [numGames]string{"makruk", "shatranj"}

// String returns the game's name in lower case, as flags and file headers
// write it.
func (g Game) String() string {
	if g >= numGames {
		return fmt.Sprintf("game(%d)", uint8(g))
	}
	return gameNames[g]
}

// Valid reports whether g is a known game.
func (g Game) Valid() bool { return g < numGames }

// ParseGame reads a game's name ("makruk" or "shatranj", any case).
func ParseGame(name string) (Game, error) {
	for g, n := range gameNames {
		if strings.EqualFold(name, n) {
			return Game(g), nil
		}
	}
	return 0, fmt.Errorf("unknown game %q (makruk or shatranj)", name)
}

// letters holds each game's upper-case FEN letter of each piece type, in
// PieceType order (rook, elephant, knight, met, pawn, king).
var letters = [numGames]string{"RSNMPK", "RBNQPK"}

// Letter returns the piece type's upper-case FEN letter in the game.
func (g Game) Letter(t PieceType) byte {
	if t >= NumPieceTypes || g >= numGames {
		return '?'
	}
	return letters[g][t]
}

// PieceName returns the piece type's name in the game ("alfil", "ferz" in
// Shatranj; as PieceType.String in Makruk).
func (g Game) PieceName(t PieceType) string {
	if g == Shatranj {
		switch t {
		case Alfil:
			return "alfil"
		case Ferz:
			return "ferz"
		}
	}
	return t.String()
}

// pieceOfLetter maps an upper-case FEN letter of the game to its type.
func (g Game) pieceOfLetter(ch byte) (PieceType, bool) {
	if g >= numGames {
		return NoPiece, false
	}
	if i := strings.IndexByte(letters[g], ch); i >= 0 {
		return PieceType(i), true
	}
	return NoPiece, false
}

// fenLetterList is the game's non-king FEN letters, for messages.
func (g Game) fenLetterList() string {
	if g == Shatranj {
		return "Q B N R"
	}
	return "M S N R P"
}

// StalemateLoses reports whether a stalemated side loses (Shatranj) rather
// than draws (Makruk).
func (g Game) StalemateLoses() bool { return g == Shatranj }

// BareKingLoses reports whether a side left with its king alone loses
// (Shatranj), unless it can bare the other king on its very move (see
// BareKingOutcome). In Makruk the game goes on and the counts end it.
func (g Game) BareKingLoses() bool { return g == Shatranj }

// HasCount reports whether the game has Makruk's honour counts.
func (g Game) HasCount() bool { return g == Makruk }

// elephantSteps[g][c][s]: where the elephant-slot piece of colour c on s
// attacks in game g. The khon steps towards the opponent, so its squares
// depend on its colour; the alfil's do not.
var elephantSteps [numGames][2][64]Bitboard

func init() {
	elephantSteps[Makruk] = khonSteps
	for s := Square(0); s < 64; s++ {
		var b Bitboard
		for _, d := range [4][2]int{{2, 2}, {-2, 2}, {2, -2}, {-2, -2}} {
			f, r := s.File()+d[0], s.Rank()+d[1]
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				b |= NewSquare(f, r).Bitboard()
			}
		}
		elephantSteps[Shatranj][White][s] = b
		elephantSteps[Shatranj][Black][s] = b
	}
}

// Attacks returns the squares attacked by a piece of type t and colour c on
// s in game g, with the board occupied by occ. Pawns attack only
// diagonally.
func (g Game) Attacks(t PieceType, c Color, s Square, occ Bitboard) Bitboard {
	if t == Khon {
		return elephantSteps[g][c][s]
	}
	return Attacks(t, c, s, occ)
}

// SymmetricElephant reports whether the game's elephant-slot piece moves
// the same way for both colours and in every direction (the alfil), so
// that tables holding one keep all eight symmetries of the board.
func (g Game) SymmetricElephant() bool { return g == Shatranj }

// BareKingOutcome says what becomes of p under the bare-king rule of a game
// where a bare king loses (Shatranj), once a capture has left the side to
// move with its king alone: lost at once (true, false), unless the
// opponent has exactly one piece left and the bare king can take it (the
// piece stands next to it and the other king does not guard it), which
// bares both kings: a draw (false, true). decided is false when the side to
// move is not bare, or the opponent is bare too.
func (g Game) BareKingOutcome(p *Position) (lost, drawn bool) {
	us, them := p.Side, p.Side.Other()
	theirs := p.byColor[them] &^ p.byType[King]
	if !g.BareKingLoses() || !p.Bare(us) || theirs == 0 {
		return false, false
	}
	if theirs.Count() == 1 {
		piece := theirs.First()
		if kingSteps[p.KingSquare(us)].Has(piece) && !kingSteps[p.KingSquare(them)].Has(piece) {
			return false, true
		}
	}
	return true, false
}

// materialLetterList is the letters a material name of the game may use.
func (g Game) materialLetterList() string {
	if g == Shatranj {
		return "R B N Q"
	}
	return "R S N M P"
}

// LostWithoutMove is the one-ply rule for a position whose side to move
// has no legal move: it has lost when in check (mated), or stalemated
// where stalemate loses (Shatranj); otherwise stalemate is a draw. The
// generator's seed, the verifier and the prober's one-ply search all ask
// it.
func (p *Position) LostWithoutMove() bool {
	return p.InCheck(p.Side) || p.game.StalemateLoses()
}

// Bare reports whether side c of p has its king alone.
func (p *Position) Bare(c Color) bool { return p.byColor[c]&^p.byType[King] == 0 }

// BareKingAllows reports whether the bare-king rule lets the side to move
// of p play m: where a bare king loses (Shatranj), a bare king to move may
// only take the other side's last piece (which bares both kings: a draw);
// with no such capture it has lost (BareKingOutcome). Every move is
// allowed otherwise.
func (g Game) BareKingAllows(p *Position, m Move) bool {
	if !g.BareKingLoses() || !p.Bare(p.Side) {
		return true
	}
	return (p.byColor[p.Side.Other()]&^p.byType[King]).Count() == 1 && p.IsCapture(m)
}

// LostBy says how the side to move of p, which has lost already, lost:
// "checkmated", or in Shatranj also "stalemated" or "left with a bare king".
func (p *Position) LostBy() string {
	if lost, _ := p.game.BareKingOutcome(p); lost {
		return "left with a bare king"
	}
	if p.game.StalemateLoses() && !p.InCheck(p.Side) {
		return "stalemated"
	}
	return "checkmated"
}

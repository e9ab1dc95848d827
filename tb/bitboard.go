// Package tb is the Makruk game model that the tablebases are built on:
// squares and bitboards, pieces, positions, FEN with counts, legal moves and
// un-moves, material signatures and counting-rule profiles.
//
// Squares are numbered a1 = 0, b1 = 1, …, h8 = 63 (square = 8·rank + file).
// White moves up the board (towards rank 8).
package tb

import (
	"math/bits"
)

// Square is a board square, a1 = 0 … h8 = 63.
type Square int8

// NoSquare marks the absence of a square.
const NoSquare Square = -1

// NewSquare returns the square on file f and rank r (both 0…7).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0 for the a-file … 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 for the first rank … 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

// Bitboard returns the set containing only s.
func (s Square) Bitboard() Bitboard { return 1 << uint(s) }

// String returns the algebraic name, e.g. "e4".
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// Bitboard is a set of squares, bit i standing for square i.
type Bitboard uint64

// Count returns the number of squares in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square in b; b must not be empty.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// Last returns the highest square in b; b must not be empty.
func (b Bitboard) Last() Square { return Square(63 - bits.LeadingZeros64(uint64(b))) }

// PopFirst removes and returns the lowest square of *b.
func (b *Bitboard) PopFirst() Square {
	s := b.First()
	*b &= *b - 1
	return s
}

// Has reports whether s is in b.
func (b Bitboard) Has(s Square) bool { return b&(1<<uint(s)) != 0 }

// MirrorFiles reflects b left–right (a-file ↔ h-file).
func (b Bitboard) MirrorFiles() Bitboard {
	x := uint64(b)
	x = (x>>1)&0x5555555555555555 | (x&0x5555555555555555)<<1
	x = (x>>2)&0x3333333333333333 | (x&0x3333333333333333)<<2
	x = (x>>4)&0x0f0f0f0f0f0f0f0f | (x&0x0f0f0f0f0f0f0f0f)<<4
	return Bitboard(x)
}

// MirrorRanks reflects b top–bottom (rank 1 ↔ rank 8).
func (b Bitboard) MirrorRanks() Bitboard { return Bitboard(bits.ReverseBytes64(uint64(b))) }

// FlipDiagonal reflects b in the a1–h8 diagonal (file ↔ rank).
func (b Bitboard) FlipDiagonal() Bitboard {
	x := uint64(b)
	t := 0x0f0f0f0f00000000 & (x ^ (x << 28))
	x ^= t ^ (t >> 28)
	t = 0x3333000033330000 & (x ^ (x << 14))
	x ^= t ^ (t >> 14)
	t = 0x5500550055005500 & (x ^ (x << 7))
	x ^= t ^ (t >> 7)
	return Bitboard(x)
}

// Precomputed step attacks. khonSteps and pawnAttacks are per colour, since
// those pieces move towards the opponent.
var (
	kingSteps   [64]Bitboard
	knightSteps [64]Bitboard
	metSteps    [64]Bitboard
	khonSteps   [2][64]Bitboard
	pawnPushes  [2][64]Bitboard
	pawnAttacks [2][64]Bitboard
	rays        [4][64]Bitboard  // north, east, south, west; excluding the origin
	between     [64][64]Bitboard // squares strictly between two squares on a rank or file
	rookLines   [64]Bitboard     // the rank and file through a square, without it
)

const (
	rayNorth = iota
	rayEast
	raySouth
	rayWest
)

func init() {
	type delta struct{ df, dr int }
	steps := func(s Square, ds []delta) Bitboard {
		var b Bitboard
		for _, d := range ds {
			f, r := s.File()+d.df, s.Rank()+d.dr
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				b |= NewSquare(f, r).Bitboard()
			}
		}
		return b
	}
	diagonals := []delta{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
	around := append([]delta{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}, diagonals...)
	leaps := []delta{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	rayDeltas := [4]delta{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
	for s := Square(0); s < 64; s++ {
		kingSteps[s] = steps(s, around)
		knightSteps[s] = steps(s, leaps)
		metSteps[s] = steps(s, diagonals)
		khonSteps[White][s] = steps(s, append([]delta{{0, 1}}, diagonals...))
		khonSteps[Black][s] = steps(s, append([]delta{{0, -1}}, diagonals...))
		pawnPushes[White][s] = steps(s, []delta{{0, 1}})
		pawnPushes[Black][s] = steps(s, []delta{{0, -1}})
		pawnAttacks[White][s] = steps(s, []delta{{1, 1}, {-1, 1}})
		pawnAttacks[Black][s] = steps(s, []delta{{1, -1}, {-1, -1}})
		for dir, d := range rayDeltas {
			var path Bitboard
			for f, r := s.File()+d.df, s.Rank()+d.dr; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+d.df, r+d.dr {
				t := NewSquare(f, r)
				between[s][t] = path
				path |= t.Bitboard()
			}
			rays[dir][s] = path
			rookLines[s] |= path
		}
	}
}

// RookAttacks returns the squares a rook on s attacks with the board
// occupied by occ (blockers included, squares behind them excluded).
func RookAttacks(s Square, occ Bitboard) Bitboard {
	a := rays[rayNorth][s]
	if b := a & occ; b != 0 {
		a ^= rays[rayNorth][b.First()]
	}
	e := rays[rayEast][s]
	if b := e & occ; b != 0 {
		e ^= rays[rayEast][b.First()]
	}
	so := rays[raySouth][s]
	if b := so & occ; b != 0 {
		so ^= rays[raySouth][b.Last()]
	}
	w := rays[rayWest][s]
	if b := w & occ; b != 0 {
		w ^= rays[rayWest][b.Last()]
	}
	return a | e | so | w
}

// Attacks returns the squares attacked by a piece of type t and colour c on
// s, with the board occupied by occ. Pawns attack only diagonally.
func Attacks(t PieceType, c Color, s Square, occ Bitboard) Bitboard {
	switch t {
	case King:
		return kingSteps[s]
	case Met:
		return metSteps[s]
	case Khon:
		return khonSteps[c][s]
	case Knight:
		return knightSteps[s]
	case Rook:
		return RookAttacks(s, occ)
	case Pawn:
		return pawnAttacks[c][s]
	}
	return 0
}

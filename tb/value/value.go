// Package value is the value of a position in a table: a draw or a mate
// distance in plies, always from the point of view of the side to move,
// in the encoding the generator works in and the table files store. The
// generator, the prober and the honour counts share it.
package value

import "fmt"

// Value is a stored distance-to-mate value, always from the point of view
// of the side to move:
//
//	0        draw (stalemate, no forced mate, or not yet decided)
//	1        illegal position or index hole: never probed
//	2 + d    mate distance of d plies: d even → the side to move is mated
//	         in d plies (0 = checkmated now); d odd → it mates in d plies
//
// The same encoding is used in memory during generation and in the files
// (one byte per value while every distance fits, two bytes otherwise).
type Value uint16

const (
	Draw    Value = 0
	Illegal Value = 1
)

// MaxPlies is the largest mate distance a Value can hold.
const MaxPlies = 1<<16 - 3

// Mate returns the value for a mate distance of d plies: the parity says
// who mates, a win for the side to move if d is odd, a loss if it is even.
func Mate(d int) Value { return Value(d + 2) }

// MateIn returns the value "the side to move mates in n moves" (2n − 1
// plies).
func MateIn(n int) Value { return Mate(2*n - 1) }

// MatedIn returns the value "the side to move is mated in n moves" (2n
// plies; 0 is checkmated now).
func MatedIn(n int) Value { return Mate(2 * n) }

// IsMate reports whether v is a win or a loss.
func (v Value) IsMate() bool { return v >= 2 }

// IsWin reports whether the side to move wins.
func (v Value) IsWin() bool { return v >= 2 && v&1 == 1 }

// IsLoss reports whether the side to move loses.
func (v Value) IsLoss() bool { return v >= 2 && v&1 == 0 }

// Plies returns the mate distance in plies (meaningful when IsMate).
func (v Value) Plies() int { return int(v) - 2 }

// Moves returns the mate distance in moves of the winning side: a win in
// 2n−1 plies and a loss in 2n plies are both "mate in n".
func (v Value) Moves() int { return (v.Plies() + 1) / 2 }

// Negate returns the value one ply earlier seen from the other side: a
// position whose successor has value v has, through that move, the value
// v.Negate() (a loss in d becomes a win in d+1 and vice versa).
func (v Value) Negate() Value {
	if v.IsMate() {
		return v + 1
	}
	return v
}

// Rank orders values from the side to move's point of view: a is better
// than b when Rank(a) > Rank(b) (Compare is their difference). A search
// keeping its best value's rank compares each move's with one call.
func Rank(v Value) int { return rank(v) }

// rank orders values from the side to move's point of view.
func rank(v Value) int {
	switch {
	case v.IsWin():
		return rankTop - v.Plies()
	case v.IsLoss():
		return -rankTop + v.Plies()
	}
	return 0
}

// FromRank is the value whose rank is r: Rank is one to one on Draw and
// the mates (a search may keep only its best rank).
func FromRank(r int) Value {
	switch {
	case r > 0:
		return Mate(rankTop - r)
	case r < 0:
		return Mate(r + rankTop)
	}
	return Draw
}

// rankTop is above every mate distance: rank keeps wins above it less their
// distance, and losses below its opposite.
const rankTop = 1 << 20

// Compare orders two values for the side to move: positive if a is better.
func Compare(a, b Value) int { return rank(a) - rank(b) }

// String describes the value, e.g. "win in 7 plies".
func (v Value) String() string {
	switch {
	case v == Draw:
		return "draw"
	case v == Illegal:
		return "illegal"
	case v.IsWin():
		return fmt.Sprintf("win in %d plies", v.Plies())
	}
	return fmt.Sprintf("loss in %d plies", v.Plies())
}

// WDL is the game-theoretic result for the side to move.
type WDL int8

const (
	LossWDL WDL = -1
	DrawWDL WDL = 0
	WinWDL  WDL = 1
)

func (w WDL) String() string {
	switch w {
	case WinWDL:
		return "win"
	case LossWDL:
		return "loss"
	}
	return "draw"
}

// WDL returns the result the value stands for.
func (v Value) WDL() WDL {
	switch {
	case v.IsWin():
		return WinWDL
	case v.IsLoss():
		return LossWDL
	}
	return DrawWDL
}

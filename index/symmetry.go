package index

import "github.com/makruktb/makruktb/tb"

// A symmetry of the board is written as three bits, applied in this order:
// mirror the files (a↔h), mirror the ranks (1↔8), flip along the a1–h8
// diagonal (file↔rank). The eight combinations are the symmetries of the
// square; tables with a Khon use only 0 (identity) and mirrorFiles.
type symmetry uint8

const (
	mirrorFiles symmetry = 1 << iota
	mirrorRanks
	flipDiagonal

	identity symmetry = 0
)

func (t symmetry) square(s tb.Square) tb.Square {
	f, r := s.File(), s.Rank()
	if t&mirrorFiles != 0 {
		f = 7 - f
	}
	if t&mirrorRanks != 0 {
		r = 7 - r
	}
	if t&flipDiagonal != 0 {
		f, r = r, f
	}
	return tb.NewSquare(f, r)
}

func (t symmetry) bitboard(b tb.Bitboard) tb.Bitboard {
	if t&mirrorFiles != 0 {
		b = b.MirrorFiles()
	}
	if t&mirrorRanks != 0 {
		b = b.MirrorRanks()
	}
	if t&flipDiagonal != 0 {
		b = b.FlipDiagonal()
	}
	return b
}

// squareMaps[t][s] is t.square(s), for mapping a few pieces quickly.
var squareMaps = func() (m [8][64]tb.Square) {
	for t := range m {
		for s := range m[t] {
			m[t][s] = symmetry(t).square(tb.Square(s))
		}
	}
	return m
}()

// squares maps a sparse bitboard square by square (faster than bitboard
// for the one to four pieces of a group).
func (t symmetry) squares(b tb.Bitboard) tb.Bitboard {
	var out tb.Bitboard
	for b != 0 {
		out |= squareMaps[t][b.PopFirst()].Bitboard()
	}
	return out
}

func (t symmetry) position(p *tb.Position) tb.Position {
	if t == identity {
		return *p
	}
	return p.Transform(t.bitboard)
}

// Canonical returns the position with colours assigned as the canonical
// material name wants them (the stronger side White), and whether the
// colours were swapped. Swapping also mirrors the ranks, so a white khon
// becomes a black khon moving the other way: the result is the same game.
func Canonical(p *tb.Position) (tb.Position, bool) {
	m := tb.MaterialOf(p)
	if m.IsCanonical() {
		return *p, false
	}
	return p.ColorFlipped(), true
}

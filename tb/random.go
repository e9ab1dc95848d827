package tb

import "math/rand/v2"

// RandomPosition places the kings and pieces of m on distinct squares
// drawn from rng, with side to move and no count running, and reports
// whether the placement is a legal position (Validate). Drawing until it
// is samples m's legal positions uniformly.
func RandomPosition(rng *rand.Rand, m Material, side Color) (Position, bool) {
	var p Position
	var used Bitboard
	put := func(c Color, t PieceType) {
		for {
			s := Square(rng.IntN(64))
			if !used.Has(s) {
				used |= s.Bitboard()
				p.Put(c, t, s)
				return
			}
		}
	}
	for c := White; c <= Black; c++ {
		put(c, King)
		for t := Rook; t <= Pawn; t++ {
			for range m.Count(c, t) {
				put(c, t)
			}
		}
	}
	p.Side, p.CountLimit, p.Fullmove = side, NoCount, 1
	return p, p.validate() == ""
}

package index

import "github.com/makruktb/makruktb/tb"

// Runs.
//
// When the last group is one piece, its digit is its square: the 64
// indices r, r+1, …, r+63 (r a multiple of 64) hold the same placement of
// the kings and the other groups, with the last piece on a1, b1, …, h8. Such
// a run lets the generator treat the last piece's square as 64 lanes of a
// bitboard: an un-move of any other piece leads from run r to one run r′,
// lane for lane, as long as no symmetry transform is involved.

// LanePiece returns the colour and type of the last group's piece and
// true when that group is a single piece (so the space is made of runs).
func (s *Space) LanePiece() (tb.Color, tb.PieceType, bool) {
	last := &s.groups[len(s.groups)-1]
	return last.Color, last.Type, last.Count == 1
}

// RunPrefix returns the position of run r (a multiple of 64, in a space
// whose last group is one piece) without its last piece, with the given
// side to move, and false if pieces of the prefix share a square.
func (s *Space) RunPrefix(r uint64, side tb.Color) (tb.Position, bool) {
	var p tb.Position
	k, rest := s.byKingPair.divMod(r)
	pair := s.kings.pairs[k]
	p.Put(tb.White, tb.King, pair.white)
	p.Put(tb.Black, tb.King, pair.black)
	p.Side, p.CountLimit, p.Fullmove = side, tb.NoCount, 1
	occ := p.Occupied()
	rest /= 64
	for j := len(s.groups) - 2; j >= 0; j-- {
		g := &s.groups[j]
		var digit uint64
		rest, digit = s.groupSize[len(s.groups)-1-j].divMod(rest)
		bb := comboBitboard(g.Count, digit)
		if bb&occ != 0 {
			return p, false
		}
		occ |= bb
		p.AddPieces(g.Color, g.Type, bb)
	}
	return p, true
}

// KingStep returns the king pair after the king of colour c, in king pair
// k, steps to the square to, and true when the new pair is canonical as it
// stands and neither pair is Tied: the index then moves by whole king
// pairs, (n−k)·PerKingPair(), with every other digit unchanged.
func (s *Space) KingStep(k int, c tb.Color, to tb.Square) (int, bool) {
	if s.tied[k] {
		return 0, false
	}
	pair := s.kings.pairs[k]
	w, b := pair.white, pair.black
	if c == tb.White {
		w = to
	} else {
		b = to
	}
	n := int(s.kings.number[w][b])
	if n < 0 || s.tied[n] {
		return 0, false
	}
	return n, true
}

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
	return s.decodeGroups(r, side, len(s.groups)-1)
}

// A LaneMap says where the last piece of a run lands in the run another
// move leads to: the symmetry that brings the kings back into the
// canonical region moves it too. For most moves it is the identity.
type LaneMap struct{ t symmetry }

// Square returns the lane that lane n becomes.
func (m LaneMap) Square(n tb.Square) tb.Square { return squareMaps[m.t][n] }

// Lanes maps a set of lanes at once: a few shifts and masks, whatever
// their number.
func (m LaneMap) Lanes(lanes tb.Bitboard) tb.Bitboard { return m.t.bitboard(lanes) }

// KingStepRun follows a king step for a whole run: the king of colour c
// steps to the square to in run r (king pair k, not Tied), whose prefix
// (RunPrefix) is prefix. It returns the run that holds the resulting
// positions, its king pair, and where the last piece lands in it: the
// position of lane n of run r becomes run + lanes.Square(n). When the kings
// leave the canonical region, the symmetry that brings them back moves every
// piece, the last one as lanes says. It returns false when the new king pair
// is Tied: there the orientation depends on the last piece too.
func (s *Space) KingStepRun(r uint64, k int, prefix *tb.Position, c tb.Color, to tb.Square) (run uint64, kj int, lanes LaneMap, ok bool) {
	w, b := prefix.KingSquare(tb.White), prefix.KingSquare(tb.Black)
	if c == tb.White {
		w = to
	} else {
		b = to
	}
	if n := int(s.kings.number[w][b]); n >= 0 {
		if s.tied[n] {
			return 0, 0, LaneMap{}, false
		}
		return r + uint64(n-k)*s.perKingPair, n, LaneMap{identity}, true
	}
	moved := *prefix
	moved.Remove(moved.KingSquare(c))
	moved.Put(c, tb.King, to)
	return s.RunOf(&moved)
}

// RunOf returns the run of prefix, a position that lacks only the last
// piece of a space made of runs: with that piece on square x it has index
// run + lanes.Square(x), in king pair k. It returns false when prefix is not
// such a position, and when its king pair is Tied (there the orientation
// depends on the last piece too).
func (s *Space) RunOf(prefix *tb.Position) (run uint64, k int, lanes LaneMap, ok bool) {
	last := &s.groups[len(s.groups)-1]
	w, b := prefix.KingSquare(tb.White), prefix.KingSquare(tb.Black)
	if last.Count != 1 || w == tb.NoSquare || b == tb.NoSquare || !s.kings.ok[w][b] ||
		prefix.Occupied().Count() != s.pieces-1 || prefix.Pieces(last.Color, last.Type) != 0 {
		return 0, 0, LaneMap{}, false
	}
	t := s.kings.sym[w][b]
	k = int(s.kings.number[t.square(w)][t.square(b)])
	if k < 0 || s.tied[k] {
		return 0, 0, LaneMap{}, false
	}
	run = uint64(k) * s.perKingPair
	for _, g := range s.groups[:len(s.groups)-1] {
		bb := prefix.Pieces(g.Color, g.Type)
		if bb.Count() != g.Count {
			return 0, 0, LaneMap{}, false
		}
		run += comboIndex(t.squares(bb)) * g.Stride
	}
	return run, k, LaneMap{t}, true
}

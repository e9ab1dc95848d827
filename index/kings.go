package index

import (
	"slices"

	"github.com/makruktb/makruktb/tb"
)

// King pairs.
//
// The king pair is the only coordinate that needs a symmetry: it is mapped
// to a canonical pair and every other piece follows the same transform.
//
// Eight symmetries (no Khon): the white king is brought into the triangle
// a1–d1–d4 (file ≤ 3, rank ≤ file; 10 squares). When it lies on the
// diagonal a1–d4 the diagonal flip keeps it there, so the black king is then
// brought to or below the a1–h8 diagonal (rank ≤ file). Pairs of adjacent or
// equal squares are left out:
//
//	6 off-diagonal squares × 64 black king squares
//	+ 4 diagonal squares × 36 squares with rank ≤ file
//	− equal and adjacent squares            = 462 pairs.
//
// When both kings lie on the diagonal the flip still maps the pair to
// itself; the position is then canonical in whichever of the two
// orientations gives the smaller index (the other index is a hole).
//
// Two symmetries (Khon): the white king is brought to files a–d by the
// left–right mirror: 32 × 64 − equal − adjacent = 1 806 pairs.
type kingTable struct {
	pairs  []kingPair       // canonical pairs in index order
	number [64][64]int16    // index of a canonical pair, -1 otherwise
	sym    [64][64]symmetry // transform taking any pair to its canonical pair
	tied   [64][64]bool     // canonical pair fixed by the diagonal flip
	ok     [64][64]bool     // the kings are on different, non-adjacent squares
	group  []symmetry       // the symmetries used
}

type kingPair struct{ white, black tb.Square }

var (
	kingsFull   = newKingTable(true)
	kingsMirror = newKingTable(false)
)

func kingsApart(w, b tb.Square) bool {
	df, dr := w.File()-b.File(), w.Rank()-b.Rank()
	return df*df+dr*dr > 2
}

func newKingTable(full bool) *kingTable {
	kt := &kingTable{}
	if full {
		for t := symmetry(0); t < 8; t++ {
			kt.group = append(kt.group, t)
		}
	} else {
		kt.group = []symmetry{identity, mirrorFiles}
	}
	canonical := func(w, b tb.Square) bool {
		if !full {
			return w.File() <= 3
		}
		if w.File() > 3 || w.Rank() > w.File() {
			return false
		}
		return w.Rank() != w.File() || b.Rank() <= b.File()
	}
	for w := tb.Square(0); w < 64; w++ {
		for b := tb.Square(0); b < 64; b++ {
			kt.number[w][b] = -1
			kt.ok[w][b] = kingsApart(w, b)
			if kt.ok[w][b] && canonical(w, b) {
				kt.number[w][b] = int16(len(kt.pairs))
				kt.pairs = append(kt.pairs, kingPair{w, b})
			}
		}
	}
	for w := tb.Square(0); w < 64; w++ {
		for b := tb.Square(0); b < 64; b++ {
			for _, t := range kt.group {
				if canonical(t.square(w), t.square(b)) {
					kt.sym[w][b] = t
					break
				}
			}
			onDiagonal := func(s tb.Square) bool { return s.File() == s.Rank() }
			kt.tied[w][b] = full && onDiagonal(w) && onDiagonal(b)
		}
	}
	return kt
}

// KingStepPairs returns the canonical king pairs one step of the king of
// colour c leads to from king pair k (the kings staying apart), without
// repeats (k itself among them when a step across a mirror leads back to
// it). Every move and un-move of another piece stays inside its king
// pair, so these, and k itself, are all the king pairs a position of k
// has moves or un-moves into. The relation is symmetric: k is among the
// pairs of each pair returned.
func (s *Space) KingStepPairs(k int, c tb.Color) []int {
	kt := s.kings
	p := kt.pairs[k]
	from := p.white
	if c == tb.Black {
		from = p.black
	}
	var out []int
	for steps := tb.Attacks(tb.King, c, from, 0); steps != 0; {
		to := steps.PopFirst()
		w, b := p.white, p.black
		if c == tb.White {
			w = to
		} else {
			b = to
		}
		if !kt.ok[w][b] {
			continue
		}
		t := kt.sym[w][b]
		n := int(kt.number[t.square(w)][t.square(b)])
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

package probe

import (
	"fmt"
	"slices"

	"github.com/makruktb/makruktb/index"
)

// A version-3 WDL file stores each side to move in an order of the index's
// digits of its own: the king pair and the piece groups (index.Space's
// layout), most significant first. The index of a position is
//
//	kingPair · ∏ size(g) + Σ digit(g) · stride(g)
//
// and the stored order re-weighs the same digits: with order o (o[0] the
// most significant; 0 the king pair, 1 + j group j),
//
//	stored = Σ digit(o[m]) · ∏ size(o[m+1 …])
//
// The writer tries every order and keeps the one whose stream is
// smallest: where a rook rather than the kings runs slowest, a table's
// categories can repeat over far longer stretches (KRvKN's White side:
// 232 KB in today's order, 128 KB with the knight outermost).

// digitOrder maps a side's index to its place in the stored stream.
type digitOrder struct {
	order    []uint8  // o[m]: digit m of the stored order
	per      uint64   // values per king pair
	strides  []uint64 // of each group in the index
	sizes    []uint64 // of each digit: king pairs, then each group's
	weights  []uint64 // of each digit in the stored order
	identity bool
}

// newDigitOrder checks that order is a permutation of space's digits and
// returns its map.
func newDigitOrder(space *index.Space, order []uint8) (*digitOrder, error) {
	groups := space.Groups()
	n := 1 + len(groups)
	if len(order) != n {
		return nil, fmt.Errorf("%d digits in the order, the index has %d", len(order), n)
	}
	seen := make([]bool, n)
	for _, d := range order {
		if int(d) >= n || seen[d] {
			return nil, fmt.Errorf("digit order %v is not a permutation of %d digits", order, n)
		}
		seen[d] = true
	}
	o := &digitOrder{order: slices.Clone(order), per: space.PerKingPair(), identity: true}
	o.sizes = append(o.sizes, uint64(space.KingPairs()))
	for _, g := range groups {
		o.strides = append(o.strides, g.Stride)
		o.sizes = append(o.sizes, g.Size)
	}
	o.weights = make([]uint64, n)
	w := uint64(1)
	for m := n - 1; m >= 0; m-- {
		o.weights[order[m]] = w
		w *= o.sizes[order[m]]
		if int(order[m]) != m {
			o.identity = false
		}
	}
	return o, nil
}

// stored returns where index i lies in the stored stream.
func (o *digitOrder) stored(i uint64) uint64 {
	if o.identity {
		return i
	}
	k, r := i/o.per, i%o.per
	s := k * o.weights[0]
	for g, stride := range o.strides {
		s += (r / stride) % o.sizes[g+1] * o.weights[g+1]
	}
	return s
}

// index returns the index stored at place j of the stream (stored's
// inverse).
func (o *digitOrder) index(j uint64) uint64 {
	if o.identity {
		return j
	}
	i := j / o.weights[0] % o.sizes[0] * o.per
	for g, stride := range o.strides {
		i += j / o.weights[g+1] % o.sizes[g+1] * stride
	}
	return i
}

// digitOrders lists every order of n digits, the index's own first.
func digitOrders(n int) [][]uint8 {
	if n == 1 {
		return [][]uint8{{0}}
	}
	var out [][]uint8
	for _, rest := range digitOrders(n - 1) {
		for pos := len(rest); pos >= 0; pos-- {
			o := slices.Insert(slices.Clone(rest), pos, uint8(n-1))
			out = append(out, o)
		}
	}
	return out
}

package probe

import (
	"fmt"
	"slices"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
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
//
// An order one digit longer splits the king pair into two digits, as
// Syzygy's index orders each king on its own: 0 the white king, 1 the
// black king, 2 + j group j. A king's digit numbers the squares that king
// takes in the space's king pairs, in increasing order; the stream then
// has a value for every combination of the two, a combination that is no
// king pair a hole (its value free, never read). With the white king
// innermost the categories of a Khon table repeat far more (KSNvK.thai's
// White side: 76.7 KB as one digit, 40.9 KB split).

// digitOrder maps a side's index to its place in the stored stream.
type digitOrder struct {
	order    []uint8  // o[m]: digit m of the stored order
	per      uint64   // values per king pair
	strides  []uint64 // of each group in the index
	sizes    []uint64 // of each digit: the king pair (or each king), then each group's
	weights  []uint64 // of each digit in the stored order
	groups   int      // the digit of the first group: 1, or 2 with the kings split
	identity bool
	length   uint64 // the values of the stored stream, holes included
	// kingPlace is each king pair's share of its indices' places:
	// its digit (or its two kings' digits) times their weights.
	kingPlace []uint64
	// pairOf is, with the kings split, the king pair of each combination
	// white·sizes[1] + black, or -1.
	pairOf []int32
}

// newDigitOrder checks that order is a permutation of space's digits
// (with the kings one digit or two) and returns its map.
func newDigitOrder(space *index.Space, order []uint8) (*digitOrder, error) {
	groups := space.Groups()
	n := len(order)
	if n != 1+len(groups) && n != 2+len(groups) {
		return nil, fmt.Errorf("%d digits in the order, the index has %d (%d with the kings apart)", n, 1+len(groups), 2+len(groups))
	}
	seen := make([]bool, n)
	for _, d := range order {
		if int(d) >= n || seen[d] {
			return nil, fmt.Errorf("digit order %v is not a permutation of %d digits", order, n)
		}
		seen[d] = true
	}
	o := &digitOrder{order: slices.Clone(order), per: space.PerKingPair(), groups: n - len(groups), identity: n == 1+len(groups)}
	if o.groups == 1 {
		o.sizes = append(o.sizes, uint64(space.KingPairs()))
	} else {
		o.splitKings(space)
	}
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
	o.length = w
	o.kingPlace = make([]uint64, space.KingPairs())
	for k := range o.kingPlace {
		o.kingPlace[k] = uint64(k) * o.weights[0]
	}
	if o.pairOf != nil {
		for ab, k := range o.pairOf {
			if k >= 0 {
				o.kingPlace[k] = uint64(ab/int(o.sizes[1]))*o.weights[0] + uint64(ab%int(o.sizes[1]))*o.weights[1]
			}
		}
	}
	return o, nil
}

// splitKings fills the kings' two digits: their sizes and the maps
// between them and the king pairs.
func (o *digitOrder) splitKings(space *index.Space) {
	var white, black []tb.Square
	for k := range space.KingPairs() {
		w, b := space.KingSquares(k)
		white, black = append(white, w), append(black, b)
	}
	whites, blacks := sortedSet(white), sortedSet(black)
	o.sizes = append(o.sizes, uint64(len(whites)), uint64(len(blacks)))
	o.pairOf = make([]int32, len(whites)*len(blacks))
	for i := range o.pairOf {
		o.pairOf[i] = -1
	}
	for k := range white {
		a, _ := slices.BinarySearch(whites, white[k])
		b, _ := slices.BinarySearch(blacks, black[k])
		o.pairOf[a*len(blacks)+b] = int32(k)
	}
}

// sortedSet returns the distinct squares of s in increasing order.
func sortedSet(s []tb.Square) []tb.Square {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// stored returns where index i lies in the stored stream.
func (o *digitOrder) stored(i uint64) uint64 {
	if o.identity {
		return i
	}
	k, r := i/o.per, i%o.per
	s := o.kingPlace[k]
	for g, stride := range o.strides {
		s += (r / stride) % o.sizes[o.groups+g] * o.weights[o.groups+g]
	}
	return s
}

// index returns the index stored at place j of the stream (stored's
// inverse), and false at a hole (two king squares that are no king pair).
func (o *digitOrder) index(j uint64) (uint64, bool) {
	if o.identity {
		return j, true
	}
	var i uint64
	if o.pairOf != nil {
		k := o.pairOf[j/o.weights[0]%o.sizes[0]*o.sizes[1]+j/o.weights[1]%o.sizes[1]]
		if k < 0 {
			return 0, false
		}
		i = uint64(k) * o.per
	} else {
		i = j / o.weights[0] % o.sizes[0] * o.per
	}
	for g, stride := range o.strides {
		i += j / o.weights[o.groups+g] % o.sizes[o.groups+g] * stride
	}
	return i, true
}

// storedRange sets places[n] to stored(lo + n) for each n, lo+len(places)
// at most the index's size: an odometer over the index's digits, with
// no division past the first index.
func (o *digitOrder) storedRange(lo uint64, places []uint64) {
	if len(places) == 0 {
		return
	}
	if o.identity {
		for n := range places {
			places[n] = lo + uint64(n)
		}
		return
	}
	k, r := lo/o.per, lo%o.per
	digits := make([]uint64, len(o.strides)) // group g's digit
	s := o.kingPlace[k]
	for g, stride := range o.strides {
		digits[g] = r / stride % o.sizes[o.groups+g]
		s += digits[g] * o.weights[o.groups+g]
	}
	for n := range places {
		places[n] = s
		g := len(digits) - 1 // the last group is the index's innermost digit
		for ; g >= 0; g-- {
			d := o.groups + g
			if digits[g]+1 < o.sizes[d] {
				digits[g]++
				s += o.weights[d]
				break
			}
			s -= digits[g] * o.weights[d]
			digits[g] = 0
		}
		if g < 0 { // the next king pair
			if k++; k < uint64(len(o.kingPlace)) {
				s = o.kingPlace[k]
			}
		}
	}
}

// noIndex marks a hole in indexRange's answer.
const noIndex = ^uint64(0)

// indexRange sets out[n] to index(start + n), or noIndex at a hole, for
// each n, start+len(out) at most the stream's length: an odometer over
// the stored order's digits, which writes a run of its innermost digit
// (a group's) as a sum, a stride a place.
func (o *digitOrder) indexRange(start uint64, out []uint64) {
	if o.identity {
		for n := range out {
			out[n] = start + uint64(n)
		}
		return
	}
	digits := make([]uint64, len(o.order)) // by digit, as sizes
	for d := range digits {
		digits[d] = start / o.weights[d] % o.sizes[d]
	}
	kings := func() uint64 {
		if o.pairOf == nil {
			return digits[0] * o.per
		}
		if k := o.pairOf[digits[0]*o.sizes[1]+digits[1]]; k >= 0 {
			return uint64(k) * o.per
		}
		return noIndex
	}
	var groups uint64 // the groups' part of the index
	for g, stride := range o.strides {
		groups += digits[o.groups+g] * stride
	}
	king := kings()
	last := int(o.order[len(o.order)-1])
	for n := 0; n < len(out); {
		// Places n … n+run-1 differ in the innermost digit only; the
		// digits are then those of the run's last place.
		run := 1
		if last >= o.groups {
			run = int(min(o.sizes[last]-digits[last], uint64(len(out)-n)))
			stride := o.strides[last-o.groups]
			places := out[n : n+run]
			if king == noIndex {
				for t := range places {
					places[t] = noIndex
				}
			} else {
				i := king + groups
				for t := range places {
					places[t] = i
					i += stride
				}
			}
			digits[last] += uint64(run - 1)
			groups += uint64(run-1) * stride
		} else {
			out[n] = noIndex
			if king != noIndex {
				out[n] = king + groups
			}
		}
		n += run
		// One step of the odometer, to the next run's first place.
		for m := len(o.order) - 1; m >= 0; m-- {
			d := int(o.order[m])
			wraps := digits[d]+1 == o.sizes[d]
			if d >= o.groups {
				stride := o.strides[d-o.groups]
				if wraps {
					groups -= digits[d] * stride
				} else {
					groups += stride
				}
			}
			if wraps {
				digits[d] = 0
			} else {
				digits[d]++
			}
			if d < o.groups {
				king = kings()
			}
			if !wraps {
				break
			}
		}
	}
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

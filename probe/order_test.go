package probe

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/pairs"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// Every order of KRvKN's three digits maps its indices one to one onto
// the same range, the index's own order onto itself; with the kings
// apart (four digits), of KRvKN's and of a Khon table's, onto a longer
// range whose other places are holes, which index reports. An order that
// is not a permutation of the digits is refused.
func TestDigitOrders(t *testing.T) {
	space, err := index.New(tb.MustParseMaterial("KRvKN"))
	require.NoError(t, err)
	orders := digitOrders(3)
	require.Len(t, orders, 6)
	require.Equal(t, []uint8{0, 1, 2}, orders[0], "the index's own order first")
	seen := map[string]bool{}
	for _, order := range orders {
		seen[string(order)] = true
		o := checkOrder(t, space, order)
		require.Equal(t, space.Size(), o.length)
	}
	require.Len(t, seen, 6)
	for _, m := range []string{"KRvKN", "KSvKM"} {
		space, err := index.New(tb.MustParseMaterial(m))
		require.NoError(t, err)
		whites, blacks := map[tb.Square]bool{}, map[tb.Square]bool{}
		for k := range space.KingPairs() {
			w, b := space.KingSquares(k)
			whites[w], blacks[b] = true, true
		}
		for _, order := range digitOrders(4) {
			o := checkOrder(t, space, order)
			require.False(t, o.identity)
			require.Equal(t, space.Size()/uint64(space.KingPairs())*uint64(len(whites)*len(blacks)), o.length, "%s %v", m, order)
		}
	}
	_, err = newDigitOrder(space, []uint8{0, 1, 1})
	require.Error(t, err)
	_, err = newDigitOrder(space, []uint8{0, 1})
	require.Error(t, err)
	_, err = newDigitOrder(space, []uint8{0, 1, 3})
	require.Error(t, err)
	_, err = newDigitOrder(space, []uint8{0, 1, 2, 3, 4})
	require.Error(t, err)
	require.Len(t, digitOrders(4), 24)
}

// checkOrder checks that order maps space's indices one to one into its
// stream and back, and that every other place of the stream is a hole.
func checkOrder(t *testing.T, space *index.Space, order []uint8) *digitOrder {
	o, err := newDigitOrder(space, order)
	require.NoError(t, err)
	hit := make([]bool, o.length)
	for i := range space.Size() {
		j := o.stored(i)
		back, ok := o.index(j)
		if j >= o.length || hit[j] || o.identity && i != j || !ok || back != i {
			t.Fatalf("order %v: index %d at %d (taken: %v), back to %d %v", order, i, j, j < o.length && hit[j], back, ok)
		}
		hit[j] = true
	}
	for j, h := range hit {
		if _, ok := o.index(uint64(j)); ok != h {
			t.Fatalf("order %v: place %d holds an index: %v, index says %v", order, j, h, ok)
		}
	}
	// The odometers agree with stored and index from any start, over
	// king pairs and to the end.
	for _, lo := range []uint64{0, 1, space.PerKingPair() - 3, space.Size() - 1000} {
		places := make([]uint64, min(3*space.PerKingPair()+7, space.Size()-lo))
		o.storedRange(lo, places)
		for n, j := range places {
			if j != o.stored(lo+uint64(n)) {
				t.Fatalf("order %v: storedRange from %d: index %d at %d, stored says %d", order, lo, lo+uint64(n), j, o.stored(lo+uint64(n)))
			}
		}
	}
	for _, start := range []uint64{0, 5, o.length/2 + 1, o.length - 2000} {
		out := make([]uint64, min(4*space.PerKingPair()+11, o.length-start))
		o.indexRange(start, out)
		for n, i := range out {
			want, ok := o.index(start + uint64(n))
			if !ok {
				want = noIndex
			}
			if i != want {
				t.Fatalf("order %v: indexRange from %d: place %d holds %d, index says %d", order, start, start+uint64(n), i, want)
			}
		}
	}
	return o
}

// A sample is runs of the reordered stream, evenly spread from its first
// value to its last, each with its free codes chosen as reordered
// chooses them: where no code is free, exactly the stream's values.
func TestSampled(t *testing.T) {
	space, err := index.New(tb.MustParseMaterial("KRvKN"))
	require.NoError(t, err)
	n := space.Size()
	rng := rand.New(rand.NewPCG(5, 6))
	codes := make([]byte, n) // cells where every code is exact
	for i := range codes {
		codes[i] = byte(rng.IntN(5))
	}
	cells := slices.Clone(codes)
	for i := range cells {
		switch rng.IntN(4) {
		case 0:
			cells[i] |= freeHole
		case 1:
			cells[i] |= freeCapture
		}
	}
	o, err := newDigitOrder(space, []uint8{2, 0, 1})
	require.NoError(t, err)
	const runs, length = 7, 1000
	whole := reordered(codes, o, false)
	sample := sampled(codes, o, false, runs, length)
	require.Len(t, sample, runs*length)
	for k := range runs {
		start := uint64(k) * (n - length) / (runs - 1)
		require.Equal(t, whole[start:start+length], sample[k*length:(k+1)*length], "run %d", k)
	}
	require.Equal(t, whole[n-length:], sample[(runs-1)*length:], "the last run ends the stream")
	// With the kings apart too, where the stream has holes between the
	// king pairs.
	split, err := newDigitOrder(space, []uint8{3, 1, 2, 0})
	require.NoError(t, err)
	for _, o := range []*digitOrder{o, split} {
		for _, bounded := range []bool{false, true} {
			sample := sampled(cells, o, bounded, runs, length)
			for k := range runs {
				start := uint64(k) * (o.length - length) / (runs - 1)
				for j := range uint64(length) {
					got := sample[k*length+int(j)]
					i, ok := o.index(start + j)
					if !ok {
						require.LessOrEqual(t, got, wdlCode(honour.Win))
						continue
					}
					switch c := ceilingOf(cells[i], bounded); {
					case c == 0:
						require.Equal(t, codes[i], got)
					default:
						require.LessOrEqual(t, got, c&^freeCode)
					}
				}
			}
		}
	}
}

// fillFree lengthens runs: a run of free codes takes the code before it
// when that continues a run, else the code after it when that fits and
// continues one; a code above a free code's ceiling is never stored, and
// a free code with nothing to take keeps its own.
func TestFillFree(t *testing.T) {
	const hole, capture = freeHole, freeCapture // capture|c: any code up to c
	for _, c := range []struct {
		cells, want []byte
	}{
		{[]byte{2, 2, hole, hole | 3, 4, 4}, []byte{2, 2, 2, 2, 4, 4}},
		{[]byte{3, 2, hole, hole, 4, 4}, []byte{3, 2, 4, 4, 4, 4}},
		{[]byte{2, hole | 1, 4}, []byte{2, 2, 4}},
		{[]byte{hole, hole, 1}, []byte{1, 1, 1}},
		{[]byte{4, 4, capture, 4, 4}, []byte{4, 4, 0, 4, 4}},
		{[]byte{0, 0, hole | 3, capture | 2, 3}, []byte{0, 0, 0, 0, 3}},
		{[]byte{4, 4, capture | 2, capture | 2, 2}, []byte{4, 4, 2, 2, 2}},
		{[]byte{4, capture | 1, 4}, []byte{4, 1, 4}},
		{[]byte{hole | 3}, []byte{3}},
	} {
		out := slices.Clone(c.cells)
		fillFree(out)
		require.Equal(t, c.want, out, "%v", c.cells)
	}
	// On random cells, what the rule says, written out on codes and
	// ceilings apart.
	rng := rand.New(rand.NewPCG(9, 10))
	for range 2000 {
		cells := make([]byte, 1+rng.IntN(12))
		for j := range cells {
			cells[j] = byte(rng.IntN(5))
			switch rng.IntN(3) {
			case 0:
				cells[j] |= hole
			case 1:
				cells[j] |= capture
			}
		}
		want := fillFreeByRule(cells)
		out := slices.Clone(cells)
		fillFree(out)
		require.Equal(t, want, out, "%v", cells)
	}
}

// fillFreeByRule is fillFree's rule on a copy of cells split into codes
// and ceilings.
func fillFreeByRule(cells []byte) []byte {
	out, ceiling := make([]byte, len(cells)), make([]byte, len(cells))
	for j, cell := range cells {
		out[j], ceiling[j] = cell&codeBits, ceilingOf(cell, true)
	}
	isFree := func(j int) bool { return ceiling[j] != 0 }
	for j := 0; j < len(out); {
		if !isFree(j) {
			j++
			continue
		}
		k, top := j, byte(0xff)
		for ; k < len(out) && isFree(k); k++ {
			top = min(top, ceiling[k]&^freeCode)
		}
		prevFits := j > 0 && out[j-1] <= top
		nextFits := k < len(out) && out[k] <= top
		var fill []byte
		switch {
		case prevFits && j > 1 && out[j-2] == out[j-1]:
			fill = []byte{out[j-1]}
		case nextFits && (!prevFits || k+1 < len(out) && !isFree(k+1) && out[k+1] == out[k]):
			fill = []byte{out[k]}
		case prevFits:
			fill = []byte{out[j-1]}
		}
		for ; j < k; j++ {
			if fill != nil {
				out[j] = fill[0]
			} else if j > 0 && out[j-1] <= ceiling[j]&^freeCode {
				out[j] = out[j-1]
			}
		}
	}
	return out
}

// With samples far shorter than the stream, smallestLayout guesses on
// them and encodes its two finalists (kings together and apart) whole,
// together: the layout it returns holds every exact code where its
// order puts it, and no free code above its ceiling.
func TestSmallestLayoutFinals(t *testing.T) {
	defer func(a, b, c, d int) { sampleRun, sampleRuns, quickRun, quickRuns = a, b, c, d }(sampleRun, sampleRuns, quickRun, quickRuns)
	sampleRun, sampleRuns, quickRun, quickRuns = 1<<10, 8, 1<<8, 4
	space, err := index.New(tb.MustParseMaterial("KRvKN"))
	require.NoError(t, err)
	n := space.Size()
	rng := rand.New(rand.NewPCG(7, 8))
	codes, cells := make([]byte, n), make([]byte, n)
	for i := range codes {
		// Categories that follow the digits, as a table's do, with noise.
		codes[i] = byte((i/64%8 + i/4096%3) % 5)
		if rng.IntN(4) == 0 {
			codes[i] = byte(rng.IntN(5))
		}
		cells[i] = codes[i]
		switch r := rng.IntN(20); {
		case r == 0:
			cells[i] |= freeHole
		case r < 9: // captures decide often: the bounded form is the smaller
			cells[i] |= freeCapture
		}
	}
	for _, forms := range [][]bool{{false}, {false, true}} {
		c, err := smallestLayout(space, cells, forms)
		require.NoError(t, err)
		require.Less(t, c.guess, len(c.stream)/2, "the returned stream is a whole one, not its sample's")
		require.Equal(t, len(forms) == 2, c.bounded, "the bounded form where it may be chosen")
		want, err := pairs.Encode(reordered(cells, c.order, c.bounded))
		require.NoError(t, err)
		require.Equal(t, want, c.stream)
		s, err := pairs.Parse(c.stream)
		require.NoError(t, err)
		for i := range n {
			got, err := s.At(c.order.stored(i))
			require.NoError(t, err)
			switch ceiling := ceilingOf(cells[i], c.bounded); {
			case ceiling == 0 && got != codes[i]:
				t.Fatalf("forms %v, order %v: index %d holds %d, its code is %d", forms, c.order.order, i, got, codes[i])
			case ceiling != 0 && got > ceiling&^freeCode:
				t.Fatalf("forms %v, order %v: free index %d holds %d above its ceiling %d", forms, c.order.order, i, got, ceiling&^freeCode)
			}
		}
	}
}

package pairs

import (
	"container/heap"
	"sort"
)

// MaxCodeLen bounds the length of a Huffman code, in bits: the decoder
// reads a 32-bit window.
const MaxCodeLen = 24

// fastBits is the length of the codes decoded by one lookup (at most
// 15: a length takes four bits of code.short's entries).
const fastBits = 8

// codeLengths returns a length-limited Huffman code's length for each
// symbol of the given frequencies (0 for a symbol that does not occur).
// A code over one symbol has length 1. Where the optimal code is longer
// than MaxCodeLen, the frequencies are flattened until it is not.
func codeLengths(freq []uint64) []uint8 {
	f := append([]uint64(nil), freq...)
	for {
		lengths := huffmanLengths(f)
		longest := uint8(0)
		for _, l := range lengths {
			longest = max(longest, l)
		}
		if longest <= MaxCodeLen {
			return lengths
		}
		for i, x := range f {
			if x > 0 {
				f[i] = x/2 + 1
			}
		}
	}
}

// node is a tree of symbols under construction: a leaf (sym ≥ 0) or the
// join of two trees.
type node struct {
	freq        uint64
	sym         int
	order       int // ties broken by creation order: the same input gives the same code
	left, right *node
}

type nodeHeap []*node

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	if h[i].freq != h[j].freq {
		return h[i].freq < h[j].freq
	}
	return h[i].order < h[j].order
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(*node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// huffmanLengths is codeLengths without the limit.
func huffmanLengths(freq []uint64) []uint8 {
	lengths := make([]uint8, len(freq))
	var h nodeHeap
	for s, f := range freq {
		if f > 0 {
			h = append(h, &node{freq: f, sym: s, order: len(h)})
		}
	}
	switch len(h) {
	case 0:
		return lengths
	case 1:
		lengths[h[0].sym] = 1
		return lengths
	}
	heap.Init(&h)
	order := len(h)
	for h.Len() > 1 {
		a := heap.Pop(&h).(*node)
		b := heap.Pop(&h).(*node)
		heap.Push(&h, &node{freq: a.freq + b.freq, sym: -1, order: order, left: a, right: b})
		order++
	}
	var walk func(n *node, depth uint8)
	walk = func(n *node, depth uint8) {
		if n.sym >= 0 {
			lengths[n.sym] = max(depth, 1)
			return
		}
		walk(n.left, depth+1)
		walk(n.right, depth+1)
	}
	walk(h[0], 0)
	return lengths
}

// code is a canonical Huffman code: for encoding, each symbol's code
// word; for decoding, the tables that turn a 32-bit window into a symbol.
type code struct {
	lengths []uint8
	words   []uint32 // the code of each symbol, right-aligned
	// sorted lists the symbols of the code by (length, symbol); of
	// length l, first[l] is the first code, index[l] its place in sorted,
	// limit[l] the window below which a code of at most l bits lies
	// (left-aligned in 32 bits, as a uint64 so that 2^32 fits).
	sorted []uint16
	first  [MaxCodeLen + 2]uint32
	index  [MaxCodeLen + 2]uint32
	limit  [MaxCodeLen + 2]uint64
	// start[p] is the shortest length a code beginning with the 8 bits p
	// can have.
	start [256]uint8
	// short[w] is, for a window whose first fastBits bits are w, its
	// code's rank (its place in sorted) << 4 | its length when the code
	// is no longer than fastBits bits, else 0: the codes read most often
	// take one lookup in a table of a few cache lines.
	short          [1 << fastBits]uint16
	minLen, maxLen uint8
}

// newCode builds the canonical code of the given lengths; false when they
// do not form a prefix code (Kraft's sum above one) or one is too long.
func newCode(lengths []uint8) (*code, bool) {
	c := &code{lengths: lengths, words: make([]uint32, len(lengths)), minLen: MaxCodeLen + 1}
	var count [MaxCodeLen + 2]uint32
	for s, l := range lengths {
		if l > MaxCodeLen {
			return nil, false
		}
		if l > 0 {
			count[l]++
			c.sorted = append(c.sorted, uint16(s))
			c.minLen, c.maxLen = min(c.minLen, l), max(c.maxLen, l)
		}
	}
	if len(c.sorted) == 0 {
		return c, true
	}
	sort.SliceStable(c.sorted, func(i, j int) bool { return lengths[c.sorted[i]] < lengths[c.sorted[j]] })
	var kraft uint64 // in units of 2^-MaxCodeLen
	next, index := uint32(0), uint32(0)
	for l := 1; l <= MaxCodeLen; l++ {
		next <<= 1
		c.first[l], c.index[l] = next, index
		next += count[l]
		index += count[l]
		kraft += uint64(count[l]) << (MaxCodeLen - l)
		c.limit[l] = uint64(next) << (32 - l)
	}
	if kraft > 1<<MaxCodeLen {
		return nil, false
	}
	c.limit[MaxCodeLen+1] = 1 << 32
	// An incomplete code leaves windows no code begins: the search for
	// their length stops at MaxCodeLen+1, which rank refuses.
	for l := c.maxLen + 1; l <= MaxCodeLen; l++ {
		c.limit[l] = c.limit[c.maxLen]
	}
	seen := [MaxCodeLen + 2]uint32{}
	for _, s := range c.sorted {
		l := lengths[s]
		c.words[s] = c.first[l] + seen[l]
		seen[l]++
	}
	for k, s := range c.sorted {
		if l := lengths[s]; l <= fastBits {
			lo := c.words[s] << (fastBits - l)
			for w := lo; w < lo+1<<(fastBits-l); w++ {
				c.short[w] = uint16(k)<<4 | uint16(l)
			}
		}
	}
	for p := range c.start {
		l := uint8(1)
		for l <= MaxCodeLen && uint64(p)<<24 >= c.limit[l] {
			l++
		}
		c.start[p] = l
	}
	return c, true
}

// rank returns the rank of the symbol whose code begins the 32-bit window
// w (most significant bit first), its place in sorted (the symbols with
// the shortest codes, read most often, come first), and the code's
// length; false for a window no code begins.
func (c *code) rank(w uint32) (k uint32, length uint8, ok bool) {
	if e := c.short[w>>(32-fastBits)]; e != 0 {
		return uint32(e >> 4), uint8(e & 15), true
	}
	l := c.start[w>>24]
	for l <= MaxCodeLen && uint64(w) >= c.limit[l] {
		l++
	}
	if l > MaxCodeLen || l < c.minLen {
		return 0, 0, false
	}
	k = c.index[l] + (w >> (32 - l)) - c.first[l]
	if k >= uint32(len(c.sorted)) {
		return 0, 0, false
	}
	return k, l, true
}

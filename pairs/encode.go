package pairs

import (
	"context"
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
	"sync"

	"github.com/makruktb/makruktb/internal/parallel"
)

// The bounds of a stream.
const (
	// MaxSymbols bounds leaves and pairs together: 12 bits name one.
	MaxSymbols = 4096
	// MaxRun bounds the values one symbol stands for: long enough that a
	// side drawn almost everywhere (a Khon table's) costs a few bits per
	// million values, not a block per 65 536 as version 2's runs did.
	MaxRun = 1 << 31
	// maxBlockValues bounds the values of one block: its count is four
	// bytes wide, or two in a part whose blocks hold at most
	// narrowBlockValues (and its symbols as many).
	maxBlockValues    = 1 << 32
	narrowBlockValues = 1 << 16
	// newPerPass bounds the pairs one pass replaces: the most frequent
	// ones that do not overlap each other.
	newPerPass = 250
	// minPairFreq is the least frequency of a pair worth a symbol: a
	// symbol costs about four bytes of the stream (its pair and its code
	// length).
	minPairFreq = 8
	// maxBlockShift bounds the blocks Encode tries to 64 bytes: a
	// larger block makes a smaller stream, but a read decodes half a
	// block on average.
	maxBlockShift = 6
	// sparseBlocks is the number of blocks, about, between two entries
	// of the sparse index: an entry costs 6 bytes, a block's count 2, and
	// a read walks over half of them on average (KRvKN: 7.6% smaller
	// than an entry per block, 6% slower).
	sparseBlocks = 8
	// maxWalk bounds the blocks a read walks from a sparse entry: where a
	// part's blocks hold very different numbers of values (long runs of
	// draws beside dense regions), the step the average gives is halved
	// until no step spans more blocks than this (KNNvKR.thai's White
	// side: 146 KB with no bound, the same with 256, 157 KB with 64).
	maxWalk = 32 * sparseBlocks
	version = 3
	// minPartShift bounds the parts a reader accepts from below.
	minPartShift = 16
)

// A stream of up to 2^onePartShift values is one part; a longer one is
// cut into parts of 2^partShift, each with a grammar of its own
// (KRRvKN.thai's 59.6 M values a side: one part 432 KB, parts of 2^24
// 456 KB; KRSMvK.thai's 473 M: one part 24.2 MiB, parts of 2^26 23.8,
// of 2^24 23.0).
// (Variables for the tests.)
var (
	onePartShift      = 27
	partShift    byte = 24
)

// OnePart reports whether Encode keeps n values as one part, which one
// core encodes.
func OnePart(n uint64) bool { return n <= 1<<onePartShift }

// Encode compresses values (see the package doc), its parts on every
// core.
func Encode(values []byte) ([]byte, error) {
	if uint64(len(values)) > 1<<40 {
		return nil, errors.New("pairs: too many values")
	}
	n := len(values)
	shift := partShift
	if OnePart(uint64(n)) {
		shift = byte(max(minPartShift, bits.Len(uint(n))))
	}
	size := 1 << shift
	parts := make([][]byte, max(1, (n+size-1)/size))
	err := parallel.For(context.Background(), int64(len(parts)), 0, func(k int64) error {
		lo := int(k) * size
		parts[k] = encodePart(values[lo:min(lo+size, n)])
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	out := []byte{version}
	out = binary.AppendUvarint(out, uint64(n))
	out = append(out, shift)
	for _, p := range parts {
		out = binary.AppendUvarint(out, uint64(len(p)))
		out = append(out, p...)
	}
	return out, nil
}

// encodePart compresses the values of one part: with symbols of up to
// MaxRun values, and where that makes a block hold more than a two-byte
// count can say, also with symbols and blocks of at most
// narrowBlockValues, keeping the smaller (wide counts cost two bytes a
// block, short runs a block per 65 536 values of a long one).
func encodePart(values []byte) []byte {
	out, wide := encodeRuns(values, MaxRun)
	if wide {
		if narrow, _ := encodeRuns(values, narrowBlockValues); len(narrow) < len(out) {
			out = narrow
		}
	}
	return out
}

// encodeRuns compresses the values of one part with symbols of at most
// maxRun values, and reports whether its counts are four bytes wide.
func encodeRuns(values []byte, maxRun uint64) ([]byte, bool) {
	leaves := distinct(values)
	g := &grammar{leaves: leaves}
	var leafOf [256]uint16
	for i, v := range leaves {
		leafOf[v] = uint16(i)
		g.runs = append(g.runs, 1)
	}
	seq := make([]uint16, len(values))
	for i, v := range values {
		seq[i] = leafOf[v]
	}
	seq = g.pair(seq, maxRun)
	freq := make([]uint64, g.symbols())
	for _, s := range seq {
		freq[s]++
	}
	c, _ := newCode(codeLengths(freq)) // codeLengths' lengths always form one
	blockValues := uint64(maxBlockValues)
	if maxRun <= narrowBlockValues {
		blockValues = narrowBlockValues
	}
	best, wide := []byte(nil), false
	for shift := uint(5); shift <= maxBlockShift; shift++ {
		out, w := g.emit(uint64(len(values)), seq, c, shift, blockValues)
		if best == nil || len(out) < len(best) {
			best, wide = out, w
		}
	}
	return best, wide
}

// distinct returns the values that occur, in increasing order.
func distinct(values []byte) []byte {
	var seen [256]bool
	for _, v := range values {
		seen[v] = true
	}
	var out []byte
	for v, ok := range seen {
		if ok {
			out = append(out, byte(v))
		}
	}
	return out
}

// pairTables are pair's tables by pair of symbols: each pair's frequency
// and new symbol, zero between uses (each pass clears what it set), so
// that the dozens of samples the WDL writer encodes do not each clear or
// allocate 96 MiB.
type pairTables struct {
	freq   []uint32
	newSym []uint16 // 0: no new symbol (a pair's symbol is never 0)
}

var pairTablesPool = sync.Pool{New: func() any {
	return &pairTables{freq: make([]uint32, MaxSymbols*MaxSymbols), newSym: make([]uint16, MaxSymbols*MaxSymbols)}
}}

// grammar is the symbols of a stream: the leaves, then the pairs.
type grammar struct {
	leaves []byte
	pairs  [][2]uint16
	runs   []uint32 // the values each symbol stands for
}

func (g *grammar) symbols() int { return len(g.leaves) + len(g.pairs) }

// pair replaces, pass after pass, the most frequent pairs of adjacent
// symbols of seq by new symbols of at most maxRun values, and returns
// what is left of seq.
func (g *grammar) pair(seq []uint16, maxRun uint64) []uint16 {
	t := pairTablesPool.Get().(*pairTables)
	defer pairTablesPool.Put(t)
	freq, newSym := t.freq, t.newSym
	type candidate struct {
		freq   uint32
		s1, s2 uint16
	}
	var touched []uint32 // the pairs counted this pass
	for g.symbols() < MaxSymbols && len(seq) > 1 {
		n := g.symbols()
		// Count the pairs that could be replaced: of a run of one
		// symbol, every other pair.
		touched = touched[:0]
		prevSame := false
		for i := 0; i+1 < len(seq); i++ {
			a, b := seq[i], seq[i+1]
			if a == b && prevSame {
				prevSame = false
				continue
			}
			prevSame = a == b
			k := int(a)*MaxSymbols + int(b)
			if freq[k] == 0 {
				touched = append(touched, uint32(k))
			}
			freq[k]++
		}
		var cands []candidate
		for _, k := range touched {
			a, b := k/MaxSymbols, k%MaxSymbols
			if f := freq[k]; f >= minPairFreq && uint64(g.runs[a])+uint64(g.runs[b]) <= maxRun {
				cands = append(cands, candidate{f, uint16(a), uint16(b)})
			}
			freq[k] = 0
		}
		slices.SortFunc(cands, func(x, y candidate) int {
			if x.freq != y.freq {
				return int(y.freq) - int(x.freq)
			}
			if x.s1 != y.s1 {
				return int(x.s1) - int(y.s1)
			}
			return int(x.s2) - int(y.s2)
		})
		// The chosen pairs must not overlap: no chosen pair's second
		// symbol is another's first, so replacing left to right is
		// well defined.
		var firsts, seconds [MaxSymbols]bool
		var chosen []candidate
		for _, c := range cands {
			if len(chosen) == newPerPass || n+len(chosen) == MaxSymbols {
				break
			}
			if seconds[c.s1] || firsts[c.s2] {
				continue
			}
			chosen = append(chosen, c)
			firsts[c.s1], seconds[c.s2] = true, true
		}
		if len(chosen) == 0 {
			break
		}
		for _, c := range chosen {
			sym := uint16(g.symbols())
			g.pairs = append(g.pairs, [2]uint16{c.s1, c.s2})
			g.runs = append(g.runs, g.runs[c.s1]+g.runs[c.s2])
			newSym[int(c.s1)*MaxSymbols+int(c.s2)] = sym
		}
		j := 0
		for i := 0; i < len(seq); {
			if i+1 < len(seq) {
				if s := newSym[int(seq[i])*MaxSymbols+int(seq[i+1])]; s != 0 {
					seq[j] = s
					j++
					i += 2
					continue
				}
			}
			seq[j] = seq[i]
			j++
			i++
		}
		seq = seq[:j]
		for _, c := range chosen {
			newSym[int(c.s1)*MaxSymbols+int(c.s2)] = 0
		}
	}
	return seq
}

// emit writes the part of n values whose final sequence is seq, coded by
// c, in blocks of 2^shift bytes holding at most blockValues values, and
// reports whether its counts are four bytes wide.
func (g *grammar) emit(n uint64, seq []uint16, c *code, shift uint, blockValues uint64) ([]byte, bool) {
	blockBits := 8 << shift
	// The blocks: whole symbols, at most maxBlockValues values each.
	var counts []uint64
	var blocks []byte
	w := bitWriter{}
	values, used := uint64(0), 0
	flush := func() {
		counts = append(counts, values)
		blocks = append(blocks, w.bytes(1<<shift)...)
		w = bitWriter{}
		values, used = 0, 0
	}
	for _, s := range seq {
		l := int(c.lengths[s])
		if used+l > blockBits || values+uint64(g.runs[s]) > blockValues {
			flush()
		}
		w.write(c.words[s], l)
		used += l
		values += uint64(g.runs[s])
	}
	if values > 0 {
		flush()
	}
	width := 2 // the bytes of a count and of a sparse entry's offset
	if slices.Max(append(counts, 0)) > narrowBlockValues {
		width = 4
	}
	sparseShift := sparseStep(n, counts)
	entries := (n + 1<<sparseShift - 1) >> sparseShift

	out := binary.AppendUvarint(nil, uint64(len(g.leaves)))
	out = append(out, g.leaves...)
	out = binary.AppendUvarint(out, uint64(len(g.pairs)))
	for _, p := range g.pairs {
		x := uint32(p[0]) | uint32(p[1])<<12
		out = append(out, byte(x), byte(x>>8), byte(x>>16))
	}
	out = append(out, c.lengths...)
	out = append(out, byte(shift), byte(width))
	out = binary.AppendUvarint(out, uint64(len(counts)))
	out = append(out, byte(sparseShift))
	out = binary.AppendUvarint(out, entries)
	for _, k := range counts {
		out = appendWidth(out, k-1, width)
	}
	block, start := 0, uint64(0) // the block holding value e<<sparseShift, and its first value
	for e := range entries {
		v := e << sparseShift
		for v >= start+counts[block] {
			start += counts[block]
			block++
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(block))
		out = appendWidth(out, v-start, width)
	}
	return append(out, blocks...), width == 4
}

// appendWidth appends x as a little-endian integer of width bytes (2 or 4).
func appendWidth(out []byte, x uint64, width int) []byte {
	if width == 2 {
		return binary.LittleEndian.AppendUint16(out, uint16(x))
	}
	return binary.LittleEndian.AppendUint32(out, uint32(x))
}

// sparseStep returns log2 of the sparse index's step for a part of n
// values in blocks holding counts: about sparseBlocks blocks' values on
// average, so that a read walks over half that many, and smaller where
// a step would span more than maxWalk blocks.
func sparseStep(n uint64, counts []uint64) uint {
	shift := uint(0)
	if len(counts) > 0 {
		if avg := n * sparseBlocks / uint64(len(counts)); avg > 1 {
			shift = uint(bits.Len64(avg) - 1)
		}
	}
	for ; shift > 0 && longestWalk(n, counts, shift) > maxWalk; shift-- {
	}
	return shift
}

// longestWalk returns the most blocks a read walks over from the sparse
// entry before it with a step of 2^shift values: the blocks a step's
// values lie in, the one of its entry excepted.
func longestWalk(n uint64, counts []uint64, shift uint) int {
	longest, block, start := 0, 0, uint64(0)
	for v := uint64(0); v < n; v += 1 << shift {
		for v >= start+counts[block] {
			start += counts[block]
			block++
		}
		// The block holding the step's last value.
		last := min(v+1<<shift, n) - 1
		b, s := block, start
		for last >= s+counts[b] {
			s += counts[b]
			b++
		}
		longest = max(longest, b-block)
	}
	return longest
}

// bitWriter packs codes most significant bit first.
type bitWriter struct {
	buf   []byte
	acc   uint64
	nbits uint
}

func (w *bitWriter) write(word uint32, length int) {
	w.acc = w.acc<<uint(length) | uint64(word)
	w.nbits += uint(length)
	for w.nbits >= 8 {
		w.nbits -= 8
		w.buf = append(w.buf, byte(w.acc>>w.nbits))
	}
}

// bytes returns the bits written, zero-padded to size bytes.
func (w *bitWriter) bytes(size int) []byte {
	out := w.buf
	if w.nbits > 0 {
		out = append(out, byte(w.acc<<(8-w.nbits)))
	}
	for len(out) < size {
		out = append(out, 0)
	}
	return out
}

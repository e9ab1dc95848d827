package pairs

import (
	"context"
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"

	"github.com/makruktb/makruktb/internal/parallel"
)

// The bounds of a stream.
const (
	// MaxSymbols bounds leaves and pairs together: 12 bits name one.
	MaxSymbols = 4096
	// MaxRun bounds the values one symbol stands for.
	MaxRun = 1 << 16
	// maxBlockValues bounds the values of one block (its count is a u16).
	maxBlockValues = 1 << 16
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
	version      = 2
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

// Encode compresses values (see the package doc), its parts on every
// core.
func Encode(values []byte) ([]byte, error) {
	if uint64(len(values)) > 1<<40 {
		return nil, errors.New("pairs: too many values")
	}
	n := len(values)
	shift := partShift
	if n <= 1<<onePartShift {
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

// encodePart compresses the values of one part.
func encodePart(values []byte) []byte {
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
	seq = g.pair(seq)
	freq := make([]uint64, g.symbols())
	for _, s := range seq {
		freq[s]++
	}
	c, _ := newCode(codeLengths(freq)) // codeLengths' lengths always form one
	best := []byte(nil)
	for shift := uint(5); shift <= maxBlockShift; shift++ {
		out := g.emit(uint64(len(values)), seq, c, shift)
		if best == nil || len(out) < len(best) {
			best = out
		}
	}
	return best
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

// grammar is the symbols of a stream: the leaves, then the pairs.
type grammar struct {
	leaves []byte
	pairs  [][2]uint16
	runs   []uint32 // the values each symbol stands for
}

func (g *grammar) symbols() int { return len(g.leaves) + len(g.pairs) }

// pair replaces, pass after pass, the most frequent pairs of adjacent
// symbols of seq by new symbols, and returns what is left of seq.
func (g *grammar) pair(seq []uint16) []uint16 {
	freq := make([]uint32, MaxSymbols*MaxSymbols)
	newSym := make([]uint16, MaxSymbols*MaxSymbols) // 0: no new symbol (a pair's symbol is never 0)
	type candidate struct {
		freq   uint32
		s1, s2 uint16
	}
	for g.symbols() < MaxSymbols && len(seq) > 1 {
		n := g.symbols()
		for a := range n {
			clear(freq[a*MaxSymbols : a*MaxSymbols+n])
		}
		// Count the pairs that could be replaced: of a run of one
		// symbol, every other pair.
		prevSame := false
		for i := 0; i+1 < len(seq); i++ {
			a, b := seq[i], seq[i+1]
			if a == b && prevSame {
				prevSame = false
				continue
			}
			prevSame = a == b
			freq[int(a)*MaxSymbols+int(b)]++
		}
		var cands []candidate
		for a := range n {
			row := freq[a*MaxSymbols : a*MaxSymbols+n]
			for b, f := range row {
				if f >= minPairFreq && g.runs[a]+g.runs[b] <= MaxRun {
					cands = append(cands, candidate{f, uint16(a), uint16(b)})
				}
			}
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

// emit writes the stream of n values whose final sequence is seq, coded
// by c, in blocks of 2^shift bytes.
func (g *grammar) emit(n uint64, seq []uint16, c *code, shift uint) []byte {
	blockBits := 8 << shift
	// The blocks: whole symbols, at most maxBlockValues values each.
	var counts []uint32
	var blocks []byte
	w := bitWriter{}
	values, used := uint32(0), 0
	flush := func() {
		counts = append(counts, values)
		blocks = append(blocks, w.bytes(1<<shift)...)
		w = bitWriter{}
		values, used = 0, 0
	}
	for _, s := range seq {
		l := int(c.lengths[s])
		if used+l > blockBits || values+g.runs[s] > maxBlockValues {
			flush()
		}
		w.write(c.words[s], l)
		used += l
		values += g.runs[s]
	}
	if values > 0 {
		flush()
	}
	// The sparse index: a step of about sparseBlocks blocks' values, so
	// that a walk crosses half that many on average.
	sparseShift := uint(0)
	if len(counts) > 0 {
		if avg := n * sparseBlocks / uint64(len(counts)); avg > 1 {
			sparseShift = uint(bits.Len64(avg) - 1)
		}
	}
	entries := (n + 1<<sparseShift - 1) >> sparseShift

	out := binary.AppendUvarint(nil, uint64(len(g.leaves)))
	out = append(out, g.leaves...)
	out = binary.AppendUvarint(out, uint64(len(g.pairs)))
	for _, p := range g.pairs {
		x := uint32(p[0]) | uint32(p[1])<<12
		out = append(out, byte(x), byte(x>>8), byte(x>>16))
	}
	out = append(out, c.lengths...)
	out = append(out, byte(shift))
	out = binary.AppendUvarint(out, uint64(len(counts)))
	out = append(out, byte(sparseShift))
	out = binary.AppendUvarint(out, entries)
	for _, k := range counts {
		out = binary.LittleEndian.AppendUint16(out, uint16(k-1))
	}
	block, start := 0, uint64(0) // the block holding value e<<sparseShift, and its first value
	for e := range entries {
		v := e << sparseShift
		for v >= start+uint64(counts[block]) {
			start += uint64(counts[block])
			block++
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(block))
		out = binary.LittleEndian.AppendUint16(out, uint16(v-start))
	}
	return append(out, blocks...)
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

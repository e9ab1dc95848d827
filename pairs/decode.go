package pairs

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrCorrupt is wrapped by every error about a stream that is not one
// Encode wrote.
var ErrCorrupt = errors.New("pairs: corrupt stream")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// Stream reads the values of an encoded stream, one at a time, from the
// bytes it was parsed from (which it keeps and never changes). Its methods
// are safe for concurrent use.
type Stream struct {
	n         uint64
	partShift uint
	parts     []*part
}

// part is a part of a stream: its values' grammar, code and blocks.
type part struct {
	n           uint64
	syms        []symbol
	code        *code
	runs        []uint32 // the run of each symbol of the code, by rank (code.rank)
	blockShift  uint
	sparseShift uint
	width       int    // the bytes of a block's count and of an entry's offset: 2 or 4
	counts      []byte // per block, its values less one
	sparse      []byte // per entry, u32 block and its offset there
	blocks      []byte
	numBlocks   int
}

// symbol is what a reader needs of a symbol, in one place: a leaf's
// left and right are unused.
type symbol struct {
	run         uint32 // the values it stands for
	left, right uint16 // its pair
	uniform     int16  // the one value of its run; -1 when it has several
}

// Parse reads a stream's tables from b and checks that they hold
// together: in each part every pair made of earlier symbols, a prefix
// code, the blocks' counts adding up to the values and the sparse index
// pointing where its values are. A block's bits are read only when a
// value of it is asked for.
func Parse(b []byte) (*Stream, error) {
	r := reader{b: b}
	v := r.u8()
	switch v {
	case version, 2:
	case 1: // one part (the first writer's)
		s := &Stream{n: r.uvarint(), partShift: 63}
		if r.bad {
			return nil, corrupt("truncated")
		}
		p, err := parsePart(b[r.off:], s.n, v)
		if err != nil {
			return nil, err
		}
		s.parts = []*part{p}
		return s, nil
	default:
		return nil, corrupt("version %d", v)
	}
	s := &Stream{n: r.uvarint(), partShift: uint(r.u8())}
	if r.bad || s.partShift < minPartShift || s.partShift > 40 {
		return nil, corrupt("%d values in parts of 2^%d", s.n, s.partShift)
	}
	parts := max(1, (s.n+1<<s.partShift-1)>>s.partShift)
	if parts > uint64(len(b)) {
		return nil, corrupt("%d parts in %d bytes", parts, len(b))
	}
	for k := range parts {
		size := r.uvarint()
		body := r.bytes(int(min(size, uint64(len(b)))))
		if r.bad {
			return nil, corrupt("part %d truncated", k)
		}
		n := min(s.n-k<<s.partShift, 1<<s.partShift)
		p, err := parsePart(body, n, v)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", k, err)
		}
		s.parts = append(s.parts, p)
	}
	if r.off != len(b) {
		return nil, corrupt("%d bytes after the parts", len(b)-r.off)
	}
	return s, nil
}

// parsePart reads a part of n values from b, of a stream of the version
// given (before version 3 a part's counts and offsets are two bytes).
func parsePart(b []byte, n uint64, version byte) (*part, error) {
	r := reader{b: b}
	s := &part{n: n}
	numLeaves := int(min(r.uvarint(), 257))
	leaves := r.bytes(numLeaves)
	numPairs := r.uvarint()
	if r.bad || numLeaves > 256 || numPairs > MaxSymbols || uint64(numLeaves)+numPairs > MaxSymbols {
		return nil, corrupt("%d leaves and %d pairs", numLeaves, numPairs)
	}
	if s.n > 0 && numLeaves == 0 {
		return nil, corrupt("%d values and no leaf", s.n)
	}
	symbols := numLeaves + int(numPairs)
	s.syms = make([]symbol, symbols)
	for i, v := range leaves {
		s.syms[i] = symbol{run: 1, uniform: int16(v)}
	}
	for k := numLeaves; k < symbols; k++ {
		p := r.bytes(3)
		if r.bad {
			return nil, corrupt("pairs truncated")
		}
		x := uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16
		a, c := uint16(x&0xfff), uint16(x>>12)
		if int(a) >= k || int(c) >= k {
			return nil, corrupt("symbol %d pairs symbols %d and %d", k, a, c)
		}
		run := uint64(s.syms[a].run) + uint64(s.syms[c].run) // no wrap past 2^32
		if run > MaxRun {
			return nil, corrupt("symbol %d stands for %d values", k, run)
		}
		sym := symbol{run: uint32(run), left: a, right: c, uniform: -1}
		if u := s.syms[a].uniform; u == s.syms[c].uniform {
			sym.uniform = u
		}
		s.syms[k] = sym
	}
	lengths := r.bytes(symbols)
	if r.bad {
		return nil, corrupt("code lengths truncated")
	}
	var ok bool
	if s.code, ok = newCode(lengths); !ok {
		return nil, corrupt("code lengths form no prefix code")
	}
	s.runs = make([]uint32, len(s.code.sorted))
	for k, sym := range s.code.sorted {
		s.runs[k] = s.syms[sym].run
	}
	s.blockShift = uint(r.u8())
	s.width = 2
	if version >= 3 {
		s.width = int(r.u8())
	}
	numBlocks := r.uvarint()
	s.sparseShift = uint(r.u8())
	entries := r.uvarint()
	if r.bad || s.blockShift < 5 || s.blockShift > 8 || s.width != 2 && s.width != 4 || s.sparseShift > 40 || numBlocks > uint64(len(b)) || entries > uint64(len(b)) {
		return nil, corrupt("block size 2^%d, counts of %d bytes, %d blocks, sparse step 2^%d, %d entries", s.blockShift, s.width, numBlocks, s.sparseShift, entries)
	}
	if want := (s.n + 1<<s.sparseShift - 1) >> s.sparseShift; entries != want {
		return nil, corrupt("%d sparse entries for %d values, %d expected", entries, s.n, want)
	}
	s.numBlocks = int(numBlocks)
	s.counts = r.bytes(s.width * s.numBlocks)
	s.sparse = r.bytes((4 + s.width) * int(entries))
	blocks := r.bytes(s.numBlocks << s.blockShift)
	if r.bad {
		return nil, corrupt("tables truncated")
	}
	if r.off != len(b) {
		return nil, corrupt("%d bytes after the blocks", len(b)-r.off)
	}
	s.blocks = blocks
	// The counts add up to n, and each sparse entry points at its value.
	block, start := 0, uint64(0)
	for e := range entries {
		v := e << s.sparseShift
		for block < s.numBlocks && v >= start+s.count(block) {
			start += s.count(block)
			block++
		}
		if block == s.numBlocks {
			return nil, corrupt("value %d beyond the blocks", v)
		}
		got, off := s.entry(e)
		if got != block || off != v-start {
			return nil, corrupt("sparse entry %d: block %d offset %d, value %d is in block %d at %d", e, got, off, v, block, v-start)
		}
	}
	for ; block < s.numBlocks; block++ {
		start += s.count(block)
	}
	if start != s.n {
		return nil, corrupt("the blocks hold %d values, the stream %d", start, s.n)
	}
	return s, nil
}

// Len returns the number of values.
func (s *Stream) Len() uint64 { return s.n }

// At returns value i. An error says the block holding it is corrupt.
func (s *Stream) At(i uint64) (byte, error) {
	if i >= s.n {
		return 0, fmt.Errorf("pairs: value %d of %d", i, s.n)
	}
	return s.parts[i>>s.partShift].at(i & (1<<s.partShift - 1))
}

// AppendRange appends values [lo, hi) to dst, decoding the blocks in
// turn from the one holding lo: a pass over many values costs a few
// nanoseconds each.
func (s *Stream) AppendRange(dst []byte, lo, hi uint64) ([]byte, error) {
	if lo > hi || hi > s.n {
		return dst, fmt.Errorf("pairs: values [%d, %d) of %d", lo, hi, s.n)
	}
	for lo < hi {
		k, first := lo>>s.partShift, lo&^(1<<s.partShift-1)
		end := min(hi, first+1<<s.partShift)
		var err error
		if dst, err = s.parts[k].appendRange(dst, lo-first, end-first); err != nil {
			return dst, err
		}
		lo = end
	}
	return dst, nil
}

func (s *part) count(block int) uint64 {
	if s.width == 2 {
		return uint64(binary.LittleEndian.Uint16(s.counts[2*block:])) + 1
	}
	return uint64(binary.LittleEndian.Uint32(s.counts[4*block:])) + 1
}

func (s *part) entry(e uint64) (block int, offset uint64) {
	if s.width == 2 {
		b := s.sparse[6*e:]
		return int(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint16(b[4:]))
	}
	b := s.sparse[8*e:]
	return int(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[4:]))
}

// locate returns the block holding value i (below n) and its offset
// there: the sparse entry, then a walk over the blocks' counts, which
// Parse checked add up.
func (s *part) locate(i uint64) (block int, offset uint64) {
	block, offset = s.entry(i >> s.sparseShift)
	offset += i & (1<<s.sparseShift - 1)
	for offset >= s.count(block) {
		offset -= s.count(block)
		block++
	}
	return block, offset
}

// blockBits reads the codes of one block through a 64-bit buffer, most
// significant bit first: avail of its bits are the block's, the rest
// zeros; 32 more are loaded whenever no more than 32 are left, so a code
// (at most MaxCodeLen bits) is always whole in its top 32 bits, until the
// block's end. A block is 2^5 to 2^8 bytes (Parse checks its shift). The
// reader is a small value, passed and returned, so that the compiler
// keeps it in registers in the decoding loops.
type blockBits struct {
	buf   uint64
	avail uint
	next  int // the byte of the block loaded next
}

// bitsOf starts reading the block blk.
func bitsOf(blk []byte) blockBits {
	return blockBits{buf: binary.BigEndian.Uint64(blk), avail: 64, next: 8}
}

// window returns the next 32 bits.
func (b blockBits) window() uint32 { return uint32(b.buf >> 32) }

// skip returns the reader past a code of l bits of the block blk; false
// when the block has fewer left.
func (b blockBits) skip(blk []byte, l uint8) (blockBits, bool) {
	if uint(l) > b.avail {
		return b, false
	}
	b.buf <<= l
	b.avail -= uint(l)
	if b.avail <= 32 && b.next < len(blk) {
		b.buf |= uint64(binary.BigEndian.Uint32(blk[b.next:])) << (32 - b.avail)
		b.avail += 32
		b.next += 4
	}
	return b, true
}

// bit returns how many bits of the block have been read.
func (b blockBits) bit() int { return 8*b.next - int(b.avail) }

// block returns the bytes of block number block.
func (s *part) block(block int) []byte {
	return s.blocks[block<<s.blockShift:][:1<<s.blockShift]
}

// at returns value i of the part (below n): the codes of its block are
// read until the one whose run holds it.
func (s *part) at(i uint64) (byte, error) {
	block, off := s.locate(i)
	blk := s.block(block)
	bits := bitsOf(blk)
	for {
		k, l, ok := s.code.rank(bits.window())
		if ok {
			bits, ok = bits.skip(blk, l)
		}
		if !ok {
			return 0, corrupt("block %d: no code at bit %d before its value %d", block, bits.bit(), off)
		}
		if r := uint64(s.runs[k]); off >= r {
			off -= r
			continue
		}
		// Descend the pair tree to the leaf at off, or to a symbol whose
		// run is all one value (most of them).
		x := &s.syms[s.code.sorted[k]]
		for x.uniform < 0 {
			if left := &s.syms[x.left]; off < uint64(left.run) {
				x = left
			} else {
				off -= uint64(left.run)
				x = &s.syms[x.right]
			}
		}
		return byte(x.uniform), nil
	}
}

// appendRange appends the part's values [lo, hi) (lo < hi ≤ n) to dst.
func (s *part) appendRange(dst []byte, lo, hi uint64) ([]byte, error) {
	if lo == hi {
		return dst, nil
	}
	block, off := s.locate(lo)
	need := hi - lo
	for {
		blk := s.block(block)
		bits := bitsOf(blk)
		for left := s.count(block); left > 0; { // values of the block not yet decoded
			k, l, ok := s.code.rank(bits.window())
			if ok {
				bits, ok = bits.skip(blk, l)
			}
			if !ok {
				return dst, corrupt("block %d: no code at bit %d, %d of its values left", block, bits.bit(), left)
			}
			r := uint64(s.runs[k])
			if r > left {
				return dst, corrupt("block %d: a symbol of %d values where %d are left", block, r, left)
			}
			left -= r
			if off >= r {
				off -= r
				continue
			}
			take := min(r-off, need)
			dst = s.expand(dst, s.code.sorted[k], off, take)
			need -= take
			off = 0
			if need == 0 {
				return dst, nil
			}
		}
		if block++; block >= s.numBlocks {
			return dst, corrupt("the blocks end before value %d", hi)
		}
	}
}

// expand appends the values [off, off+n) of symbol sym's run.
func (s *part) expand(dst []byte, sym uint16, off, n uint64) []byte {
	for {
		x := &s.syms[sym]
		if x.uniform >= 0 {
			for range n {
				dst = append(dst, byte(x.uniform))
			}
			return dst
		}
		r := uint64(s.syms[x.left].run)
		switch {
		case off >= r:
			off -= r
			sym = x.right
		case off+n <= r:
			sym = x.left
		default:
			dst = s.expand(dst, x.left, off, r-off)
			n -= r - off
			off = 0
			sym = x.right
		}
	}
}

// reader reads a stream's header, remembering a read past its end.
type reader struct {
	b   []byte
	off int
	bad bool
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || r.off+n > len(r.b) || r.off+n < r.off {
		r.bad = true
		return nil
	}
	out := r.b[r.off : r.off+n]
	r.off += n
	return out
}

func (r *reader) u8() byte {
	b := r.bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *reader) uvarint() uint64 {
	x, n := binary.Uvarint(r.b[min(r.off, len(r.b)):])
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.off += n
	return x
}

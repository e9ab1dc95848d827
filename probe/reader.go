package probe

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/parallel"
	"github.com/makruktb/makruktb/pairs"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// maxHeaderBytes bounds the header read on open (block offsets included):
// enough for 6-piece tables with 32 Ki-value blocks.
const maxHeaderBytes = 64 << 20

// File is an open table file. Its methods are safe for concurrent use.
type File struct {
	name      string
	r         io.ReaderAt
	closer    io.Closer
	Header    Header
	Space     *index.Space
	dataStart int64
	dec       *zstd.Decoder
	// perSide is the number of blocks per side to move, first[side] the
	// first block of side (-1 when the file does not store it); blockShift is
	// log2 of the block size when it is a power of two (as the writer
	// makes it), so that BlockOf needs no division, else 0.
	perSide    int
	first      [2]int
	blockShift uint
	// derived holds the values of a side the file does not store, when
	// given (SetDerived).
	derived [2]*value.Array
	// streams are a version-3 WDL file's sides, read into memory on open:
	// the compressed file is all a probe of it needs; orders map an index
	// to its place in its side's stream, and decoded holds a side decoded
	// whole in the index's order, for Range, once it is asked for.
	streams [2]*pairs.Stream
	orders  [2]*digitOrder
	decoded [2]struct {
		once sync.Once
		raw  []byte
		err  error
	}
	// buffers recycles the blocks that passes over many of them (Range,
	// LoadAll) decode into: a block's worth of garbage per pass of a
	// king pair lets the heap grow by the collector's allowance, a fifth
	// of a 6-piece table held in memory beside it.
	buffers sync.Pool
}

// blockBuffers is room to decode one block: its compressed and its raw
// bytes.
type blockBuffers struct{ raw, comp []byte }

// getBuffers returns recycled block buffers (put them back with
// t.buffers.Put).
func (t *File) getBuffers() *blockBuffers {
	if b, ok := t.buffers.Get().(*blockBuffers); ok {
		return b
	}
	return new(blockBuffers)
}

// decode decompresses block k into b.raw, reusing b's capacity.
func (t *File) decode(k int, b *blockBuffers) error {
	var err error
	b.raw, b.comp, err = t.rawBlockInto(k, b.raw, b.comp)
	return err
}

// OpenFile opens and checks the header of the table file at path.
func OpenFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	t, err := NewFile(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	t.closer = f
	return t, nil
}

// ReadHeader reads and checks the header of the file at path (a table or a
// WDL file) without preparing to decode its blocks: what a directory's
// listing needs of each file.
func ReadHeader(path string) (*Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	t := &File{name: path, r: f}
	if err := t.readHeader(st.Size()); err != nil {
		return nil, err
	}
	return &t.Header, nil
}

// NewFile reads a table from r, size bytes long; name is used in errors.
// The header is read and validated completely before NewFile returns.
func NewFile(r io.ReaderAt, size int64, name string) (*File, error) {
	t := &File{name: name, r: r}
	if err := t.readHeader(size); err != nil {
		return nil, err
	}
	if t.Header.Codec == codecPairs {
		if err := t.readStreams(); err != nil {
			return nil, err
		}
	}
	// Each DecodeAll in flight takes one of the decoder's workers: one per
	// core lets LoadAll and concurrent probes decode side by side.
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)),
		zstd.WithDecoderMaxMemory(uint64(t.Header.BlockSize*t.Header.Width)+1<<10))
	if err != nil {
		return nil, err
	}
	t.dec = dec
	return t, nil
}

// readStreams reads and parses the pairs streams of a version-3 WDL file.
func (t *File) readStreams() error {
	h := &t.Header
	for side, o := range h.Orders {
		d, err := newDigitOrder(t.Space, o)
		if err != nil {
			return t.corrupt(0, "%v to move: %v", tb.Color(side).Name(), err)
		}
		t.orders[side] = d
	}
	for k := range h.Blocks {
		lo, hi := h.Offsets[k], h.Offsets[k+1]
		b := make([]byte, hi-lo)
		if n, err := t.r.ReadAt(b, t.dataStart+int64(lo)); n < len(b) {
			return t.corrupt(t.dataStart+int64(lo)+int64(n), "stream %d unreadable: %v", k, err)
		}
		s, err := pairs.Parse(b)
		if err != nil {
			return t.corrupt(t.dataStart+int64(lo), "stream %d: %v", k, err)
		}
		if want := t.orders[t.sideOf(k)].length; s.Len() != want {
			return t.corrupt(t.dataStart+int64(lo), "stream %d holds %d values, its order %d", k, s.Len(), want)
		}
		t.streams[t.sideOf(k)] = s
	}
	return nil
}

// Material returns the material of the table.
func (t *File) Material() tb.Material { return t.Space.Material() }

// Name returns the file name given on open.
func (t *File) Name() string { return t.name }

// Close releases the file.
func (t *File) Close() error {
	t.dec.Close()
	if t.closer != nil {
		return t.closer.Close()
	}
	return nil
}

func (t *File) corrupt(off int64, format string, args ...any) error {
	return &CorruptError{File: t.name, Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// cursor reads little-endian fields from a byte slice, remembering the
// first read past its end.
type cursor struct {
	b   []byte
	off int
	bad bool
}

func (c *cursor) bytes(n int) []byte {
	if c.bad || n < 0 || c.off+n > len(c.b) {
		c.bad = true
		return make([]byte, max(n, 0))
	}
	v := c.b[c.off : c.off+n]
	c.off += n
	return v
}
func (c *cursor) u8() int     { return int(c.bytes(1)[0]) }
func (c *cursor) u16() int    { return int(binary.LittleEndian.Uint16(c.bytes(2))) }
func (c *cursor) u32() uint32 { return binary.LittleEndian.Uint32(c.bytes(4)) }
func (c *cursor) u64() uint64 { return binary.LittleEndian.Uint64(c.bytes(8)) }

func (t *File) readHeader(size int64) error {
	// The fixed part is small; read a generous prefix, then the offsets.
	prefix := make([]byte, min(size, 1024))
	if n, err := t.r.ReadAt(prefix, 0); n < len(prefix) {
		return t.corrupt(int64(n), "header unreadable: %v", err)
	}
	c := &cursor{b: prefix}
	if string(c.bytes(len(Magic))) != Magic || c.bad {
		return t.corrupt(0, "not a makruktb table (bad magic)")
	}
	h := &t.Header
	h.Version = c.u16()
	if h.Version < Version || h.Version > Version3 {
		return fmt.Errorf("%s: format version %d, this reader knows %d to %d: %w", t.name, h.Version, Version, Version3, ErrUnsupported)
	}
	h.Metric = Metric(c.u8())
	if h.Metric != DTM && h.Metric != DTB && (h.Metric != WDL || h.Version == Version) || h.Metric != WDL && h.Version == Version3 {
		return fmt.Errorf("%s: metric %d in a version %d file: %w", t.name, h.Metric, h.Version, ErrUnsupported)
	}
	h.Width = c.u8()
	if h.Width != 1 && (h.Width != 2 || h.Metric == WDL) {
		return t.corrupt(int64(c.off-1), "value width %d", h.Width)
	}
	nameOff := c.off
	name := string(c.bytes(c.u8()))
	rulesOff := c.off
	h.Rules = string(c.bytes(c.u8()))
	if h.Metric == DTM && h.Rules == tb.Shatranj.String() {
		h.Game, h.Rules = tb.Shatranj, ""
	}
	m, err := h.Game.ParseMaterial(name)
	if err != nil || c.bad {
		return t.corrupt(int64(nameOff), "bad material name %q", name)
	}
	h.Material = m
	if (h.Metric != DTM) != (h.Rules != "") && !c.bad {
		return t.corrupt(int64(rulesOff), "%s table with rules %q", h.Metric, h.Rules)
	}
	h.Symmetries = c.u8()
	h.KingPairs = int(c.u32())
	h.PerKingPair = c.u64()
	h.Size = c.u64()
	blockOff := c.off
	h.BlockSize = int(c.u32())
	h.Blocks = int(c.u32())
	h.Sides, h.Codec = bothSides, codecZstd
	if h.Version >= Version2 {
		codecOff := c.off
		h.Codec = c.u8()
		h.Sides = c.u8()
		want := codecZstd
		switch {
		case h.Version == Version3:
			want = codecPairs
		case h.Metric == WDL && h.Codec == codecZstdCaptures:
			want = codecZstdCaptures
		}
		if h.Codec != want && !c.bad {
			return fmt.Errorf("%s: codec %d in a version %d %s file: %w", t.name, h.Codec, h.Version, h.Metric, ErrUnsupported)
		}
		if h.Codec == codecZstdCaptures || h.Codec == codecPairs {
			h.Sides, h.Captures = h.Sides&bothSides, h.Sides>>2
		}
		if (h.Sides < 1 || h.Sides > bothSides || h.Captures > bothSides || h.Metric == WDL && h.Sides != bothSides) && !c.bad {
			return t.corrupt(int64(codecOff+1), "sides stored %d in a %s file", h.Sides, h.Metric)
		}
	}
	if h.Metric == WDL {
		h.DTMCRC, h.DTBCRC = c.u32(), c.u32()
	}
	if h.Version == Version3 {
		for side := range h.Orders {
			h.Orders[side] = c.bytes(int(c.u8()))
		}
	}
	if c.bad {
		return t.corrupt(int64(len(prefix)), "header truncated")
	}
	space, err := index.NewGame(h.Game, m)
	if err != nil {
		return t.corrupt(int64(nameOff), "%v", err)
	}
	if want := newHeader(space, h.Metric, h.Width); h.Symmetries != want.Symmetries ||
		h.KingPairs != want.KingPairs || h.PerKingPair != want.PerKingPair || h.Size != want.Size {
		return t.corrupt(int64(nameOff), "index parameters do not match material %s", m)
	}
	if h.Codec == codecPairs && h.BlockSize != 0 || h.Codec != codecPairs && (h.BlockSize < 1 || h.BlockSize > 1<<24) || h.Blocks != h.sidesStored()*h.blocksPerSide() {
		return t.corrupt(int64(blockOff), "block size %d and count %d do not fit %d values per side", h.BlockSize, h.Blocks, h.Size)
	}
	headerLen := int64(c.off) + 8*int64(h.Blocks+1) + 8
	if headerLen > maxHeaderBytes || headerLen > size {
		return t.corrupt(size, "file ends inside the header (%d bytes needed)", headerLen)
	}
	full := make([]byte, headerLen)
	if n, err := t.r.ReadAt(full, 0); n < len(full) {
		return t.corrupt(int64(n), "header unreadable: %v", err)
	}
	c = &cursor{b: full, off: c.off}
	h.Offsets = make([]uint64, h.Blocks+1)
	for k := range h.Offsets {
		h.Offsets[k] = c.u64()
	}
	h.DataCRC = c.u32()
	sum := crc32.Checksum(full[:c.off], castagnoli)
	if got := c.u32(); got != sum {
		return t.corrupt(int64(c.off-4), "header checksum %08x, computed %08x", got, sum)
	}
	t.dataStart = headerLen
	if h.Offsets[0] != 0 {
		return t.corrupt(int64(c.off), "first block offset %d", h.Offsets[0])
	}
	for k := 1; k <= h.Blocks; k++ {
		if h.Offsets[k] < h.Offsets[k-1] {
			return t.corrupt(t.dataStart, "block offsets decrease at block %d", k)
		}
	}
	if end := uint64(t.dataStart) + h.Offsets[h.Blocks]; end != uint64(size) {
		return t.corrupt(size, "file is %d bytes, the header says %d", size, end)
	}
	t.Space = space
	t.perSide = h.blocksPerSide()
	t.first = [2]int{-1, -1}
	next := 0
	for side := tb.White; side <= tb.Black; side++ {
		if h.Stores(side) {
			t.first[side] = next
			next += t.perSide
		}
	}
	if bs := uint(h.BlockSize); bs > 1 && bs&(bs-1) == 0 {
		t.blockShift = uint(bits.TrailingZeros(bs))
	}
	return nil
}

// blockLen returns the number of values in block k.
func (t *File) blockLen(k int) int {
	if t.Header.Codec == codecPairs {
		return int(t.Header.Size)
	}
	per := t.Header.blocksPerSide()
	lo := uint64(k%per) * uint64(t.Header.BlockSize)
	return int(min(uint64(t.Header.BlockSize), t.Header.Size-lo))
}

// Block returns the decompressed values of block k (White's blocks first
// when the file stores both sides).
func (t *File) Block(k int) ([]value.Value, error) {
	raw, err := t.rawBlock(k)
	if err != nil {
		return nil, err
	}
	vals := make([]value.Value, len(raw)/t.Header.Width)
	for i := range vals {
		vals[i] = t.valueAt(raw, i)
	}
	return vals, nil
}

// valueAt reads value i of a decompressed block.
func (t *File) valueAt(raw []byte, i int) value.Value {
	if t.Header.Width == 1 {
		return value.Value(raw[i])
	}
	return value.Value(binary.LittleEndian.Uint16(raw[2*i:]))
}

// rawBlock returns the decompressed bytes of block k.
func (t *File) rawBlock(k int) ([]byte, error) {
	raw, _, err := t.rawBlockInto(k, nil, nil)
	return raw, err
}

// rawBlockInto is rawBlock reading into the capacity of raw and of comp
// (for the compressed bytes), which it returns for the next call: a pass
// over many blocks then makes no garbage.
func (t *File) rawBlockInto(k int, raw, comp []byte) ([]byte, []byte, error) {
	h := &t.Header
	if k < 0 || k >= h.Blocks {
		return nil, comp, fmt.Errorf("%s: block %d out of range", t.name, k)
	}
	if h.Codec == codecPairs {
		side := t.sideOf(k)
		o := t.orders[side]
		stored, err := t.streams[side].AppendRange(comp[:0], 0, o.length)
		if err != nil {
			return nil, stored, t.corrupt(t.dataStart+int64(h.Offsets[k]), "stream %d: %v", k, err)
		}
		raw = slices.Grow(raw[:0], int(h.Size))[:h.Size]
		places := make([]uint64, min(1<<16, len(raw)))
		for lo := 0; lo < len(raw); lo += len(places) {
			part := raw[lo:min(lo+len(places), len(raw))]
			o.storedRange(uint64(lo), places[:len(part)])
			for n, j := range places[:len(part)] {
				part[n] = stored[j]
			}
		}
		return raw, stored, nil
	}
	lo, hi := h.Offsets[k], h.Offsets[k+1]
	comp = slices.Grow(comp[:0], int(hi-lo))[:hi-lo]
	if n, err := t.r.ReadAt(comp, t.dataStart+int64(lo)); n < len(comp) {
		return nil, comp, t.corrupt(t.dataStart+int64(lo)+int64(n), "block %d unreadable: %v", k, err)
	}
	want := t.blockLen(k)
	raw, err := t.dec.DecodeAll(comp, slices.Grow(raw[:0], want*h.Width))
	if err != nil {
		return nil, comp, t.corrupt(t.dataStart+int64(lo), "block %d: %v", k, err)
	}
	if len(raw) != want*h.Width {
		return nil, comp, t.corrupt(t.dataStart+int64(lo), "block %d holds %d bytes, expected %d", k, len(raw), want*h.Width)
	}
	return raw, comp, nil
}

// decodedSide returns a version-3 WDL file's side decoded whole, in the
// index's order, decoding it the first time.
func (t *File) decodedSide(side tb.Color) ([]byte, error) {
	d := &t.decoded[side]
	d.once.Do(func() { d.raw, _, d.err = t.rawBlockInto(t.first[side], nil, nil) })
	return d.raw, d.err
}

// BlockOf returns the block holding the value of index i for side, and
// block -1 when the file does not store side (Header.Stores): reading
// block -1 is an error.
func (t *File) BlockOf(side tb.Color, i uint64) (block, offset int) {
	first := t.first[side]
	if first < 0 {
		return -1, 0
	}
	if t.Header.Codec == codecPairs {
		return first, int(i)
	}
	if s := t.blockShift; s > 0 {
		return first + int(i>>s), int(i & (1<<s - 1))
	}
	size := uint64(t.Header.BlockSize)
	return first + int(i/size), int(i % size)
}

// sideOf returns the side to move whose values block k holds.
func (t *File) sideOf(k int) tb.Color {
	if t.first[tb.Black] >= 0 && k >= t.first[tb.Black] {
		return tb.Black
	}
	return tb.White
}

// Range decodes the values of side in [lo, hi) into dst (reusing its
// capacity), a block at a time: a pass over a table in ranges holds a
// range, not the table.
func (t *File) Range(side tb.Color, lo, hi uint64, dst []value.Value) ([]value.Value, error) {
	if lo > hi || hi > t.Header.Size {
		return nil, fmt.Errorf("%s: range [%d, %d) outside the %d values of a side", t.name, lo, hi, t.Header.Size)
	}
	if !t.Header.Stores(side) {
		if d := t.derived[side]; d != nil {
			return d.Slice(lo, hi, dst), nil
		}
		return nil, fmt.Errorf("%s: %v to move: %w", t.name, side.Name(), ErrNotStored)
	}
	dst = dst[:0]
	if t.streams[side] != nil {
		raw, err := t.decodedSide(side)
		if err != nil {
			return nil, err
		}
		for _, c := range raw[lo:hi] {
			dst = append(dst, value.Value(c))
		}
		return dst, nil
	}
	bufs := t.getBuffers()
	defer t.buffers.Put(bufs)
	for i := lo; i < hi; {
		k, off := t.BlockOf(side, i)
		if err := t.decode(k, bufs); err != nil {
			return nil, err
		}
		for n := len(bufs.raw) / t.Header.Width; off < n && i < hi; off++ {
			dst = append(dst, t.valueAt(bufs.raw, off))
			i++
		}
	}
	return dst, nil
}

// SetDerived gives the file the values of the side to move it does not
// store (package retro's Derive computes them), which Range then reads:
// so a WDL file is written or checked from a version-2 file. It is an
// error for a side the file stores or values of another length.
func (t *File) SetDerived(side tb.Color, vals *value.Array) error {
	if t.Header.Stores(side) || vals.Len() != t.Header.Size {
		return fmt.Errorf("%s: %s to move is stored, or %d values for %d indices", t.name, side.Name(), vals.Len(), t.Header.Size)
	}
	t.derived[side] = vals
	return nil
}

// LoadAll decompresses the whole table: values[side].At(index). Holes hold
// arbitrary values, and so does a side the file does not store
// (Header.Stores; package retro's Derive computes it). The blocks are
// decoded on every core; on failure the error is that of the first bad
// block.
func (t *File) LoadAll() ([2]*value.Array, error) { return t.LoadAllContext(context.Background()) }

// LoadAllContext is LoadAll that stops, with ctx's error, when ctx is
// done.
func (t *File) LoadAllContext(ctx context.Context) ([2]*value.Array, error) {
	var out [2]*value.Array
	for side := range out {
		out[side] = value.NewArray(t.Header.Size)
	}
	h := &t.Header
	per := t.perSide
	err := parallel.For(ctx, int64(h.Blocks), 0, func(u int64) error {
		k := int(u)
		bufs := t.getBuffers()
		defer t.buffers.Put(bufs)
		if err := t.decode(k, bufs); err != nil {
			return err
		}
		raw := bufs.raw
		lo := uint64((k % per) * h.BlockSize)
		dst := out[t.sideOf(k)]
		for i := range len(raw) / h.Width {
			dst.Set(lo+uint64(i), t.valueAt(raw, i))
		}
		return nil
	}, nil)
	for _, a := range out {
		a.Seal()
	}
	return out, err
}

// CheckData recomputes the checksum of the data section.
func (t *File) CheckData() error {
	h := &t.Header
	crc := crc32.New(castagnoli)
	sec := io.NewSectionReader(t.r, t.dataStart, int64(h.Offsets[h.Blocks]))
	if _, err := io.Copy(crc, sec); err != nil {
		return t.corrupt(t.dataStart, "data unreadable: %v", err)
	}
	if got := crc.Sum32(); got != h.DataCRC {
		return t.corrupt(t.dataStart, "data checksum %08x, header says %08x", got, h.DataCRC)
	}
	return nil
}

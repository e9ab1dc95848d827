package probe

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/internal/parallel"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// Options say how a table is written: its format version (Version2
// when zero), its metric, and the rule profile of a DTB table.
type Options struct {
	Version int
	Metric  Metric
	Rules   string
}

// WriteFile writes a table's values for both sides to move
// (values[side].At(index), value.Illegal for holes) as a file at path in
// the format o says, atomically: the data goes to a temporary file in the
// same directory, which is synced and then renamed (package atomicfile).
// Errors name the file.
func WriteFile(path string, s *index.Space, values [2]*value.Array, o Options) error {
	err := atomicfile.Write(path, func(f *os.File) error {
		_, err := Write(f, s, values, o)
		return err
	})
	return namedWriteError(path, err)
}

// namedWriteError is err naming path: as it is when it already does (a
// full disk is "write PATH: no space left on device"), else wrapped.
func namedWriteError(path string, err error) error {
	var pe *fs.PathError
	if err == nil || errors.As(err, &pe) && pe.Path == path {
		return err
	}
	return fmt.Errorf("probe: write %s: %w", path, err)
}

// Write encodes a table's values for both sides to move as a file in the
// format o says into w from offset 0 and returns its length. The blocks
// are written in order as they are compressed; the header, whose block
// offsets are known only then, last. The same values always give the same
// bytes.
//
// Version 1 stores both sides. Version 2 stores the side whose values
// compress smaller (measured on a sample of blocks), in blocks of
// BlockSizeV2 indices at zstd's best level; the other side's values follow
// from it by one ply and are not written.
func Write(w io.WriterAt, s *index.Space, values [2]*value.Array, o Options) (int64, error) {
	for side := range values {
		if values[side].Len() != s.Size() {
			return 0, fmt.Errorf("side %d has %d values, the index has %d", side, values[side].Len(), s.Size())
		}
	}
	if o.Metric != DTM && o.Metric != DTB {
		return 0, fmt.Errorf("metric %s: a table holds DTM or DTB", o.Metric)
	}
	switch o.Version {
	case Version:
		return writeV1(w, s, values, o)
	case 0, Version2:
		return writeV2(w, s, values, o)
	}
	return 0, fmt.Errorf("format version %d: this writer knows %d and %d: %w", o.Version, Version, Version2, ErrUnsupported)
}

// writeV1 is Write in version 1.
func writeV1(w io.WriterAt, s *index.Space, values [2]*value.Array, o Options) (int64, error) {
	width := valueWidth(values[:]...)
	h := newHeader(s, o.Metric, width)
	h.Rules = o.Rules
	perSide := h.blocksPerSide()
	h.Blocks = 2 * perSide
	fill := blockFiller(&h, width)
	return writeBlocks(w, &h, zstd.SpeedDefault, func(k int, raw []byte) ([]byte, error) {
		return fill(values[k/perSide], k%perSide, raw), nil
	})
}

// writeV2 is Write in version 2.
func writeV2(w io.WriterAt, s *index.Space, values [2]*value.Array, o Options) (int64, error) {
	h := newHeader(s, o.Metric, 1)
	h.Version = Version2
	h.Rules = o.Rules
	h.BlockSize = BlockSizeV2
	side, err := smallerSide(&h, values)
	if err != nil {
		return 0, err
	}
	h.Width = valueWidth(values[side])
	h.Sides = 1 << side
	h.Blocks = h.blocksPerSide()
	fill := blockFiller(&h, h.Width)
	return writeBlocks(w, &h, zstd.SpeedBestCompression, func(k int, raw []byte) ([]byte, error) {
		return fill(values[side], k, raw), nil
	})
}

// sampleEvery is the fraction of blocks smallerSide compresses.
const sampleEvery = 16

// smallerSide returns the side to move whose values compress smaller:
// every sampleEvery-th block of h's size (block 0 included) of each side,
// compressed at zstd's default level, ties to White.
func smallerSide(h *Header, values [2]*value.Array) (tb.Color, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return 0, err
	}
	defer enc.Close()
	var size [2]int
	var raw, packed []byte
	for side := range values {
		width := valueWidth(values[side])
		fill := blockFiller(h, width)
		for b := 0; b < h.blocksPerSide(); b += sampleEvery {
			raw = fill(values[side], b, raw[:0])
			packed = enc.EncodeAll(raw, packed[:0])
			size[side] += len(packed)
		}
	}
	if size[tb.Black] < size[tb.White] {
		return tb.Black, nil
	}
	return tb.White, nil
}

// blockFiller returns the function that encodes block b of one side's
// values (h's block size, width bytes per value) into raw, reusing its
// capacity.
func blockFiller(h *Header, width int) func(vals *value.Array, b int, raw []byte) []byte {
	expanded := sync.Pool{New: func() any { return new([]value.Value) }}
	return func(vals *value.Array, b int, raw []byte) []byte {
		lo := uint64(b) * uint64(h.BlockSize)
		hi := min(lo+uint64(h.BlockSize), h.Size)
		if width == 1 {
			// Every code fits a byte: the array's bytes are the codes.
			return encodeBytes(raw, vals.Codes()[lo:hi])
		}
		buf := expanded.Get().(*[]value.Value)
		defer expanded.Put(buf)
		*buf = vals.Slice(lo, hi, *buf)
		return encodeBlock(raw, *buf, width)
	}
}

// writeBlocks writes a file of header h (its block count set) whose block
// k's raw bytes fill(k, buf) returns (reusing buf's capacity), each block
// compressed at level as an independent zstd frame. The blocks are written
// in order as they are compressed; the header, whose block offsets are
// known only then, last. It returns the file's length.
func writeBlocks(w io.WriterAt, h *Header, level zstd.EncoderLevel, fill func(k int, raw []byte) ([]byte, error)) (int64, error) {
	workers := runtime.GOMAXPROCS(0)
	enc, err := blockEncoder(level, workers)
	if err != nil {
		return 0, err
	}
	defer enc.Close()
	out := newBlockWriter(w, h)
	// Blocks are compressed a window at a time, in parallel, into buffers
	// reused from window to window, and written in order: memory stays a
	// few blocks however large the table.
	window := 16 * workers
	raw := make([][]byte, window)
	packed := make([][]byte, window)
	for start := 0; start < h.Blocks; start += window {
		end := min(start+window, h.Blocks)
		err := parallel.For(context.Background(), int64(end-start), workers, func(u int64) error {
			k := start + int(u)
			slot := k - start
			var err error
			if raw[slot], err = fill(k, raw[slot][:0]); err != nil {
				return err
			}
			packed[slot] = enc.EncodeAll(raw[slot], packed[slot][:0])
			return nil
		}, nil)
		if err != nil {
			return 0, err
		}
		for _, block := range packed[:end-start] {
			if err := out.add(block); err != nil {
				return 0, err
			}
		}
	}
	return out.finish()
}

// blockEncoder returns the encoder of a file's blocks: each block one
// zstd frame with its content checksum. Each EncodeAll in flight takes one
// of the encoder's workers, so it needs as many as blocks are compressed
// at once.
func blockEncoder(level zstd.EncoderLevel, workers int) (*zstd.Encoder, error) {
	return zstd.NewWriter(nil, zstd.WithEncoderLevel(level),
		zstd.WithEncoderConcurrency(workers), zstd.WithEncoderCRC(true), zstd.WithZeroFrames(true))
}

// writePacked writes a file of the compressed blocks packed (h.Blocks of
// them, in order) after header h, whose offsets and data checksum it
// fills in.
func writePacked(w io.WriterAt, h *Header, packed [][]byte) (int64, error) {
	out := newBlockWriter(w, h)
	for _, block := range packed {
		if err := out.add(block); err != nil {
			return 0, err
		}
	}
	return out.finish()
}

// blockWriter writes a file's compressed blocks in order after the place
// kept for its header (whose length is fixed), then the header, filled in
// with the blocks' offsets and data checksum.
type blockWriter struct {
	w         io.WriterAt
	h         *Header
	headerLen int64
	crc       hash.Hash32
	k         int
	off       uint64
}

func newBlockWriter(w io.WriterAt, h *Header) *blockWriter {
	h.Offsets = make([]uint64, h.Blocks+1)
	return &blockWriter{w: w, h: h, headerLen: int64(len(h.marshal())), crc: crc32.New(castagnoli)}
}

// add writes the next block.
func (b *blockWriter) add(block []byte) error {
	b.h.Offsets[b.k] = b.off
	b.crc.Write(block)
	if _, err := b.w.WriteAt(block, b.headerLen+int64(b.off)); err != nil {
		return err
	}
	b.k++
	b.off += uint64(len(block))
	return nil
}

// finish writes the header and returns the file's length.
func (b *blockWriter) finish() (int64, error) {
	if b.k != b.h.Blocks {
		return 0, fmt.Errorf("%d blocks written, the header says %d", b.k, b.h.Blocks)
	}
	b.h.Offsets[b.h.Blocks] = b.off
	b.h.DataCRC = b.crc.Sum32()
	header := b.h.marshal()
	if int64(len(header)) != b.headerLen {
		return 0, fmt.Errorf("header length changed from %d to %d", b.headerLen, len(header))
	}
	if _, err := b.w.WriteAt(header, 0); err != nil {
		return 0, err
	}
	return b.headerLen + int64(b.off), nil
}

// valueWidth returns the bytes per value the values need: 1, or 2 when one
// exceeds 255 (only the overflow entries can).
func valueWidth(values ...*value.Array) int {
	for _, a := range values {
		for _, w := range a.Overflowed() {
			if w.Value > 255 {
				return 2
			}
		}
	}
	return 1
}

// encodeBlock serialises values into out (reusing its capacity), replacing
// holes by the previous legal value so that they cost next to nothing
// after compression.
func encodeBlock(out []byte, vals []value.Value, width int) []byte {
	out = slices.Grow(out, len(vals)*width)[:len(vals)*width]
	prev := value.Draw
	for i, v := range vals {
		if v == value.Illegal {
			v = prev
		}
		prev = v
		if width == 1 {
			out[i] = byte(v)
		} else {
			binary.LittleEndian.PutUint16(out[2*i:], uint16(v))
		}
	}
	return out
}

// encodeBytes is encodeBlock for a one-byte table, from the codes of a
// value.Array (whose overflow byte, 255, is then the code 255 itself).
func encodeBytes(out []byte, codes []byte) []byte {
	out = slices.Grow(out, len(codes))[:len(codes)]
	prev := byte(value.Draw)
	for i, c := range codes {
		if c == byte(value.Illegal) {
			c = prev
		}
		prev = c
		out[i] = c
	}
	return out
}

package probe

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
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
	"github.com/makruktb/makruktb/tb/value"
)

// WriteFile writes the values of both sides to move (values[side].At(index),
// value.Illegal for holes) as a table file at path, atomically: the data
// goes to a temporary file in the same directory, which is synced and then
// renamed (package atomicfile).
func WriteFile(path string, s *index.Space, metric Metric, rules string, values [2]*value.Array) error {
	err := atomicfile.Write(path, func(f *os.File) error {
		_, err := Write(f, s, metric, rules, values)
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

// Write encodes the values of both sides to move (values[side].At(index),
// value.Illegal for holes) as a table file into w from offset 0 and
// returns its length. The blocks are written in order as they are
// compressed; the header, whose block offsets are known only then, last.
// The same values always give the same bytes.
func Write(w io.WriterAt, s *index.Space, metric Metric, rules string, values [2]*value.Array) (int64, error) {
	for side := range values {
		if values[side].Len() != s.Size() {
			return 0, fmt.Errorf("side %d has %d values, the index has %d", side, values[side].Len(), s.Size())
		}
	}
	width := valueWidth(values)
	h := newHeader(s, metric, width)
	h.Rules = rules
	perSide := h.blocksPerSide()
	h.Blocks = 2 * perSide
	expanded := sync.Pool{New: func() any { return new([]value.Value) }}
	return writeBlocks(w, &h, zstd.SpeedDefault, func(k int, raw []byte) ([]byte, error) {
		side, b := k/perSide, k%perSide
		lo := uint64(b) * uint64(h.BlockSize)
		hi := min(lo+uint64(h.BlockSize), h.Size)
		if width == 1 {
			// Every code fits a byte: the array's bytes are the codes.
			return encodeBytes(raw, values[side].Codes()[lo:hi]), nil
		}
		vals := expanded.Get().(*[]value.Value)
		defer expanded.Put(vals)
		*vals = values[side].Slice(lo, hi, *vals)
		return encodeBlock(raw, *vals, width), nil
	})
}

// writeBlocks writes a file of header h (its block count set) whose block
// k's raw bytes fill(k, buf) returns (reusing buf's capacity), each block
// compressed at level as an independent zstd frame. The blocks are written
// in order as they are compressed; the header, whose block offsets are
// known only then, last. It returns the file's length.
func writeBlocks(w io.WriterAt, h *Header, level zstd.EncoderLevel, fill func(k int, raw []byte) ([]byte, error)) (int64, error) {
	// Each EncodeAll in flight takes one of the encoder's workers, so it
	// needs as many as blocks are compressed at once.
	workers := runtime.GOMAXPROCS(0)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level),
		zstd.WithEncoderConcurrency(workers), zstd.WithEncoderCRC(true), zstd.WithZeroFrames(true))
	if err != nil {
		return 0, err
	}
	defer enc.Close()
	// The header has a fixed length: its place is kept while the blocks
	// are written, and it is filled in once their offsets are known.
	h.Offsets = make([]uint64, h.Blocks+1)
	headerLen := int64(len(h.marshal()))
	crc := crc32.New(castagnoli)
	var off uint64
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
		for k := start; k < end; k++ {
			block := packed[k-start]
			h.Offsets[k] = off
			crc.Write(block)
			if _, err := w.WriteAt(block, headerLen+int64(off)); err != nil {
				return 0, err
			}
			off += uint64(len(block))
		}
	}
	h.Offsets[h.Blocks] = off
	h.DataCRC = crc.Sum32()
	header := h.marshal()
	if int64(len(header)) != headerLen {
		return 0, fmt.Errorf("header length changed from %d to %d", headerLen, len(header))
	}
	if _, err := w.WriteAt(header, 0); err != nil {
		return 0, err
	}
	return headerLen + int64(off), nil
}

// valueWidth returns the bytes per value the values need: 1, or 2 when one
// exceeds 255 (only the overflow entries can).
func valueWidth(values [2]*value.Array) int {
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

package probe

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"

	"github.com/klauspost/compress/zstd"
	"github.com/makruktb/makruktb/index"
	"golang.org/x/sync/errgroup"
)

// WriteFile writes the values of both sides to move (values[side][index],
// Illegal for holes) as a table file at path, atomically: the data goes to a
// temporary file in the same directory, which is synced and then renamed.
func WriteFile(path string, s *index.Space, metric Metric, rules string, values [2][]Value) error {
	for side := range values {
		if uint64(len(values[side])) != s.Size() {
			return fmt.Errorf("write %s: side %d has %d values, the index has %d", path, side, len(values[side]), s.Size())
		}
	}
	width := 1
	for side := range values {
		for _, v := range values[side] {
			if v > 255 {
				width = 2
				break
			}
		}
	}
	h := newHeader(s, metric, width)
	h.Rules = rules
	perSide := h.blocksPerSide()
	h.Blocks = 2 * perSide

	blocks := make([][]byte, h.Blocks)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(true), zstd.WithZeroFrames(true))
	if err != nil {
		return err
	}
	defer enc.Close()
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for k := range blocks {
		g.Go(func() error {
			side, b := k/perSide, k%perSide
			lo := uint64(b) * uint64(h.BlockSize)
			hi := min(lo+uint64(h.BlockSize), h.Size)
			raw := encodeBlock(values[side][lo:hi], width)
			blocks[k] = enc.EncodeAll(raw, make([]byte, 0, len(raw)/8))
			return nil
		})
	}
	_ = g.Wait()

	crc := crc32.New(castagnoli)
	h.Offsets = make([]uint64, 0, h.Blocks+1)
	var off uint64
	for _, b := range blocks {
		h.Offsets = append(h.Offsets, off)
		off += uint64(len(b))
		crc.Write(b)
	}
	h.Offsets = append(h.Offsets, off)
	h.DataCRC = crc.Sum32()
	return writeAtomically(path, h.marshal(), blocks)
}

// encodeBlock serialises values, replacing holes by the previous legal
// value so that they cost next to nothing after compression.
func encodeBlock(vals []Value, width int) []byte {
	out := make([]byte, len(vals)*width)
	prev := Draw
	for i, v := range vals {
		if v == Illegal {
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

// writeAtomically writes header and blocks to a temporary file next to path,
// syncs it, renames it to path and syncs the directory.
func writeAtomically(path string, header []byte, blocks [][]byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(header); err != nil {
		return err
	}
	for _, b := range blocks {
		if _, err = f.Write(b); err != nil {
			return err
		}
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

package retro

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/internal/parallel"
	"github.com/makruktb/makruktb/tb/value"
)

// # Checkpoints: resuming a long generation
//
// A six-piece table takes hours; with Options.Checkpoint the generator
// saves its state between two passes of the iteration, at most every
// Checkpoint.Every, and a later generation of the same table given the
// same checkpoint starts after the last pass saved instead of from the
// seed. Between passes the state is whole: every update of a pass is done
// and nothing is in flight. The values come out the same, byte for byte.
//
// The file, little-endian: a header, then the state compressed as one
// zstd stream (its frames checksummed), which ends with a CRC-32C of the
// header (its last field aside) and the state as they are uncompressed.
//
//	offset  size                what
//	0       8                   "MTBRESUM"
//	8       4                   checkpointVersion
//	12      4                   length L of the key
//	16      L                   the key (Checkpoint.Key: which table)
//	16+L    8                   indices per side
//	        8                   the last pass done (its depth in plies)
//	        8                   the deepest value code assigned
//	        8                   length Z of the zstd stream: the bytes after this
//	then, compressed, White first, for each side:
//	        8·⌈size/64⌉          the settled bits, as uint64 words
//	        size                the state bytes
//	        64 per 4096 indices the presence bits
//	        8                   number N of overflow values
//	        10·N                each one's index (8) and value code (2)
//	and     4                   CRC-32C of everything before it
//
// Uncompressed the state is about 1.14 bytes per index and side; the
// state of a generation compresses well (its counters repeat, its settled
// bits come in runs): KRSvKN's checkpoints are 4 to 7 times smaller than
// that, KSSvKSM's 6 to 10. It is written atomically (package atomicfile), so a crash while
// saving keeps the previous checkpoint. When the disk has no room for a
// second one beside the first, the first goes and the new one is written
// again.

// Checkpoint configures the saving and resuming of a generation.
type Checkpoint struct {
	// Path is the checkpoint file: read to resume if present, replaced by
	// each save. The caller removes it once the table is safe.
	Path string
	// Key names the table (with its rules): a checkpoint saved under
	// another key is refused, never resumed.
	Key string
	// Every is the least time between two saves (0: after every pass).
	Every time.Duration
	// Saved, if set, is told of each save: the pass saved, the file's
	// size and how long the save took.
	Saved func(depth int, bytes int64, took time.Duration)
}

// checkpointVersion changes whenever the state's meaning or the file's
// layout does (2: the state compressed): a checkpoint of another version
// is refused.
const checkpointVersion = 2

var checkpointMagic = [8]byte{'M', 'T', 'B', 'R', 'E', 'S', 'U', 'M'}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CheckpointError is a checkpoint file that cannot be resumed: another
// table's, another version's, damaged or unreadable. Removing the file
// starts the table from the beginning.
type CheckpointError struct {
	Path string
	Err  error
}

func (e *CheckpointError) Error() string {
	return fmt.Sprintf("checkpoint %s: %v (remove it to start the table afresh)", e.Path, e.Err)
}

func (e *CheckpointError) Unwrap() error { return e.Err }

// checkpointHeader is what precedes the state.
type checkpointHeader struct {
	key     string
	size    uint64
	depth   int64
	deepest int64
	// length is the header's, stream the zstd stream's that follows it.
	length, stream int64
}

// checkpointSize returns the most bytes a checkpoint of a table with size
// indices per side takes, overflow values aside (and a key of up to 64
// bytes): its state uncompressed. Compressed it takes a fraction of that.
func checkpointSize(size uint64) int64 { return checkpointBytes(64, size) }

// checkpointBytesPerIndex is the compressed size budgeted for a checkpoint,
// per index and side to move: twice the most measured (KRSvKN's took
// 0.16–0.26 bytes, KSSvKSM's 0.11–0.20 from its first pass to its 154th).
const checkpointBytesPerIndex = 0.4

// CheckpointEstimate returns the disk a checkpoint of a table with size
// indices per side is budgeted, compressed, never more than checkpointSize.
// A save that finds the disk fuller than that replaces the previous
// checkpoint (saveCheckpoint).
func CheckpointEstimate(size uint64) int64 {
	budget := headerBytes(64) + int64(checkpointBytesPerIndex*2*float64(size))
	return min(budget, checkpointSize(size))
}

// checkpointBytes is the length of a checkpoint with a key of keyLen bytes
// and no overflow values, uncompressed.
func checkpointBytes(keyLen int, size uint64) int64 {
	perSide := 8*((size+63)/64) + size + presenceBytes(size) + 8
	return headerBytes(keyLen) + int64(2*perSide) + 4
}

// headerBytes is the length of a checkpoint's header with a key of keyLen
// bytes: magic, version, key length, key, then four uint64.
func headerBytes(keyLen int) int64 { return int64(16 + keyLen + 32) }

// presenceBytes is one side's presence bits in a checkpoint.
func presenceBytes(size uint64) uint64 {
	return (size + 1<<presenceShift - 1) >> presenceShift * (maxCode + 1) / 8
}

// ResumeDepth reports whether path holds a checkpoint of key with size
// indices per side, and the depth of the last pass it saved; a file that
// is not there is no checkpoint, one that does not fit is a
// *CheckpointError.
func ResumeDepth(path, key string, size uint64) (depth int, ok bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, &CheckpointError{path, err}
	}
	defer f.Close()
	h, err := readCheckpointHeader(f, path, key, size)
	if err != nil {
		return 0, false, err
	}
	return int(h.depth), true, nil
}

// readCheckpointHeader reads and checks the header of checkpoint f (path),
// and its length as far as the header tells it.
func readCheckpointHeader(f *os.File, path, key string, size uint64) (checkpointHeader, error) {
	fail := func(format string, args ...any) (checkpointHeader, error) {
		return checkpointHeader{}, &CheckpointError{path, fmt.Errorf(format, args...)}
	}
	var fixed struct {
		Magic   [8]byte
		Version uint32
		KeyLen  uint32
	}
	if err := binary.Read(f, binary.LittleEndian, &fixed); err != nil {
		return fail("reading its header: %w", err)
	}
	if fixed.Magic != checkpointMagic {
		return fail("not a makruktb checkpoint")
	}
	if fixed.Version != checkpointVersion {
		return fail("version %d, this makruktb reads version %d", fixed.Version, checkpointVersion)
	}
	if fixed.KeyLen > 256 {
		return fail("key of %d bytes", fixed.KeyLen)
	}
	name := make([]byte, fixed.KeyLen)
	var rest struct{ Size, Depth, Deepest, Stream uint64 }
	if _, err := io.ReadFull(f, name); err != nil {
		return fail("reading its header: %w", err)
	}
	if err := binary.Read(f, binary.LittleEndian, &rest); err != nil {
		return fail("reading its header: %w", err)
	}
	h := checkpointHeader{key: string(name), size: rest.Size, depth: int64(rest.Depth), deepest: int64(rest.Deepest),
		length: headerBytes(len(name)), stream: int64(rest.Stream)}
	st, err := f.Stat()
	if err != nil {
		return fail("%w", err)
	}
	switch {
	case h.key != key:
		return fail("it is %s's, not %s's", h.key, key)
	case h.size != size:
		return fail("%d indices per side, the table has %d", h.size, size)
	case h.depth < 0 || h.depth > maxCode || h.deepest < 0 || h.deepest > maxCode:
		return fail("depth %d, deepest %d", h.depth, h.deepest)
	case h.stream < 0 || h.stream > st.Size()-h.length:
		return fail("%d bytes, truncated (its header says %d)", st.Size(), uint64(h.length)+rest.Stream)
	case h.stream < st.Size()-h.length:
		return fail("bytes after its end (%d bytes, its header says %d)", st.Size(), h.length+h.stream)
	}
	return h, nil
}

// maybeCheckpoint saves the state after the pass of depth d when
// checkpoints are asked for and the last save is old enough.
func (g *generator) maybeCheckpoint(d int) error {
	c := g.opts.Checkpoint
	if c == nil || g.tooDeep.Load() || time.Since(g.lastSave) < c.Every {
		return nil
	}
	start := time.Now()
	if err := g.saveCheckpoint(d); err != nil {
		return fmt.Errorf("checkpoint %s: %w", c.Path, err)
	}
	g.lastSave = time.Now()
	if c.Saved != nil {
		var size int64
		if st, err := os.Stat(c.Path); err == nil {
			size = st.Size()
		}
		c.Saved(d, size, g.lastSave.Sub(start))
	}
	return nil
}

// saveCheckpoint writes the state after the pass of depth d. When the
// disk fills up while the previous checkpoint is still beside the new one,
// the previous one goes and the new one is written again.
func (g *generator) saveCheckpoint(d int) error {
	path := g.opts.Checkpoint.Path
	save := func(f *os.File) error { return g.writeCheckpoint(f, d) }
	err := writeAtomically(path, save)
	if !errors.Is(err, syscall.ENOSPC) {
		return err
	}
	if rmErr := os.Remove(path); rmErr != nil {
		return err // no previous checkpoint to make room with
	}
	return writeAtomically(path, save)
}

// writeAtomically is atomicfile.Write; a test fills the disk through it.
var writeAtomically = atomicfile.Write

// checkpointWindow is the zstd window of a checkpoint, which also bounds
// the memory a damaged checkpoint can make the reader take.
const checkpointWindow = 4 << 20

// writeCheckpoint writes the checkpoint of the state after the pass of
// depth d to f. An error writing f is returned as it came (the disk full,
// say), not as the compressor reports it.
func (g *generator) writeCheckpoint(f *os.File, d int) error {
	c := g.opts.Checkpoint
	le := binary.LittleEndian
	head := append(checkpointMagic[:0:0], checkpointMagic[:]...)
	head = le.AppendUint32(head, checkpointVersion)
	head = le.AppendUint32(head, uint32(len(c.Key)))
	head = append(head, c.Key...)
	head = le.AppendUint64(head, g.space.Size())
	head = le.AppendUint64(head, uint64(d))
	head = le.AppendUint64(head, uint64(g.deepest.Load()))
	sum := crc32.New(castagnoli)
	sum.Write(head)
	head = le.AppendUint64(head, 0) // the stream's length, known at the end

	file := &firstError{w: f}
	out := bufio.NewWriterSize(file, 1<<20)
	out.Write(head)
	enc, err := zstd.NewWriter(out, zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithEncoderConcurrency(parallel.Workers(g.opts.Threads)), zstd.WithEncoderCRC(true), zstd.WithWindowSize(checkpointWindow))
	if err != nil {
		return err
	}
	w := &firstError{w: io.MultiWriter(enc, sum)}
	for side := range g.states {
		s := &g.states[side]
		for _, region := range [][]byte{wordBytes(s.settled), s.codes} {
			if err := g.saveRegion(w, region); err != nil {
				enc.Close()
				return file.or(err)
			}
		}
		buf := make([]byte, 0, 64)
		for _, block := range g.present[side] {
			buf = buf[:0]
			for _, word := range block {
				buf = le.AppendUint64(buf, word)
			}
			w.Write(buf)
		}
		wide := s.overflow.entries(s.codes)
		w.Write(le.AppendUint64(buf[:0], uint64(len(wide))))
		for _, e := range wide {
			w.Write(le.AppendUint16(le.AppendUint64(buf[:0], e.Index), uint16(e.Value)))
		}
	}
	enc.Write(le.AppendUint32(nil, sum.Sum32()))
	if err := enc.Close(); err != nil || w.err != nil {
		return file.or(cmp.Or(err, w.err))
	}
	if err := out.Flush(); err != nil {
		return file.or(err)
	}
	_, err = f.WriteAt(le.AppendUint64(nil, uint64(file.n-int64(len(head)))), int64(len(head)-8))
	return err
}

// firstError is a writer that keeps the first error of the writer under
// it (after one it writes nothing more) and counts the bytes written.
type firstError struct {
	w   io.Writer
	n   int64
	err error
}

func (fe *firstError) Write(p []byte) (int, error) {
	if fe.err != nil {
		return 0, fe.err
	}
	n, err := fe.w.Write(p)
	fe.n += int64(n)
	fe.err = err
	return n, err
}

// or returns the first error written through, else err.
func (fe *firstError) or(err error) error {
	if fe.err != nil {
		return fe.err
	}
	return err
}

// saveRegion writes a part of the state: from the heap, or out of core
// from its scratch file, read by pread so that its pages do not come into
// the process.
func (g *generator) saveRegion(w io.Writer, region []byte) error {
	if g.spill == nil || len(region) == 0 {
		_, err := w.Write(region)
		return err
	}
	f, err := g.spill.fileOf(region)
	if err != nil {
		return err
	}
	_, err = io.CopyBuffer(w, io.NewSectionReader(f, 0, int64(len(region))), make([]byte, 1<<20))
	return err
}

// loadRegion fills a part of the state from r: into the heap, or out of
// core into its scratch file.
func (g *generator) loadRegion(r io.Reader, region []byte) error {
	if g.spill == nil || len(region) == 0 {
		_, err := io.ReadFull(r, region)
		return err
	}
	f, err := g.spill.fileOf(region)
	if err != nil {
		return err
	}
	n, err := io.CopyBuffer(io.NewOffsetWriter(f, 0), io.LimitReader(r, int64(len(region))), make([]byte, 1<<20))
	if err == nil && n < int64(len(region)) {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// resume loads the checkpoint into the generator's states (made, not
// seeded) and returns the depth of the last pass it saved.
func (g *generator) resume() (depth int, err error) {
	c := g.opts.Checkpoint
	f, err := os.Open(c.Path)
	if err != nil {
		return 0, &CheckpointError{c.Path, err}
	}
	defer f.Close()
	size := g.space.Size()
	h, err := readCheckpointHeader(f, c.Path, c.Key, size)
	if err != nil {
		return 0, err
	}
	damaged := func(err error) (int, error) {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("truncated: %w", io.ErrUnexpectedEOF)
		}
		return 0, &CheckpointError{c.Path, err}
	}
	// The header goes into the checksum too (its last field aside): read
	// it again.
	head := make([]byte, h.length-8)
	if _, err := f.ReadAt(head, 0); err != nil {
		return damaged(err)
	}
	sum := crc32.New(castagnoli)
	sum.Write(head)
	dec, err := zstd.NewReader(bufio.NewReaderSize(io.NewSectionReader(f, h.length, h.stream), 1<<20), zstd.WithDecoderConcurrency(parallel.Workers(g.opts.Threads)),
		zstd.WithDecoderMaxWindow(checkpointWindow), zstd.WithDecoderMaxMemory(uint64(checkpointBytes(len(h.key), size))+1<<30))
	if err != nil {
		return damaged(err)
	}
	defer dec.Close()
	in := decoded{dec}
	r := io.TeeReader(in, sum)
	le := binary.LittleEndian
	var buf [64]byte
	for side := range g.states {
		s := &g.states[side]
		for _, region := range [][]byte{wordBytes(s.settled), s.codes} {
			if err := g.loadRegion(r, region); err != nil {
				return damaged(err)
			}
		}
		for b := range g.present[side] {
			block := &g.present[side][b]
			if _, err := io.ReadFull(r, buf[:8*len(block)]); err != nil {
				return damaged(err)
			}
			for i := range block {
				block[i] = le.Uint64(buf[8*i:])
			}
		}
		if _, err := io.ReadFull(r, buf[:8]); err != nil {
			return damaged(err)
		}
		n := le.Uint64(buf[:8])
		if n > size {
			return damaged(fmt.Errorf("%d overflow values", n))
		}
		for range n {
			if _, err := io.ReadFull(r, buf[:10]); err != nil {
				return damaged(err)
			}
			j, v := le.Uint64(buf[:8]), value.Value(le.Uint16(buf[8:]))
			if j >= size {
				return damaged(fmt.Errorf("overflow value at index %d", j))
			}
			s.overflow.put(j, v)
		}
	}
	if _, err := io.ReadFull(in, buf[:4]); err != nil {
		return damaged(err)
	}
	if le.Uint32(buf[:4]) != sum.Sum32() {
		return damaged(errors.New("damaged: checksum mismatch"))
	}
	if n, err := in.Read(buf[:1]); n > 0 || err != io.EOF {
		return damaged(cmp.Or(err, errors.New("bytes after its end")))
	}
	g.deepest.Store(h.deepest)
	g.lastSave = time.Now()
	return int(h.depth), nil
}

// decoded reads a checkpoint's decompressed state, calling what the
// decompressor cannot read damaged (its end aside, which is truncation).
type decoded struct{ dec *zstd.Decoder }

func (d decoded) Read(p []byte) (int, error) {
	n, err := d.dec.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("damaged: %w", err)
	}
	return n, err
}

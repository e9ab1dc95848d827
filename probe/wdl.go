package probe

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/internal/parallel"
	"github.com/makruktb/makruktb/pairs"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// A WDL file answers the one question an engine asks in its search: what
// is this position worth under the rules, when the count starts now? It
// holds, for every index of both sides to move, the category of the
// position under one rule profile with a fresh count — pieces' honour
// where one side is bare, board's honour where both have pieces — as one
// byte (wdlCode) per index, in zstd blocks of WDLBlockSize indices. The
// categories are computed from the DTM file and, where board's honour
// decides, the profile's DTB file; the data checksums of both are
// recorded in the header, so a WDL file is never read beside other tables
// than those it was made from. On a side where captures decide (doc.go)
// a position whose best capture gives its category stores the category
// before it, if not above its own, and the reader searches the captures.
// Holes and illegal placements carry the category before them there, and
// elsewhere the category of the values the DTM file stores there, which
// repeat the previous legal position's: they cost next to nothing, and the
// same tables always give the same bytes.
const (
	// WDLBlockSize is the number of indices per block of a WDL file.
	WDLBlockSize = BlockSizeV2
)

// wdlCode is a category's byte in a WDL file: 0 loss, 1 blessed-loss,
// 2 draw, 3 cursed-win, 4 win.
func wdlCode(c honour.Category) byte { return byte(c - honour.Loss) }

// wdlCategory is the category of a WDL file's byte.
func wdlCategory(b byte) honour.Category { return honour.Category(b) + honour.Loss }

// NeedsBoardTable reports whether the categories of m under r need r's DTB
// table: a fresh count of board's honour applies to one side to move.
func NeedsBoardTable(m tb.Material, r *honour.Rules) bool {
	return r.FreshCountFor(m, tb.White).Kind == honour.BoardCount || r.FreshCountFor(m, tb.Black).Kind == honour.BoardCount
}

// WriteWDL writes the WDL file of the DTM table dtm under rules r at path,
// atomically, reading the board's-honour values from dtb (r's DTB table of
// the same material; nil when NeedsBoardTable is false). subs answers for
// the positions after a capture (the directory of the sub-tables): a
// side whose file compresses a quarter smaller stores lower bounds where
// a capture decides (see CapturesDecide); nil writes every category as it
// is. version is the file's format: Version2 (zstd blocks; also when 0)
// or Version3 (pairs streams, read with no cache).
func WriteWDL(path string, dtm, dtb *File, r *honour.Rules, subs *Tables, version int) error {
	if version != 0 && version != Version2 && version != Version3 {
		return fmt.Errorf("WDL format version %d: the versions are %d and %d: %w", version, Version2, Version3, ErrUnsupported)
	}
	err := atomicfile.Write(path, func(f *os.File) error {
		_, err := writeWDL(f, dtm, dtb, r, subs, version, nil)
		return err
	})
	return namedWriteError(path, err)
}

// WDLWriterMemory is the memory WriteWDL takes in format version beyond
// what the version-2 writer takes (the tables it reads, a block per
// worker) for a material of indices per side. The version-3 writer holds
// a side's cells and the streams of its final layouts with their pairs
// sequences (two layouts at once where a side is one pairs part), and
// the collector lets the heap grow past that: measured 13.8 bytes per
// index (convert KNMvKM, 121 M indices, one part: 2.62 GB against
// version 2's 0.95), 12.7 (KMMvKS, 233 M, parts: 4.67 against 1.70) and
// 16.8 (gen KRRvKN, 59.6 M: 1.75 against 0.76), before the codes and
// their free marks shared a byte and the layouts dropped their ceilings
// (KRRvKN since: 1.63-1.70 GB). This takes the largest.
func WDLWriterMemory(indices uint64, version int) int64 {
	if version != Version3 {
		return 0
	}
	const perIndex = 17
	return perIndex * int64(indices)
}

// RecodeWDL writes at path the WDL file WriteWDL would write beside the
// tables old was made from, taking the categories from old (a WDL file
// its writer made without deciding where captures decide, Codec
// codecZstd): no table is read but the sub-tables subs answers from.
func RecodeWDL(path string, old *File, r *honour.Rules, subs *Tables) error {
	h := old.Header
	if h.Metric != WDL || h.Rules != r.Name {
		return fmt.Errorf("%s: the %s table of %s (rules %q), not a WDL file under %s", old.name, h.Metric, h.Material, h.Rules, r.Name)
	}
	buffers := sync.Pool{New: func() any { return new([]value.Value) }}
	err := atomicfile.Write(path, func(f *os.File) error {
		_, err := encodeWDL(f, h, r, subs, func(side tb.Color, lo, hi uint64, out []byte) ([]byte, error) {
			buf := buffers.Get().(*[]value.Value)
			defer buffers.Put(buf)
			vals, err := old.Range(side, lo, hi, (*buf)[:0])
			*buf = vals
			for _, v := range vals {
				out = append(out, byte(v))
			}
			return out, err
		})
		return err
	})
	return namedWriteError(path, err)
}

// wdlExact reports an error when the categories of m under r cannot be
// exact: with as many pieces on each side, two or more, a board's count
// that one side runs (board_count_by "fewer") starts at a capture that
// leaves both sides pieces, and no table models that count.
func wdlExact(m tb.Material, r *honour.Rules) error {
	if r.FreshCountFor(m, tb.White).Counter == honour.NoCounterUntilCapture {
		return fmt.Errorf("the WDL table of %s under %s rules: with as many pieces on each side no count runs until a capture starts one, which no table models; its categories would not be exact", m, r.Name)
	}
	return nil
}

// writeWDL encodes the WDL file of dtm (and dtb) under r into w and
// returns its length. edit, if not nil, may change the codes of side's
// indices from lo before they are encoded (the tests' wrong files).
func writeWDL(w io.WriterAt, dtm, dtb *File, r *honour.Rules, subs *Tables, version int, edit func(side tb.Color, lo uint64, codes []byte)) (int64, error) {
	m := dtm.Header.Material
	switch {
	case dtm.Header.Metric != DTM:
		return 0, fmt.Errorf("%s: a %s table, not DTM", dtm.name, dtm.Header.Metric)
	case dtb == nil && NeedsBoardTable(m, r):
		return 0, fmt.Errorf("the WDL table of %s under %s rules needs %s: %w", m, r.Name, BoardFileName(m, r.Name), ErrNeedsBoardTable)
	case dtb != nil && (dtb.Header.Metric != DTB || dtb.Header.Material != m || dtb.Header.Rules != r.Name):
		return 0, fmt.Errorf("%s: the %s table of %s (rules %q), not %s's DTB table under %s", dtb.name, dtb.Header.Metric, dtb.Header.Material, dtb.Header.Rules, m, r.Name)
	}
	if err := wdlExact(m, r); err != nil {
		return 0, err
	}
	h := newHeader(dtm.Space, WDL, 1)
	h.Version = Version2
	h.Rules = r.Name
	h.BlockSize = WDLBlockSize
	h.DTMCRC = dtm.Header.DataCRC
	if dtb != nil {
		h.DTBCRC = dtb.Header.DataCRC
	}
	src := newWDLSource(dtm, dtb, r)
	buffers := sync.Pool{New: func() any { return new(wdlScratch) }}
	codes := func(side tb.Color, lo, hi uint64, out []byte) ([]byte, error) {
		buf := buffers.Get().(*wdlScratch)
		defer buffers.Put(buf)
		n := len(out)
		out, err := src.codes(side, lo, hi, buf, out)
		if err == nil && edit != nil {
			edit(side, lo, out[n:])
		}
		return out, err
	}
	if version == Version3 {
		return encodeWDLPairs(w, h, r, subs, codes)
	}
	return encodeWDL(w, h, r, subs, codes)
}

// encodeWDLPairs writes a version-3 WDL file with header h (index and
// sources filled in): each side's codes as one pairs stream, in the order
// of the index's digits (order.go) whose stream is smallest, the codes of
// holes free (fillFree chooses them). With subs, a side where every
// capture's bound is sound is also encoded with the codes where a capture
// decides free up to their category (captureFree), in its own best order,
// and stored so when that stream is the smaller (Captures): a probe then
// searches the captures where the stored code is below a win, as
// Syzygy's probers always do.
func encodeWDLPairs(w io.WriterAt, h Header, r *honour.Rules, subs *Tables, codes func(side tb.Color, lo, hi uint64, out []byte) ([]byte, error)) (int64, error) {
	space, err := index.NewGame(h.Game, h.Material)
	if err != nil {
		return 0, err
	}
	h.Version, h.Codec, h.Captures = Version3, codecPairs, 0
	h.BlockSize, h.Blocks = 0, 2
	ctx := context.Background()
	chunks := int64((h.Size + WDLBlockSize - 1) / WDLBlockSize)
	chunk := func(u int64) (lo, hi uint64) {
		lo = uint64(u) * WDLBlockSize
		return lo, min(lo+WDLBlockSize, h.Size)
	}
	streams := make([][]byte, 2)
	for side := tb.White; side <= tb.Black; side++ {
		// cells holds each index's code and how free the writer is to
		// choose it (a hole until the walk below finds it legal).
		cells := make([]byte, h.Size)
		err := parallel.For(ctx, chunks, 0, func(u int64) error {
			lo, hi := chunk(u)
			out, err := codes(side, lo, hi, make([]byte, 0, hi-lo))
			switch {
			case err != nil:
				return err
			case uint64(len(out)) != hi-lo:
				return fmt.Errorf("%d codes for indices [%d, %d)", len(out), lo, hi)
			}
			for j, c := range out {
				if c > wdlCode(honour.Win) {
					return fmt.Errorf("index %d: code %d is no category", lo+uint64(j), c)
				}
				cells[lo+uint64(j)] = freeHole | c
			}
			return nil
		}, nil)
		if err != nil {
			return 0, err
		}
		var unsound atomic.Bool
		err = parallel.For(ctx, chunks, 0, func(u int64) error {
			lo, hi := chunk(u)
			ok, err := markCells(subs, r, space, side, lo, cells[lo:hi])
			if !ok {
				unsound.Store(true)
			}
			return err
		}, nil)
		if err != nil {
			return 0, err
		}
		forms := []bool{false}
		if subs != nil && !unsound.Load() {
			forms = append(forms, true)
		}
		c, err := smallestLayout(space, cells, forms)
		if err != nil {
			return 0, err
		}
		h.Orders[side], streams[side] = c.order.order, c.stream
		if c.bounded {
			h.Captures |= 1 << side
		}
	}
	return writePacked(w, &h, streams)
}

// encodeWDLPairs' cells, a byte per index: its code (codeBits) and where
// the writer may choose the code it stores instead, one random read
// where the layouts gather them. A ceiling freeCode|c means any code up
// to c.
const (
	codeBits    = 0x07
	freeHole    = 0x80 // a hole: any code
	freeCapture = 0x40 // a capture decides: in the bounded form, any code up to its own
	freeCode    = 0x80
)

// ceilingOf returns the ceiling (freeCode|c, or 0: the code is exact) of
// an index whose cell is cell, in the bounded form or not.
func ceilingOf(cell byte, bounded bool) byte {
	switch {
	case cell&freeHole != 0:
		return freeCode | wdlCode(honour.Win)
	case bounded && cell&freeCapture != 0:
		return freeCode | cell&codeBits
	}
	return 0
}

// A layout is one way to store a side: an order of the index's digits,
// with or without the captures' bounds, and its stream.
type layout struct {
	order   *digitOrder
	bounded bool
	stream  []byte
	guess   int // the size of its sample's stream
}

// The samples smallestLayout compares the layouts on: sampleRuns runs of
// sampleRun values of the stream, spread evenly; first every layout on a
// sample a sixteenth of that (quickRuns runs of quickRun), then the
// quickBest best on the larger one. (Variables for the tests.)
var (
	sampleRun  = 1 << 16
	sampleRuns = 64
	quickRun   = 1 << 14
	quickRuns  = 16
)

const quickBest = 8

// layouts returns every layout of space's digits, with the kings one
// digit and two, in each of forms.
func layouts(space *index.Space, forms []bool) ([]*layout, error) {
	var out []*layout
	n := 1 + len(space.Groups())
	for _, bounded := range forms {
		for _, order := range append(digitOrders(n), digitOrders(n+1)...) {
			o, err := newDigitOrder(space, order)
			if err != nil {
				return nil, err
			}
			out = append(out, &layout{order: o, bounded: bounded})
		}
	}
	return out, nil
}

// smallestLayout returns the layout (digit order, kings apart or not, and
// bounded among forms) whose stream is smallest, as rtbgen's permute.c
// chooses: each layout's sample is encoded, the best four of each kind
// (kings together, apart) on a larger sample, then the whole stream of
// the best of each kind (of the best, when a sample is the whole stream).
func smallestLayout(space *index.Space, cells []byte, forms []bool) (*layout, error) {
	cands, err := layouts(space, forms)
	if err != nil {
		return nil, err
	}
	// guess encodes each candidate's sample of runs runs of length values
	// (its whole stream when that is no longer), keeping that stream,
	// and sorts them by its size. Stable: among equal guesses the earlier
	// layout (index order, kings together, plain first) wins.
	guess := func(cands []*layout, runs, length int) (whole bool, err error) {
		whole = true
		for _, c := range cands {
			whole = whole && c.order.length <= uint64(2*runs*length)
		}
		err = parallel.For(context.Background(), int64(len(cands)), 0, func(u int64) error {
			c := cands[u]
			var values []byte
			if whole {
				values = reordered(cells, c.order, c.bounded)
			} else {
				values = sampled(cells, c.order, c.bounded, runs, length)
			}
			enc, err := pairs.Encode(values)
			c.guess = len(enc)
			if whole {
				c.stream = enc
			}
			return err
		}, nil)
		slices.SortStableFunc(cands, func(a, b *layout) int { return a.guess - b.guess })
		return whole, err
	}
	whole, err := guess(cands, quickRuns, quickRun)
	if err != nil || whole {
		return cands[0], err
	}
	// The best of each kind, kings together and apart, go on: the small
	// sample favours the kings apart where the whole stream does not
	// (KRRNvK.thai: 3.77 MB chosen that way, 3.4 with the kings together).
	cands = append(bestOfKind(cands, false, quickBest/2), bestOfKind(cands, true, quickBest/2)...)
	if whole, err = guess(cands, sampleRuns, sampleRun); err != nil || whole {
		return cands[0], err
	}
	finals := append(bestOfKind(cands, false, 1), bestOfKind(cands, true, 1)...)
	// One at a time where Encode uses every core on a stream of many
	// parts (a whole stream takes the side's size, its pairs sequence
	// twice that: a six-piece side's 3.8 GB and 7.6); together where each
	// is one part.
	workers := 1
	if pairs.OnePart(cands[0].order.length) {
		workers = 0
	}
	err = parallel.For(context.Background(), int64(len(finals)), workers, func(u int64) error {
		c := finals[u]
		var err error
		c.stream, err = pairs.Encode(reordered(cells, c.order, c.bounded))
		return err
	}, nil)
	if err != nil {
		return nil, err
	}
	best := finals[0]
	for _, c := range finals[1:] {
		if len(c.stream) < len(best.stream) {
			best = c
		}
	}
	return best, nil
}

// bestOfKind returns the first n layouts of sorted with the kings apart,
// or together.
func bestOfKind(sorted []*layout, apart bool, n int) []*layout {
	var out []*layout
	for _, c := range sorted {
		if len(out) < n && (c.order.pairOf != nil) == apart {
			out = append(out, c)
		}
	}
	return out
}

// sampled returns runs runs of length values of the stream in order o
// (runs ≥ 2, runs·length at most its length), spread evenly from its
// first value to its last, each with its free codes chosen (fillFree).
func sampled(cells []byte, o *digitOrder, bounded bool, runs, length int) []byte {
	n := o.length
	out := make([]byte, 0, runs*length)
	indices := make([]uint64, length)
	for k := range uint64(runs) {
		start := k * (n - uint64(length)) / uint64(runs-1)
		run := out[len(out) : len(out)+length]
		gather(cells, o, bounded, start, run, indices)
		fillFree(run)
		out = out[:len(out)+length]
	}
	return out
}

// reordered returns the codes of cells in order o, the free ones (in the
// bounded form, those a capture decides too, and the holes between king
// pairs when the kings are apart) chosen by fillFree.
func reordered(cells []byte, o *digitOrder, bounded bool) []byte {
	out := make([]byte, o.length)
	const step = 1 << 16
	// Each place reads its index's code (reads spread out, the writes
	// in order: faster than the other way round).
	_ = parallel.For(context.Background(), int64((o.length+step-1)/step), 0, func(u int64) error {
		lo := uint64(u) * step
		n := min(step, o.length-lo)
		gather(cells, o, bounded, lo, out[lo:lo+n], make([]uint64, n))
		return nil
	}, nil)
	fillFree(out)
	return out
}

// gather sets out to the cells of the places of order o from start on
// as the form places them (a hole: code 0, any code; in the plain form
// a capture decides nothing), indices its scratch (as long as out).
func gather(cells []byte, o *digitOrder, bounded bool, start uint64, out []byte, indices []uint64) {
	o.indexRange(start, indices)
	mask := ^byte(0)
	if !bounded {
		mask = ^byte(freeCapture)
	}
	for j, i := range indices {
		cell := byte(freeHole)
		if i != noIndex {
			cell = cells[i]
		}
		out[j] = cell & mask
	}
}

// fillFree turns out's cells (as gather places them) into codes, choosing
// the free ones (ceilingOf: any code up to the ceiling's) to lengthen
// runs, a run of free codes at a time: with the code before the run when
// that fits every ceiling in it and itself continues a run, else with
// the code after it when that fits and continues one (or the code before
// does not fit), else with the code before when it fits; otherwise each
// free code takes the one before it when that fits its ceiling, and
// keeps its own code if not. A cell that is not free is its code.
func fillFree(out []byte) {
	isFree := func(j int) bool { return out[j]&(freeHole|freeCapture) != 0 }
	for j := 0; j < len(out); {
		if !isFree(j) {
			j++
			continue
		}
		k, top := j, byte(0xff)
		for ; k < len(out) && isFree(k); k++ {
			top = min(top, ceilingOf(out[k], true)&^freeCode)
		}
		prevFits := j > 0 && out[j-1] <= top
		nextFits := k < len(out) && out[k] <= top
		fill, whole := byte(0), true
		switch {
		case prevFits && j > 1 && out[j-2] == out[j-1]:
			fill = out[j-1]
		case nextFits && (!prevFits || k+1 < len(out) && !isFree(k+1) && out[k+1] == out[k]):
			fill = out[k]
		case prevFits:
			fill = out[j-1]
		default:
			whole = false
		}
		for ; j < k; j++ {
			switch {
			case whole:
				out[j] = fill
			case j > 0 && out[j-1] <= ceilingOf(out[j], true)&^freeCode:
				out[j] = out[j-1]
			default:
				out[j] &= codeBits
			}
		}
	}
}

// capturesDecide reports whether the captures of the legal position p
// (index i, its captures listed by rc), of code c, give its category
// (their bound equals it), and whether their bound is sound there (not
// above it). baring: as captureBound's.
func capturesDecide(subs *Tables, r *honour.Rules, rc *runCaptures, i uint64, p *tb.Position, c byte, baring bool) (decides, sound bool, err error) {
	cat := wdlCategory(c)
	if cat > boundTop(baring) {
		return false, true, nil
	}
	bound, err := subs.boundOf(p, rc.of(i, p), r, baring)
	if err != nil {
		return false, false, err
	}
	return bound == cat, bound <= cat, nil
}

// markCells clears the hole mark of the cell of each legal index of side
// from lo and, with subs, marks freeCapture each whose captures' bound
// equals its category (encodeWDLPairs' bounded form). It reports false
// when a bound exceeds a category (with subs: the bounded form is then
// unsound, and no more bounds are searched).
func markCells(subs *Tables, r *honour.Rules, space *index.Space, side tb.Color, lo uint64, cells []byte) (bool, error) {
	ok := subs != nil
	var rc *runCaptures
	if ok {
		rc = newRunCaptures(space)
	}
	var err error
	space.WalkRange(side, lo, lo+uint64(len(cells)), func(i uint64, p *tb.Position) {
		j := i - lo
		cells[j] &^= freeHole
		if !ok {
			return
		}
		var decides, sound bool
		if decides, sound, err = capturesDecide(subs, r, rc, i, p, cells[j]&codeBits, true); err != nil || !sound {
			ok = false
			return
		}
		if decides {
			cells[j] |= freeCapture
		}
	})
	return ok || subs == nil, err
}

// encodeWDL writes a WDL file with header h (index and sources filled
// in), the codes of each side's indices [lo, hi) from codes. With subs it
// compresses each side twice, as it is and with the positions where a
// capture decides (captureBound equals the category) storing the code
// before them instead, whenever that is not above their own: a side whose
// second form is at most three quarters of the first is stored so
// (Captures). The bounds are computed first on every sampleEvery-th block
// of a side, and on the others only when that sample shrinks so. A side
// where some capture's bound exceeds the category (a profile whose counts
// do not only shorten with age) is stored as it is.
func encodeWDL(w io.WriterAt, h Header, r *honour.Rules, subs *Tables, codes func(side tb.Color, lo, hi uint64, out []byte) ([]byte, error)) (int64, error) {
	const sampleEvery = 16
	space, err := index.NewGame(h.Game, h.Material)
	if err != nil {
		return 0, err
	}
	h.Codec, h.Captures = codecZstdCaptures, 0
	perSide := h.blocksPerSide()
	h.Blocks = 2 * perSide
	workers := runtime.GOMAXPROCS(0)
	enc, err := blockEncoder(zstd.SpeedBestCompression, workers)
	if err != nil {
		return 0, err
	}
	defer enc.Close()
	plain := make([][]byte, h.Blocks)
	bounded := make([][]byte, h.Blocks)
	var unsound [2]atomic.Bool
	bounds := [2]bool{subs != nil, subs != nil}
	sampled := func(k int) bool { return k%perSide%sampleEvery == 0 }
	// pass encodes the blocks whose sampled is want.
	pass := func(want bool) error {
		return parallel.For(context.Background(), int64(h.Blocks), workers, func(u int64) error {
			k := int(u)
			if sampled(k) != want {
				return nil
			}
			side := tb.Color(k / perSide)
			lo := uint64(k%perSide) * uint64(h.BlockSize)
			hi := min(lo+uint64(h.BlockSize), h.Size)
			raw, err := codes(side, lo, hi, make([]byte, 0, hi-lo))
			if err != nil {
				return err
			}
			plain[k] = enc.EncodeAll(raw, nil)
			if !bounds[side] || unsound[side].Load() {
				return nil
			}
			ok, err := boundCodes(subs, r, space, side, lo, raw)
			if err != nil || !ok {
				unsound[side].Store(true)
				return err
			}
			bounded[k] = enc.EncodeAll(raw, nil)
			return nil
		}, nil)
	}
	// shrinks reports whether side's bounded blocks so far take at most
	// three quarters of its plain ones.
	shrinks := func(side int) bool {
		var asIs, withBounds int
		for k := side * perSide; k < (side+1)*perSide; k++ {
			if bounded[k] != nil || sampled(k) {
				asIs += len(plain[k])
				withBounds += len(bounded[k])
			}
		}
		return bounds[side] && !unsound[side].Load() && 4*withBounds <= 3*asIs
	}
	if err := pass(true); err != nil {
		return 0, err
	}
	bounds = [2]bool{shrinks(0), shrinks(1)}
	if err := pass(false); err != nil {
		return 0, err
	}
	for side := range 2 {
		if shrinks(side) {
			h.Captures |= 1 << side
			copy(plain[side*perSide:], bounded[side*perSide:(side+1)*perSide])
		}
	}
	return writePacked(w, &h, plain)
}

// boundCodes rewrites in place the codes of side's indices from lo, as
// encodeWDL stores them where captures decide: a legal position whose
// captures' bound equals its category takes the code before it when that
// is not above its own (holes take it always). False when a bound
// exceeds a category.
func boundCodes(subs *Tables, r *honour.Rules, space *index.Space, side tb.Color, lo uint64, codes []byte) (bool, error) {
	var prev byte
	next := lo // the first index not yet rewritten
	ok := true
	var err error
	rc := newRunCaptures(space)
	space.WalkRange(side, lo, lo+uint64(len(codes)), func(i uint64, p *tb.Position) {
		if !ok {
			return
		}
		for ; next < i; next++ { // holes
			codes[next-lo] = prev
		}
		c := codes[i-lo]
		var decides, sound bool
		if decides, sound, err = capturesDecide(subs, r, rc, i, p, c, false); err != nil || !sound {
			ok = false
			return
		}
		if decides && prev <= c {
			codes[i-lo] = prev
		}
		prev, next = codes[i-lo], i+1
	})
	if !ok {
		return false, err
	}
	for ; next-lo < uint64(len(codes)); next++ {
		codes[next-lo] = prev
	}
	return true, nil
}

// wdlSource computes WDL codes from a DTM file and, where board's honour
// decides, a DTB file: for the writer and for CheckWDL.
type wdlSource struct {
	dtm, dtb *File
	judge    [2]*honour.Categories // by side to move, under its fresh count
}

func newWDLSource(dtm, dtb *File, r *honour.Rules) *wdlSource {
	m := dtm.Header.Material
	s := &wdlSource{dtm: dtm, dtb: dtb}
	for side := tb.White; side <= tb.Black; side++ {
		c := r.FreshCountFor(m, side)
		// Board's honour decides where the count alone cannot.
		s.judge[side] = honour.NewCategories(func(dtm, dtb value.Value) honour.Category {
			j := r.Judge(dtm, c)
			if !j.Exact {
				j = r.JudgeBoard(dtm, dtb, c)
			}
			return j.Category
		})
	}
	return s
}

// wdlScratch holds the values a block's codes come from.
type wdlScratch struct{ dtm, dtb []value.Value }

// codes appends to out the codes of side's indices [lo, hi), reading the
// values into buf (value.Draw stands for the DTB values when there is no
// DTB file).
func (s *wdlSource) codes(side tb.Color, lo, hi uint64, buf *wdlScratch, out []byte) ([]byte, error) {
	var err error
	if buf.dtm, err = s.dtm.Range(side, lo, hi, buf.dtm); err != nil {
		return nil, err
	}
	buf.dtb = buf.dtb[:0]
	if s.dtb != nil {
		if buf.dtb, err = s.dtb.Range(side, lo, hi, buf.dtb); err != nil {
			return nil, err
		}
	} else {
		for range buf.dtm {
			buf.dtb = append(buf.dtb, value.Draw)
		}
	}
	c := s.judge[side]
	for i, v := range buf.dtm {
		out = append(out, wdlCode(c.Of(v, buf.dtb[i])))
	}
	return out, nil
}

// CheckSources reports a *CorruptError naming wdl when the WDL file was
// not made from the DTM file dtm (and the DTB file dtb, when not nil): its
// recorded data checksums must be theirs.
func CheckSources(wdl, dtm, dtb *File) error {
	h := &wdl.Header
	if dtm != nil && h.DTMCRC != dtm.Header.DataCRC {
		return wdl.corrupt(0, "made from another %s (data checksum %08x, the file beside it has %08x)", FileName(h.Material, DTM), h.DTMCRC, dtm.Header.DataCRC)
	}
	if dtb != nil && h.DTBCRC != dtb.Header.DataCRC {
		return wdl.corrupt(0, "made from another %s (data checksum %08x, the file beside it has %08x)", BoardFileName(h.Material, h.Rules), h.DTBCRC, dtb.Header.DataCRC)
	}
	return nil
}

// CheckWDL recomputes every category of the WDL file wdl from the DTM file
// dtm and, where board's honour decides, the DTB file dtb under rules r,
// and reports the first index whose stored category differs (a
// *CorruptError naming wdl), or the sources it was not made from. On a
// side where captures decide it checks what a reader finds, the better
// of the stored category and the captures' bound (subs answers for the
// positions after a capture), at every legal position.
func CheckWDL(ctx context.Context, wdl, dtm, dtb *File, r *honour.Rules, subs *Tables) error {
	h := &wdl.Header
	if h.Metric != WDL || h.Material != dtm.Header.Material || h.Rules != r.Name {
		return wdl.corrupt(0, "holds the %s table of %s (rules %q), not the WDL table of %s under %s", h.Metric, h.Material, h.Rules, dtm.Header.Material, r.Name)
	}
	if err := CheckSources(wdl, dtm, dtb); err != nil {
		return err
	}
	if dtb == nil && NeedsBoardTable(h.Material, r) {
		return fmt.Errorf("checking %s needs %s: %w", wdl.name, BoardFileName(h.Material, r.Name), ErrNeedsBoardTable)
	}
	if h.Captures != 0 && subs == nil {
		return fmt.Errorf("checking %s needs the tables of the positions after a capture", wdl.name)
	}
	src := newWDLSource(dtm, dtb, r)
	perSide := wdl.perSide
	return parallel.For(ctx, int64(h.Blocks), 0, func(u int64) error {
		k := int(u)
		side := tb.Color(k / perSide)
		lo := uint64(k%perSide) * uint64(h.BlockSize)
		raw, err := wdl.rawBlock(k)
		if err != nil {
			return err
		}
		var buf wdlScratch
		want, err := src.codes(side, lo, lo+uint64(len(raw)), &buf, nil)
		if err != nil {
			return err
		}
		mismatch := func(i int, found, stored honour.Category) error {
			return wdl.corrupt(wdl.dataStart+int64(h.Offsets[k]), "%s to move, index %d: category %s found (%s stored), %s computed from the DTM and DTB values %v and %v",
				side.Name(), lo+uint64(i), found, stored, wdlCategory(want[i]), buf.dtm[i], buf.dtb[i])
		}
		if !h.CapturesDecide(side) {
			for i := range want {
				if raw[i] == want[i] {
					continue
				}
				// A hole holds whatever its writer chose in version 3
				// (the code before it in the stream's order).
				if _, legal := wdl.Space.Position(lo+uint64(i), side); !legal && h.Version == Version3 {
					continue
				}
				return mismatch(i, wdlCategory(raw[i]), wdlCategory(raw[i]))
			}
			return nil
		}
		// Where captures decide, a reader finds the better of the stored
		// category and the captures' bound, at every legal position (a
		// hole holds whatever its writer chose).
		baring := h.BaringCapturesExact()
		var bad error
		rc := newRunCaptures(wdl.Space)
		wdl.Space.WalkRange(side, lo, lo+uint64(len(raw)), func(at uint64, p *tb.Position) {
			i := int(at - lo)
			if bad != nil {
				return
			}
			stored := wdlCategory(raw[i])
			found := stored
			if stored < boundTop(baring) {
				bound, err := subs.boundOf(p, rc.of(at, p), r, baring)
				if err != nil {
					bad = err
					return
				}
				found = max(stored, bound)
			}
			if found != wdlCategory(want[i]) {
				bad = mismatch(i, found, stored)
			}
		})
		return bad
	}, nil)
}

package retro

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// # Out of core: the state in scratch files
//
// With Options.Scratch set, the state bytes and settled bits of both sides
// live in files under that directory, mapped into memory (MAP_SHARED),
// instead of in the heap: the code that reads and updates them is the same
// either way. What makes this work within little memory is the order of
// the work and the slices it lets go.
//
// Every move and un-move of a piece other than a king stays inside its king
// pair's slice of indices; a king step leads to one of the few king pairs
// index.Space.KingStepPairs lists. A pass of the iteration over the
// positions of one side to move (the frontier) touches that side's slice of
// the king pair at hand and the other side's slices of that king pair and
// its neighbours (the predecessors). So a pass out of core visits the
// frontier of White to move first, in index order (white king outer, black
// king inner: a black king step moves a few king pairs), then the frontier
// of Black to move ordered by the black king first, so that white king
// steps stay near too. A slice is let go (drop: its dirty pages start
// writing back and leave the process) as soon as every unit of work that
// touches it is done. The slices held at once are then a few dozen of
// thousands (window.peak), whatever the table's size.
//
// The kernel reads a slice back when the next pass touches it: from the
// page cache if memory allows, else from the disk. Correctness never
// depends on what is resident, only the speed: a position decided by its
// moves (lostByMoves) reads a few slices outside the window, and those are
// let go at the end of the phase.
//
// The scratch files are unlinked as soon as they are made: nothing is left
// on disk when the process ends, however it ends. Their space is reserved
// up front (fallocate), so a full disk is an error at the start, not a
// fault in the middle.
type spill struct {
	dir   string
	mu    sync.Mutex
	files []*mappedFile
	// stopTrim ends the trimmer (trim), trimmer waits for it.
	stopTrim chan struct{}
	trimmer  sync.WaitGroup
}

// mappedFile is one scratch file and its mapping.
type mappedFile struct {
	f   *os.File
	mem []byte
}

// ScratchBytes returns the scratch disk a generation of space out of core
// takes: a byte and a settled bit per index and side.
func ScratchBytes(space *index.Space) int64 {
	size := space.Size()
	return 2 * int64(size+(size+63)/64*8)
}

// LoadScratchBytes returns the scratch disk LoadOutOfCore takes for a
// table of size indices per side: a byte per index and side (the rare
// values beyond a byte stay in memory).
func LoadScratchBytes(size uint64) int64 { return 2 * int64(size) }

// FreeDisk returns the space an unprivileged writer may still use in dir.
func FreeDisk(dir string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, &os.PathError{Op: "statfs", Path: dir, Err: err}
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// newSpill checks that dir has room for need bytes.
func newSpill(dir string, need int64) (*spill, error) {
	free, err := FreeDisk(dir)
	if err != nil {
		return nil, fmt.Errorf("scratch directory: %w", err)
	}
	if free < need {
		return nil, fmt.Errorf("scratch directory %s has %s free; the generation needs %s there", dir, gib(free), gib(need))
	}
	return &spill{dir: dir}, nil
}

func gib(n int64) string { return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30)) }

// bytes returns n zero bytes of a new scratch file, mapped shared.
func (sp *spill) bytes(n uint64) ([]byte, error) {
	if n == 0 {
		return nil, nil
	}
	f, err := os.CreateTemp(sp.dir, ".makruktb-scratch-*")
	if err != nil {
		return nil, err
	}
	// Unlinked now, the file lives as long as it is open or mapped.
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	if err := reserve(f, int64(n)); err != nil {
		f.Close()
		return nil, fmt.Errorf("reserve %s of scratch in %s: %w", gib(int64(n)), sp.dir, err)
	}
	mem, err := unix.Mmap(int(f.Fd()), 0, int(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("map %s of scratch: %w", gib(int64(n)), err)
	}
	// No read-around: a fault would read the device's whole readahead
	// (often megabytes) around a page the window may touch once. The
	// slices a unit needs are asked for in advance instead (fetch).
	_ = unix.Madvise(mem, unix.MADV_RANDOM)
	sp.mu.Lock()
	sp.files = append(sp.files, &mappedFile{f: f, mem: mem})
	sp.mu.Unlock()
	return mem, nil
}

// words returns n zero uint64 of a new scratch file, mapped shared (the
// mapping is page-aligned).
func (sp *spill) words(n uint64) ([]uint64, error) {
	b, err := sp.bytes(8 * n)
	if err != nil || n == 0 {
		return nil, err
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n), nil
}

// drop lets the pages wholly inside b (part of a mapping of sp) go: their
// changes start writing back to the file, and they leave the process, so
// that the kernel may reclaim them. It changes no byte: the next access
// reads them back.
func (sp *spill) drop(b []byte) {
	lo, hi, ok := pagesWithin(b, false)
	if !ok {
		return
	}
	for _, mf := range sp.files {
		base := uintptr(unsafe.Pointer(&mf.mem[0]))
		if lo < base || hi > base+uintptr(len(mf.mem)) {
			continue
		}
		madvise(lo, hi, unix.MADV_DONTNEED)
		startWriteBack(mf.f, int64(lo-base), int64(hi-lo))
		return
	}
}

// fileOf returns the scratch file mapped at b, which must start a mapping.
func (sp *spill) fileOf(b []byte) (*os.File, error) {
	for _, mf := range sp.files {
		if len(b) > 0 && len(mf.mem) >= len(b) && &mf.mem[0] == &b[0] {
			return mf.f, nil
		}
	}
	return nil, errors.New("no scratch file is mapped there")
}

// madvise gives the kernel advice on the pages lo … hi (page-aligned
// addresses inside a mapping of a spill). Advice failing is harmless.
func madvise(lo, hi uintptr, advice int) {
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, uintptr(advice))
}

// fetch asks the kernel to read the pages of b (part of a mapping of sp)
// in the background, in large reads: a unit of work is about to touch them.
func (sp *spill) fetch(b []byte) {
	if lo, hi, ok := pagesWithin(b, true); ok {
		madvise(lo, hi, unix.MADV_WILLNEED)
	}
}

// advise gives the kernel advice on how b will be read from here on:
// unix.MADV_SEQUENTIAL for a finished table read in order by its writer,
// unix.MADV_NORMAL for a loaded table read a king pair and its neighbours
// at a time (read-around is welcome again in both).
func (sp *spill) advise(b []byte, advice int) {
	if lo, hi, ok := pagesWithin(b, true); ok {
		madvise(lo, hi, advice)
	}
}

// pagesWithin returns the page-aligned address range of the pages wholly
// inside b, or, with touching, of every page b touches.
func pagesWithin(b []byte, touching bool) (lo, hi uintptr, ok bool) {
	if len(b) == 0 {
		return 0, 0, false
	}
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(&b[0]))
	end := start + uintptr(len(b))
	if touching {
		lo, hi = start&^(page-1), (end+page-1)&^(page-1)
	} else {
		lo, hi = (start+page-1)&^(page-1), end&^(page-1)
	}
	return lo, hi, lo < hi
}

// wordBytes returns the bytes of settled bits, for drop, fetch and
// sequential.
func wordBytes(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
}

// trim lets every page of sp's files go every few milliseconds, until
// close. A finished table is read whole by its writer and summaries, in no
// order the window knows, and from the page cache at memory speed: the
// pages they read would stay in the process until memory ran short. Readers
// fault them back from the page cache. The period grows with the mappings
// (10 ms per GiB, 250 ms at most): each trim walks their page tables.
func (sp *spill) trim() {
	var mapped int
	for _, mf := range sp.files {
		mapped += len(mf.mem)
	}
	period := min(max(time.Duration(mapped>>20)*10*time.Millisecond>>10, 10*time.Millisecond), 250*time.Millisecond)
	sp.stopTrim = make(chan struct{})
	sp.trimmer.Go(func() {
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-sp.stopTrim:
				return
			case <-tick.C:
				// Only unmapping here: starting the writeback of a whole
				// mapping (drop) can block for seconds behind the disk
				// while the readers go on faulting pages in. The kernel
				// writes the dirty pages back in its own time.
				for _, mf := range sp.files {
					lo := uintptr(unsafe.Pointer(&mf.mem[0]))
					madvise(lo, lo+uintptr(len(mf.mem)), unix.MADV_DONTNEED)
				}
			}
		}
	})
}

// close unmaps and closes every scratch file, which frees their space.
func (sp *spill) close() error {
	if sp.stopTrim != nil {
		close(sp.stopTrim) // before the unmapping: the trimmer must never touch a freed range
		sp.trimmer.Wait()
		sp.stopTrim = nil
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	var errs []error
	for _, mf := range sp.files {
		errs = append(errs, unix.Munmap(mf.mem), mf.f.Close())
	}
	sp.files = nil
	return errors.Join(errs...)
}

// slice is one side's part of the state of one king pair.
type slice struct {
	side tb.Color
	k    int
}

// window is the order of a pass out of core and the slices let go after
// each unit of it: unit u is the frontier of side units[u].side and king
// pair units[u].k; release[u] lists the slices no later unit of its
// phase (the units of one frontier side) touches.
type window struct {
	units   []slice
	release [][]slice
	touches [][]slice // touches[u]: every slice unit u touches
	peak    int       // the most slices held at once
}

// maxLead is how far the units at work may run ahead of the lowest one
// not done (releaser.start): a slice goes only once every unit up to its
// last is done, so a worker held up (by the disk, say) would otherwise let
// the others take slice after slice. It bounds the window's peak
// (window.peak counts with it), and the workers that help: more than
// maxLead threads gain nothing out of core.
const maxLead = 8

// fetchAhead is how many units ahead of the work the slices it will touch
// are asked for (spill.fetch).
const fetchAhead = 4

// newWindow orders the units of a pass out of core (see spill). With
// neighbours false, a unit touches its own slice only (the seed); with
// true, the other side's slices of its king pair and of the pairs the
// other side's king steps to (the iteration).
func newWindow(space *index.Space, neighbours bool) *window {
	n := space.KingPairs()
	w := &window{release: make([][]slice, 2*n), touches: make([][]slice, 2*n)}
	for side := tb.White; side <= tb.Black; side++ {
		order := make([]int, 0, n)
		for k := range n {
			order = append(order, k)
		}
		if side == tb.Black {
			slices.SortStableFunc(order, func(a, b int) int { return blackFirst(space, a) - blackFirst(space, b) })
		}
		for _, k := range order {
			w.units = append(w.units, slice{side, k})
		}
	}
	// A slice is held from its first touch to its last within a phase
	// (the units of one frontier side); the phases need not share any.
	type touched struct {
		s     slice
		phase tb.Color
	}
	first, last := map[touched]int{}, map[touched]int{}
	touch := func(s slice, u int) {
		w.touches[u] = append(w.touches[u], s)
		t := touched{s, w.units[u].side}
		if f, ok := first[t]; !ok || u < f {
			first[t] = u
		}
		last[t] = max(last[t], u)
	}
	for u, s := range w.units {
		touch(s, u)
		if !neighbours {
			continue
		}
		them := s.side.Other()
		touch(slice{them, s.k}, u)
		for _, q := range space.KingStepPairs(s.k, them) {
			touch(slice{them, q}, u)
		}
	}
	// With units low … low+maxLead-1 at work, a slice is held from
	// maxLead-1 units before its first touch.
	held := make([]int, 2*n+1)
	for t, u := range last {
		w.release[u] = append(w.release[u], t.s)
		held[max(first[t]-maxLead+1, 0)]++
		held[u+1]--
	}
	for u, now := 0, 0; u < 2*n; u++ {
		now += held[u]
		w.peak = max(w.peak, now)
	}
	return w
}

// blackFirst orders king pairs by the black king's square, then the white
// king's.
func blackFirst(space *index.Space, k int) int {
	white, black := space.KingSquares(k)
	return int(black)<<6 | int(white)
}

// releaser lets the slices of a window go as the units finish, in any
// order: the slices released by unit u go once every unit up to u is done.
// It also holds back a unit more than maxLead ahead of the lowest one not
// done (start).
type releaser struct {
	w       *window
	drop    func(slice)
	mu      sync.Mutex
	behind  sync.Cond // signalled when low moves
	done    []bool
	low     int // every unit below is done
	waiting int // units held back by start, for tests
}

func newReleaser(w *window, drop func(slice)) *releaser {
	r := &releaser{w: w, drop: drop, done: make([]bool, len(w.units))}
	r.behind.L = &r.mu
	return r
}

// start waits until unit u is less than maxLead ahead of the lowest unit
// not done. The units are handed out in order (parallel.For), so the units
// below u are at work or done, and the lowest of them never waits.
func (r *releaser) start(u int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if u >= r.low+maxLead {
		r.waiting++
		for u >= r.low+maxLead {
			r.behind.Wait()
		}
	}
}

// finished records unit u as done and lets go what no later unit needs.
func (r *releaser) finished(u int) {
	r.mu.Lock()
	r.done[u] = true
	var out []slice
	moved := false
	for r.low < len(r.done) && r.done[r.low] {
		out = append(out, r.w.release[r.low]...)
		r.low++
		moved = true
	}
	if moved {
		r.behind.Broadcast()
	}
	r.mu.Unlock()
	for _, s := range out {
		r.drop(s)
	}
}

// LoadOutOfCore reads a whole table from src (a table file read a king
// pair at a time, probe.File) into scratch files under dir, mapped as
// Spill does for a generation, so that a verification of a table larger
// than memory holds only what it is reading: the pages are let go every few
// milliseconds (trim) and read back from the page cache or the disk. Close
// frees the files.
func LoadOutOfCore(ctx context.Context, src RangeTable, space *index.Space, dir string, opts Options) (t *Table, err error) {
	defer wrapError(&err, "load %s out of core", src.Material())
	if space.Material() != src.Material() {
		return nil, fmt.Errorf("index of %s given for a table of %s", space.Material(), src.Material())
	}
	sp, err := newSpill(dir, LoadScratchBytes(space.Size()))
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			sp.close()
		}
	}()
	var codes [2][]byte
	for side := range codes {
		if codes[side], err = sp.bytes(space.Size()); err != nil {
			return nil, err
		}
	}
	per := space.PerKingPair()
	var mu sync.Mutex
	var wide [2][]value.Wide
	reads := &rangeReads{src: src}
	err = forKingPairs(ctx, space, &opts, StageVerify, 0, func(side tb.Color, k int) {
		lo, hi := uint64(k)*per, uint64(k+1)*per
		out := codes[side][lo:hi]
		reads.read(side, lo, hi, func(vals []value.Value) {
			for x, v := range vals {
				out[x] = codeByte(v)
				if v >= value.Overflow {
					mu.Lock()
					wide[side] = append(wide[side], value.Wide{Index: lo + uint64(x), Value: v})
					mu.Unlock()
				}
			}
		})
		sp.drop(out)
	})
	if reads.err != nil {
		return nil, reads.err
	}
	if err != nil {
		return nil, err
	}
	t = &Table{Space: space, spill: sp}
	for side := range codes {
		sp.advise(codes[side], unix.MADV_NORMAL)
		slices.SortFunc(wide[side], func(a, b value.Wide) int { return cmp.Compare(a.Index, b.Index) })
		if t.Values[side], err = value.ArrayFrom(codes[side], wide[side]); err != nil {
			return nil, err
		}
	}
	sp.trim()
	return t, nil
}

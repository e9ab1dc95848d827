package retro

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/parallel"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// Options configure a generation; the zero value is the default.
type Options struct {
	// Threads is the number of workers; 0 means GOMAXPROCS.
	Threads int
	// Progress, if set, is called from the workers (concurrently) after
	// every unit of work (one side and king pair of one pass).
	Progress func(Progress)
	// Draws, for GenerateDTB only, is a solved table of the same material
	// whose draws are draws of the table being generated (see
	// GenerateDTB and GoalsIncluded): a Table, or a table file read a king
	// pair at a time (what a generation out of core wants).
	Draws RangeTable
	// Scratch, if set, is a directory where the generation keeps its state
	// out of core (spill.go): memory then holds a window of it, and the
	// table returned reads its values from there until Table.Close.
	Scratch string
	// Checkpoint, if set, saves the state between passes and resumes
	// from a saved one (checkpoint.go).
	Checkpoint *Checkpoint
	// Game is the game whose rules the table follows; the zero value is
	// Makruk. Generate solves a Shatranj material with Shatranj's
	// stalemate and bare-king rules (tb.Game) from Shatranj sub-tables.
	Game tb.Game
}

// MaxThreads is the largest Threads an Options may ask for.
const MaxThreads = 256

// validate refuses a thread count outside 0 … MaxThreads.
func (o *Options) validate() error {
	if o.Threads < 0 || o.Threads > MaxThreads {
		return fmt.Errorf("%d threads: give 1 to %d, or 0 for every core", o.Threads, MaxThreads)
	}
	return nil
}

// Stage names a pass of the work.
type Stage string

// The passes: generation seeds, iterates and finishes; verification,
// statistics and Derive have one pass each.
const (
	StageSeed    Stage = "seed"
	StageIterate Stage = "iterate"
	StageFinish  Stage = "finish"
	StageVerify  Stage = "verify"
	StageStats   Stage = "stats"
	StageDerive  Stage = "derive" // the side a version-2 file does not store
)

// Progress reports how far a pass has come.
type Progress struct {
	Stage Stage
	Depth int   // for "iterate": the mate distance (plies) being propagated
	Done  int64 // units of this pass done
	Total int64 // units of this pass
}

// ErrTooDeep is returned when a mate distance exceeds what the generator's
// presence bits hold (509 plies).
var ErrTooDeep = errors.New("mate distance exceeds 509 plies")

// generator holds the state of one generation.
type generator struct {
	space   *index.Space
	subs    captureValues
	states  [2]states
	present presence
	opts    Options
	// spill holds the state out of core (nil: in memory); iterWindow and
	// ownWindow order the passes over it.
	spill                 *spill
	iterWindow, ownWindow *window
	// deepest is the largest value code assigned so far.
	deepest atomic.Int64
	tooDeep atomic.Bool
	// lastSave is when the last checkpoint was saved, or the work began.
	lastSave time.Time
}

// Generate solves material m (canonical, pawnless, more than two pieces)
// for distance to mate, reading the sub-tables it needs from src.
func Generate(ctx context.Context, m tb.Material, src Source, opts Options) (t *Table, err error) {
	defer wrapError(&err, "generate %s", opts.Game.MaterialName(m))
	if opts.Draws != nil {
		return nil, errors.New("DTM takes no draws from another table")
	}
	space, err := newSpace(m, opts)
	if err != nil {
		return nil, err
	}
	subs, err := loadSubTables(opts.Game, m, src)
	if err != nil {
		return nil, err
	}
	return generate(ctx, space, subs, nil, opts)
}

// wrapError prefixes a non-nil *err with the context format names, once:
// the exported entry points say what they were doing, the code below them
// does not repeat it.
func wrapError(err *error, format string, args ...any) {
	if *err != nil {
		*err = fmt.Errorf(format+": %w", append(args, *err)...)
	}
}

// Supported reports whether Generate and GenerateDTB can solve m, and if
// not, why: m must be canonical and pawnless, with 3 to index.MaxPieces
// pieces. Callers that plan many tables check them all before any work. A
// Shatranj material also needs a piece on each side: a bare king has lost
// (or drawn, by the bare-king rule) before any table is looked at.
func Supported(g tb.Game, m tb.Material) error {
	name := g.MaterialName(m)
	switch {
	case !g.Valid():
		return fmt.Errorf("%s is not a game", g)
	case g.BareKingLoses() && m.Pieces() >= 3 && (m.SidePieces(tb.White) == 0 || m.SidePieces(tb.Black) == 0):
		return fmt.Errorf("%s has a bare king: in %s it is decided by the bare-king rule and has no table", name, g)
	case m.HasPawns():
		return fmt.Errorf("%s has pawns: the tables are pawnless", name)
	case m.Pieces() < 3:
		return fmt.Errorf("%s is a draw and has no table: every table has at least 3 pieces", name)
	case m.Pieces() > index.MaxPieces:
		return fmt.Errorf("%s has %d pieces: the generator supports at most %d", name, m.Pieces(), index.MaxPieces)
	case !m.IsCanonical():
		c, _ := m.Canonical()
		return fmt.Errorf("%s is not canonical: its table is %s", name, g.MaterialName(c))
	}
	return nil
}

// newSpace returns the index of a material the generator supports, after
// checking the options.
func newSpace(m tb.Material, opts Options) (*index.Space, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	if err := Supported(opts.Game, m); err != nil {
		return nil, err
	}
	return index.NewGame(opts.Game, m)
}

// generate runs the retrograde analysis of a space with captures resolved
// by subs: the metric is whatever subs makes of a capture. The positions
// drawn in drawn (if not nil) are draws without a look at their moves:
// they are copied into the settled bits first, and drawn is let go before
// the state bytes are made, so that a DTB generation peaks no higher than
// a DTM one (as long as the caller keeps no other reference to drawn).
func generate(ctx context.Context, space *index.Space, subs captureValues, drawn RangeTable, opts Options) (t *Table, err error) {
	opts.Draws = nil
	g := &generator{space: space, subs: subs, opts: opts, lastSave: time.Now()}
	resuming := false
	if c := opts.Checkpoint; c != nil {
		if _, resuming, err = ResumeDepth(c.Path, c.Key, space.Size()); err != nil {
			return nil, err
		}
	}
	if opts.Scratch != "" {
		if g.spill, err = newSpill(opts.Scratch, ScratchBytes(space)); err != nil {
			return nil, err
		}
		defer func() {
			if err != nil {
				g.spill.close()
			}
		}()
		g.iterWindow, g.ownWindow = newWindow(space, true), newWindow(space, false)
	}
	for side := range g.states {
		if g.states[side], err = g.newStates(); err != nil {
			return nil, err
		}
	}
	if drawn != nil && !resuming { // the checkpoint has them
		if err := g.markDraws(ctx, drawn); err != nil {
			return nil, err
		}
		drawn = nil
		runtime.GC() // its memory goes to the state bytes
	}
	for side := range g.states {
		if err := g.makeCodes(&g.states[side]); err != nil {
			return nil, err
		}
	}
	g.present = newPresence(space.Size())
	from := 0
	if resuming {
		depth, err := g.resume()
		if err != nil {
			return nil, err
		}
		from = depth + 1
	} else if err := g.seed(ctx); err != nil {
		return nil, err
	}
	if err := g.iterate(ctx, from); err != nil {
		return nil, err
	}
	if g.tooDeep.Load() {
		return nil, ErrTooDeep
	}
	return g.finish()
}

// newStates returns one side's states with their settled bits only, in
// memory or in scratch files; makeCodes adds the bytes.
func (g *generator) newStates() (states, error) {
	size := g.space.Size()
	if g.spill == nil {
		return newSettledStates(size), nil
	}
	settled, err := g.spill.words((size + 63) / 64)
	return states{size: size, settled: settled, overflow: newOverflow()}, err
}

// makeCodes adds the state bytes to s.
func (g *generator) makeCodes(s *states) (err error) {
	if g.spill == nil {
		s.makeCodes()
		return nil
	}
	s.codes, err = g.spill.bytes(s.size)
	return err
}

// markDraws sets the settled bit of every index that drawn says is a
// draw; the seed makes those positions final draws. Holes may be marked
// too (a table read from a file holds copies there): the seed leaves them
// holes.
func (g *generator) markDraws(ctx context.Context, drawn RangeTable) error {
	per := g.space.PerKingPair()
	table, inMemory := drawn.(*Table)
	reads := &rangeReads{src: drawn}
	err := g.parallel(ctx, StageSeed, 0, func(side tb.Color, k int) {
		s := &g.states[side]
		lo, hi := uint64(k)*per, uint64(k+1)*per
		if inMemory {
			for i, c := range table.Values[side].Codes()[lo:hi] {
				if c == byte(value.Draw) {
					s.settle(lo + uint64(i))
				}
			}
			return
		}
		reads.read(side, lo, hi, func(vals []value.Value) {
			for i, v := range vals {
				if v == value.Draw {
					s.settle(lo + uint64(i))
				}
			}
		})
	})
	if reads.err != nil {
		return fmt.Errorf("the draws: %w", reads.err)
	}
	return err
}

// noteDepth records an assigned value code and flags codes that do not fit.
func (g *generator) noteDepth(v value.Value) {
	if v > maxCode-1 {
		g.tooDeep.Store(true)
	}
	for {
		cur := g.deepest.Load()
		if int64(v) <= cur || g.deepest.CompareAndSwap(cur, int64(v)) {
			return
		}
	}
}

// forKingPairs runs work(side, kingPair) for every side to move and king
// pair of space, spread over the workers of opts, reporting progress under
// stage and depth.
func forKingPairs(ctx context.Context, space *index.Space, opts *Options, stage Stage, depth int, work func(side tb.Color, kingPair int)) error {
	return forUnits(ctx, int64(2*space.KingPairs()), opts, stage, depth, func(u int64) {
		work(tb.Color(u&1), int(u>>1))
	})
}

// forUnits runs work(u) for u in 0 … units−1, spread over the workers of
// opts, reporting progress under stage and depth.
func forUnits(ctx context.Context, units int64, opts *Options, stage Stage, depth int, work func(u int64)) error {
	if err := opts.validate(); err != nil {
		return err
	}
	var done func(int64)
	if opts.Progress != nil {
		done = func(finished int64) {
			opts.Progress(Progress{Stage: stage, Depth: depth, Done: finished, Total: units})
		}
	}
	return parallel.For(ctx, units, opts.Threads, func(u int64) error {
		work(u)
		return nil
	}, done)
}

// parallel runs work over the generator's king pairs (forKingPairs); out
// of core, in the order of the stage's window, letting each slice go when
// the work is past it.
func (g *generator) parallel(ctx context.Context, stage Stage, depth int, work func(side tb.Color, kingPair int)) error {
	if g.spill == nil {
		return forKingPairs(ctx, g.space, &g.opts, stage, depth, work)
	}
	w := g.ownWindow
	if stage == StageIterate {
		w = g.iterWindow
	}
	r := newReleaser(w, g.dropSlice)
	// A pass of the iteration reads the slices of the units with a
	// frontier, asked for a few units ahead; the other stages write
	// their slices afresh, or read them once in order.
	fetch := func(u int) {
		if stage == StageIterate && u < len(w.units) && g.hasFrontier(w.units[u], value.Mate(depth)) {
			g.fetchSlices(w.touches[u])
		}
	}
	for u := range fetchAhead {
		fetch(u)
	}
	err := forUnits(ctx, int64(len(w.units)), &g.opts, stage, depth, func(u int64) {
		r.start(int(u))
		fetch(int(u) + fetchAhead)
		s := w.units[u]
		work(s.side, s.k)
		r.finished(int(u))
	})
	for side := range g.states {
		g.spill.drop(wordBytes(g.states[side].settled)) // what lostByMoves read beyond the window
		g.spill.drop(g.states[side].codes)
	}
	return err
}

// dropSlice lets the state of one side and king pair go (spill.drop).
func (g *generator) dropSlice(sl slice) {
	settled, codes := g.sliceState(sl)
	g.spill.drop(wordBytes(settled))
	g.spill.drop(codes)
}

// hasFrontier reports whether the presence bits of slice sl hold code.
func (g *generator) hasFrontier(sl slice, code value.Value) bool {
	per := g.space.PerKingPair()
	lo, hi := uint64(sl.k)*per, uint64(sl.k+1)*per
	for b := lo >> presenceShift; b<<presenceShift < hi; b++ {
		if g.present.has(sl.side, b, code) {
			return true
		}
	}
	return false
}

// fetchSlices asks for the state of the slices in advance (spill.fetch).
func (g *generator) fetchSlices(sls []slice) {
	for _, sl := range sls {
		settled, codes := g.sliceState(sl)
		g.spill.fetch(wordBytes(settled))
		g.spill.fetch(codes)
	}
}

// sliceState returns the settled bits and state bytes of a slice (the
// bytes nil before makeCodes).
func (g *generator) sliceState(sl slice) ([]uint64, []byte) {
	s := &g.states[sl.side]
	per := g.space.PerKingPair()
	lo, hi := uint64(sl.k)*per, uint64(sl.k+1)*per
	var codes []byte
	if s.codes != nil {
		codes = s.codes[lo:hi]
	}
	return s.settled[lo/64 : (hi+63)/64], codes
}

// finish turns states into final values: undecided positions draw. Each
// side has its own core. The bytes become the table's values in place.
func (g *generator) finish() (*Table, error) {
	var done atomic.Int64
	report := func() {
		if g.opts.Progress != nil {
			g.opts.Progress(Progress{Stage: StageFinish, Done: done.Load(), Total: int64(len(g.states))})
		}
	}
	report()
	t := &Table{Space: g.space, HolesMarked: true, spill: g.spill}
	if g.spill != nil {
		for side := range g.states {
			g.spill.advise(g.states[side].codes, unix.MADV_SEQUENTIAL) // read in order from here on
			g.spill.advise(wordBytes(g.states[side].settled), unix.MADV_SEQUENTIAL)
		}
		g.spill.trim() // from here on the table is read whole, at memory speed
	}
	// Each side on a worker of its own; errs holds each side's error.
	var errs [2]error
	_ = parallel.For(context.Background(), int64(len(g.states)), len(g.states), func(side int64) error {
		s := &g.states[side]
		for w, bits := range s.settled {
			codes := s.codes[64*w : min(64*(w+1), len(s.codes))]
			for n, b := range codes {
				if bits&(1<<n) == 0 && isCounter(b) {
					codes[n] = byte(value.Draw) // undecided: no forced mate either way
				}
			}
		}
		t.Values[side], errs[side] = value.ArrayFrom(s.codes, s.overflow.entries(s.codes))
		done.Add(1)
		report()
		return nil
	}, nil)
	return t, errors.Join(errs[:]...)
}

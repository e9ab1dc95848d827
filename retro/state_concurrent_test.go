package retro

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// # The state transitions under concurrent updates
//
// Two workers apply one pass's updates to the same words, in a random
// order and interleaving, while a third scans for the pass's frontier as
// iterate does. The updates of one pass commute, so the states they leave
// must be those of a sequential model, and the frontier, made of final
// values, must read the same at every moment of the pass. The states are
// small (a few runs) so the workers meet in the same words all the time.

const (
	concurrentRuns   = 16
	concurrentRounds = 300
)

// concurrentPass runs update(worker, op) for op in 0 … ops−1, spread over
// two workers in a random order, while scan() runs over and over on a
// third goroutine; it returns how many scans ran.
func concurrentPass(r *rand.Rand, ops int, update func(op int), scan func()) int {
	order := r.Perm(ops)
	var wg sync.WaitGroup
	var done atomic.Bool
	scans := 0
	wg.Go(func() {
		for !done.Load() {
			scan()
			scans++
			runtime.Gosched()
		}
	})
	var workers sync.WaitGroup
	for w := range 2 {
		workers.Go(func() {
			for n := w; n < len(order); n += 2 {
				update(order[n])
			}
		})
	}
	workers.Wait()
	done.Store(true)
	wg.Wait()
	scan() // and once after the pass
	return scans + 1
}

// A pass over losses: every predecessor of a lost position is won in the
// next ply (setWin), from whichever worker reaches it. Among them are
// counters whose byte equals the pass's loss code: read byte first and bit
// second, one of them turning into a win between the two reads looked like
// a settled loss (KSNvKR and KSSvKR, two workers, differed run to run).
func TestLossPassUnderConcurrentWins(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 1))
	const d = 66 // the pass: positions lost in 66 plies
	code, win := value.Mate(d), value.Mate(d+1)
	const size = 64 * concurrentRuns
	for round := range concurrentRounds {
		s := newStates(size)
		frontier := make([]bool, size)
		var targets []uint64
		for j := range uint64(size) {
			switch k := r.IntN(20); {
			case k < 5: // the frontier: settled losses in d
				s.setFinal(j, code)
				frontier[j] = true
				continue // no position lost in d is a predecessor of another
			case k < 11: // the trap: a counter whose byte is the loss code
				s.store(j, byte(code))
			case k < 13:
				s.store(j, counterByte(1+r.IntN(maxCounter), r.IntN(2) == 0))
			case k < 14:
				s.store(j, manyByte)
			case k < 15:
				s.store(j, byte(value.Draw)) // a capture draws: cannot lose
			case k < 16: // a win by capture, slower than the pass's
				s.store(j, byte(value.Mate(d+3+2*r.IntN(40))))
			case k < 17: // a win already settled, at least as fast
				s.setFinal(j, value.Mate(1+2*r.IntN(d/2+1)))
			case k < 18:
				s.store(j, holeByte)
			default: // a settled loss of another depth
				v := value.Mate(2 * r.IntN(60))
				if v == code {
					v += 2
				}
				s.setFinal(j, v)
				continue
			}
			for range 1 + r.IntN(3) { // reached by one to three un-moves
				targets = append(targets, j)
			}
		}
		want := make([]byte, size)
		wantSettled := make([]bool, size)
		for j := range uint64(size) {
			want[j], wantSettled[j] = s.load(j), s.isSettled(j)
		}
		for _, j := range targets { // the sequential model
			b := want[j]
			switch {
			case b == holeByte, b&1 == 1 && value.Value(b) <= win:
			default:
				want[j], wantSettled[j] = byte(win), true
			}
		}
		var wrong atomic.Value
		scan := func() {
			for run := uint64(0); run < size; run += 64 {
				lanes := s.lossesInRun(run, byte(code))
				for n := range uint64(64) {
					j := run + n
					if got := lanes.Has(tb.Square(n)); got != frontier[j] {
						wrong.Store(t.Name() + ": lossesInRun")
					}
					if got := s.decidedWith(j, code); got != frontier[j] {
						wrong.Store(t.Name() + ": decidedWith")
					}
				}
			}
		}
		concurrentPass(r, len(targets), func(op int) { s.setWin(targets[op], win) }, scan)
		if w := wrong.Load(); w != nil {
			t.Fatalf("round %d: %s saw a frontier that is not the pass's", round, w)
		}
		for j := range uint64(size) {
			if s.load(j) != want[j] || s.isSettled(j) != wantSettled[j] {
				t.Fatalf("round %d: position %d is %d (settled %v), the sequential model says %d (%v)",
					round, j, s.load(j), s.isSettled(j), want[j], wantSettled[j])
			}
		}
	}
}

// A pass over wins: every predecessor of a won position loses an escape,
// eight lanes of a word at a time (removeEscapes, with counts for the
// lane piece's own un-moves), and a counter that runs out is the loss of
// the worker that took its last escape: its byte written by the same
// compare-and-swap (no losing capture) or by setFinal after writingByte.
func TestWinPassUnderConcurrentEscapes(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 1))
	const d = 65 // the pass: positions won in 65 plies
	code, next := value.Mate(d), value.Mate(d+1)
	const size = 64 * concurrentRuns
	type op struct {
		word   uint64
		group  uint8
		counts *[8]uint8 // nil: one un-move each
	}
	for round := range concurrentRounds {
		s := newStates(size)
		frontier := make([]bool, size)
		escapes := make([]int, size) // un-moves still to come per position, in the model
		lossOf := func(j uint64) value.Value {
			return next + value.Value(2*(j%3)) // a longer losing capture for some
		}
		for j := range uint64(size) {
			switch k := r.IntN(10); {
			case k < 2: // the frontier: wins in d, settled or by capture
				if r.IntN(2) == 0 {
					s.setFinal(j, code)
				} else {
					s.store(j, byte(code))
				}
				frontier[j] = true
			case k < 7: // a counter of m moves, two half-moves each
				m := 1 + r.IntN(maxCounter/2)
				s.store(j, counterByte(2*m, r.IntN(3) == 0))
				escapes[j] = m
				if r.IntN(2) == 0 {
					escapes[j] = r.IntN(m) // not all of them lose in this pass
				}
			case k < 8:
				s.store(j, byte(value.Draw))
			case k < 9:
				s.setFinal(j, value.Mate(2*r.IntN(40))) // settled losses: never reached
			default:
				s.store(j, holeByte)
			}
		}
		// The un-moves, grouped by word as applyRun groups them: some with
		// counts (several un-moves of the lane piece into one lane).
		var ops []op
		left := append([]int(nil), escapes...)
		for busy := true; busy; {
			busy = false
			for w := uint64(0); w < size; w += 8 {
				var o op
				o.word = w
				if r.IntN(2) == 0 {
					o.counts = &[8]uint8{}
				}
				for n := range uint64(8) {
					if left[w+n] == 0 || r.IntN(3) == 0 {
						continue
					}
					take := 1
					if o.counts != nil {
						take = 1 + r.IntN(min(left[w+n], 20)) // 16 and more: byte by byte
						o.counts[n] = uint8(take)
					}
					left[w+n] -= take
					o.group |= 1 << n
				}
				if o.group != 0 {
					ops = append(ops, o)
				}
				busy = busy || slices.ContainsFunc(left[w:w+8], func(n int) bool { return n > 0 })
			}
		}
		want := make([]byte, size)
		wantSettled := make([]bool, size)
		for j := range uint64(size) {
			want[j], wantSettled[j] = s.load(j), s.isSettled(j)
			if b := want[j]; isCounter(b) && b != manyByte && escapes[j] > 0 {
				m, capture := counterOf(b)
				m /= 2
				switch {
				case escapes[j] < m:
					want[j] = counterByte(2*(m-escapes[j]), capture)
				case capture:
					want[j], wantSettled[j] = byte(lossOf(j)), true
				default:
					want[j], wantSettled[j] = byte(next), true
				}
			}
		}
		var decidedTimes [size]atomic.Int32
		var wrong atomic.Value
		scan := func() {
			for run := uint64(0); run < size; run += 64 {
				lanes := s.bytesInRun(run, byte(code))
				for n := range uint64(64) {
					if lanes.Has(tb.Square(n)) != frontier[run+n] {
						wrong.Store("bytesInRun")
					}
					if s.decidedWith(run+n, code) != frontier[run+n] {
						wrong.Store("decidedWith")
					}
				}
			}
		}
		update := func(n int) {
			o := ops[n]
			decided, many, capture := s.removeEscapes(o.word, o.group, 2, o.counts, byte(next))
			if many != 0 {
				wrong.Store("a many-moves lane")
			}
			for l := range uint64(8) {
				if decided&(1<<l) == 0 {
					continue
				}
				j := o.word + l
				decidedTimes[j].Add(1)
				if capture&(1<<l) != 0 {
					s.setFinal(j, lossOf(j)) // escaped: the longer of next and the capture
				} else {
					s.settle(j) // lost: the byte holds next already
				}
			}
		}
		concurrentPass(r, len(ops), update, scan)
		if w := wrong.Load(); w != nil {
			t.Fatalf("round %d: %s", round, w)
		}
		for j := range uint64(size) {
			if s.load(j) != want[j] || s.isSettled(j) != wantSettled[j] {
				t.Fatalf("round %d: position %d is %d (settled %v), the sequential model says %d (%v)",
					round, j, s.load(j), s.isSettled(j), want[j], wantSettled[j])
			}
			if times := decidedTimes[j].Load(); times > 1 || (times == 1) != (wantSettled[j] && want[j]&1 == 0 && escapes[j] > 0) {
				t.Fatalf("round %d: position %d decided %d times", round, j, times)
			}
		}
	}
}

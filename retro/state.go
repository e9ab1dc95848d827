package retro

import (
	"sync/atomic"
	"unsafe"

	"github.com/makruktb/makruktb/probe"
)

// A position's state during generation is one uint16: the value code
// (probe.Value, at most 255 here) in the low byte and the escape counter in
// the high byte.
//
//	counter 255      the position cannot be lost (a capture or quiet move
//	                 wins or draws); its value is a win or undecided
//	counter 1…254    undecided; 2 × the quiet moves not yet known to lose;
//	                 a loss code in the low byte is the capture bound
//	counter 0        decided: a loss (or a checkmate, or a hole)
const cannotLose = 255

// maxCode is the largest value code a state holds.
const maxCode = 255

func makeState(v probe.Value, counter int) probe.Value { return v | probe.Value(counter)<<8 }

func stateValue(s probe.Value) probe.Value { return s & 0xff }

func stateCounter(s probe.Value) int { return int(s >> 8) }

// littleEndian says how two uint16 states share one uint32 word.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// stateWord returns the aligned 32-bit word holding states[j] and the
// shift of states[j] inside it. Go has no 16-bit atomics, so states are read
// and updated through their word; the slice comes from make and is aligned.
func stateWord(states []probe.Value, j uint64) (*uint32, uint32) {
	word := (*uint32)(unsafe.Pointer(&states[j&^1]))
	shift := 16 * uint32(j&1)
	if !littleEndian {
		shift = 16 - shift
	}
	return word, shift
}

// loadState reads states[j] atomically.
func loadState(states []probe.Value, j uint64) probe.Value {
	word, shift := stateWord(states, j)
	return probe.Value(atomic.LoadUint32(word) >> shift)
}

// storeState replaces states[j] by next if it still holds old.
func storeState(word *uint32, shift uint32, old uint32, next probe.Value) bool {
	nw := old&^(0xffff<<shift) | uint32(next)<<shift
	return atomic.CompareAndSwapUint32(word, old, nw)
}

// setWin records that states[j] wins in the plies of code win, unless it
// is already known to win as fast; it reports whether it changed anything.
func setWin(states []probe.Value, j uint64, win probe.Value) bool {
	word, shift := stateWord(states, j)
	for {
		old := atomic.LoadUint32(word)
		cur := probe.Value(old >> shift)
		v := stateValue(cur)
		if v.IsWin() && v <= win {
			return false
		}
		if storeState(word, shift, old, makeState(win, cannotLose)) {
			return true
		}
	}
}

// removeEscape takes weight half-moves off the counter of states[j]; when
// it reaches zero the position is lost in max(loss, its capture bound) and
// removeEscape returns that value.
func removeEscape(states []probe.Value, j uint64, weight int, loss probe.Value) (probe.Value, bool) {
	word, shift := stateWord(states, j)
	for {
		old := atomic.LoadUint32(word)
		cur := probe.Value(old >> shift)
		n := stateCounter(cur)
		if n == cannotLose || n == 0 {
			return 0, false
		}
		next, decided := makeState(stateValue(cur), max(n-weight, 0)), false
		if n <= weight {
			bound := stateValue(cur)
			if !bound.IsLoss() || bound < loss {
				bound = loss
			}
			next, decided = makeState(bound, 0), true
		}
		if storeState(word, shift, old, next) {
			return stateValue(next), decided
		}
	}
}

// loadFour reads states[i…i+3] (i a multiple of 4) as one 64-bit word.
func loadFour(states []probe.Value, i uint64) uint64 {
	return atomic.LoadUint64((*uint64)(unsafe.Pointer(&states[i])))
}

// mayHoldCode reports whether any of the four states packed in w has the
// value code in its low byte (a byte-wise zero test on w XOR code;
// exact for zero bytes, never misses one).
func mayHoldCode(w uint64, code probe.Value) bool {
	const lowBytes = 0x00ff00ff00ff00ff
	x := (w ^ uint64(code)*0x0001000100010001) & lowBytes
	// A byte of x is zero iff the code matched; (x - 1) borrows into bit 8
	// of that lane only from a zero lane.
	return (x-0x0001000100010001)&^x&0x0100010001000100 != 0
}

package retro

import (
	"sync/atomic"
	"unsafe"

	"github.com/makruktb/makruktb/tb/value"
)

// A position's state during generation is one uint16: the value code
// (value.Value) in the low 9 bits and the escape counter in the high 7.
//
//	bit   15 … 9     8 … 0
//	      counter    value code (0 draw, 1 illegal, 2 + plies)
//
//	counter 127      the position cannot be lost (a capture or quiet move
//	                 wins or draws); its value is a win or undecided
//	counter 1…126    undecided; 2 × the quiet moves not yet known to lose;
//	                 a loss code in the value bits is the capture bound
//	counter 0        decided: a loss (or a checkmate, or a hole)
//
// Nine bits hold mates up to 509 plies (the deepest 5-piece table, KSMvKM,
// needs more than 253); seven bits hold up to 63 quiet moves, which no
// position of five pieces reaches (three rooks and a king: 50).
const (
	valueBits  = 9
	valueMask  = 1<<valueBits - 1
	cannotLose = 1<<(16-valueBits) - 1
	maxCounter = cannotLose - 1
)

// maxCode is the largest value code a state holds.
const maxCode = valueMask

func makeState(v value.Value, counter int) value.Value { return v | value.Value(counter)<<valueBits }

func stateValue(s value.Value) value.Value { return s & valueMask }

func stateCounter(s value.Value) int { return int(s >> valueBits) }

// littleEndian says how two uint16 states share one uint32 word.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// stateWord returns the aligned 32-bit word holding states[j] and the
// shift of states[j] inside it. Go has no 16-bit atomics, so states are read
// and updated through their word; the slice comes from make and is aligned.
func stateWord(states []value.Value, j uint64) (*uint32, uint32) {
	word := (*uint32)(unsafe.Pointer(&states[j&^1]))
	shift := 16 * uint32(j&1)
	if !littleEndian {
		shift = 16 - shift
	}
	return word, shift
}

// loadState reads states[j] atomically.
func loadState(states []value.Value, j uint64) value.Value {
	word, shift := stateWord(states, j)
	return value.Value(atomic.LoadUint32(word) >> shift)
}

// storeState replaces states[j] by next if it still holds old.
func storeState(word *uint32, shift uint32, old uint32, next value.Value) bool {
	nw := old&^(0xffff<<shift) | uint32(next)<<shift
	return atomic.CompareAndSwapUint32(word, old, nw)
}

// setWin records that states[j] wins in the plies of code win, unless it
// is already known to win as fast; it reports whether it changed anything.
func setWin(states []value.Value, j uint64, win value.Value) bool {
	word, shift := stateWord(states, j)
	for {
		old := atomic.LoadUint32(word)
		cur := value.Value(old >> shift)
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
func removeEscape(states []value.Value, j uint64, weight int, loss value.Value) (value.Value, bool) {
	word, shift := stateWord(states, j)
	for {
		old := atomic.LoadUint32(word)
		cur := value.Value(old >> shift)
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
func loadFour(states []value.Value, i uint64) uint64 {
	return atomic.LoadUint64((*uint64)(unsafe.Pointer(&states[i])))
}

// mayHoldCode reports whether any of the four states packed in w has the
// value code in its value bits: a lane-wise zero test on w XOR code
// (lanes of 16 bits, the 9 value bits kept). It never misses a match; a
// lane above a matching one may also look like a match, which only costs
// the caller a closer look.
func mayHoldCode(w uint64, code value.Value) bool {
	const (
		ones       = 0x0001000100010001
		valueLanes = valueMask * ones
		highBits   = 0x8000800080008000
	)
	x := (w ^ uint64(code)*ones) & valueLanes
	// A lane of x is zero iff the code matched; x − 1 sets bit 15 of that
	// lane, and of no lane that holds at most 9 bits unless a borrow came
	// from a zero lane below.
	return (x-ones)&^x&highBits != 0
}

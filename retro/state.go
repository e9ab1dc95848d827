package retro

import (
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// # A position's state during generation
//
// Each position and side to move has one byte, which becomes its value in
// the finished table (value.Array), and one settled bit. The
// bit says how to read the byte:
//
//	settled  byte          meaning
//	yes      0 … 254       final value code (draw, win, loss)
//	yes      255           final value code ≥ 255, in the overflow shards
//	no       0             undecided, cannot lose (a capture or stalemate
//	                       draws): a draw unless a win comes
//	no       1             an index hole, or a loss being written (an
//	                       update between its two stores)
//	no       odd 3 … 253   a win through a capture, not yet propagated:
//	                       the value code, as when settled
//	no       255           the same with a code ≥ 255 (overflow shards)
//	no       even 2 … 126  undecided, may lose: byte/2 half-moves not yet
//	                       known to lose (the escape counter)
//	no       even 128 … 252 the same with (byte−126)/2 half-moves, and a
//	                       capture that loses: its value is looked up again
//	                       when the counter runs out
//	no       254           undecided, more moves than the counter holds:
//	                       decided by generating its moves (decideByMoves)
//
// Wins read the same either way: a win by capture is settled once the
// frontier passes it, a win by un-move at once. A counter reaching zero
// has met every un-move that can reach its position, so no update reads
// its byte again: a loss without a losing capture takes its code in the
// same compare-and-swap (and its settled bit just after), the others
// hold writingByte until their loss is known. Within one pass of the
// iteration every update is of one kind — setWin in a pass over losses,
// removeEscape in a pass over wins — which keeps the transitions this
// simple.
//
// A position decided by generating its moves is written after the pass
// that decided it (other successors of the same depth may still un-move
// into it); until then its byte holds writingByte.
//
// # Reading a state while others write it
//
// The bit and the byte live in different words, so no load reads them
// together, and the bit is set after the byte: a settled position's byte
// is final and never changes again, but an unsettled one can change and
// be settled at any moment (setWin turns a counter into a win, then sets
// the bit). The one invariant a reader relies on is therefore an order:
// read the settled bit first, then the byte. A set bit read first vouches
// for the byte read after it. Read the other way round, an old byte can
// meet a new bit: a counter whose byte happens to equal the loss code of
// the pass (byte 68 is both "34 half-moves left" and "lost in 66 plies")
// is read, another worker's setWin makes it a win and settles it, and the
// bit read next says "settled" — a loss that never was, whose
// predecessors then win (KSNvKR and KSSvKR differed from run to run with
// two workers until the frontier scans read in this order: lossesInRun,
// decidedWith).
//
// One byte and one bit is 1.125 bytes per index and side; the uint16 state
// this replaces took 2.125 and held at most 63 moves per position.
// Counters hold 31 moves: the positions with more are few, and mostly
// those of a strong side, which rarely loses.
const (
	holeByte    = byte(value.Illegal)
	writingByte = holeByte
	manyByte    = 254
	// maxCounter is the most half-moves a counter byte holds.
	maxCounter = 63
	// captureCounters is where the counters of positions with a losing
	// capture start, less two.
	captureCounters = 126
)

// maxCode is the largest value code the generator assigns (presence holds
// a bit per code).
const maxCode = 511

// counterLimit is the most half-moves the seed puts in a counter: above
// it a position is decided by its moves. Tests lower it to send every
// position down that path.
var counterLimit = maxCounter

// counterByte returns the byte of a counter of 1 … maxCounter half-moves
// of a position with or without a losing capture.
func counterByte(halfMoves int, capture bool) byte {
	if capture {
		return byte(captureCounters + 2*halfMoves)
	}
	return byte(2 * halfMoves)
}

// counterOf reads a counter byte.
func counterOf(b byte) (halfMoves int, capture bool) {
	if b > captureCounters {
		return int((b - captureCounters) / 2), true
	}
	return int(b / 2), false
}

func isCounter(b byte) bool { return b >= 2 && b&1 == 0 }

// states is one side's bytes, settled bits and overflow values.
type states struct {
	size     uint64
	codes    []byte
	settled  []uint64
	overflow *overflow
}

// newSettledStates returns states of size positions with their settled
// bits only; makeCodes adds the bytes.
func newSettledStates(size uint64) states {
	s := states{size: size, settled: make([]uint64, (size+63)/64), overflow: newOverflow()}
	adviseHugePages(s.settled)
	return s
}

// makeCodes makes the state bytes.
func (s *states) makeCodes() {
	s.codes = make([]byte, s.size)
	adviseHugePages(s.codes)
}

// byteWord returns the aligned 32-bit word holding codes[j] and the shift of
// codes[j] inside it. Go has no 8-bit atomics, so bytes are read and
// updated through their word; the slice comes from make and is aligned.
func (s *states) byteWord(j uint64) (*uint32, uint32) {
	word := (*uint32)(unsafe.Pointer(&s.codes[j&^3]))
	shift := 8 * uint32(j&3)
	if !littleEndian {
		shift = 24 - shift
	}
	return word, shift
}

// littleEndian says how four bytes share one uint32 word.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// load reads codes[j] atomically.
func (s *states) load(j uint64) byte {
	word, shift := s.byteWord(j)
	return byte(atomic.LoadUint32(word) >> shift)
}

// swap replaces codes[j] by next if it still holds old; word and shift are
// byteWord's and w the word old was read from.
func swap(word *uint32, shift uint32, w uint32, next byte) bool {
	return atomic.CompareAndSwapUint32(word, w, w&^(0xff<<shift)|uint32(next)<<shift)
}

// store sets codes[j] to b, whatever it held.
func (s *states) store(j uint64, b byte) {
	word, shift := s.byteWord(j)
	for {
		w := atomic.LoadUint32(word)
		if swap(word, shift, w, b) {
			return
		}
	}
}

// fill sets codes[lo…hi) to b. The words inside the range are the
// caller's alone; those it shares with a neighbouring range go through
// store.
func (s *states) fill(lo, hi uint64, b byte) {
	inner, end := min((lo+3)&^3, hi), max(hi&^3, lo)
	for j := lo; j < inner; j++ {
		s.store(j, b)
	}
	if inner < end {
		// Copies of a filled first page: memmove speed, not a store per
		// byte, and a source that stays in the cache.
		own := s.codes[inner:end]
		own[0] = b
		for n := 1; n < len(own); {
			n += copy(own[n:], own[:min(n, 4096)])
		}
	}
	for j := max(end, inner); j < hi; j++ {
		s.store(j, b)
	}
}

// isSettled reports whether position j is settled.
func (s *states) isSettled(j uint64) bool {
	return atomic.LoadUint64(&s.settled[j>>6])&(1<<(j&63)) != 0
}

// settle marks position j as settled.
func (s *states) settle(j uint64) {
	word, bit := &s.settled[j>>6], uint64(1)<<(j&63)
	if atomic.LoadUint64(word)&bit == 0 {
		atomic.OrUint64(word, bit)
	}
}

// settledRun returns the settled positions of run r (a multiple of 64),
// bit n for position r+n.
func (s *states) settledRun(r uint64) tb.Bitboard {
	return tb.Bitboard(atomic.LoadUint64(&s.settled[r>>6]))
}

// lossesInRun returns the positions of run r (a multiple of 64) settled
// with byte b, bit n for position r+n: the settled bits are read before
// the bytes (see "Reading a state while others write it").
func (s *states) lossesInRun(r uint64, b byte) tb.Bitboard {
	settled := s.settledRun(r)
	if settled == 0 {
		return 0
	}
	return s.bytesInRun(r, b) & settled
}

// bytesInRun returns the positions of run r (a multiple of 64) whose byte
// is b, bit n for position r+n.
func (s *states) bytesInRun(r uint64, b byte) tb.Bitboard {
	var lanes tb.Bitboard
	for q := uint64(0); q < 64; q += 8 {
		lanes |= tb.Bitboard(byteLanes(s.loadEight(r+q), b)) << q
	}
	return lanes
}

// touch reads the state word holding codes[j], to bring its cache line in
// before an update.
func (s *states) touch(j uint64) uint64 {
	word, _ := s.byteWord(j)
	return uint64(atomic.LoadUint32(word))
}

// settleRun marks the positions r+n, n in lanes, as settled.
func (s *states) settleRun(r uint64, lanes tb.Bitboard) {
	atomic.OrUint64(&s.settled[r>>6], uint64(lanes))
}

// value returns the value code byte b of position j stands for (a win or
// a final value; not for counters).
func (s *states) value(j uint64, b byte) value.Value {
	if b == value.Overflow {
		return s.overflow.get(j)
	}
	return value.Value(b)
}

// codeByte returns the byte that stands for value code v.
func codeByte(v value.Value) byte {
	if v >= value.Overflow {
		return value.Overflow
	}
	return byte(v)
}

// setFinal writes the final value v of position j, whose byte the caller
// owns (it holds writingByte or the seed is filling it), and then settles
// it: the byte before the bit, so that a set bit vouches for the byte.
func (s *states) setFinal(j uint64, v value.Value) {
	if v >= value.Overflow {
		s.overflow.put(j, v)
	}
	s.store(j, codeByte(v))
	s.settle(j)
}

// setWin records that position j wins in the plies of code win, unless it
// already wins as fast; it reports whether it changed anything. The byte
// goes from its undecided meaning straight to the win (which reads the
// same unsettled), then the bit is set. No settled loss or known draw is
// ever a predecessor of a lost position, so the byte alone decides.
func (s *states) setWin(j uint64, win value.Value) bool {
	word, shift := s.byteWord(j)
	for {
		w := atomic.LoadUint32(word)
		b := byte(w >> shift)
		switch {
		case b == holeByte:
			return false
		case b&1 == 1 && s.value(j, b) <= win:
			return false // a win at most as long
		}
		if win >= value.Overflow {
			s.overflow.put(j, win) // before the byte that sends readers there
		}
		if swap(word, shift, w, codeByte(win)) {
			s.settle(j)
			return true
		}
	}
}

// escape is what removeEscape did to a position.
type escape int

const (
	escapeNone    escape = iota // settled, cannot lose, or a counter left above zero
	escapeDecided               // the counter reached zero: the caller owns the byte and writes the loss
	escapeMany                  // too many moves to count: decide by generating them
)

// removeEscape takes weight half-moves off the counter of position j and
// says whether the position has a losing capture. An
// even byte is a counter, never a settled loss: a loss decided by its
// counter has had all its successors propagated, one decided at the seed
// has no quiet moves, and one decided by its moves is written only after
// the pass (deferredLoss), so no un-move reaches any of them later.
func (s *states) removeEscape(j uint64, weight int) (escape, bool) {
	n := j & 7
	decided, many, capture := s.removeEscapes(j-n, 1<<n, weight, nil, writingByte)
	switch {
	case decided != 0:
		return escapeDecided, capture != 0
	case many != 0:
		return escapeMany, false
	}
	return escapeNone, capture != 0
}

// removeEscapes is removeEscape for the positions i+n, n in group (i a
// multiple of 8): the ones in one 64-bit word, changed by one
// compare-and-swap. Position i+n loses weight·counts[n] half-moves
// (counts nil: weight). It returns the positions whose counter reached
// zero, those with too many moves to count, and the counters with a
// losing capture. A counter reaching zero becomes loss when it has no
// losing capture (the caller settles it), writingByte when it has (the
// byte is the caller's until it writes the loss); loss writingByte
// leaves them all to the caller.
func (s *states) removeEscapes(i uint64, group uint8, weight int, counts *[8]uint8, loss byte) (decided, many, capture uint8) {
	word := (*uint64)(unsafe.Pointer(&s.codes[i]))
	takes, fits := laneTakes(weight, counts)
	if !littleEndian || !fits {
		return removeEscapesByLane(word, group, weight, counts, loss)
	}
	for {
		w := atomic.LoadUint64(word)
		next, d, m, c := escapesInWord(w, group, takes, loss)
		if next == w || atomic.CompareAndSwapUint64(word, w, next) {
			return d, m, c
		}
	}
}

// # Removing escapes eight lanes at a time
//
// escapesInWord does to the eight bytes of a word what
// removeEscapesByLane does byte by byte, without a branch per byte (the
// kinds of byte come in no order a processor could predict). Lanes are
// marked by the high bit of their byte (laneHigh), masks of whole bytes
// are that bit shifted down and times 0xff, and every subtraction is
// arranged so that no byte borrows from the next:
//
//	counter   even, not 0, not manyByte, and in the group
//	capture   a counter ≥ 128 (captureCounters+2 … 252)
//	h         the counter in half-moves, doubled: the byte, less 126 for a
//	          capture, so 2 … 126 (high bit clear)
//	D         2·take per lane, below 128 (laneTakes refuses more)
//	decided   h ≤ D: the high bit of (D|0x80) − h, with h zero outside
//	          the counters
//
// A counter that stays above zero loses D; one that reaches zero becomes
// loss without a losing capture, writingByte with one.

// laneTakes returns 2·take for each lane (weight·counts[n] half-moves,
// counts nil: weight), one per byte, and false when one would not stay
// below 128.
func laneTakes(weight int, counts *[8]uint8) (uint64, bool) {
	if weight <= 0 || weight > 4 {
		return 0, false
	}
	if counts == nil {
		return uint64(2*weight) * laneOnes, true
	}
	c := uint64(0)
	for n := 7; n >= 0; n-- {
		c = c<<8 | uint64(counts[n])
	}
	if c&0xf0f0f0f0f0f0f0f0 != 0 {
		return 0, false // a count of 16 or more
	}
	return c * uint64(2*weight), true // at most 2·4·15 per byte
}

// escapesInWord takes the escapes off the counters of word w (lane n in
// byte n) in the lanes of group, 2·take per byte in takes, and returns the
// new word with the decided, many and capture lanes.
func escapesInWord(w uint64, group uint8, takes uint64, loss byte) (next uint64, decided, many, capture uint8) {
	inGroup := spreadLanes(group)
	even := ^w << 7 & laneHigh
	isMany := zeroLanes(w^manyByte*laneOnes) & inGroup
	counter := even &^ zeroLanes(w) &^ isMany & inGroup
	captures := w & counter // counters with the high bit set
	counterBytes := counter >> 7 * 0xff
	h := (w - captures>>7*captureCounters) & counterBytes
	done := ((takes | laneHigh) - h) & counter
	doneBytes := done >> 7 * 0xff
	kept := counterBytes &^ doneBytes
	captureBytes := captures >> 7 * 0xff
	next = w - takes&kept
	next = next&^doneBytes | uint64(loss)*laneOnes&doneBytes&^captureBytes | uint64(writingByte)*laneOnes&doneBytes&captureBytes
	return next, gatherLanes(done), gatherLanes(isMany), gatherLanes(captures)
}

// removeEscapesByLane is removeEscapes one byte at a time, for any byte
// order and any take.
func removeEscapesByLane(word *uint64, group uint8, weight int, counts *[8]uint8, loss byte) (decided, many, capture uint8) {
	for {
		w := atomic.LoadUint64(word)
		next := w
		decided, many, capture = 0, 0, 0
		for g := group; g != 0; g &= g - 1 {
			n := bits.TrailingZeros8(g)
			shift := 8 * uint(n)
			if !littleEndian {
				shift = 56 - shift
			}
			b := byte(w >> shift)
			switch {
			case b == manyByte:
				many |= 1 << n
				continue
			case !isCounter(b):
				continue
			}
			take := weight
			if counts != nil {
				take *= int(counts[n])
			}
			h, c := counterOf(b)
			if c {
				capture |= 1 << n
			}
			nb := counterByte(h-take, c)
			if h <= take {
				nb = writingByte
				if !c {
					nb = loss
				}
				decided |= 1 << n
			}
			next = next&^(0xff<<shift) | uint64(nb)<<shift
		}
		if next == w || atomic.CompareAndSwapUint64(word, w, next) {
			return decided, many, capture
		}
	}
}

// claim takes position j, undecided with too many moves to count, for its
// loss: it reports whether this caller owns the byte now.
func (s *states) claim(j uint64) bool {
	word, shift := s.byteWord(j)
	for {
		w := atomic.LoadUint32(word)
		if byte(w>>shift) != manyByte {
			return false
		}
		if swap(word, shift, w, writingByte) {
			return true
		}
	}
}

// loadEight reads codes[i…i+7] (i a multiple of 8) as one 64-bit word.
func (s *states) loadEight(i uint64) uint64 {
	return atomic.LoadUint64((*uint64)(unsafe.Pointer(&s.codes[i])))
}

// Eight state bytes are read as one word, lane n in byte n (on a
// little-endian machine; byteLanes reverses its answer on the others).
// The masks below mark a lane by the high bit of its byte.
const (
	laneOnes = 0x0101010101010101
	laneLow  = 0x7f7f7f7f7f7f7f7f
	laneHigh = 0x8080808080808080
	// laneGather moves the eight high bits, shifted down to bit 0 of each
	// byte, into the top byte of the product: bit n for lane n.
	laneGather = 0x0102040810204080
)

// zeroLanes marks the bytes of x that are zero. Keeping the high bits out
// of the addition makes the test exact: no carry runs from one byte into
// the next.
func zeroLanes(x uint64) uint64 { return ^((x&laneLow + laneLow) | x) & laneHigh }

// gatherLanes turns a mask of high bits into a lane byte, bit n for byte
// n: a multiplication gathers the eight bits into the top byte.
func gatherLanes(high uint64) uint8 { return uint8(high >> 7 * laneGather >> 56) }

// spreadLanes is gatherLanes undone: the high bit of byte n for each bit n
// of lanes.
func spreadLanes(lanes uint8) uint64 { return laneHighs[lanes] }

var laneHighs = func() (t [256]uint64) {
	for l := range t {
		for n := range 8 {
			if l&(1<<n) != 0 {
				t[l] |= 0x80 << (8 * n)
			}
		}
	}
	return t
}()

// mayHoldByte reports whether any of the eight bytes packed in w is b: the
// classic zero-byte test on w XOR b. It is exact about whether a match
// exists.
func mayHoldByte(w uint64, b byte) bool {
	x := w ^ uint64(b)*laneOnes
	return (x-laneOnes)&^x&laneHigh != 0
}

// byteLanes returns the bytes of codes[i…i+7] (i a multiple of 8, w their
// word from loadEight) that equal b, bit n for codes[i+n].
func byteLanes(w uint64, b byte) uint8 {
	lanes := gatherLanes(zeroLanes(w ^ uint64(b)*laneOnes))
	if !littleEndian {
		lanes = bits.Reverse8(lanes)
	}
	return lanes
}

// overflow holds the codes of 255 and above during generation, in shards
// so that concurrent updates rarely wait for each other.
type overflow struct {
	shards [64]struct {
		sync.Mutex
		m map[uint64]value.Value
	}
}

func newOverflow() *overflow {
	o := &overflow{}
	for k := range o.shards {
		o.shards[k].m = map[uint64]value.Value{}
	}
	return o
}

func (o *overflow) put(j uint64, v value.Value) {
	sh := &o.shards[j%uint64(len(o.shards))]
	sh.Lock()
	sh.m[j] = v
	sh.Unlock()
}

func (o *overflow) get(j uint64) value.Value {
	sh := &o.shards[j%uint64(len(o.shards))]
	sh.Lock()
	defer sh.Unlock()
	return sh.m[j]
}

// entries returns the values of the positions whose byte is 255 (an update
// that improved a win by capture beyond a byte may have left others).
func (o *overflow) entries(codes []byte) []value.Wide {
	var out []value.Wide
	for k := range o.shards {
		for j, v := range o.shards[k].m {
			if codes[j] == value.Overflow {
				out = append(out, value.Wide{Index: j, Value: v})
			}
		}
	}
	return out
}

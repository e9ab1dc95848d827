package retro

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/makruktb/makruktb/tb/value"
)

// newStates returns the states of size positions, bytes and bits.
func newStates(size uint64) states {
	s := newSettledStates(size)
	s.makeCodes()
	return s
}

// mayHoldByte must say yes exactly when one of the eight bytes matches.
func TestMayHoldByte(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		target := byte(r.IntN(256))
		var w uint64
		exact := false
		for lane := range 8 {
			b := byte(r.IntN(256))
			if r.IntN(8) == 0 {
				b = target
			}
			exact = exact || b == target
			w |= uint64(b) << (8 * lane)
		}
		if got := mayHoldByte(w, target); got != exact {
			t.Fatalf("mayHoldByte(%#x, %d) = %v, want %v", w, target, got, exact)
		}
	}
}

// byteLanes must name exactly the bytes that match, including those next
// to a match, where a borrow in the plain zero-byte test would err.
func TestByteLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := newStates(8)
	for range 200000 {
		target := byte(r.IntN(256))
		near := []byte{target, target, target ^ 1, target + 1, target - 1, target ^ 0x80, byte(r.IntN(256))}
		var want uint8
		for lane := range uint64(8) {
			b := near[r.IntN(len(near))]
			s.codes[lane] = b
			if b == target {
				want |= 1 << lane
			}
		}
		if got := byteLanes(s.loadEight(0), target); got != want {
			t.Fatalf("byteLanes(% x, %d) = %08b, want %08b", s.codes, target, got, want)
		}
	}
}

// removeEscapes must do to a word what removeEscapesByLane does byte by
// byte, and that what removeEscape does lane by lane.
func TestRemoveEscapes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	grouped, byLane, single := newStates(8), newStates(8), newStates(8)
	for range 200000 {
		for lane := range uint64(8) {
			var b byte
			switch r.IntN(6) {
			case 0:
				b = byte(r.IntN(256)) // anything: wins, draws, holes
			case 1:
				b = manyByte
			default:
				b = counterByte(1+r.IntN(maxCounter), r.IntN(2) == 0)
			}
			grouped.codes[lane], byLane.codes[lane], single.codes[lane] = b, b, b
		}
		group := uint8(r.IntN(256))
		weight := []int{1, 2, 4}[r.IntN(3)]
		var counts *[8]uint8
		if r.IntN(2) == 0 {
			counts = &[8]uint8{}
			most := []int{3, 15, 40}[r.IntN(3)] // 16 and more: byte by byte
			for n := range counts {
				counts[n] = uint8(1 + r.IntN(most))
			}
		}
		loss := writingByte
		if r.IntN(2) == 0 {
			loss = byte(2 * r.IntN(128)) // a loss code: even
		}
		before := append([]byte(nil), grouped.codes[:8]...)
		decided, many, capture := grouped.removeEscapes(0, group, weight, counts, loss)
		word := (*uint64)(unsafe.Pointer(&byLane.codes[0]))
		d, m, c := removeEscapesByLane(word, group, weight, counts, loss)
		if d != decided || m != many || c != capture || string(grouped.codes[:8]) != string(byLane.codes[:8]) {
			t.Fatalf("bytes % x, group %08b, weight %d, counts %v, loss %d: % x (decided %08b many %08b capture %08b), byte by byte % x (%08b %08b %08b)",
				before, group, weight, counts, loss, grouped.codes[:8], decided, many, capture, byLane.codes[:8], d, m, c)
		}
		for n := range uint64(8) {
			if group&(1<<n) == 0 {
				continue
			}
			take := weight
			if counts != nil {
				take *= int(counts[n])
			}
			result, c := single.removeEscape(n, take)
			if got := decided&(1<<n) != 0; got != (result == escapeDecided) {
				t.Fatalf("bytes % x, lane %d, take %d: decided %v, removeEscape says %v", before, n, take, got, result)
			}
			if got := many&(1<<n) != 0; got != (result == escapeMany) {
				t.Fatalf("bytes % x, lane %d: many %v, removeEscape says %v", before, n, got, result)
			}
			if result == escapeDecided && (capture&(1<<n) != 0) != c {
				t.Fatalf("bytes % x, lane %d: capture %v, removeEscape says %v", before, n, capture&(1<<n) != 0, c)
			}
			if result == escapeDecided && !c {
				single.codes[n] = grouped.codes[n] // the loss, which removeEscape leaves to its caller
			}
		}
		if string(grouped.codes[:8]) != string(single.codes[:8]) {
			t.Fatalf("bytes % x, group %08b, weight %d, counts %v: % x, lane by lane % x", before, group, weight, counts, grouped.codes[:8], single.codes[:8])
		}
	}
}

func TestEscapesAndWins(t *testing.T) {
	s := newStates(8)
	for _, capture := range []bool{false, true} {
		for h := 1; h <= maxCounter; h++ {
			if n, c := counterOf(counterByte(h, capture)); n != h || c != capture || !isCounter(counterByte(h, capture)) {
				t.Fatalf("counter %d, %v reads back as %d, %v", h, capture, n, c)
			}
		}
	}
	s.store(1, counterByte(4, true)) // two quiet moves, a losing capture
	if got, _ := s.removeEscape(1, 2); got != escapeNone {
		t.Fatalf("after one of two escapes: %v", got)
	}
	if got, capture := s.removeEscape(1, 1); got != escapeNone || !capture {
		t.Fatalf("after half an escape: %v, %v", got, capture)
	}
	if got, capture := s.removeEscape(1, 2); got != escapeDecided || !capture || s.load(1) != writingByte {
		t.Fatalf("after both escapes: %v, %v, byte %d", got, capture, s.load(1))
	}
	s.setFinal(1, value.Mate(302)) // a loss beyond a byte
	if !s.isSettled(1) || s.load(1) != value.Overflow || s.value(1, s.load(1)) != value.Mate(302) {
		t.Fatalf("final loss reads back as byte %d, value %d", s.load(1), s.value(1, s.load(1)))
	}
	if got, _ := s.removeEscape(1, 1); got != escapeNone {
		t.Fatal("a settled loss took an update")
	}

	s.store(2, byte(value.Mate(201))) // a win by capture, not yet propagated
	if s.setWin(2, value.Mate(203)) {
		t.Fatal("setWin replaced a faster win by capture")
	}
	if !s.setWin(2, value.Mate(101)) || s.setWin(2, value.Mate(103)) {
		t.Fatal("setWin must take a quicker win and settle it, and keep it")
	}
	if s.value(2, s.load(2)) != value.Mate(101) || !s.isSettled(2) {
		t.Fatalf("byte %d", s.load(2))
	}

	s.store(3, manyByte)
	if got, _ := s.removeEscape(3, 2); got != escapeMany || !s.claim(3) || s.claim(3) {
		t.Fatal("a position with too many moves must be claimed once")
	}
	s.store(4, byte(value.Draw))
	if got, _ := s.removeEscape(4, 2); got != escapeNone || !s.setWin(4, value.Mate(301)) || s.value(4, s.load(4)) != value.Mate(301) {
		t.Fatal("a position that cannot lose still wins")
	}
	if s.load(0) != 0 || s.load(5) != 0 {
		t.Fatal("neighbouring bytes changed")
	}
}

func TestFill(t *testing.T) {
	for lo := range uint64(9) {
		for hi := lo; hi <= 12; hi++ {
			s := newStates(12)
			s.fill(lo, hi, 7)
			for j := range uint64(12) {
				want := byte(0)
				if j >= lo && j < hi {
					want = 7
				}
				if s.load(j) != want {
					t.Fatalf("fill(%d, %d): byte %d is %d", lo, hi, j, s.load(j))
				}
			}
		}
	}
	// Long ranges, filled by copies of a page.
	s := newStates(20000)
	for _, r := range [][3]uint64{{3, 4099, 9}, {0, 8192, 10}, {5, 19999, 11}} {
		s.fill(r[0], r[1], byte(r[2]))
		for j := r[0]; j < r[1]; j++ {
			if s.codes[j] != byte(r[2]) {
				t.Fatalf("fill(%d, %d): byte %d is %d", r[0], r[1], j, s.codes[j])
			}
		}
	}
	if s.codes[19999] != 0 || s.codes[0] != 10 {
		t.Fatal("fill wrote outside its range")
	}
}

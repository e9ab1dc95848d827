package retro

import (
	"math/rand/v2"
	"testing"

	"github.com/makruktb/makruktb/tb/value"
)

func TestStateLayout(t *testing.T) {
	for _, v := range []value.Value{value.Draw, value.Illegal, value.Mate(0), value.Mate(253), value.Mate(254), value.Mate(509)} {
		for _, n := range []int{0, 1, maxCounter, cannotLose} {
			s := makeState(v, n)
			if stateValue(s) != v || stateCounter(s) != n {
				t.Fatalf("makeState(%d, %d) reads back as (%d, %d)", v, n, stateValue(s), stateCounter(s))
			}
		}
	}
	if maxCode != value.Mate(509) {
		t.Fatalf("maxCode %d, want the code of mate in 509", maxCode)
	}
}

// mayHoldCode must never miss a state holding the code, whatever the
// counters, and must say no when no lane can match (it may say yes for a
// lane above a matching one only).
func TestMayHoldCode(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		code := value.Value(r.IntN(maxCode + 1))
		var w uint64
		exact := false
		for lane := range 4 {
			v := value.Value(r.IntN(maxCode + 1))
			if r.IntN(4) == 0 {
				v = code
			}
			exact = exact || v == code
			w |= uint64(makeState(v, r.IntN(cannotLose+1))) << (16 * lane)
		}
		got := mayHoldCode(w, code)
		if exact && !got {
			t.Fatalf("mayHoldCode(%#x, %d) missed a match", w, code)
		}
		if !exact && got {
			t.Fatalf("mayHoldCode(%#x, %d) claims a match in a word without one", w, code)
		}
	}
}

func TestEscapesAndWins(t *testing.T) {
	states := make([]value.Value, 4)
	states[1] = makeState(value.Mate(4), 4) // two quiet moves, a capture loses in 4
	if _, decided := removeEscape(states, 1, 2, value.Mate(300)); decided {
		t.Fatal("decided after one of two escapes")
	}
	v, decided := removeEscape(states, 1, 2, value.Mate(302))
	if !decided || v != value.Mate(302) {
		t.Fatalf("after both escapes: %v, %v; want lost in 302 plies", v, decided)
	}
	if !setWin(states, 2, value.Mate(401)) || setWin(states, 2, value.Mate(403)) || !setWin(states, 2, value.Mate(301)) {
		t.Fatal("setWin must keep the quickest win")
	}
	if stateValue(states[2]) != value.Mate(301) || stateCounter(states[2]) != cannotLose {
		t.Fatalf("state %#x", states[2])
	}
	if states[0] != 0 || states[3] != 0 {
		t.Fatal("neighbouring states changed")
	}
}

package retro

import (
	"sync/atomic"

	"github.com/makruktb/makruktb/tb"
)

// settled holds one bit per position and side to move, set once no update
// of the iteration can change the position: a win found by an un-move
// (later frontiers only offer slower wins), a win by capture once the
// frontier has passed it, a decided loss, a known draw. Most un-moves reach
// positions already settled — every lost position is un-moved to all its
// predecessors, and only the first to get there wins — and in a space made
// of runs the 64 positions of a run share one word, so propagateRun drops
// them 64 at a time. A clear bit only costs the full update.
type settled [2][]uint64

func newSettled(size uint64) settled {
	n := (size + 63) / 64
	s := settled{make([]uint64, n), make([]uint64, n)}
	for side := range s {
		adviseHugePages(s[side])
	}
	return s
}

// run returns the settled positions of side in run r (a multiple of 64),
// bit n for position r+n.
func (s settled) run(side tb.Color, r uint64) tb.Bitboard {
	return tb.Bitboard(atomic.LoadUint64(&s[side][r>>6]))
}

// set marks position j of side as settled.
func (s settled) set(side tb.Color, j uint64) {
	word, bit := &s[side][j>>6], uint64(1)<<(j&63)
	if atomic.LoadUint64(word)&bit == 0 {
		atomic.OrUint64(word, bit)
	}
}

// setRun marks the positions r+n, n in lanes, of side as settled.
func (s settled) setRun(side tb.Color, r uint64, lanes tb.Bitboard) {
	atomic.OrUint64(&s[side][r>>6], uint64(lanes))
}

package retro

import (
	"sync/atomic"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// presence records, per block of 4096 consecutive indices of one side,
// which value codes have been assigned there (one bit per code), so the
// frontier scan for depth d skips every block that never received the
// code of d. Bits are only ever set; a stale bit costs a wasted scan, never
// a missed position. Memory: 64 bytes per block, under 0.02 byte per
// position.
type presence [2][][(maxCode + 1) / 64]uint64

const presenceShift = 12

func newPresence(size uint64) presence {
	n := (size + 1<<presenceShift - 1) >> presenceShift
	return presence{make([][(maxCode + 1) / 64]uint64, n), make([][(maxCode + 1) / 64]uint64, n)}
}

// mark records that index i of side received value code v.
func (pr presence) mark(side tb.Color, i uint64, v value.Value) {
	word := &pr[side][i>>presenceShift][v>>6]
	bit := uint64(1) << (v & 63)
	if atomic.LoadUint64(word)&bit == 0 {
		atomic.OrUint64(word, bit)
	}
}

// has reports whether block b of side may hold value code v.
func (pr presence) has(side tb.Color, b uint64, v value.Value) bool {
	return atomic.LoadUint64(&pr[side][b][v>>6])&(1<<(v&63)) != 0
}

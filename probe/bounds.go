package probe

import (
	"context"
	"math/bits"
	"sync/atomic"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/parallel"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// # Capture bounds on demand
//
// The bounded form of a version-3 side (encodeWDLPairs) frees the code of
// every position whose captures' bound equals its category, which takes a
// capture search at every legal position that may capture: half of a
// file's writing. Most sides end up stored plain (KRRvKN's
// White side: 14.8 M searches, 6.6 s, to learn that), and the layout
// search looks at a bounded layout only through its samples until one
// reaches the final encodings. So the searches are made on demand: first
// at the places the bounded layouts' samples read (the quick samples of
// every bounded layout cover 2.4–5 % of a five-piece side), and at every
// position only when a bounded layout goes on to be encoded whole. The
// free codes read are the ones a search at every position gives, so the
// file is the same; a side where some bound exceeds its category
// (unsound) is laid out plain once that is found.

// captureBounds fills free's capture codes of one side on demand.
type captureBounds struct {
	subs   *Tables
	rules  *honour.Rules
	space  *index.Space
	side   tb.Color
	codes  []byte // the side's categories, by index
	free   []byte // freeHole at holes; freeCapture|c set here
	wanted []uint64
	done   []uint64 // one bit per index: its search is made
	// unsound is set when a bound exceeds a category: the bounded form
	// may not be used.
	unsound atomic.Bool
}

func newCaptureBounds(subs *Tables, r *honour.Rules, space *index.Space, side tb.Color, codes, free []byte) *captureBounds {
	words := (uint64(len(codes)) + 63) / 64
	return &captureBounds{subs: subs, rules: r, space: space, side: side, codes: codes, free: free,
		wanted: make([]uint64, words), done: make([]uint64, words)}
}

// boundsChunk is the indices a worker searches at a time: a multiple of
// 64, so that each worker owns the bit words of its indices.
const boundsChunk = 1 << 18

// cover makes the searches of the places order o's samples of runs runs
// of length values read (sampled's runs), or of the whole side when they
// are the whole stream.
func (b *captureBounds) cover(o *digitOrder, runs, length int) error {
	if o.length <= uint64(2*runs*length) {
		return b.all()
	}
	indices := make([]uint64, length)
	for k := range uint64(runs) {
		o.indexRange(k*(o.length-uint64(length))/uint64(runs-1), indices)
		for _, i := range indices {
			if i != noIndex {
				b.wanted[i/64] |= 1 << (i % 64)
			}
		}
	}
	return b.searchWanted()
}

// coverAll is cover for each bounded layout of ls.
func (b *captureBounds) coverAll(ls []*layout, runs, length int) error {
	for _, l := range ls {
		if l.bounded {
			if err := b.cover(l.order, runs, length); err != nil {
				return err
			}
		}
	}
	return nil
}

// searchWanted makes the searches wanted and not yet done.
func (b *captureBounds) searchWanted() error {
	chunks := (int64(len(b.codes)) + boundsChunk - 1) / boundsChunk
	return parallel.For(context.Background(), chunks, 0, func(u int64) error {
		lo := uint64(u) * boundsChunk / 64
		hi := min(lo+boundsChunk/64, uint64(len(b.wanted)))
		for w := lo; w < hi; w++ {
			todo := b.wanted[w] &^ b.done[w]
			b.done[w] |= b.wanted[w]
			b.wanted[w] = 0
			for ; todo != 0; todo &= todo - 1 {
				i := w*64 + uint64(bits.TrailingZeros64(todo))
				if b.free[i]&freeHole != 0 {
					continue // a hole: no position
				}
				p, legal := b.space.Position(i, b.side)
				if !legal {
					continue
				}
				if err := b.search(i, &p); err != nil {
					return err
				}
			}
		}
		return nil
	}, nil)
}

// all makes every search not yet done, walking the side's positions.
func (b *captureBounds) all() error {
	chunks := (int64(len(b.codes)) + boundsChunk - 1) / boundsChunk
	return parallel.For(context.Background(), chunks, 0, func(u int64) error {
		lo := uint64(u) * boundsChunk
		hi := min(lo+boundsChunk, uint64(len(b.codes)))
		var err error
		b.space.WalkRange(b.side, lo, hi, func(i uint64, p *tb.Position) {
			if err == nil && b.done[i/64]&(1<<(i%64)) == 0 {
				err = b.search(i, p)
			}
		})
		for w := lo / 64; w < (hi+63)/64; w++ {
			b.done[w] = ^uint64(0)
		}
		return err
	}, nil)
}

// search marks the legal position p at index i free up to its category
// when its captures' bound equals it, and notes an unsound bound.
func (b *captureBounds) search(i uint64, p *tb.Position) error {
	decides, sound, err := capturesDecide(b.subs, b.rules, p, b.codes[i], true)
	switch {
	case err != nil:
		return err
	case !sound:
		b.unsound.Store(true)
	case decides:
		b.free[i] = freeCapture | b.codes[i]
	}
	return nil
}

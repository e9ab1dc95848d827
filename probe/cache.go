package probe

import (
	"sync"
	"sync/atomic"
)

// blockCache keeps decompressed blocks (their raw bytes) for reuse, within
// a bound on the bytes held. A hit takes no lock: each open table has a
// slot per block, an atomic pointer to the cached block, so a look-up is
// one atomic load and threads probing at once never wait for each other.
// A miss decompresses its block without a lock, then takes the cache's
// lock to insert it, evicting by CLOCK (second chance): a hit marks its
// block referenced, and the eviction hand passes over referenced blocks
// once, clearing the mark, until it finds one not used since its last
// pass.
type blockCache struct {
	mu    sync.Mutex
	limit int64
	used  int64
	ring  []*cachedBlock // the cached blocks, in no particular order
	hand  int            // the next candidate for eviction in ring
}

// blockSlot is where a table keeps one of its blocks while it is cached.
type blockSlot = atomic.Pointer[cachedBlock]

type cachedBlock struct {
	raw        []byte
	slot       *blockSlot
	referenced atomic.Bool
}

func newBlockCache(limit int64) *blockCache { return &blockCache{limit: limit} }

// get returns the cached bytes of the block of slot.
func (c *blockCache) get(slot *blockSlot) ([]byte, bool) {
	b := slot.Load()
	if b == nil {
		return nil, false
	}
	if !b.referenced.Load() { // a store only when it changes: no cache-line ping-pong
		b.referenced.Store(true)
	}
	return b.raw, true
}

// put caches the bytes of the block of slot, unless they alone exceed the
// bound or another thread cached the block first.
func (c *blockCache) put(slot *blockSlot, raw []byte) {
	size := int64(len(raw))
	if size > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if slot.Load() != nil {
		return
	}
	for c.used+size > c.limit { // used > 0, so the ring is not empty
		c.evict()
	}
	b := &cachedBlock{raw: raw, slot: slot}
	c.ring = append(c.ring, b)
	c.used += size
	slot.Store(b)
}

// evict removes one block: the first at or after the hand that is not
// referenced, clearing the marks it passes.
func (c *blockCache) evict() {
	for {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		b := c.ring[c.hand]
		if b.referenced.Load() {
			b.referenced.Store(false)
			c.hand++
			continue
		}
		b.slot.Store(nil) // a reader holding b.raw keeps it alive
		c.used -= int64(len(b.raw))
		last := len(c.ring) - 1
		c.ring[c.hand], c.ring[last] = c.ring[last], nil
		c.ring = c.ring[:last]
		return
	}
}

// bytes returns the memory held by cached blocks.
func (c *blockCache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

package probe

import (
	"container/list"
	"sync"
)

// blockKey names one block of one open file.
type blockKey struct {
	file  *File
	block int
}

// blockCache is a cache of decompressed blocks (their raw bytes), bounded
// in bytes held, safe for concurrent use: up to maxCacheShards
// least-recently-used shards, chosen by block number, each with its own
// lock and an equal share of the bound, so that probing threads rarely
// wait for each other. A shard may exceed its share by the block just put,
// so a small cache gets fewer shards: each holds at least four blocks.
type blockCache struct {
	shards []lruShard
}

const maxCacheShards = 16

func newBlockCache(limit int64) *blockCache {
	n := int(min(max(limit/(4*DefaultBlockSize), 1), maxCacheShards))
	c := &blockCache{shards: make([]lruShard, n)}
	for i := range c.shards {
		c.shards[i] = lruShard{limit: limit / int64(n), order: list.New(), items: map[blockKey]*list.Element{}}
	}
	return c
}

func (c *blockCache) shard(k blockKey) *lruShard { return &c.shards[uint(k.block)%uint(len(c.shards))] }

func (c *blockCache) get(k blockKey) ([]byte, bool) { return c.shard(k).get(k) }

func (c *blockCache) put(k blockKey, raw []byte) { c.shard(k).put(k, raw) }

// bytes returns the memory held by cached blocks.
func (c *blockCache) bytes() int64 {
	var n int64
	for i := range c.shards {
		n += c.shards[i].bytes()
	}
	return n
}

// lruShard is one least-recently-used part of a blockCache.
type lruShard struct {
	mu    sync.Mutex
	limit int64
	used  int64
	order *list.List // front: most recent; values are *cacheEntry
	items map[blockKey]*list.Element
}

type cacheEntry struct {
	key blockKey
	raw []byte
}

func (c *lruShard) get(k blockKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).raw, true
}

func (c *lruShard) put(k blockKey, raw []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok {
		return
	}
	c.items[k] = c.order.PushFront(&cacheEntry{key: k, raw: raw})
	c.used += int64(len(raw))
	for c.used > c.limit && c.order.Len() > 1 {
		old := c.order.Back()
		entry := old.Value.(*cacheEntry)
		c.order.Remove(old)
		delete(c.items, entry.key)
		c.used -= int64(len(entry.raw))
	}
}

func (c *lruShard) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

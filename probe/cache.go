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

// blockCache is a least-recently-used cache of decompressed blocks (their
// raw bytes), bounded in bytes held. Safe for concurrent use.
type blockCache struct {
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

func newBlockCache(limit int64) *blockCache {
	return &blockCache{limit: limit, order: list.New(), items: map[blockKey]*list.Element{}}
}

func (c *blockCache) get(k blockKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).raw, true
}

func (c *blockCache) put(k blockKey, raw []byte) {
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

// bytes returns the memory held by cached blocks.
func (c *blockCache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

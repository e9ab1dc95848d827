package probe

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The cache keeps within its bound, gives a block that was used since the
// hand last passed a second chance, and caches nothing with a bound of 0.
func TestBlockCacheClock(t *testing.T) {
	c := newBlockCache(300)
	slots := make([]blockSlot, 5)
	for i := range 3 {
		c.put(&slots[i], make([]byte, 100))
	}
	require.Equal(t, int64(300), c.bytes())
	_, ok := c.get(&slots[0]) // block 0 is referenced, 1 and 2 are not
	require.True(t, ok)
	c.put(&slots[3], make([]byte, 100))
	require.Equal(t, int64(300), c.bytes())
	_, hit0 := c.get(&slots[0])
	require.True(t, hit0, "a referenced block gets a second chance")
	evicted := 0
	for _, i := range []int{1, 2} {
		if _, ok := c.get(&slots[i]); !ok {
			evicted++
		}
	}
	require.Equal(t, 1, evicted, "one unreferenced block made room")

	c.put(&slots[4], make([]byte, 400)) // larger than the whole cache
	_, ok = c.get(&slots[4])
	require.False(t, ok)
	require.LessOrEqual(t, c.bytes(), int64(300))

	none := newBlockCache(0)
	none.put(&slots[0], []byte{1})
	require.Zero(t, none.bytes())
}

package api

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestResponseCacheIsBounded(t *testing.T) {
	c := newResponseCache(100)
	c.put("a", newPayload("x", make([]byte, 40)))
	c.put("b", newPayload("x", make([]byte, 40)))
	_, ok := c.get("a") // a is now the most recent
	require.True(t, ok)
	c.put("c", newPayload("x", make([]byte, 40))) // b goes
	_, ok = c.get("b")
	require.False(t, ok)
	_, ok = c.get("a")
	require.True(t, ok)
	c.put("huge", newPayload("x", make([]byte, 200))) // larger than the cache: not kept
	_, ok = c.get("huge")
	require.False(t, ok)
	require.LessOrEqual(t, c.bytes, int64(100))
}

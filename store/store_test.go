package store

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
)

// A held table is what Load gives, whatever its size, until it is
// released; then Load reads the directory again (here empty: the table is
// missing).
func TestCacheHoldsUntilRelease(t *testing.T) {
	c := NewCache(t.TempDir(), 0) // keeps nothing small
	krrvkn := probe.DTMID(tb.MustParseMaterial("KRRvKN"))
	krsvkn := probe.DTMID(tb.MustParseMaterial("KRSvKN"))
	held := map[probe.ID]*retro.Table{krrvkn: {}, krsvkn: {}}
	for id, table := range held {
		c.Hold(id, table)
	}
	for id, table := range held {
		got, err := c.Load(id)
		require.NoError(t, err)
		require.Same(t, table, got)
	}
	c.ReleaseOthers(krrvkn.Material)
	got, err := c.Load(krrvkn)
	require.NoError(t, err)
	require.Same(t, held[krrvkn], got)
	_, err = c.Load(krsvkn)
	require.True(t, errors.Is(err, fs.ErrNotExist), "%v", err)
	c.Release()
	_, err = c.Load(krrvkn)
	require.True(t, errors.Is(err, fs.ErrNotExist), "%v", err)
}

package store

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// LoadTogether derives the unstored sides of a material's version-2 DTM
// and DTB tables in one pass, and gives exactly what loading each alone
// gives; what the cache holds it takes from there.
func TestLoadTogetherAsOneByOne(t *testing.T) {
	src := testenv.BoardTables(t, "KRvKN")
	dir := t.TempDir()
	m := tb.MustParseMaterial("KRvKN")
	ids := []probe.ID{probe.DTMID(m), {Material: m, Rules: honour.ThaiRules.Name}, {Material: m, Rules: honour.CambodianRules.Name}}
	for _, name := range []string{"KRvK", "KNvK"} {
		table := testenv.Generated(t, name)
		id := probe.DTMID(tb.MustParseMaterial(name))
		require.NoError(t, probe.WriteFile(id.Path(dir), table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM}))
	}
	for _, id := range ids {
		table, err := NewCache(src, 0).load(id) // version 1 there: both sides
		require.NoError(t, err)
		o := probe.Options{Version: probe.Version2, Metric: id.Metric(), Rules: id.Rules}
		require.NoError(t, probe.WriteFile(id.Path(dir), table.Space, table.Values, o))
	}
	together, err := NewCache(dir, 0).LoadTogether(ids)
	require.NoError(t, err)
	for x, id := range ids {
		alone, err := NewCache(dir, 0).Load(id)
		require.NoError(t, err)
		require.Equal(t, alone.Derived, together[x].Derived, id.String())
		for side := range alone.Values {
			require.Equal(t, alone.Values[side].Codes(), together[x].Values[side].Codes(), "%v side %d", id, side)
		}
	}

	c := NewCache(dir, 0)
	c.Hold(ids[1], together[1])
	again, err := c.LoadTogether(ids)
	require.NoError(t, err)
	require.Same(t, together[1], again[1], "a held table is not read again")
	_, err = NewCache(t.TempDir(), 0).LoadTogether(ids)
	var missing *probe.MissingError
	require.ErrorAs(t, err, &missing)
}

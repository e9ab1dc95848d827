package probe

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/tb"
)

// Every ID a directory can hold has a key of its own, and an ID whose
// rules name no file of the directory has has none.
func TestFileKeys(t *testing.T) {
	tables := &fileSet{rules: []string{"", "thai", "cambodian"}}
	seen := map[fileKey]ID{}
	for _, name := range []string{"KRvK", "KRvKN", "KNvKR", "KRRvKN", "KRNvKR", "KSSSvK", "KMMMvKM", "KRRRRvK"} {
		m := tb.MustParseMaterial(name)
		for _, id := range []ID{DTMID(m), {Material: m, Rules: "thai"}, {Material: m, Rules: "cambodian"}, ShatranjID(m)} {
			k, ok := tables.keyOf(id)
			require.True(t, ok, "%v", id)
			other, dup := seen[k]
			require.False(t, dup, "%v and %v share the key %#x", id, other, k)
			seen[k] = id
		}
	}
	_, ok := tables.keyOf(ID{Material: tb.MustParseMaterial("KRvKN"), Rules: "thai-strong"})
	require.False(t, ok)
	var m tb.Material
	m.Counts[tb.White][tb.Rook] = 16 // no file name parses to it
	_, ok = tables.keyOf(DTMID(m))
	require.False(t, ok)
}

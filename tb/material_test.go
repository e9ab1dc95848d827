package tb

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMaterialNames(t *testing.T) {
	for _, tc := range []struct{ in, canon string }{
		{"KRvK", "KRvK"},
		{"KvKR", "KRvK"},
		{"KNvKR", "KRvKN"},
		{"KSRvKN", "KRSvKN"},
		{"kmnvk", "KNMvK"},
		{"KRvKR", "KRvKR"},
		{"KSvKN", "KSvKN"},
		{"KNvKS", "KSvKN"},
		{"KvK", "KvK"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			m, err := ParseMaterial(tc.in)
			require.NoError(t, err, tc.in)
			c, _ := m.Canonical()
			require.Equal(t, tc.canon, c.String(), tc.in)
		})
	}
	for _, bad := range []string{"", "KR", "RvK", "KQvK", "KRvKvK", "KKvK"} {
		_, err := ParseMaterial(bad)
		require.Error(t, err, bad)
	}
}

func TestMaterialCaptures(t *testing.T) {
	var names []string
	for _, m := range MustParseMaterial("KRSvKN").Captures() {
		names = append(names, m.String())
	}
	require.Equal(t, []string{"KRSvK", "KRvKN", "KSvKN"}, names)
	require.Empty(t, MustParseMaterial("KvK").Captures())
}

func TestPawnlessCount(t *testing.T) {
	count := func(max int) int {
		n := 0
		for _, m := range Pawnless(max) {
			require.True(t, m.IsCanonical())
			require.LessOrEqual(t, m.Pieces(), max)
			n++
		}
		return n
	}
	require.Equal(t, 1, count(2))
	require.Equal(t, 5, count(3))  // + KRvK KSvK KNvK KMvK
	require.Equal(t, 25, count(4)) // + 10 same-side pairs + 10 cross pairs up to colour
	require.Equal(t, 85, count(5)) // + 20 same-side triples + 10 pairs × 4 singles
	require.Equal(t, "KvK", Pawnless(5)[0].String())
}

// The one parser of a table's material: canonical, and a typed refusal of
// what no table holds.
func TestParseTableMaterial(t *testing.T) {
	m, err := Makruk.ParseTableMaterial("KNvKR")
	require.NoError(t, err)
	require.Equal(t, "KRvKN", m.String(), "canonical: the stronger side White")
	for name, want := range map[string]error{"KRPvK": ErrPawns, "KRRRvKRRR": ErrTooManyPieces, "KRRRRRRRRRRRRRvK": ErrTooManyPieces} {
		_, err := Makruk.ParseTableMaterial(name)
		require.ErrorIs(t, err, want, name)
		var me *MaterialError
		require.ErrorAs(t, err, &me, name)
	}
	_, err = Makruk.ParseTableMaterial("KRvKN.thai")
	require.ErrorContains(t, err, "a material is expected, such as KRvKN, not the name of its thai table")
	_, err = Shatranj.ParseTableMaterial("KSvK")
	require.ErrorContains(t, err, "unknown piece 'S'")
}

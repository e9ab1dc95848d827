package units

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Sizes with binary units, as --memory takes them, and back.
func TestSizes(t *testing.T) {
	for text, want := range map[string]int64{"20GiB": 20 << 30, "512M": 512 << 20, "1.5g": 3 << 29, "1000": 1000, "0": 0, "2 TiB": 2 << 40} {
		got, err := ParseSize(text)
		require.NoError(t, err, text)
		require.Equal(t, want, got, text)
	}
	for _, bad := range []string{"", "x", "-1G", "3 parsecs"} {
		_, err := ParseSize(bad)
		require.Error(t, err, bad)
	}
	for n, want := range map[int64]string{109: "109 B", 12 << 10: "12.0 KiB", 316 << 20: "316.0 MiB", 1 << 30: "1.00 GiB"} {
		require.Equal(t, want, Bytes(n))
	}
	require.Equal(t, "1 table", Plural(1, "table", "tables"))
	require.Equal(t, "0 tables", Plural(0, "table", "tables"))
}

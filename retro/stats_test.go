package retro

import (
	"math/rand/v2"
	"testing"

	"github.com/makruktb/makruktb/tb/value"
	"github.com/stretchr/testify/require"
)

// tallyCodes counts like the obvious loop, whatever the length (groups of
// four and a tail) and however large the codes (two-byte tables).
func TestTallyCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 3, 4, 7, 1000, 4099} {
		for _, top := range []int{2, 300, 512, 513, 70000} {
			values := make([]value.Value, n)
			for i := range values {
				values[i] = value.Value(rng.IntN(min(top, 1<<16)))
				if rng.IntN(8) == 0 { // runs of equal values
					values[i] = value.Mate(7)
				}
			}
			want := []uint64{0, 0}
			for _, v := range values {
				want = count(want, int(v), 1)
			}
			require.Equal(t, want, tallyCodes(values), "n=%d top=%d", n, top)
		}
	}
}

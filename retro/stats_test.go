package retro

import (
	"math/rand/v2"
	"testing"

	"github.com/makruktb/makruktb/tb/value"
	"github.com/stretchr/testify/require"
)

// tallyCodes counts like the obvious loop, whatever the length (groups of
// four and a tail), however large the codes (overflow entries) and over
// any range.
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
			lo := rng.IntN(n + 1)
			hi := lo + rng.IntN(n+1-lo)
			want := []uint64{0, 0}
			for _, v := range values[lo:hi] {
				want = count(want, int(v), 1)
			}
			got := tallyCodes(value.ArrayOf(values), uint64(lo), uint64(hi))
			require.Equal(t, want, got, "n=%d top=%d [%d, %d)", n, top, lo, hi)
		}
	}
}

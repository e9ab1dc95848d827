package value

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// An array reads back what was set, codes of a byte and beyond, set
// concurrently.
func TestArrayRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vals := make([]Value, 5000)
	for i := range vals {
		vals[i] = Value(rng.IntN(300))
		if rng.IntN(50) == 0 {
			vals[i] = Value(rng.IntN(MaxPlies))
		}
	}
	a := NewArray(uint64(len(vals)))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(vals); i += 4 {
				a.Set(uint64(i), vals[i])
			}
		})
	}
	wg.Wait()
	a.Seal()
	require.Equal(t, vals, a.All())
	for i, v := range vals {
		require.Equal(t, v, a.At(uint64(i)))
	}
	require.Equal(t, vals[100:200], a.Slice(100, 200, nil))

	b, err := ArrayFrom(a.Codes(), a.Overflowed())
	require.NoError(t, err)
	require.Equal(t, vals, b.All())
}

func TestArrayFromRefusesMismatch(t *testing.T) {
	_, err := ArrayFrom([]byte{0, Overflow, 3}, nil)
	require.ErrorContains(t, err, "1 overflow bytes, 0 overflow entries")
	_, err = ArrayFrom([]byte{0, Overflow}, []Wide{{Index: 1, Value: 7}})
	require.ErrorContains(t, err, "out of range")
	// A later Set of an index wins over an earlier one.
	a := NewArray(2)
	a.Set(1, 400)
	a.Set(1, 500)
	a.Seal()
	require.Equal(t, Value(500), a.At(1))
}

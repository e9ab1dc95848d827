package probe

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
)

// Every order of KRvKN's three digits maps its indices one to one onto
// the same range, the index's own order onto itself; an order that is
// not a permutation of the digits is refused.
func TestDigitOrders(t *testing.T) {
	space, err := index.New(tb.MustParseMaterial("KRvKN"))
	require.NoError(t, err)
	orders := digitOrders(3)
	require.Len(t, orders, 6)
	require.Equal(t, []uint8{0, 1, 2}, orders[0], "the index's own order first")
	seen := map[string]bool{}
	for _, order := range orders {
		seen[string(order)] = true
		o, err := newDigitOrder(space, order)
		require.NoError(t, err)
		hit := make([]bool, space.Size())
		for i := range space.Size() {
			j := o.stored(i)
			if j >= space.Size() || hit[j] || o.identity && i != j || o.index(j) != i {
				t.Fatalf("order %v: index %d at %d (taken: %v), back to %d", order, i, j, j < space.Size() && hit[j], o.index(j))
			}
			hit[j] = true
		}
	}
	require.Len(t, seen, 6)
	_, err = newDigitOrder(space, []uint8{0, 1, 1})
	require.Error(t, err)
	_, err = newDigitOrder(space, []uint8{0, 1})
	require.Error(t, err)
	_, err = newDigitOrder(space, []uint8{0, 1, 3})
	require.Error(t, err)
	require.Len(t, digitOrders(4), 24)
}

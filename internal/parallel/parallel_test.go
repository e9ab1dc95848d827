package parallel

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestForRunsEveryUnitOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 7, 1000} {
		const n = 1000
		var seen [n]atomic.Int32
		var last atomic.Int64
		err := For(context.Background(), n, workers, func(u int64) error {
			seen[u].Add(1)
			return nil
		}, func(f int64) {
			for {
				cur := last.Load()
				if f <= cur || last.CompareAndSwap(cur, f) {
					return
				}
			}
		})
		require.NoError(t, err)
		for u := range seen {
			require.Equal(t, int32(1), seen[u].Load(), "unit %d, %d workers", u, workers)
		}
		require.Equal(t, int64(n), last.Load(), "progress reaches the total")
	}
	require.NoError(t, For(context.Background(), 0, 2, func(int64) error { return errors.New("no units") }, nil))
}

// The error is that of the lowest failing unit, whatever the timing.
func TestForReturnsLowestError(t *testing.T) {
	for range 20 {
		err := For(context.Background(), 100, 4, func(u int64) error {
			if u%10 == 3 {
				return fmt.Errorf("unit %d", u)
			}
			return nil
		}, nil)
		require.EqualError(t, err, "unit 3")
	}
}

func TestForStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int64
	err := For(ctx, 1_000_000, 2, func(u int64) error {
		if ran.Add(1) == 10 {
			cancel()
		}
		return nil
	}, nil)
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, ran.Load(), int64(1000), "units kept running after the context ended")
}

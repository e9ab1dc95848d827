package api

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Whole-table work (issue 62, item 8): a small computation is answered
// while a large one runs, a second large one waits for the first, a
// result is computed once for everyone who asks and kept, an error is not
// kept, and a caller that hangs up does not stop the computation.
func TestWork(t *testing.T) {
	w := newWork()
	release := make(chan struct{})
	var calls atomic.Int32
	slow := func(ctx context.Context) (any, error) {
		calls.Add(1)
		<-release
		return "large", nil
	}
	type answer struct {
		v   any
		err error
	}
	first := make(chan answer, 2)
	for range 2 { // two requests for the same large result
		go func() {
			v, err := w.do(context.Background(), "stats KSSvKR", "statistics of KSSvKR", true, slow)
			first <- answer{v, err}
		}()
	}
	require.Eventually(t, func() bool { return len(w.list()) == 1 && w.list()[0].State == "running" }, 10*time.Second, time.Millisecond)

	// A small one meanwhile: answered while the large one still runs.
	v, err := w.do(context.Background(), "stats KRvK", "statistics of KRvK", false, func(context.Context) (any, error) { return "small", nil })
	require.NoError(t, err)
	require.Equal(t, "small", v)

	// Another large one waits for the slot; its caller may give up.
	ctx, cancel := context.WithCancel(context.Background())
	second := make(chan answer, 1)
	go func() {
		v, err := w.do(ctx, "heatmap KRRvKN k", "heat map of KRRvKN by k", true, func(context.Context) (any, error) { return "map", nil })
		second <- answer{v, err}
	}()
	require.Eventually(t, func() bool { return len(w.list()) == 2 }, 10*time.Second, time.Millisecond)
	items := w.list()
	require.Equal(t, "statistics of KSSvKR", items[0].What)
	require.Equal(t, WorkItem{What: "heat map of KRRvKN by k", State: "waiting", Seconds: items[1].Seconds}, items[1])
	cancel()
	require.ErrorIs(t, (<-second).err, context.Canceled)

	close(release)
	for range 2 {
		a := <-first
		require.NoError(t, a.err)
		require.Equal(t, "large", a.v)
	}
	require.Equal(t, int32(1), calls.Load(), "one computation for both requests")
	// The abandoned one ran to its end and is kept.
	require.Eventually(t, func() bool { return len(w.list()) == 0 }, 10*time.Second, time.Millisecond)
	v, err = w.do(context.Background(), "heatmap KRRvKN k", "", true, func(context.Context) (any, error) { return nil, errors.New("computed again") })
	require.NoError(t, err)
	require.Equal(t, "map", v)
	v, err = w.do(context.Background(), "stats KSSvKR", "", true, slow)
	require.NoError(t, err)
	require.Equal(t, "large", v)
	require.Equal(t, int32(1), calls.Load(), "kept")

	// Errors are not kept; forget drops what is.
	boom := errors.New("boom")
	_, err = w.do(context.Background(), "stats KNvK", "", false, func(context.Context) (any, error) { return nil, boom })
	require.ErrorIs(t, err, boom)
	v, err = w.do(context.Background(), "stats KNvK", "", false, func(context.Context) (any, error) { return "fine", nil })
	require.NoError(t, err)
	require.Equal(t, "fine", v)
	w.forget()
	_, err = w.do(context.Background(), "stats KNvK", "", false, func(context.Context) (any, error) { return nil, boom })
	require.ErrorIs(t, err, boom)
}

// The kept results are bounded.
func TestWorkKeepsABoundedNumber(t *testing.T) {
	w := newWork()
	for i := range maxKeptResults + 10 {
		_, err := w.do(context.Background(), string(rune('a'+i)), "", false, func(context.Context) (any, error) { return i, nil })
		require.NoError(t, err)
	}
	require.Equal(t, maxKeptResults, w.order.Len())
	require.Len(t, w.kept, maxKeptResults)
}

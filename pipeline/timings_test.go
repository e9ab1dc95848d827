package pipeline

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTimings(t *testing.T) {
	c := &Timings{}
	require.Empty(t, c.String(), "no stage entered")
	c.enter("seed")
	time.Sleep(20 * time.Millisecond)
	var wg sync.WaitGroup
	for range 4 { // progress arrives from several workers at once
		wg.Go(func() { c.enter("iterate") })
	}
	wg.Wait()
	c.enter("write")
	got := c.String()
	require.Regexp(t, `^seed [0-9.]+s, iterate [0-9.]+s, write [0-9.]+s$`, got, "each stage once, in order")
	require.Equal(t, got, c.String(), "String ended the last stage; calling it again adds nothing")

	c = &Timings{}
	c.enter("seed")
	time.Sleep(120 * time.Millisecond)
	require.Regexp(t, `^seed ([1-9][0-9]*\.[0-9]|0\.[1-9])s$`, c.String(), "at least the time slept")
}

// Package parallel is the one work-stealing loop of the project: n units
// of work (the king pairs and sides of a table, the blocks of a file)
// shared by a few workers, each taking the next unit as soon as it is done
// with one, so that uneven units still keep every core busy.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// For runs work(u) for every unit u in 0 … n−1 on workers goroutines (0:
// one per core, runtime.GOMAXPROCS) and calls done, if not nil, after each
// unit with the number of units finished so far (concurrently, from the
// workers).
//
// It stops taking units when ctx ends or a unit fails; the units in
// flight finish. It returns the error of the lowest-numbered unit that
// failed — every unit below it has run, so the answer does not depend on
// timing — else ctx's error if ctx ended before all units ran, else nil.
func For(ctx context.Context, n int64, workers int, work func(u int64) error, done func(finished int64)) error {
	workers = int(min(int64(Workers(workers)), max(n, 1)))
	var next, finished atomic.Int64
	var stop atomic.Bool
	var mu sync.Mutex
	firstBad, firstErr := n, error(nil)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for !stop.Load() {
				if ctx.Err() != nil {
					return
				}
				u := next.Add(1) - 1
				if u >= n {
					return
				}
				if err := work(u); err != nil {
					mu.Lock()
					if u < firstBad {
						firstBad, firstErr = u, err
					}
					mu.Unlock()
					stop.Store(true)
					return
				}
				if f := finished.Add(1); done != nil {
					done(f)
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if finished.Load() < n {
		return ctx.Err()
	}
	return nil
}

// Workers returns the number of workers a count of 0 (or less) stands
// for: one per core, runtime.GOMAXPROCS; any other count as it is.
func Workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

package api

import (
	"container/list"
	"context"
	"net/http"
	"sort"
	"sync"
	"time"
)

// Whole-table work — statistics, heat maps, studies — reads a table whole:
// from a fraction of a second for four pieces to a minute or more for five.
// work runs it so that
//   - a result is computed once and kept (the last maxKeptResults): the
//     plot and the numbers of one material share one count;
//   - requests for the same result while it is computed wait for that one
//     computation, which runs to its end even when they hang up (it is
//     kept for when they come back);
//   - large tables (five pieces or more) are computed one at a time, so
//     they do not take every core and all the memory together, while small
//     ones run at once beside them;
//   - what runs and what waits can be listed (/api/v1/work), for the pages'
//     progress lines.
type work struct {
	mu      sync.Mutex
	kept    map[string]*list.Element // of *keptResult
	order   *list.List               // most recently used first
	running map[string]*job
	large   chan struct{} // the one slot of large computations
}

// maxKeptResults bounds the results kept: a statistics document is a few
// kilobytes, a heat map or a study a few dozen.
const maxKeptResults = 64

type keptResult struct {
	key    string
	result any
}

// A job is one computation under way.
type job struct {
	what    string // for the list: "statistics of KRRvKN"
	large   bool
	queued  time.Time
	started time.Time // zero while it waits for the large slot
	done    chan struct{}
	result  any
	err     error
}

func newWork() *work {
	return &work{kept: map[string]*list.Element{}, order: list.New(), running: map[string]*job{}, large: make(chan struct{}, 1)}
}

// do returns the result of key: kept, being computed, or computed now by
// compute, which gets a context of its own (not ctx: other requests may
// wait for it). ctx ends the caller's wait only.
func (w *work) do(ctx context.Context, key, what string, large bool, compute func(context.Context) (any, error)) (any, error) {
	w.mu.Lock()
	if e, ok := w.kept[key]; ok {
		w.order.MoveToFront(e)
		w.mu.Unlock()
		return e.Value.(*keptResult).result, nil
	}
	j, ok := w.running[key]
	if !ok {
		j = &job{what: what, large: large, queued: time.Now(), done: make(chan struct{})}
		w.running[key] = j
		go w.run(key, j, compute)
	}
	w.mu.Unlock()
	select {
	case <-j.done:
		return j.result, j.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run computes j, in the large slot when it is large, and keeps its result.
func (w *work) run(key string, j *job, compute func(context.Context) (any, error)) {
	if j.large {
		w.large <- struct{}{}
		defer func() { <-w.large }()
	}
	w.mu.Lock()
	j.started = time.Now()
	w.mu.Unlock()
	result, err := compute(context.Background())
	w.mu.Lock()
	defer w.mu.Unlock()
	j.result, j.err = result, err
	delete(w.running, key)
	if err == nil {
		w.kept[key] = w.order.PushFront(&keptResult{key, result})
		for w.order.Len() > maxKeptResults {
			last := w.order.Remove(w.order.Back()).(*keptResult)
			delete(w.kept, last.key)
		}
	}
	close(j.done)
}

// forget drops every kept result (tables have changed).
func (w *work) forget() {
	w.mu.Lock()
	defer w.mu.Unlock()
	clear(w.kept)
	w.order.Init()
}

// WorkItem is one computation of /api/v1/work's list: what it computes,
// "running" or "waiting" (a large table behind another), and for how long.
type WorkItem struct {
	What    string  `json:"what"`
	State   string  `json:"state"`
	Seconds float64 `json:"seconds"`
}

// list returns the computations under way, the longest first.
func (w *work) list() []WorkItem {
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	items := []WorkItem{}
	for _, j := range w.running {
		item := WorkItem{What: j.what, State: "running", Seconds: now.Sub(j.started).Seconds()}
		if j.started.IsZero() {
			item.State, item.Seconds = "waiting", now.Sub(j.queued).Seconds()
		}
		items = append(items, item)
	}
	sort.Slice(items, func(a, b int) bool {
		if items[a].Seconds != items[b].Seconds {
			return items[a].Seconds > items[b].Seconds
		}
		return items[a].What < items[b].What
	})
	return items
}

// workList answers /api/v1/work: the computations under way (a live
// endpoint: never cached).
func (s *Server) workList(*http.Request) (response, error) {
	return jsonResponse(struct {
		Work []WorkItem `json:"work"`
	}{s.work.list()})
}

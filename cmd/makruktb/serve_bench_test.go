package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/makruktb/makruktb/api"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// BenchmarkServeProbe measures /api/v1/probe over loopback with 16
// concurrent clients on a warm cache (every request was answered once
// before): requests per second and the 99th-percentile latency.
//
//	go test ./cmd/makruktb -run '^$' -bench ServeProbe
func BenchmarkServeProbe(b *testing.B) {
	dir := b.TempDir()
	cmd, finish := newRootCommand()
	cmd.SetArgs([]string{"gen", "--tables", dir, "KRvK"})
	cmd.SetOut(io.Discard)
	if err := cmd.Execute(); err != nil {
		b.Fatal(err)
	}
	finish()
	tables, err := probe.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	s := api.NewServer(tables, 64<<20, log.New(io.Discard, "", 0))
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

	// 256 KRvK positions: the white rook walks over the board.
	var urls []string
	for sq := range 64 {
		for _, side := range []string{"w", "b"} {
			var p tb.Position
			p.Put(tb.White, tb.King, tb.NewSquare(0, 0))
			p.Put(tb.Black, tb.King, tb.NewSquare(4, 6))
			if s := tb.Square(sq); s != tb.NewSquare(0, 0) && s != tb.NewSquare(4, 6) {
				p.Put(tb.White, tb.Rook, s)
			}
			fen := fmt.Sprintf("%s %s - - 0 1", p.BoardFEN(), side)
			if _, err := tb.ParseFEN(fen); err == nil {
				urls = append(urls, ts.URL+"/api/v1/probe?fen="+url.QueryEscape(fen))
			}
		}
	}
	get := func(u string) {
		r, err := client.Get(u)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	for _, u := range urls {
		get(u)
	}

	var mu sync.Mutex
	var latencies []time.Duration
	b.SetParallelism(8) // 16 clients on 2 cores
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		i := 0
		for pb.Next() {
			t0 := time.Now()
			get(urls[i%len(urls)])
			mine = append(mine, time.Since(t0))
			i++
		}
		mu.Lock()
		latencies = append(latencies, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	slices.Sort(latencies)
	b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds()), "p99-µs")
}

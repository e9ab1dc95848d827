//go:build linux

package main

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/api"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// The load test drives serve over loopback with loadClients concurrent
// clients and a mix of valid, invalid and oversized requests, for
// $MAKRUKTB_LOAD (a Go duration; 3s by default, make loadtest runs 60s).
// It checks that no answer is a 5xx or an unexpected status, that the
// server's peak RSS stays within its --cache-mb plus loadRSSAllowance, and
// that no goroutine is left behind once the clients hang up.
const (
	loadClients = 64
	loadCacheMB = 8
	// loadRSSAllowance is the server's memory beyond its response cache:
	// the Go runtime and binary, the block cache of the KRvK table, the
	// buffers of 64 connections and of oversized requests in flight.
	loadRSSAllowance = 40 << 20
)

// loadRequest is one kind of request the clients send, with the status it
// must get.
type loadRequest struct {
	name   string
	method string
	path   func(i int) string
	status int
}

// loadMix builds the requests: the first positions are KRvK placements
// (the rook walks the board), probed and followed to mate.
func loadMix() []loadRequest {
	var fens []string
	for s := range 64 {
		var p tb.Position
		p.Put(tb.White, tb.King, tb.NewSquare(0, 0))
		p.Put(tb.Black, tb.King, tb.NewSquare(4, 5))
		sq := tb.Square(s)
		if sq == tb.NewSquare(0, 0) || sq == tb.NewSquare(4, 5) {
			continue
		}
		p.Put(tb.White, tb.Rook, sq)
		p.Side, p.CountLimit, p.Fullmove = tb.Black, tb.NoCount, 1
		if p.Validate() == nil {
			fens = append(fens, p.FEN())
		}
	}
	fen := func(endpoint string) func(int) string {
		return func(i int) string { return endpoint + "?fen=" + url.QueryEscape(fens[i%len(fens)]) }
	}
	huge := "/api/v1/probe?fen=" + url.QueryEscape(strings.Repeat("8/", 50000)+" w")
	fixed := func(p string) func(int) string { return func(int) string { return p } }
	return []loadRequest{
		{"probe", "GET", fen("/api/v1/probe"), 200},
		{"probe", "GET", fen("/api/v1/probe"), 200},
		{"line", "GET", fen("/api/v1/line"), 200},
		{"stats", "GET", fixed("/api/v1/stats/KRvK"), 200},
		{"plot", "GET", fixed("/api/v1/stats/KvKR/plot.svg"), 200},
		{"page", "GET", fixed("/"), 200},
		{"bad fen", "GET", fixed("/api/v1/probe?fen=" + url.QueryEscape("8/8/8/8/8/2k5/1R6/K7 x")), 400},
		{"oversized fen", "GET", fixed(huge), 400},
		{"bad rules", "GET", func(i int) string { return fen("/api/v1/probe")(i) + "&rules=" + strings.Repeat("q", 1000) }, 400},
		{"missing table", "GET", fixed("/api/v1/probe?fen=" + url.QueryEscape("k7/8/8/8/8/8/8/KNN5 w")), 404},
		{"no endpoint", "GET", fixed("/api/v1/" + strings.Repeat("x", 2000)), 404},
		{"wrong method", "POST", fen("/api/v1/probe"), 405},
	}
}

// loadResult sums up a load run.
type loadResult struct {
	requests  int64
	byName    map[string]int64
	latencies []time.Duration // a sample
}

// hammer sends the mix to base from loadClients clients for d and fails
// the test on any unexpected status.
func hammer(t *testing.T, base string, d time.Duration) loadResult {
	t.Helper()
	mix := loadMix()
	transport := &http.Transport{MaxIdleConnsPerHost: loadClients}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	var requests atomic.Int64
	var mu sync.Mutex
	res := loadResult{byName: map[string]int64{}}
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for c := range loadClients {
		wg.Go(func() {
			counts := map[string]int64{}
			var lat []time.Duration
			for n := 0; time.Now().Before(deadline); n++ {
				i := n*loadClients + c     // the position
				r := mix[(n*5+c)%len(mix)] // 5 is prime to the mix's 12: every kind in turn
				req, err := http.NewRequest(r.method, base+r.path(i), nil)
				if err != nil {
					t.Error(err)
					return
				}
				start := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					t.Errorf("%s: %v", r.name, err)
					return
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					t.Errorf("%s: reading the body: %v", r.name, err)
					return
				}
				if resp.StatusCode != r.status {
					t.Errorf("%s: status %d, want %d: %.200s", r.name, resp.StatusCode, r.status, body)
					return
				}
				if i%16 == 0 {
					lat = append(lat, time.Since(start))
				}
				counts[r.name]++
				requests.Add(1)
			}
			mu.Lock()
			defer mu.Unlock()
			for k, n := range counts {
				res.byName[k] += n
			}
			res.latencies = append(res.latencies, lat...)
		})
	}
	wg.Wait()
	res.requests = requests.Load()
	return res
}

func (r loadResult) String() string {
	slices.Sort(r.latencies)
	p := func(q float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		return r.latencies[int(q*float64(len(r.latencies)-1))]
	}
	return fmt.Sprintf("%d requests, p50 %v, p99 %v, by kind %v", r.requests, p(0.5), p(0.99), r.byName)
}

func loadDuration(t *testing.T) time.Duration {
	d := 3 * time.Second
	if s := os.Getenv("MAKRUKTB_LOAD"); s != "" {
		var err error
		d, err = time.ParseDuration(s)
		require.NoError(t, err, "MAKRUKTB_LOAD")
	}
	return d
}

// peakRSS returns the VmHWM of a process, in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// TestLoadServeProcess loads the serve command itself, in its own
// process, so that its peak RSS is its own.
func TestLoadServeProcess(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	cmd := exec.Command(binary(t), "serve", "--tables", dir, "--addr", "127.0.0.1:0", "--cache-mb", strconv.Itoa(loadCacheMB))
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err, stderr.String())
	addr, _, ok := strings.Cut(strings.TrimPrefix(line, "makruktb: serving "), " ")
	require.True(t, ok, line)
	base := strings.TrimSuffix(addr, "/")

	res := hammer(t, base, loadDuration(t))
	rss := peakRSS(t, cmd.Process.Pid)
	t.Logf("serve --cache-mb %d under %d clients: %v; peak RSS %.1f MiB", loadCacheMB, loadClients, res, float64(rss)/(1<<20))
	require.Positive(t, res.requests)
	require.LessOrEqual(t, rss, int64(loadCacheMB<<20+loadRSSAllowance), "peak RSS beyond --cache-mb plus the allowance")

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait(), stderr.String())
	require.NotContains(t, stderr.String(), "serve: ", "the server logged an error")
}

// TestLoadNoGoroutineLeak loads the handler in this process and checks
// that every goroutine it started is gone once the clients hang up.
func TestLoadNoGoroutineLeak(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", filepath.Clean(dir), "KRvK")
	require.NoError(t, err)
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	var logged strings.Builder
	s := api.NewServer(tables, loadCacheMB<<20, log.New(&logged, "", 0))
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	before := runtime.NumGoroutine()

	res := hammer(t, ts.URL, min(loadDuration(t), 5*time.Second))
	t.Logf("in-process: %v", res)
	require.Positive(t, res.requests)
	require.Empty(t, logged.String(), "the server logged an error")

	var now int
	for range 100 { // the server notices closed connections asynchronously
		if now = runtime.NumGoroutine(); now <= before {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.LessOrEqual(t, now, before, "goroutines left behind after the load")
}

package api

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
)

func TestResponseCacheIsBounded(t *testing.T) {
	c := newResponseCache(100)
	c.put("a", newPayload("x", make([]byte, 40)))
	c.put("b", newPayload("x", make([]byte, 40)))
	_, ok := c.get("a") // a is now the most recent
	require.True(t, ok)
	c.put("c", newPayload("x", make([]byte, 40))) // b goes
	_, ok = c.get("b")
	require.False(t, ok)
	_, ok = c.get("a")
	require.True(t, ok)
	c.put("huge", newPayload("x", make([]byte, 200))) // larger than the cache: not kept
	_, ok = c.get("huge")
	require.False(t, ok)
	require.LessOrEqual(t, c.bytes, int64(100))
}

// A table written while the server runs is answered without a restart,
// and answers cached before it are forgotten (issue 62, item 9).
func TestServerFindsTablesWrittenSince(t *testing.T) {
	defer func(every, missing time.Duration) { rescanEvery, rescanMissing = every, missing }(rescanEvery, rescanMissing)
	rescanEvery, rescanMissing = time.Hour, 0

	dir := t.TempDir()
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	s := NewServer(tables, 1<<20, log.New(io.Discard, "", 0))
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	get := func(fen string) int {
		r, err := http.Get(ts.URL + "/api/v1/probe?fen=" + url.QueryEscape(fen))
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
		return r.StatusCode
	}
	copyTable := func(name string) {
		src := filepath.Join(testenv.Tables(t, name), name+".mtbm")
		b, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".mtbm"), b, 0o644))
	}
	const krvk, knvk = "8/8/8/8/8/2k5/1R6/K7 w - - 0 1", "8/8/8/8/8/2k5/1N6/K7 w - - 0 1"

	require.Equal(t, http.StatusNotFound, get(krvk))
	copyTable("KRvK")
	require.Equal(t, http.StatusOK, get(krvk), "a table not found rescans the directory")
	require.NotZero(t, s.responses.bytes)

	// A new file found by the periodic rescan clears the cached answers.
	rescanEvery = 0
	s.lastScan.Store(0)
	copyTable("KNvK")
	require.Equal(t, http.StatusOK, get(knvk))
	s.responses.mu.Lock()
	defer s.responses.mu.Unlock()
	require.Equal(t, 1, s.responses.order.Len(), "only the answer since the rescan")
}

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}

// While a large table's statistics run, a small table's are answered and a
// bad parameter is refused at once, and /api/v1/work shows the large one
// (issue 62, item 8).
func TestServerSmallBesideLarge(t *testing.T) {
	tables, err := probe.Open(testenv.Tables(t, "KRvK"))
	require.NoError(t, err)
	defer tables.Close()
	s := NewServer(tables, 1<<20, log.New(io.Discard, "", 0))
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	release := make(chan struct{})
	defer close(release)
	go func() {
		_, _ = s.work.do(context.Background(), "stats KSSvKR", "statistics of KSSvKR", true, func(context.Context) (any, error) {
			<-release
			return nil, errors.New("released")
		})
	}()
	get := func(path string) (int, string) {
		r, err := http.Get(ts.URL + path)
		require.NoError(t, err)
		defer r.Body.Close()
		b, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		return r.StatusCode, string(b)
	}
	require.Eventually(t, func() bool {
		_, body := get("/api/v1/work")
		return strings.Contains(body, `"what": "statistics of KSSvKR"`) && strings.Contains(body, `"state": "running"`)
	}, 10*time.Second, 5*time.Millisecond)

	status, body := get("/api/v1/stats/KRvK")
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"material": "KRvK"`)
	status, body = get("/api/v1/heatmap/KRvK?piece=z")
	require.Equal(t, http.StatusBadRequest, status, body)
	status, _ = get("/api/v1/stats/KRvK/plot.svg") // the same count, kept
	require.Equal(t, http.StatusOK, status)
}

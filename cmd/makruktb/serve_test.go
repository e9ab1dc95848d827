package main

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/api"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/report"
	"github.com/makruktb/makruktb/tb/honour"
)

// newTestServer serves a directory holding the KRvK table; it returns the
// server and the directory.
func newTestServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	return newTestServerWith(t, "KRvK")
}

// newTestServerWith serves the tables of the materials given.
func newTestServerWith(t *testing.T, materials ...string) (*httptest.Server, string) {
	t.Helper()
	dir := t.TempDir()
	_, err := run(t, append([]string{"gen", "--tables", dir}, materials...)...)
	require.NoError(t, err)
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	s := api.NewServer(tables, 1<<20, log.New(io.Discard, "", 0))
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); tables.Close() })
	return ts, dir
}

// get fetches path and returns the status, the content type and the body.
func get(t *testing.T, ts *httptest.Server, path string) (int, string, []byte) {
	t.Helper()
	r, err := http.Get(ts.URL + path)
	require.NoError(t, err)
	defer r.Body.Close()
	body, err := io.ReadAll(r.Body)
	require.NoError(t, err)
	return r.StatusCode, r.Header.Get("Content-Type"), body
}

func fenQuery(endpoint, fen string) string {
	return endpoint + "?fen=" + url.QueryEscape(fen)
}

const longestKRvK = "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"

func TestServeProbe(t *testing.T) {
	ts, dir := newTestServer(t)
	status, ctype, body := get(t, ts, fenQuery("/api/v1/probe", longestKRvK)+"&rules=none")
	require.Equal(t, http.StatusOK, status, string(body))
	require.Equal(t, "application/json", ctype)
	var doc report.Probe
	require.NoError(t, json.Unmarshal(body, &doc))
	require.Equal(t, 31, *doc.DTM)
	require.Equal(t, "win", doc.Category)
	require.Equal(t, "none", doc.Count.Rules)
	require.Equal(t, doc.Moves[0].UCI, doc.Best)
	require.Equal(t, 30, *doc.Moves[0].DTM)
	require.Contains(t, doc.Moves[0].FEN, " b ")

	// The same document as probe --json.
	out, err := run(t, "probe", "--json", "--rules", "none", "--tables", dir, longestKRvK)
	require.NoError(t, err)
	require.JSONEq(t, out, string(body))

	// Thai rules (the default): a fresh count leaves 28 plies for a mate in 31.
	_, _, body = get(t, ts, fenQuery("/api/v1/probe", longestKRvK))
	require.NoError(t, json.Unmarshal(body, &doc))
	require.Equal(t, "cursed-win", doc.Category)
	require.Equal(t, report.Count{Rules: "thai", Kind: "pieces", Limit: 32, Ply: 5, Remaining: 27, Unit: "moves"}, doc.Count)
	// A second request is answered from the cache, byte for byte.
	_, _, again := get(t, ts, fenQuery("/api/v1/probe", longestKRvK))
	require.Equal(t, body, again)
}

func TestServeLine(t *testing.T) {
	ts, dir := newTestServer(t)
	status, _, body := get(t, ts, fenQuery("/api/v1/line", longestKRvK))
	require.Equal(t, http.StatusOK, status, string(body))
	var doc report.Line
	require.NoError(t, json.Unmarshal(body, &doc))
	require.Len(t, doc.Moves, 31)
	require.Equal(t, 31, *doc.Start.DTM)
	last := doc.Moves[30]
	require.Equal(t, 0, *last.DTM)
	require.Equal(t, 5+31, last.Count.Ply)
	require.True(t, last.Count.Expired)
	require.Zero(t, last.Count.Remaining, "an expired count has nothing left, not a negative remainder")
	// The start is the position alone: no empty best move, no null moves.
	var raw struct{ Start map[string]any }
	require.NoError(t, json.Unmarshal(body, &raw))
	require.NotContains(t, raw.Start, "best")
	require.NotContains(t, raw.Start, "moves")
	// line --json prints the same document.
	out, err := run(t, "line", "--json", "--tables", dir, longestKRvK)
	require.NoError(t, err)
	require.JSONEq(t, string(body), out)
	// A drawn position's line has no moves: an empty list, not null.
	_, _, body = get(t, ts, fenQuery("/api/v1/line", "8/8/8/8/8/8/6k1/K6R b - - 0 1"))
	require.NoError(t, json.Unmarshal(body, &raw))
	require.Contains(t, string(body), `"moves": []`)
}

func TestServeStats(t *testing.T) {
	ts, _ := newTestServer(t)
	status, _, body := get(t, ts, "/api/v1/stats/KRvK")
	require.Equal(t, http.StatusOK, status, string(body))
	var st struct {
		Material string
		Sides    map[string]struct{ Legal uint64 }
		Longest  []struct{ DTM int }
	}
	require.NoError(t, json.Unmarshal(body, &st))
	require.Equal(t, "KRvK", st.Material)
	require.Equal(t, uint64(223944), st.Sides["b"].Legal)
	require.Equal(t, 31, st.Longest[0].DTM)

	status, ctype, body := get(t, ts, "/api/v1/stats/KvKR/plot.svg")
	require.Equal(t, http.StatusOK, status, string(body))
	require.Equal(t, "image/svg+xml", ctype)
	require.Contains(t, string(body), "<svg")
	require.Contains(t, string(body), "side to move mates in 16: ")
	// Where each profile's fresh rook count ends (issue 38): 27 plies
	// left for thai, a mate in 14 moves the last inside it.
	require.Contains(t, string(body), "thai rules: pieces count of 32 plies, 27 left when it starts: a mate in more than 14 moves comes too late")
	require.Contains(t, string(body), ">thai count ends<")
}

func TestServeErrors(t *testing.T) {
	ts, dir := newTestServer(t)
	for _, c := range []struct {
		path   string
		status int
		text   string
	}{
		{fenQuery("/api/v1/probe", "8/8/8/8/8/2k5/1R6/K7 x"), 400, `side: \"x\" is neither w nor b`},
		{"/api/v1/probe", 400, "give a position"},
		{fenQuery("/api/v1/probe", longestKRvK) + "&rules=fide", 400, "unknown rules"},
		{fenQuery("/api/v1/probe", longestKRvK) + "&rules=/etc/passwd.json", 400, "unknown rules"},
		{fenQuery("/api/v1/line", "k7/8/8/8/8/8/8/KNN5 w"), 404, "table KNNvK not found on this server"},
		{fenQuery("/api/v1/probe", "k7/8/8/8/4P3/8/8/KR6 w"), 422, "pawns"},
		{fenQuery("/api/v1/probe", "k7/8/8/8/8/8/1RRRR3/K1RR4 w"), 422, "more pieces"},
		{"/api/v1/stats/KNNvK", 404, "table KNNvK not found"},
		{"/api/v1/stats/KRvKP", 422, "pawns"},
		{"/api/v1/stats/KRRRvKRRR", 422, "material KRRRvKRRR has 8 pieces: the tables have at most 6"},
		{"/api/v1/random?material=KRvKP", 422, "pawns"},
		{"/api/v1/random?material=KRRRvKRRR", 422, "8 pieces"},
		{"/api/v1/random?material=" + strings.Repeat("R", 1000), 422, "more pieces than any table holds"},
		{"/api/v1/heatmap/KRRRRRvK", 422, "7 pieces"},
		{"/api/v1/study/KRPvK", 422, "pawns"},
		{"/api/v1/stats/nonsense", 400, "material"},
		{"/api/v1/nothing", 404, "no API endpoint"},
		{"/missing.html", 404, "GET /missing.html: not found"},
		{fenQuery("/api/v1/probe", strings.Repeat("8/", 50000)+" w"), 400, "fen of 100002 bytes: a FEN has at most 128"},
		{fenQuery("/api/v1/probe", longestKRvK) + "&rules=" + strings.Repeat("x", 100000), 400, "unknown rules"},
		{"/api/v1/stats/" + strings.Repeat("R", 100000), 422, "more pieces than any table holds"},
		{"/api/v1/" + strings.Repeat("x", 100000), 404, "no API endpoint"},
	} {
		t.Run(c.path, func(t *testing.T) {
			status, ctype, body := get(t, ts, c.path)
			require.Equal(t, c.status, status, "%.100s: %.300s", c.path, body)
			require.Equal(t, "application/json", ctype, "%.100s", c.path)
			require.Contains(t, string(body), c.text, "%.100s", c.path)
			require.Less(t, len(body), 400, "%.100s: the error echoes only a short prefix of the input", c.path)
			require.NotContains(t, string(body), dir, "%.100s: the error names no server path", c.path)
			var e api.ErrorDoc
			require.NoError(t, json.Unmarshal(body, &e), "%.100s", c.path)
			require.Equal(t, c.status, e.Status)
		})
	}
	// A wrong method is the JSON error document too, naming what is allowed.
	for _, path := range []string{"/api/v1/probe", "/api/v1/stats/KRvK", "/"} {
		resp, err := http.Post(ts.URL+path, "text/plain", strings.NewReader("x"))
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, path)
		require.Equal(t, "application/json", resp.Header.Get("Content-Type"), path)
		var e api.ErrorDoc
		require.NoError(t, json.Unmarshal(body, &e), "%s: %s", path, body)
		require.Equal(t, http.StatusMethodNotAllowed, e.Status)
		require.Contains(t, e.Error, "POST "+path+": method not allowed (allowed: GET, HEAD)")
	}
}

func TestServePages(t *testing.T) {
	ts, _ := newTestServer(t)
	for path, want := range map[string]string{
		"/": "makruktb explorer", "/stats.html": "makruktb statistics",
		"/app.js": "api/v1/probe", "/board.js": "drawBoard", "/style.css": "svg.board",
	} {
		status, _, body := get(t, ts, path)
		require.Equal(t, http.StatusOK, status, path)
		require.Contains(t, string(body), want, path)
	}
}

// Pages and API answers carry an ETag (304 when the client has them),
// "no-cache", and go gzipped to a client that accepts it (issue 62, item
// 17); /favicon.ico is an icon, not a 404.
func TestServeTransfer(t *testing.T) {
	ts, _ := newTestServer(t)
	fetch := func(path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		require.NoError(t, err)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		// A transport of its own: the default one asks for gzip and
		// unpacks it unseen.
		r, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		require.NoError(t, err)
		defer r.Body.Close()
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		return r, body
	}
	for _, path := range []string{"/app.js", "/", "/style.css", fenQuery("/api/v1/probe", longestKRvK), "/api/v1/stats/KRvK/plot.svg"} {
		plain, body := fetch(path)
		require.Equal(t, http.StatusOK, plain.StatusCode, path)
		require.Empty(t, plain.Header.Get("Content-Encoding"), path)
		require.Equal(t, "no-cache", plain.Header.Get("Cache-Control"), path)
		etag := plain.Header.Get("ETag")
		require.Regexp(t, `^"[0-9a-f]{24}"$`, etag, path)

		packed, gz := fetch(path, "Accept-Encoding", "gzip, deflate, br")
		require.Equal(t, "gzip", packed.Header.Get("Content-Encoding"), path)
		require.Equal(t, etag, packed.Header.Get("ETag"), path)
		require.Contains(t, packed.Header.Values("Vary"), "Accept-Encoding", path)
		zr, err := gzip.NewReader(strings.NewReader(string(gz)))
		require.NoError(t, err)
		unpacked, err := io.ReadAll(zr)
		require.NoError(t, err)
		require.Equal(t, body, unpacked, path)
		require.Less(t, len(gz), len(body), path)

		refused, _ := fetch(path, "Accept-Encoding", "gzip;q=0")
		require.Empty(t, refused.Header.Get("Content-Encoding"), path)

		again, rest := fetch(path, "If-None-Match", etag)
		require.Equal(t, http.StatusNotModified, again.StatusCode, path)
		require.Empty(t, rest, path)
		changed, _ := fetch(path, "If-None-Match", `"other"`)
		require.Equal(t, http.StatusOK, changed.StatusCode, path)
	}
	icon, body := fetch("/favicon.ico")
	require.Equal(t, http.StatusOK, icon.StatusCode)
	require.Equal(t, "image/svg+xml", icon.Header.Get("Content-Type"))
	require.Contains(t, string(body), "<svg")
	missing, body := fetch("/nothing.js")
	require.Equal(t, http.StatusNotFound, missing.StatusCode)
	require.Equal(t, "application/json", missing.Header.Get("Content-Type"))
	require.Contains(t, string(body), "not found")
}

// /api/v1/random draws a position White wins inside the count at the
// level asked, the same one for the same seed, and says why when there
// is none (issue 38: random training positions).
func TestServeRandom(t *testing.T) {
	ts, _ := newTestServer(t)
	var first report.Probe
	for seed := range 5 {
		path := fmt.Sprintf("/api/v1/random?material=KRvK&level=medium&seed=%d", seed)
		status, _, body := get(t, ts, path)
		require.Equal(t, http.StatusOK, status, string(body))
		var doc report.Probe
		require.NoError(t, json.Unmarshal(body, &doc))
		require.Equal(t, "win", doc.Category, doc.FEN)
		require.NotNil(t, doc.DTM)
		moves := (*doc.DTM + 1) / 2
		require.True(t, moves >= 9 && moves <= 20, "%s: mate in %d moves", doc.FEN, moves)
		require.Contains(t, doc.FEN, " w ")
		if seed == 0 {
			first = doc
		}
	}
	_, _, again := get(t, ts, "/api/v1/random?material=KRvK&level=medium&seed=0")
	var doc report.Probe
	require.NoError(t, json.Unmarshal(again, &doc))
	require.Equal(t, first.FEN, doc.FEN, "the same seed, the same position")
	for _, c := range []struct {
		query  string
		status int
		text   string
	}{
		{"material=KRvK&level=hard&seed=1", http.StatusNotFound, "no position of KRvK that White wins inside the thai count with a mate in 21 or more moves"},
		{"material=KRvK&level=nosuch&seed=1", http.StatusBadRequest, "easy (mate in up to 8 moves)"},
		{"material=KRvK&seed=x", http.StatusBadRequest, "give a number"},
		{"material=KQvK&seed=1", http.StatusBadRequest, "unknown piece"},
		{"material=KRvKN&seed=1", http.StatusNotFound, "KRvKN"},
	} {
		t.Run(c.query, func(t *testing.T) {
			status, _, body := get(t, ts, "/api/v1/random?"+c.query)
			require.Equal(t, c.status, status, string(body))
			require.Contains(t, string(body), c.text)
		})
	}
}

// /api/v1/study/MATERIAL gives study --json's document (issue 39).
func TestServeStudy(t *testing.T) {
	ts, _ := newTestServer(t)
	status, _, body := get(t, ts, "/api/v1/study/KvKR")
	require.Equal(t, http.StatusOK, status, string(body))
	var st struct {
		Material string            `json:"material"`
		Wins     map[string]uint64 `json:"wins"`
	}
	require.NoError(t, json.Unmarshal(body, &st))
	require.Equal(t, "KRvK", st.Material)
	require.Equal(t, uint64(175168), st.Wins["w"])
	status, _, body = get(t, ts, "/api/v1/study/KRvKN")
	require.Equal(t, http.StatusNotFound, status, string(body))

	// Under a count: the count-critical positions (the technique pages
	// ask for thai's), and a clear refusal of rules it does not know.
	status, _, body = get(t, ts, "/api/v1/study/KRvK?rules=thai&examples=1")
	require.Equal(t, http.StatusOK, status, string(body))
	var counted struct {
		Rules         string            `json:"rules"`
		CountCritical map[string]uint64 `json:"count_critical"`
		Close         int               `json:"close"`
	}
	require.NoError(t, json.Unmarshal(body, &counted))
	require.Equal(t, "thai", counted.Rules)
	require.Equal(t, uint64(5448), counted.CountCritical["w"])
	require.Equal(t, 4, counted.Close)
	status, _, body = get(t, ts, "/api/v1/study/KRvK?rules=chess")
	require.Equal(t, http.StatusBadRequest, status, string(body))
	require.Contains(t, string(body), "thai, thai-strong, thai-plain, thai-halfmove, cambodian, asean, none")
}

// Board's honour is studied from the DTB table, and without it the API
// says which table is missing.
func TestServeStudyUnderBoardCount(t *testing.T) {
	ts, _ := newTestServerWith(t, "KRvKN")
	status, _, body := get(t, ts, "/api/v1/study/KRvKN?rules=thai")
	require.Equal(t, http.StatusOK, status, string(body))
	require.Contains(t, string(body), `"count_critical": {`)
	status, _, body = get(t, ts, "/api/v1/study/KRvKN?rules=thai-strong")
	require.Equal(t, http.StatusNotFound, status, string(body))
	require.Contains(t, string(body), "KRvKN.thai-strong")
}

// /api/v1/heatmap/MATERIAL maps the defending king by default (issue 39).
func TestServeHeatmap(t *testing.T) {
	ts, _ := newTestServer(t)
	status, _, body := get(t, ts, "/api/v1/heatmap/KRvK")
	require.Equal(t, http.StatusOK, status, string(body))
	require.Contains(t, string(body), `"piece": "k"`)
	status, ctype, body := get(t, ts, "/api/v1/heatmap/KRvK/board.svg?piece=R")
	require.Equal(t, http.StatusOK, status, string(body))
	require.Equal(t, "image/svg+xml", ctype)
	require.Contains(t, string(body), "KRvK, R on the square: share of White's wins")
	status, _, body = get(t, ts, "/api/v1/heatmap/KRvK?piece=q")
	require.Equal(t, http.StatusBadRequest, status, string(body))
}

// The tight level draws a win that the count leaves at most 4 plies to
// spare (issue 38: difficulty by count margin).
func TestServeRandomTight(t *testing.T) {
	ts, _ := newTestServer(t)
	for seed := range 3 {
		status, _, body := get(t, ts, fmt.Sprintf("/api/v1/random?material=KRvK&level=tight&seed=%d", seed))
		require.Equal(t, http.StatusOK, status, string(body))
		var doc report.Probe
		require.NoError(t, json.Unmarshal(body, &doc))
		require.Equal(t, "win", doc.Category)
		// A fresh thai rook count leaves 27 plies (White to move): the mate
		// takes 23 or more.
		require.GreaterOrEqual(t, *doc.DTM, 23, doc.FEN)
		require.LessOrEqual(t, *doc.DTM, 27, doc.FEN)
	}
}

// serve's help, the server's routes and the README's table come from one
// list, api.Endpoints; every --rules help names every built-in profile
// (issue 58.14).
func TestHelpFromOneList(t *testing.T) {
	out, err := run(t, "serve", "--help")
	require.NoError(t, err)
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	for _, e := range api.Endpoints {
		route := strings.ReplaceAll(e.Pattern, "{material}", "MATERIAL")
		require.Contains(t, out, "GET "+route, e.Pattern)
		require.True(t, strings.Contains(string(readme), "GET "+route), "the README's API table lacks %s", e.Pattern)
	}
	for _, cmd := range []string{"probe", "line", "check"} {
		out, err := run(t, cmd, "--help")
		require.NoError(t, err)
		require.Contains(t, out, "counting rules: "+honour.BuiltinNames()+", or a profile .json file", cmd)
	}
}

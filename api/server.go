// Package api is the HTTP server of the tables: the JSON API
// (/api/v1/…, Endpoints) over the documents of package report, and the
// explorer's and trainer's pages.
package api

import (
	"bytes"
	"container/list"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/report"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// The explorer's page, script and style sheet, served at / and embedded so
// that the binary works offline.
//
//go:embed web/index.html web/stats.html web/technique.html web/app.js web/stats.js web/technique.js web/board.js web/trainer.js web/style.css web/favicon.svg
var webFiles embed.FS

// Server answers the API from one set of tables and serves the
// explorer's pages.
type Server struct {
	tables    *probe.Tables
	responses *responseCache
	work      *work // statistics, heat maps and studies (work.go)
	log       *log.Logger
	// lastScan is when the table directory was last scanned (Unix ns):
	// tables generated while the server runs are found (refresh).
	lastScan atomic.Int64
}

// rescanEvery is how often, at most, a request has the table directory
// scanned again; a request for a table not found rescans sooner
// (rescanMissing). Variables for the tests.
var (
	rescanEvery   = 2 * time.Second
	rescanMissing = 100 * time.Millisecond
)

// refresh scans the table directory again when the last scan is older
// than age (one request scans, the others go on), and forgets the cached
// answers when it found new files: a board's-honour table generated since
// changes what the count's answers say. It reports whether it found any.
func (s *Server) refresh(age time.Duration) bool {
	last := s.lastScan.Load()
	now := time.Now().UnixNano()
	if now-last < int64(age) || !s.lastScan.CompareAndSwap(last, now) {
		return false
	}
	added, err := s.tables.Refresh()
	if err != nil {
		s.log.Printf("rescanning the tables: %v", err)
		return false
	}
	if added > 0 {
		s.responses.clear()
		s.work.forget()
	}
	return added > 0
}

// NewServer returns a server of the tables (the caller closes them) that
// keeps up to cacheBytes of answers and logs its own failures to logger.
func NewServer(tables *probe.Tables, cacheBytes int64, logger *log.Logger) *Server {
	s := &Server{tables: tables, responses: newResponseCache(cacheBytes), work: newWork(), log: logger}
	s.lastScan.Store(time.Now().UnixNano())
	return s
}

// Serve runs the HTTP server on ln until ctx ends, then shuts it down,
// letting requests in flight finish for up to ten seconds.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      5 * time.Minute, // statistics of a 5-piece table take a while
		IdleTimeout:       time.Minute,
		ErrorLog:          s.log,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Endpoint is one route of the JSON API: its pattern, an example of its
// query and what it answers.
type Endpoint struct {
	Pattern, Query, Doc string
	handle              func(*Server) func(*http.Request) (response, error)
	// live answers change from one request to the next: never cached.
	live bool
}

// Endpoints are the API's routes: the server registers them and serve's
// help lists them.
var Endpoints = []Endpoint{
	{"/api/v1/probe", "?fen=FEN&rules=thai", "the document of probe --json", func(s *Server) func(*http.Request) (response, error) { return s.probe }, false},
	{"/api/v1/line", "?fen=FEN&rules=thai", "the count-aware optimal line (line --json)", func(s *Server) func(*http.Request) (response, error) { return s.line }, false},
	{"/api/v1/random", "?material=KRvKN&level=easy&rules=thai&seed=N", "a position White wins inside the count, drawn at random", func(s *Server) func(*http.Request) (response, error) { return s.random }, false},
	{"/api/v1/study/{material}", "?examples=N&rules=R", "the document of study --json", func(s *Server) func(*http.Request) (response, error) { return s.study }, false},
	{"/api/v1/heatmap/{material}", "?piece=k", "the document of stats --heatmap k --json", func(s *Server) func(*http.Request) (response, error) { return s.heatmap }, false},
	{"/api/v1/heatmap/{material}/board.svg", "?piece=k", "the heat map's board", func(s *Server) func(*http.Request) (response, error) { return s.heatmapSVG }, false},
	{"/api/v1/stats/{material}", "", "the document of stats --json", func(s *Server) func(*http.Request) (response, error) { return s.stats }, false},
	{"/api/v1/stats/{material}/plot.svg", "", "the mate-distance histogram", func(s *Server) func(*http.Request) (response, error) { return s.plot }, false},
	{"/api/v1/work", "", "the statistics, heat maps and studies under way: what, running or waiting, for how long", func(s *Server) func(*http.Request) (response, error) { return s.workList }, true},
}

// EndpointsHelp lists the endpoints as serve's help shows them.
func EndpointsHelp() string {
	var b strings.Builder
	for _, e := range Endpoints {
		route := "GET " + strings.ReplaceAll(e.Pattern, "{material}", "MATERIAL") + e.Query
		fmt.Fprintf(&b, "  %s\n      %s\n", route, e.Doc)
	}
	return b.String()
}

// pages serves the embedded pages (staticFiles); a failure to read them,
// which embedding rules out, answers 500.
var pages = func() http.Handler {
	web, err := fs.Sub(webFiles, "web")
	var h http.Handler
	if err == nil {
		h, err = staticFiles(web)
	}
	if err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "the embedded pages: "+err.Error(), http.StatusInternalServerError)
		})
	}
	return h
}()

// Handler answers the API under /api/v1/ and serves the pages at /.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, e := range Endpoints {
		mux.HandleFunc("GET "+e.Pattern, s.api(e.handle(s), e.live))
	}
	mux.HandleFunc("GET /api/", func(w http.ResponseWriter, r *http.Request) {
		writeAPIError(w, &apiError{http.StatusNotFound, fmt.Sprintf("no API endpoint %s", clip(r.URL.Path))})
	})
	mux.Handle("GET /", pages)
	return jsonErrors(mux)
}

// jsonErrors makes every error the server sends the JSON error document,
// also those written by the standard library's handlers: the mux's 405
// for a wrong method, the file server's 404.
func jsonErrors(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&errorRewriter{ResponseWriter: w, request: r}, r)
	})
}

// errorRewriter replaces an error response that is not JSON by the error
// document with the same status.
type errorRewriter struct {
	http.ResponseWriter
	request  *http.Request
	replaced bool
}

func (w *errorRewriter) WriteHeader(status int) {
	if status < 400 || w.Header().Get("Content-Type") == "application/json" {
		w.ResponseWriter.WriteHeader(status)
		return
	}
	w.replaced = true
	w.Header().Del("Content-Length")
	msg := fmt.Sprintf("%s %s: %s", w.request.Method, clip(w.request.URL.Path), strings.ToLower(http.StatusText(status)))
	if allow := w.Header().Get("Allow"); allow != "" {
		msg += " (allowed: " + allow + ")"
	}
	writeAPIError(w.ResponseWriter, &apiError{status, msg})
}

func (w *errorRewriter) Write(b []byte) (int, error) {
	if w.replaced {
		return len(b), nil // the body of the replaced error
	}
	return w.ResponseWriter.Write(b)
}

// clip shortens what a client sent for quoting in an error: no answer
// echoes more than a short prefix of its input.
func clip(s string) string {
	const keep = 64
	if len(s) <= keep {
		return s
	}
	cut := keep
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes)", len(s))
}

// maxFENBytes bounds a FEN parameter: the longest FEN of a legal position
// with its count fields is under 100 bytes.
const maxFENBytes = 128

// apiError is an error with its HTTP status.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &apiError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

// materialParam reads a material of game g from a request: 400 for a name
// that is not one, 422 (statusOf) for one no table holds.
func materialParam(g tb.Game, name string) (tb.Material, error) {
	m, err := g.ParseTableMaterial(name)
	var me *tb.MaterialError
	if err != nil && !errors.As(err, &me) {
		return m, badRequest("%v", err)
	}
	return m, err
}

// statusOf maps an error to its HTTP status: 400 for what the client
// wrote wrong, 404 for a table that is not there, 422 for a position the
// tables cannot answer.
func statusOf(err error) int {
	var ae *apiError
	var fenErr *tb.FENError
	var missing *probe.MissingError
	switch {
	case errors.As(err, &ae):
		return ae.status
	case errors.As(err, &fenErr):
		return http.StatusBadRequest
	case errors.As(err, &missing):
		return http.StatusNotFound
	case errors.Is(err, probe.ErrPawns), errors.Is(err, probe.ErrTooManyPieces), errors.Is(err, probe.ErrIllegal):
		return http.StatusUnprocessableEntity
	case errors.Is(err, context.Canceled):
		return 499 // the client went away; nginx's name for it
	}
	return http.StatusInternalServerError
}

// ErrorDoc is the document of every error the server sends, with its
// HTTP status.
type ErrorDoc struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

func writeAPIError(w http.ResponseWriter, err error) {
	status := statusOf(err)
	msg := err.Error()
	var missing *probe.MissingError
	if errors.As(err, &missing) {
		msg = fmt.Sprintf("table %s not found on this server", missing.Material) // not where the server keeps its tables
	}
	var body bytes.Buffer
	_ = report.WriteJSON(&body, ErrorDoc{Error: msg, Status: status})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body.Bytes())
}

// response is an API answer ready to send.
type response struct {
	contentType string
	body        []byte
}

func jsonResponse(doc any) (response, error) {
	var b bytes.Buffer
	err := report.WriteJSON(&b, doc)
	return response{"application/json", b.Bytes()}, err
}

// api wraps an endpoint: answers come from the response cache when the same
// request was answered before, with their ETag and gzip (payload); errors
// become JSON with their status.
func (s *Server) api(endpoint func(*http.Request) (response, error), live bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Path + "?" + r.URL.Query().Encode()
		s.refresh(rescanEvery)
		p, ok := payload{}, false
		if !live {
			p, ok = s.responses.get(key)
		}
		if !ok {
			resp, err := endpoint(r)
			var missing *probe.MissingError
			if errors.As(err, &missing) && s.refresh(rescanMissing) { // generated a moment ago?
				resp, err = endpoint(r)
			}
			if err != nil {
				if statusOf(err) == http.StatusInternalServerError {
					s.log.Printf("%s: %v", r.URL, err)
				}
				writeAPIError(w, err)
				return
			}
			p = newPayload(resp.contentType, resp.body)
			if !live {
				s.responses.put(key, p)
			}
		}
		p.write(w, r)
	}
}

// query reads the fen and rules parameters (rules: a built-in profile
// only; a server does not read profile files named by its clients).
func query(r *http.Request) (tb.Position, honour.Rules, error) {
	q := r.URL.Query()
	g, rules, err := gameRulesParams(q)
	if err != nil {
		return tb.Position{}, rules, err
	}
	fen := q.Get("fen")
	switch {
	case fen == "":
		return tb.Position{}, rules, badRequest("give a position: ?fen=...")
	case len(fen) > maxFENBytes:
		return tb.Position{}, rules, badRequest("fen of %d bytes: a FEN has at most %d", len(fen), maxFENBytes)
	}
	pos, err := g.ParseFEN(fen)
	return pos, rules, err
}

// gameParam reads the game parameter: makruk when none is given.
func gameParam(q url.Values) (tb.Game, error) {
	name := q.Get("game")
	if name == "" {
		return tb.Makruk, nil
	}
	g, err := tb.ParseGame(name)
	if err != nil {
		return g, badRequest("game %q: makruk or shatranj", clip(name))
	}
	return g, nil
}

// gameRulesParams reads the game and the rules: a game without a count
// (Shatranj) takes none, and rules=none is all it accepts.
func gameRulesParams(q url.Values) (tb.Game, honour.Rules, error) {
	g, err := gameParam(q)
	if err != nil {
		return g, honour.NoRules, err
	}
	rules, err := honour.ForGame(g, clip(q.Get("rules")), "thai", builtinRules)
	if err != nil {
		return g, rules, badRequest("%v", err)
	}
	return g, rules, nil
}

// builtinRules looks up a built-in profile: a server does not read
// profile files named by its clients.
func builtinRules(name string) (honour.Rules, error) {
	rules, ok := honour.Builtin(name)
	if !ok {
		return rules, fmt.Errorf("unknown rules %q: %s", name, honour.BuiltinNames())
	}
	return rules, nil
}

func (s *Server) probe(r *http.Request) (response, error) {
	pos, rules, err := query(r)
	if err != nil {
		return response{}, err
	}
	judged, err := s.tables.Root(&pos, &rules)
	if errors.Is(err, probe.ErrGameOver) {
		return jsonResponse(report.NewGameOverProbe(&pos, &rules))
	}
	if err != nil {
		return response{}, err
	}
	return jsonResponse(report.NewProbe(&pos, judged, &rules))
}

func (s *Server) line(r *http.Request) (response, error) {
	pos, rules, err := query(r)
	if err != nil {
		return response{}, err
	}
	doc, err := report.JudgeLine(s.tables, &pos, &rules)
	if err != nil {
		return response{}, err
	}
	return jsonResponse(doc)
}

// tableStats returns the statistics of the material in the request
// (work.do: computed once for the numbers and the plot).
func (s *Server) tableStats(r *http.Request) (*retro.Stats, error) {
	g, m, err := s.wholeTable(r)
	if err != nil {
		return nil, err
	}
	id := probe.ID{Material: m, Game: g}
	st, err := s.work.do(r.Context(), "stats "+id.String(), "statistics of "+id.String(), largeTable(m), func(ctx context.Context) (any, error) {
		return report.Stats(ctx, s.tables.Dir(), id)
	})
	if err != nil {
		return nil, err
	}
	return st.(*retro.Stats), nil
}

// largeTable says whether whole-table work on m is large: five pieces or
// more, tens of millions of positions and up (work.go runs these one at a
// time).
func largeTable(m tb.Material) bool { return m.Pieces() >= 5 }

// wholeTable checks the material in the request for a computation that
// reads its table whole: a material, of a table the directory has.
func (s *Server) wholeTable(r *http.Request) (tb.Game, tb.Material, error) {
	g, err := gameParam(r.URL.Query())
	if err != nil {
		return g, tb.Material{}, err
	}
	m, err := materialParam(g, r.PathValue("material"))
	if err != nil {
		return g, m, err
	}
	id := probe.ID{Material: m, Game: g}
	if _, err := os.Stat(id.Path(s.tables.Dir())); err != nil {
		return g, m, &probe.MissingError{Material: id.String(), Dir: s.tables.Dir()}
	}
	return g, m, nil
}

// heatmapOf computes the heat map the request asks for (?piece=k by
// default: the defending king).
func (s *Server) heatmapOf(r *http.Request) (*retro.Heatmap, error) {
	piece := r.URL.Query().Get("piece")
	if piece == "" {
		piece = "k"
	}
	g, m, err := s.wholeTable(r)
	if err != nil {
		return nil, err
	}
	if g != tb.Makruk {
		return nil, badRequest("heat maps: Makruk tables only for now")
	}
	if _, _, err := report.ParsePiece(piece, m); err != nil {
		return nil, badRequest("%v", err)
	}
	// One map serves its four figures (the technique page asks for two).
	h, err := s.work.do(r.Context(), "heatmap "+m.String()+" "+piece, "heat map of "+m.String()+" by "+piece, largeTable(m), func(ctx context.Context) (any, error) {
		return report.Heatmap(ctx, s.tables.Dir(), m, piece)
	})
	if err != nil {
		return nil, err
	}
	return h.(*retro.Heatmap), nil
}

// heatmap answers /api/v1/heatmap/MATERIAL?piece=P with stats --heatmap
// --json's document.
func (s *Server) heatmap(r *http.Request) (response, error) {
	h, err := s.heatmapOf(r)
	if err != nil {
		return response{}, err
	}
	return jsonResponse(h)
}

// heatmapSVG answers /api/v1/heatmap/MATERIAL/board.svg?piece=P with the
// board stats --heatmap --svg draws (&figure=wins|longest|median|mates).
func (s *Server) heatmapSVG(r *http.Request) (response, error) {
	figure := r.URL.Query().Get("figure")
	if _, _, err := report.HeatFigureTitle(figure); err != nil {
		return response{}, badRequest("%v", err) // before the map is computed
	}
	h, err := s.heatmapOf(r)
	if err != nil {
		return response{}, err
	}
	var b bytes.Buffer
	if err := report.WriteHeatmapSVG(&b, h, figure); err != nil {
		return response{}, err
	}
	return response{"image/svg+xml", b.Bytes()}, nil
}

// study answers /api/v1/study/MATERIAL?examples=N with study --json's
// document (up to 100 examples of each kind).
func (s *Server) study(r *http.Request) (response, error) {
	examples := 0
	if q := r.URL.Query().Get("examples"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 || n > 100 {
			return response{}, badRequest("examples %q: give 0 to 100", clip(q))
		}
		examples = n
	}
	so := retro.StudyOptions{Examples: examples}
	if q := r.URL.Query(); q.Get("rules") != "" && q.Get("rules") != honour.NoRules.Name {
		// A count to judge under: count-critical positions and cursed
		// wins, close by study's default.
		_, rules, err := gameRulesParams(q)
		if err != nil {
			return response{}, err
		}
		so.Rules, so.Close = &rules, report.DefaultClose
	}
	g, m, err := s.wholeTable(r)
	if err != nil {
		return response{}, err
	}
	id := probe.ID{Material: m, Game: g}
	rules := ""
	if so.Rules != nil {
		rules = so.Rules.Name
	}
	key := fmt.Sprintf("study %s %d %s", id, examples, rules)
	st, err := s.work.do(r.Context(), key, "study of "+id.String(), largeTable(m), func(ctx context.Context) (any, error) {
		return report.Study(ctx, s.tables.Dir(), id, so)
	})
	if err != nil {
		return response{}, err
	}
	return jsonResponse(st)
}

func (s *Server) stats(r *http.Request) (response, error) {
	st, err := s.tableStats(r)
	if err != nil {
		return response{}, err
	}
	return jsonResponse(st)
}

func (s *Server) plot(r *http.Request) (response, error) {
	st, err := s.tableStats(r)
	if err != nil {
		return response{}, err
	}
	var b bytes.Buffer
	report.WriteHistogramSVG(&b, st)
	return response{"image/svg+xml", b.Bytes()}, nil
}

// responseCache keeps recent API answers, least recently used out first,
// within a bound on their bytes.
type responseCache struct {
	mu       sync.Mutex
	maxBytes int64
	bytes    int64
	order    *list.List // of *cachedResponse, most recent first
	byKey    map[string]*list.Element
}

type cachedResponse struct {
	key string
	payload
}

func newResponseCache(maxBytes int64) *responseCache {
	return &responseCache{maxBytes: maxBytes, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *responseCache) get(key string) (payload, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return payload{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedResponse).payload, true
}

// size is the bytes an entry takes.
func (p payload) size(key string) int64 { return int64(len(key) + len(p.body) + len(p.gz)) }

func (c *responseCache) put(key string, r payload) {
	size := r.size(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	if size > c.maxBytes {
		return
	}
	if e, ok := c.byKey[key]; ok {
		c.remove(e)
	}
	c.byKey[key] = c.order.PushFront(&cachedResponse{key, r})
	c.bytes += size
	for c.bytes > c.maxBytes {
		c.remove(c.order.Back())
	}
}

// clear forgets every answer.
func (c *responseCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.order.Init()
	clear(c.byKey)
	c.bytes = 0
}

func (c *responseCache) remove(e *list.Element) {
	cr := c.order.Remove(e).(*cachedResponse)
	delete(c.byKey, cr.key)
	c.bytes -= cr.size(cr.key)
}

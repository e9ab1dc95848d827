package api

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// How answers travel: every body, a page or an API answer, goes with a
// strong ETag (a hash of its bytes), so a client revalidates with
// If-None-Match and gets 304 Not Modified for what it has; and gzipped
// when the client accepts it and the body is worth compressing. Pages and
// API answers are "no-cache": stored, but checked each time, since a new
// binary changes the pages and new tables change the answers.

// minGzipBytes is the least body worth compressing (a gzip frame costs
// about 20 bytes, and a round trip more than a few hundred bytes).
const minGzipBytes = 512

// payload is a body ready to send: its type, its bytes, its ETag and, when
// compressing pays, its gzip.
type payload struct {
	contentType string
	body, gz    []byte
	etag        string
}

func newPayload(contentType string, body []byte) payload {
	sum := sha256.Sum256(body)
	p := payload{contentType: contentType, body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	if len(body) >= minGzipBytes {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression) // a valid level: no error
		_, _ = zw.Write(body)                                  // into memory: no error
		_ = zw.Close()
		if b.Len() < len(body) {
			p.gz = b.Bytes()
		}
	}
	return p
}

// write sends p as the answer to r: 304 when the client has it, the gzip
// when it accepts one.
func (p payload) write(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", p.contentType)
	h.Set("ETag", p.etag)
	h.Set("Cache-Control", "no-cache")
	if p.gz != nil {
		h.Add("Vary", "Accept-Encoding")
	}
	if etagMatches(r.Header.Get("If-None-Match"), p.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := p.body
	if p.gz != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body = p.gz
	}
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// etagMatches reports whether an If-None-Match header names etag ("*" names
// any).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip (and
// does not refuse it with q=0).
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.TrimSpace(name) != "*" {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

// staticFiles serves the embedded pages, each prepared once: its ETag and
// its gzip. "/" is index.html; /favicon.ico is the icon (browsers ask for
// it on any page, an API answer opened directly too).
func staticFiles(files fs.FS) (http.Handler, error) {
	pages := map[string]payload{}
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = http.DetectContentType(body)
		}
		pages["/"+name] = newPayload(ctype, body)
		return nil
	})
	if err != nil {
		return nil, err
	}
	pages["/"] = pages["/index.html"]
	pages["/favicon.ico"] = pages["/favicon.svg"]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		p.write(w, r)
	}), nil
}

package probe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
)

// Errors about the position asked for (wrapped in a *PositionError).
var (
	ErrPawns         = errors.New("pawns on the board: the tables are pawnless")
	ErrTooManyPieces = errors.New("more pieces than any table holds")
	ErrIllegal       = errors.New("illegal position")
)

// PositionError says why a position cannot be probed.
type PositionError struct {
	FEN string
	Err error
}

func (e *PositionError) Error() string { return fmt.Sprintf("probe %s: %v", e.FEN, e.Err) }
func (e *PositionError) Unwrap() error { return e.Err }

// Option configures Open.
type Option func(*Tables) error

// WithCacheBytes bounds the memory of decompressed blocks kept for reuse
// (default 64 MiB).
func WithCacheBytes(n int64) Option {
	return func(t *Tables) error {
		if n < 0 {
			return fmt.Errorf("cache size %d: must not be negative", n)
		}
		t.cache = newBlockCache(n)
		return nil
	}
}

// DefaultCacheBytes is the default block cache size.
const DefaultCacheBytes = 64 << 20

// Tables is a directory of tables, opened lazily. Safe for concurrent use.
type Tables struct {
	dir      string
	cache    *blockCache
	maxPiece int

	mu    sync.Mutex
	files map[tb.Material]*lazyFile
}

type lazyFile struct {
	once sync.Once
	path string
	file *File
	err  error
}

// Open discovers the DTM tables in dir (when dir is "", $MAKRUKTB_PATH, or
// else ./data). Files are opened on first use.
func Open(dir string, opts ...Option) (*Tables, error) {
	if dir == "" {
		dir = os.Getenv("MAKRUKTB_PATH")
	}
	if dir == "" {
		dir = "data"
	}
	t := &Tables{dir: dir, files: map[tb.Material]*lazyFile{}}
	for _, o := range opts {
		if err := o(t); err != nil {
			return nil, err
		}
	}
	if t.cache == nil {
		t.cache = newBlockCache(DefaultCacheBytes)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("open tables: %w", err)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), DTM.Extension())
		if !ok || e.IsDir() {
			continue
		}
		m, err := tb.ParseMaterial(name)
		if err != nil || !m.IsCanonical() || m.HasPawns() {
			continue
		}
		t.files[m] = &lazyFile{path: filepath.Join(dir, e.Name())}
		t.maxPiece = max(t.maxPiece, m.Pieces())
	}
	return t, nil
}

// Dir returns the table directory.
func (t *Tables) Dir() string { return t.dir }

// MaxPieces returns the largest piece count of any table found (2 if none:
// KvK needs no table).
func (t *Tables) MaxPieces() int { return max(t.maxPiece, 2) }

// CacheBytes returns the memory held by cached blocks.
func (t *Tables) CacheBytes() int64 { return t.cache.bytes() }

// Close closes every open file.
func (t *Tables) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var first error
	for _, lf := range t.files {
		if lf.file != nil {
			if err := lf.file.Close(); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// file returns the open table of a canonical material.
func (t *Tables) file(m tb.Material) (*File, error) {
	t.mu.Lock()
	lf, ok := t.files[m]
	t.mu.Unlock()
	if !ok {
		return nil, &MissingError{Material: m.String(), Dir: t.dir}
	}
	lf.once.Do(func() {
		lf.file, lf.err = OpenFile(lf.path)
		if errors.Is(lf.err, fs.ErrNotExist) {
			lf.err = &MissingError{Material: m.String(), Dir: t.dir}
		}
	})
	return lf.file, lf.err
}

// lookup returns the stored value of index i for side in f.
func (t *Tables) lookup(f *File, side tb.Color, i uint64) (Value, error) {
	b, off := f.BlockOf(side, i)
	key := blockKey{f, b}
	raw, ok := t.cache.get(key)
	if !ok {
		var err error
		if raw, err = f.rawBlock(b); err != nil {
			return 0, err
		}
		t.cache.put(key, raw)
	}
	return f.valueAt(raw, off), nil
}

// Value returns the DTM value of a legal pawnless position, from the side
// to move's point of view. The colours are swapped internally when the
// position's material is stored the other way round.
func (t *Tables) Value(p *tb.Position) (Value, error) {
	m := tb.MaterialOf(p)
	switch {
	case m.HasPawns():
		return 0, &PositionError{FEN: p.FEN(), Err: ErrPawns}
	case m.Pieces() > index.MaxPieces:
		return 0, &PositionError{FEN: p.FEN(), Err: ErrTooManyPieces}
	case m.Pieces() == 2:
		return Draw, nil
	}
	if err := p.Validate(); err != nil {
		return 0, &PositionError{FEN: p.FEN(), Err: ErrIllegal}
	}
	q, _ := index.Canonical(p)
	canon := tb.MaterialOf(&q)
	f, err := t.file(canon)
	if err != nil {
		return 0, err
	}
	i, ok := f.Space.Index(&q)
	if !ok {
		return 0, &PositionError{FEN: p.FEN(), Err: ErrIllegal}
	}
	return t.lookup(f, q.Side, i)
}

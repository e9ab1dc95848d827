// Package store owns a table directory: which files it holds, listed once
// with the version of each, and how a file written is accepted (Dir);
// loading whole tables for the generator and the verifier (a
// retro.Source, with a cache of the small ones); the checksum registry
// (SHA256SUMS, checked against the repository's reference), the catalogue
// (catalogue.json, rendered to catalogue.md) and the lock that lets gen
// and verify share a directory.
// Files are written atomically (package atomicfile).
package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// open opens the file of id in dir and checks that it holds that table.
func open(dir string, id probe.ID) (*probe.File, error) {
	f, err := probe.OpenFile(id.Path(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &probe.MissingError{Material: id.String(), Dir: dir}
	}
	if err != nil {
		return nil, err
	}
	if err := f.Header.Holds(id, id.Metric(), id.Path(dir)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Load reads a whole table into memory. A version-2 file stores one side
// to move: the other is derived from it and the sub-tables in dir
// (retro.Derive), under the built-in profile its DTB rules name.
func Load(dir string, id probe.ID) (*retro.Table, error) {
	return NewCache(dir, 0).Load(id)
}

// LoadContext is Load that stops, with ctx's error, when ctx is done.
func LoadContext(ctx context.Context, dir string, id probe.ID) (*retro.Table, error) {
	return NewCacheContext(ctx, dir, 0).Load(id)
}

// load reads the table of id, deriving the side its file does not store
// from the sub-tables c gives.
func (c *Cache) load(id probe.ID) (*retro.Table, error) {
	tables, err := c.loadTogether([]probe.ID{id})
	if err != nil {
		return nil, err
	}
	return tables[0], nil
}

// loadTogether reads the tables of ids, of one material, and derives the
// sides their files do not store in one pass per side to move: the moves
// of each position are generated once for every table that needs them
// (a material's DTM and DTB tables: one pass instead of three).
func (c *Cache) loadTogether(ids []probe.ID) ([]*retro.Table, error) {
	tables := make([]*retro.Table, len(ids))
	var derive [2][]retro.Check // by the side to derive
	var names [2][]string
	for x, id := range ids {
		f, err := open(c.dir, id)
		if err != nil {
			return nil, err
		}
		vals, err := f.LoadAllContext(c.ctx)
		oneSided, stored := f.Header.OneSided(), f.Header.StoredSide()
		f.Close()
		if err != nil {
			return nil, err
		}
		tables[x] = &retro.Table{Space: f.Space, Values: vals}
		if !oneSided {
			continue
		}
		check := retro.Check{Table: tables[x], DTM: c.DTMOf(id.Game)}
		if id.Rules != "" {
			profile, v := id.Profile()
			r, err := c.rules(profile)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", id.Path(c.dir), err)
			}
			check.Rules, check.Variant, check.Boards = r, v, c.Boards(profile)
		}
		other := stored.Other()
		derive[other] = append(derive[other], check)
		names[other] = append(names[other], id.Path(c.dir))
	}
	for side, checks := range derive {
		if len(checks) == 0 {
			continue
		}
		if err := retro.Derive(c.ctx, checks, tb.Color(side), retro.Options{}); err != nil {
			return nil, fmt.Errorf("%s: the side not stored: %w", strings.Join(names[side], ", "), err)
		}
	}
	return tables, nil
}

// rules returns the profile of that name: one given to AddRules, or a
// built-in one.
func (c *Cache) rules(name string) (*honour.Rules, error) {
	c.mu.Lock()
	r, ok := c.profiles[name]
	c.mu.Unlock()
	if ok {
		return r, nil
	}
	if b, ok := honour.Find(name, nil); ok {
		return b, nil
	}
	return nil, fmt.Errorf("rule profile %q is needed to derive the side to move the file does not store: neither built in nor given", name)
}

// AddRules lets the cache derive the DTB tables of a custom profile from
// version-2 files.
func (c *Cache) AddRules(r *honour.Rules) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.profiles[r.Name] = r
}

// LoadOutOfCore reads a whole table into scratch files under scratch
// (retro.LoadOutOfCore), with threads workers: for tables larger than
// memory. Close the table to free the files.
func LoadOutOfCore(ctx context.Context, dir string, id probe.ID, scratch string, threads int) (*retro.Table, error) {
	f, err := open(dir, id)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.Header.OneSided() {
		return nil, fmt.Errorf("%s: a version-2 file (one side to move stored) is verified in memory only, where its other side is derived: --memory must allow it held whole (makruktb plan gives the figure)", id.Path(dir))
	}
	return retro.LoadOutOfCore(ctx, f, f.Space, scratch, retro.Options{Threads: threads})
}

// Cache loads tables from a directory on demand and keeps the small
// ones (fewer than keepBelow pieces) for later look-ups.
type Cache struct {
	ctx       context.Context // a load stops when it is done
	dir       string
	keepBelow int
	mu        sync.Mutex
	tables    map[probe.ID]*retro.Table
	held      map[probe.ID]*retro.Table // whatever their size, until Release
	profiles  map[string]*honour.Rules  // by name, for DTB tables to derive
}

// NewCache returns a cache of the tables in dir that keeps those with
// fewer than keepBelow pieces.
func NewCache(dir string, keepBelow int) *Cache {
	return NewCacheContext(context.Background(), dir, keepBelow)
}

// NewCacheContext is NewCache whose loads stop, with ctx's error, when
// ctx is done: reading a version-2 table whole derives its other side,
// which takes minutes for a large one.
func NewCacheContext(ctx context.Context, dir string, keepBelow int) *Cache {
	return &Cache{ctx: ctx, dir: dir, keepBelow: keepBelow, tables: map[probe.ID]*retro.Table{}, held: map[probe.ID]*retro.Table{}, profiles: map[string]*honour.Rules{}}
}

// Dir returns the directory the cache loads from.
func (c *Cache) Dir() string { return c.dir }

// DTM returns the DTM table of m (a retro.Source).
func (c *Cache) DTM(m tb.Material) (*retro.Table, error) { return c.Load(probe.DTMID(m)) }

// DTMOf returns the source of the DTM tables of game g (DTM for Makruk).
func (c *Cache) DTMOf(g tb.Game) retro.Source {
	if g == tb.Makruk {
		return c.DTM
	}
	return func(m tb.Material) (*retro.Table, error) { return c.Load(probe.ID{Material: m, Game: g}) }
}

// Board returns the retro.Source of the DTB tables of a rule profile.
func (c *Cache) Board(rules string) retro.Source {
	return func(m tb.Material) (*retro.Table, error) { return c.Load(probe.ID{Material: m, Rules: rules}) }
}

// Boards returns the retro.BoardSource of the DTB files of a rule profile
// (probe.BoardID).
func (c *Cache) Boards(profile string) retro.BoardSource {
	return func(m tb.Material, v honour.Variant) (*retro.Table, error) {
		return c.Load(probe.BoardID(m, profile, v))
	}
}

// Load returns the table of id, from the cache or the directory. Two
// calls for a table not yet cached may both load it.
func (c *Cache) Load(id probe.ID) (*retro.Table, error) {
	c.mu.Lock()
	t, ok := c.tables[id]
	if !ok {
		t, ok = c.held[id]
	}
	c.mu.Unlock()
	if ok {
		return t, nil
	}
	t, err := c.load(id)
	if err != nil {
		return nil, err
	}
	c.Keep(id, t)
	return t, nil
}

// LoadTogether returns the tables of ids, all of one material, from the
// cache or the directory, deriving the sides their files do not store
// together (loadTogether) and keeping them as Load does.
func (c *Cache) LoadTogether(ids []probe.ID) ([]*retro.Table, error) {
	out := make([]*retro.Table, len(ids))
	var missing []probe.ID
	var at []int
	c.mu.Lock()
	for x, id := range ids {
		t, ok := c.tables[id]
		if !ok {
			t, ok = c.held[id]
		}
		if ok {
			out[x] = t
		} else {
			missing, at = append(missing, id), append(at, x)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	loaded, err := c.loadTogether(missing)
	if err != nil {
		return nil, err
	}
	for n, t := range loaded {
		out[at[n]] = t
		c.Keep(missing[n], t)
	}
	return out, nil
}

// Hold keeps t as the table of id, whatever its size, until Release: a
// large table several readers need in turn (a material's DTM table for
// each of its DTB tables and their WDL files) is then read, and the side
// its version-2 file does not store derived, once.
func (c *Cache) Hold(id probe.ID, t *retro.Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held[id] = t
}

// Held returns the table Hold keeps for id, if it does (nil Cache: none).
func (c *Cache) Held(id probe.ID) (*retro.Table, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.held[id]
	return t, ok
}

// HeldBytes returns the bytes of the values Hold keeps.
func (c *Cache) HeldBytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for _, t := range c.held {
		for _, side := range t.Values {
			if side != nil {
				n += int64(side.Len())
			}
		}
	}
	return n
}

// Release lets go of the tables Hold kept.
func (c *Cache) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.held)
}

// ReleaseOthers lets go of the tables Hold kept but those of m.
func (c *Cache) ReleaseOthers(m tb.Material) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.held {
		if id.Material != m {
			delete(c.held, id)
		}
	}
}

// Keep caches a table just generated, if it is a small one.
func (c *Cache) Keep(id probe.ID, t *retro.Table) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id.Material.Pieces() < c.keepBelow {
		c.tables[id] = t
	}
}

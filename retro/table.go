package retro

import (
	"fmt"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// Table is a solved table in memory: Values[side].At(index).
type Table struct {
	Space  *index.Space
	Values [2]*value.Array
	// HolesMarked says that every index that is not a legal canonical
	// position holds value.Illegal, as in a table fresh from the generator
	// (a table file stores copies of neighbouring values there instead), so
	// a pass over the legal positions need not decode each index.
	HolesMarked bool
	// Derived says which side to move Derive computed from the other:
	// Verify, whose one-ply search would compute it again, skips it.
	Derived [2]bool
	// spill holds Values when the table was generated out of core.
	spill *spill
}

// Close lets go of the scratch files a table generated out of core
// (Options.Scratch) reads its values from; the table is unusable after.
// For a table in memory it does nothing.
func (t *Table) Close() error {
	if t.spill == nil {
		return nil
	}
	t.Values = [2]*value.Array{}
	err := t.spill.close()
	t.spill = nil
	return err
}

// OutOfCore reports whether the table's values are in scratch files
// (Options.Scratch) until Close.
func (t *Table) OutOfCore() bool { return t.spill != nil }

// eachLegal calls fn(i, n) for every legal position of king pair k with
// the given side to move: its index and its multiplicity (how many
// full-board positions it stands for). With holes marked, only the king
// pairs on the diagonal, where the multiplicity varies, are decoded.
func (t *Table) eachLegal(k int, side tb.Color, fn func(i uint64, n uint64)) {
	space := t.Space
	if !t.HolesMarked || space.Tied(k) {
		space.Walk(k, side, func(i uint64, p *tb.Position) { fn(i, uint64(space.Multiplicity(p))) })
		return
	}
	n := uint64(space.Symmetries())
	per := space.PerKingPair()
	codes := t.Values[side].Codes()[uint64(k)*per : uint64(k+1)*per]
	for x, c := range codes {
		if c != byte(value.Illegal) {
			fn(uint64(k)*per+uint64(x), n)
		}
	}
}

// Material returns the table's material.
func (t *Table) Material() tb.Material { return t.Space.Material() }

// Source provides solved sub-tables by canonical material (KvK is never
// asked for: it is a draw).
type Source func(m tb.Material) (*Table, error)

// captureValues resolves captures in the metric being generated. site
// locates the position after capture m in p, which takes a piece of colour
// c and type t, in its sub-table; valueAt gives its value there for the
// side to move after the capture. Resolvers of the same material (DTM and
// the DTB of any profile) share their sites: the sub-tables they read
// differ in metric, not in material or index.
type captureValues interface {
	site(p *tb.Position, m tb.Move, c tb.Color, t tb.PieceType) captureSite
	valueAt(c tb.Color, t tb.PieceType, s captureSite) value.Value
	// mated is the value of a position without moves whose side to move
	// is in check (or, where stalemate loses, stalemated).
	mated(side tb.Color) value.Value
}

// captureSite is where a capture leads: the sub-table entry (side to move,
// index), or nowhere (ok false) when only the kings are left, or — in a
// game where a bare king loses — the bare-king rule's verdict when the
// capture leaves the side to move with its king alone.
type captureSite struct {
	side  tb.Color
	index uint64
	ok    bool
	bare  bareVerdict
}

// bareVerdict is the bare-king rule's outcome of a capture (tb.Game's
// BareKingOutcome): the side left bare has lost, or can bare the other
// king at once and draws.
type bareVerdict uint8

const (
	notBare bareVerdict = iota
	bareLost
	bareDrawn
)

// value returns the verdict as the value for the bare side to move: lost
// at once, as if mated, or a draw.
func (b bareVerdict) value() value.Value {
	if b == bareLost {
		return value.MatedIn(0)
	}
	return value.Draw
}

// bareSite returns the site of capture m of p when the rules of p's game
// decide it by the bare-king rule (ok false otherwise).
func bareSite(p *tb.Position, m tb.Move) (captureSite, bool) {
	q := p.Play(m)
	lost, drawn := p.Game().BareKingOutcome(&q)
	switch {
	case lost:
		return captureSite{bare: bareLost}, true
	case drawn:
		return captureSite{bare: bareDrawn}, true
	}
	return captureSite{}, false
}

// captureValue returns the value of capture m in p for the side to move
// after it.
func captureValue(cv captureValues, p *tb.Position, m tb.Move, c tb.Color, t tb.PieceType) value.Value {
	return cv.valueAt(c, t, cv.site(p, m, c, t))
}

// subTables resolves captures for DTM: for each colour and type of
// captured piece, the sub-table it leads to and whether its colours are
// swapped.
type subTables struct {
	table [2][tb.Met + 1]*Table // nil: KvK, a bare king that loses, or no such piece
	flip  [2][tb.Met + 1]bool
	after [2][tb.Met + 1]tb.Material // the material left, as on the board
	// bare: taking this piece leaves its side's king alone in a game where
	// that loses (Shatranj): the bare-king rule decides, no table.
	bare [2][tb.Met + 1]bool
}

func loadSubTables(g tb.Game, m tb.Material, src Source) (*subTables, error) {
	return loadSubTablesFlipped(g, m, func(canon tb.Material, _ bool) (*Table, error) { return src(canon) })
}

// loadSubTablesFlipped is loadSubTables with a source that is told whether
// the sub-table's colours are m's swapped.
func loadSubTablesFlipped(g tb.Game, m tb.Material, src func(canon tb.Material, flip bool) (*Table, error)) (*subTables, error) {
	st := &subTables{}
	for c := tb.White; c <= tb.Black; c++ {
		for t := tb.Rook; t <= tb.Met; t++ {
			if m.Count(c, t) == 0 {
				continue
			}
			sub := m
			sub.Counts[c][t]--
			canon, flip := sub.Canonical()
			st.flip[c][t] = flip
			st.after[c][t] = sub
			if g.BareKingLoses() && sub.SidePieces(c) == 0 {
				st.bare[c][t] = true
				continue
			}
			if canon.Pieces() == 2 {
				continue
			}
			table, err := src(canon, flip)
			if err != nil {
				return nil, fmt.Errorf("sub-table %s of %s: %w", g.MaterialName(canon), g.MaterialName(m), err)
			}
			if table.Material() != canon {
				return nil, fmt.Errorf("sub-table for %s holds %s", g.MaterialName(canon), g.MaterialName(table.Material()))
			}
			if got := table.Space.Game(); got != g {
				return nil, fmt.Errorf("sub-table %s is a %s table, not %s", g.MaterialName(canon), got, g)
			}
			for side := range table.Values {
				adviseHugePages(table.Values[side].Codes()) // captures read them at random
			}
			st.table[c][t] = table
		}
	}
	return st, nil
}

func (st *subTables) mated(tb.Color) value.Value { return value.MatedIn(0) }

func (st *subTables) site(p *tb.Position, m tb.Move, c tb.Color, t tb.PieceType) captureSite {
	if st.bare[c][t] {
		s, _ := bareSite(p, m)
		return s
	}
	table := st.table[c][t]
	if table == nil {
		return captureSite{}
	}
	q := p.Play(m)
	if st.flip[c][t] {
		q = q.ColorFlipped()
	}
	j, _ := table.Space.Index(&q)
	return captureSite{side: q.Side, index: j, ok: true}
}

func (st *subTables) valueAt(c tb.Color, t tb.PieceType, s captureSite) value.Value {
	if s.bare != notBare {
		return s.bare.value()
	}
	if !s.ok {
		return value.Draw // KvK
	}
	return st.table[c][t].Values[s.side].At(s.index)
}

// Dependencies returns every canonical material that must be solved before
// m, in an order in which each comes after its own sub-tables, followed by
// m itself, in game g. KvK is left out: it is a known draw; in Shatranj
// the materials with a bare king are left out too (the bare-king rule
// decides them).
func Dependencies(g tb.Game, m tb.Material) []tb.Material {
	var order []tb.Material
	seen := map[tb.Material]bool{}
	var visit func(x tb.Material)
	visit = func(x tb.Material) {
		if seen[x] || x.Pieces() <= 2 || g.BareKingLoses() && (x.SidePieces(tb.White) == 0 || x.SidePieces(tb.Black) == 0) {
			return
		}
		seen[x] = true
		for _, sub := range x.Captures() {
			visit(sub)
		}
		order = append(order, x)
	}
	canon, _ := m.Canonical()
	visit(canon)
	return order
}

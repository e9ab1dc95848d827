package tb

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Material is a material signature: how many rooks, khons, knights, mets and
// pawns each colour has besides its king. The zero value is KvK.
type Material struct {
	Counts [2][Pawn + 1]uint8 // indexed by colour, then piece type Rook…Pawn
}

// MaterialOf returns the material of a position.
func MaterialOf(p *Position) Material {
	var m Material
	for c := White; c <= Black; c++ {
		for t := Rook; t <= Pawn; t++ {
			m.Counts[c][t] = uint8(p.Pieces(c, t).Count())
		}
	}
	return m
}

// ParseMaterial reads a material name such as "KRSvKN" (white's pieces
// first, letters R S N M P in any order, case-insensitive).
func ParseMaterial(name string) (Material, error) { return Makruk.ParseMaterial(name) }

// ParseMaterial reads a material name of game g: Makruk's letters R S N M
// P, Shatranj's R B N Q (the alfil and the ferz; Shatranj materials here
// are pawnless).
func (g Game) ParseMaterial(name string) (Material, error) {
	var m Material
	if !g.Valid() {
		return m, fmt.Errorf("material %q: %s is not a game", name, g)
	}
	sides := strings.Split(strings.ToUpper(name), "V")
	if len(sides) != 2 {
		return m, fmt.Errorf("material %q: expected two sides separated by v, like KRvK", name)
	}
	for c, side := range sides {
		if !strings.HasPrefix(side, "K") {
			return m, fmt.Errorf("material %q: each side starts with its king K", name)
		}
		for i := 1; i < len(side); i++ {
			t, ok := g.pieceOfLetter(side[i])
			if !ok || t == King || g == Shatranj && t == Pawn {
				return m, fmt.Errorf("material %q: unknown piece %q (expected %s)", name, side[i], g.materialLetterList())
			}
			if m.Counts[c][t] == 15 {
				return m, fmt.Errorf("material %q: too many pieces", name)
			}
			m.Counts[c][t]++
		}
	}
	return m, nil
}

// MustParseMaterial is ParseMaterial for names known to be valid (tests and
// constant tables); it panics on a bad name.
func MustParseMaterial(name string) Material {
	m, err := ParseMaterial(name)
	if err != nil {
		panic(err)
	}
	return m
}

// String returns the name with white's pieces first, e.g. "KRSvKN".
func (m Material) String() string { return Makruk.MaterialName(m) }

// MaterialName returns m's name in game g's letters, white's pieces first:
// "KRSvKN" in Makruk, "KRBvKN" in Shatranj.
func (g Game) MaterialName(m Material) string {
	var b strings.Builder
	for c := White; c <= Black; c++ {
		if c == Black {
			b.WriteByte('v')
		}
		b.WriteByte('K')
		for t := Rook; t <= Pawn; t++ {
			for i := uint8(0); i < m.Counts[c][t]; i++ {
				b.WriteByte(g.Letter(t))
			}
		}
	}
	return b.String()
}

// Count returns the number of pieces of colour c and type t.
func (m Material) Count(c Color, t PieceType) int { return int(m.Counts[c][t]) }

// SidePieces returns the number of non-king pieces of colour c.
func (m Material) SidePieces(c Color) int {
	n := 0
	for _, k := range m.Counts[c] {
		n += int(k)
	}
	return n
}

// Pieces returns the number of pieces on the board, both kings included.
func (m Material) Pieces() int { return 2 + m.SidePieces(White) + m.SidePieces(Black) }

// HasPawns reports whether either side has a pawn.
func (m Material) HasPawns() bool { return m.Counts[White][Pawn]+m.Counts[Black][Pawn] > 0 }

// HasKhon reports whether either side has a khon (the tables then have only
// the left–right symmetry).
func (m Material) HasKhon() bool { return m.Counts[White][Khon]+m.Counts[Black][Khon] > 0 }

// Flipped returns the material with the colours swapped.
func (m Material) Flipped() Material {
	m.Counts[White], m.Counts[Black] = m.Counts[Black], m.Counts[White]
	return m
}

// pieceValue orders the sides of a material: the side with more value is
// the stronger one and is named first.
var pieceValue = [Pawn + 1]int{Rook: 5, Khon: 3, Knight: 3, Met: 2, Pawn: 1}

// strength compares the sides: positive if White is stronger.
func (m Material) strength() int {
	diff := 0
	for t := Rook; t <= Pawn; t++ {
		diff += pieceValue[t] * (int(m.Counts[White][t]) - int(m.Counts[Black][t]))
	}
	if diff != 0 {
		return diff
	}
	for t := Rook; t <= Pawn; t++ {
		if d := int(m.Counts[White][t]) - int(m.Counts[Black][t]); d != 0 {
			return d
		}
	}
	return 0
}

// IsCanonical reports whether the stronger side is White, the side every
// table is stored for.
func (m Material) IsCanonical() bool { return m.strength() >= 0 }

// Canonical returns the canonical form (stronger side as White) and whether
// the colours had to be swapped to get it.
func (m Material) Canonical() (Material, bool) {
	if m.IsCanonical() {
		return m, false
	}
	return m.Flipped(), true
}

// Captures returns the canonical materials reached by one capture (one
// non-king piece of either side removed), without duplicates, sorted by name.
func (m Material) Captures() []Material {
	seen := map[Material]bool{}
	var out []Material
	for c := White; c <= Black; c++ {
		for t := Rook; t <= Pawn; t++ {
			if m.Counts[c][t] == 0 {
				continue
			}
			sub := m
			sub.Counts[c][t]--
			sub, _ = sub.Canonical()
			if !seen[sub] {
				seen[sub] = true
				out = append(out, sub)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// Pawnless enumerates every canonical pawnless material with at most
// maxPieces pieces (kings included), KvK first, then by piece count and name.
func Pawnless(maxPieces int) []Material {
	var out []Material
	var rec func(m Material, c Color, t PieceType, left int)
	rec = func(m Material, c Color, t PieceType, left int) {
		if t > Met {
			if c == White {
				rec(m, Black, Rook, left)
				return
			}
			if m.IsCanonical() {
				out = append(out, m)
			}
			return
		}
		for k := 0; k <= left; k++ {
			m.Counts[c][t] = uint8(k)
			rec(m, c, t+1, left-k)
		}
	}
	if maxPieces >= 2 {
		rec(Material{}, White, Rook, maxPieces-2)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pieces() != out[j].Pieces() {
			return out[i].Pieces() < out[j].Pieces()
		}
		return out[i].String() < out[j].String()
	})
	return out
}

// MaxTablePieces is the largest number of pieces (kings included) of any
// table.
const MaxTablePieces = 6

// What no table holds: a material or position with pawns, or with more
// than MaxTablePieces pieces (package probe gives the same errors for a
// position).
var (
	ErrPawns         = errors.New("pawns on the board: the tables are pawnless")
	ErrTooManyPieces = errors.New("more pieces than any table holds")
)

// ParseTableMaterial reads the name of a table's material, as a user
// gives it, and returns its canonical form (the stronger side White):
// the one parser of the commands and the server. It refuses a table's
// name (KRvKN.thai), pawns and more than MaxTablePieces pieces, the last
// two with a *MaterialError that wraps ErrPawns or ErrTooManyPieces.
func (g Game) ParseTableMaterial(name string) (Material, error) {
	if len(name) > 2*MaxTablePieces {
		return Material{}, &MaterialError{fmt.Sprintf("material %q: more pieces than any table holds", clipName(name)), ErrTooManyPieces}
	}
	if base, profile, ok := strings.Cut(name, "."); ok {
		return Material{}, fmt.Errorf("%q: a material is expected, such as %s, not the name of its %s table", name, base, profile)
	}
	m, err := g.ParseMaterial(name)
	if err != nil {
		return m, err
	}
	if m.HasPawns() {
		return m, &MaterialError{fmt.Sprintf("material %s has pawns: the tables are pawnless", m), ErrPawns}
	}
	if n := m.Pieces(); n > MaxTablePieces {
		return m, &MaterialError{fmt.Sprintf("material %s has %d pieces: the tables have at most %d", g.MaterialName(m), n, MaxTablePieces), ErrTooManyPieces}
	}
	m, _ = m.Canonical()
	return m, nil
}

// MaterialError is a material no table holds: what is wrong with it, and
// ErrPawns or ErrTooManyPieces.
type MaterialError struct {
	Msg string
	Err error
}

func (e *MaterialError) Error() string { return e.Msg }
func (e *MaterialError) Unwrap() error { return e.Err }

// clipName shortens a long name for a message.
func clipName(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}

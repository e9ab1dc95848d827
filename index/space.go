// Package index maps the positions of one pawnless material to dense
// integers and back: the coordinate system of every table.
//
// # Layout
//
// For a canonical material (stronger side White) with piece groups
// g₁ … gₙ — the like pieces of one colour and type, in the order white R S N
// M, then black R S N M — a position is numbered
//
//	index = kingPair · ∏ size(gⱼ) + Σ digit(gⱼ) · stride(gⱼ)
//
// where stride(gₙ) = 1 and stride(gⱼ) = stride(gⱼ₊₁) · size(gⱼ₊₁): mixed
// radix with the last group fastest. A group of k like pieces on squares
// s₁ < … < sₖ has the binomial digit C(s₁,1) + C(s₂,2) + … + C(sₖ,k)
// (the combinatorial number system) with size C(64,k), so KRRvK has one
// rook-pair coordinate of C(64,2) = 2 016 values, not two.
//
// Pieces may share squares with each other and with the kings in this
// numbering; such indices are holes, as are positions where the side not to
// move is in check. The payoff is speed: a move of a non-king piece changes
// one digit only, so the generator finds a successor's or predecessor's
// index by arithmetic, with no symmetry transform (the king pair, and so the
// transform, stays the same). Only king moves need the full Index.
//
// The king pair and its symmetry are described in kings.go. Each side to
// move has its own table of Size() entries with the same numbering.
package index

import (
	"fmt"
	"sync"

	"github.com/makruktb/makruktb/tb"
)

// MaxPieces is the largest number of pieces (kings included) a Space
// supports.
const MaxPieces = tb.MaxTablePieces

// Group is a set of like pieces: one colour, one type, Count of them.
type Group struct {
	Color  tb.Color
	Type   tb.PieceType
	Count  int
	Size   uint64 // C(64, Count)
	Stride uint64
}

// Space is the index space of one canonical pawnless material.
type Space struct {
	game        tb.Game
	material    tb.Material
	kings       *kingTable
	groups      []Group
	groupOf     [2][tb.Met + 1]int // position in groups of each colour and type
	perKingPair uint64
	size        uint64
	pieces      int    // pieces on the board, kings included
	tied        []bool // per king pair: fixed by the diagonal flip
	byKingPair  divisor
	groupSize   []divisor // per group, in reverse order (last group first)
}

// New returns the index space of a canonical pawnless Makruk material with
// at most MaxPieces pieces.
func New(m tb.Material) (*Space, error) { return NewGame(tb.Makruk, m) }

// NewGame returns the index space of a canonical pawnless material of game
// g. Its positions are positions of g; a material with a piece in the
// elephant slot keeps only the left–right mirror in Makruk (the khon moves
// forward), all eight symmetries in Shatranj (the alfil has no direction).
func NewGame(g tb.Game, m tb.Material) (*Space, error) {
	switch {
	case !g.Valid():
		return nil, fmt.Errorf("index %s: %s is not a game", m, g)
	case m.HasPawns():
		return nil, fmt.Errorf("index %s: materials with pawns have no table", m)
	case m.Pieces() > MaxPieces:
		return nil, fmt.Errorf("index %s: %d pieces, at most %d supported", m, m.Pieces(), MaxPieces)
	case !m.IsCanonical():
		c, _ := m.Canonical()
		return nil, fmt.Errorf("index %s: not canonical, the table is %s", m, c)
	}
	s := &Space{game: g, material: m, kings: kingsFull, pieces: m.Pieces()}
	if m.HasKhon() && !g.SymmetricElephant() {
		s.kings = kingsMirror
	}
	for _, p := range s.kings.pairs {
		s.tied = append(s.tied, s.kings.tied[p.white][p.black])
	}
	for c := tb.White; c <= tb.Black; c++ {
		for t := tb.Rook; t <= tb.Met; t++ {
			if k := m.Count(c, t); k > 0 {
				s.groupOf[c][t] = len(s.groups)
				s.groups = append(s.groups, Group{Color: c, Type: t, Count: k, Size: binomial[64][k]})
			}
		}
	}
	s.perKingPair = 1
	for j := len(s.groups) - 1; j >= 0; j-- {
		s.groups[j].Stride = s.perKingPair
		s.perKingPair *= s.groups[j].Size
		if s.groups[j].Count >= 3 {
			ensureComboTable(s.groups[j].Count)
		}
	}
	s.size = uint64(len(s.kings.pairs)) * s.perKingPair
	s.byKingPair = newDivisor(s.perKingPair)
	for j := len(s.groups) - 1; j >= 0; j-- {
		s.groupSize = append(s.groupSize, newDivisor(s.groups[j].Size))
	}
	return s, nil
}

// Game returns the game whose positions the space numbers.
func (s *Space) Game() tb.Game { return s.game }

// Material returns the space's material.
func (s *Space) Material() tb.Material { return s.material }

// Size returns the number of indices per side to move.
func (s *Space) Size() uint64 { return s.size }

// KingPairs returns the number of canonical king pairs (462 or 1 806).
func (s *Space) KingPairs() int { return len(s.kings.pairs) }

// PerKingPair returns the number of indices sharing one king pair: the
// indices of king pair k are k·PerKingPair() … (k+1)·PerKingPair()−1.
func (s *Space) PerKingPair() uint64 { return s.perKingPair }

// Groups returns the piece groups in index order.
func (s *Space) Groups() []Group { return s.groups }

// GroupOf returns the position in Groups of the group of colour c and type
// t (which the material must have).
func (s *Space) GroupOf(c tb.Color, t tb.PieceType) int { return s.groupOf[c][t] }

// Symmetries returns the number of board symmetries the space uses: 8, or
// 2 (the left–right mirror) for a material with a Khon. A position whose
// king pair is not Tied stands for that many full-board positions.
func (s *Space) Symmetries() int { return len(s.kings.group) }

// FullSymmetry reports whether all eight symmetries are used (no Khon).
func (s *Space) FullSymmetry() bool { return len(s.kings.group) == 8 }

// KingSquares returns the white and black king squares of king pair k.
func (s *Space) KingSquares(k int) (white, black tb.Square) {
	p := s.kings.pairs[k]
	return p.white, p.black
}

// Tied reports whether the king pair k is fixed by the diagonal flip (both
// kings on the a1–h8 diagonal): moves of other pieces may then change the
// canonical orientation, so the generator's one-digit shortcut does not
// apply.
func (s *Space) Tied(k int) bool { return s.tied[k] }

// Index returns the index of p (of this space's material, in any
// orientation and colour assignment matching the material) and true, or
// false if p's material differs or its kings touch. The side to move is not
// part of the index.
func (s *Space) Index(p *tb.Position) (uint64, bool) {
	w, b := p.KingSquare(tb.White), p.KingSquare(tb.Black)
	if w == tb.NoSquare || b == tb.NoSquare || !s.kings.ok[w][b] || p.Occupied().Count() != s.pieces {
		return 0, false
	}
	t := s.kings.sym[w][b]
	i, ok := s.indexWith(p, t)
	if !ok {
		return 0, false
	}
	if s.kings.tied[t.square(w)][t.square(b)] {
		if j, _ := s.indexWith(p, t|flipDiagonal); j < i {
			i = j
		}
	}
	return i, true
}

// IndexAs returns Index(p) and, in the same pass, p's place under other
// weights of the same digits: kingPlace[k] for king pair k, plus weights[g]
// times group g's digit (the index's own are k·PerKingPair and the
// groups' strides). A file that stores its values in another order of
// the digits finds a value's place with no division.
func (s *Space) IndexAs(p *tb.Position, kingPlace, weights []uint64) (index, place uint64, ok bool) {
	w, b := p.KingSquare(tb.White), p.KingSquare(tb.Black)
	if w == tb.NoSquare || b == tb.NoSquare || !s.kings.ok[w][b] || p.Occupied().Count() != s.pieces {
		return 0, 0, false
	}
	t := s.kings.sym[w][b]
	if index, place, ok = s.indexAsWith(p, t, kingPlace, weights); !ok {
		return 0, 0, false
	}
	if s.kings.tied[t.square(w)][t.square(b)] {
		if j, q, _ := s.indexAsWith(p, t|flipDiagonal, kingPlace, weights); j < index {
			index, place = j, q
		}
	}
	return index, place, true
}

// indexAsWith is indexWith, with IndexAs's place.
func (s *Space) indexAsWith(p *tb.Position, t symmetry, kingPlace, weights []uint64) (index, place uint64, ok bool) {
	wk, bk := t.square(p.KingSquare(tb.White)), t.square(p.KingSquare(tb.Black))
	k := s.kings.number[wk][bk]
	index, place = uint64(k)*s.perKingPair, kingPlace[k]
	for j, g := range s.groups {
		bb := p.Pieces(g.Color, g.Type)
		if bb.Count() != g.Count {
			return 0, 0, false
		}
		if t != identity {
			bb = t.squares(bb)
		}
		d := comboIndex(bb)
		index += d * g.Stride
		place += d * weights[j]
	}
	return index, place, true
}

// indexWith numbers p after applying t.
func (s *Space) indexWith(p *tb.Position, t symmetry) (uint64, bool) {
	wk, bk := t.square(p.KingSquare(tb.White)), t.square(p.KingSquare(tb.Black))
	i := uint64(s.kings.number[wk][bk]) * s.perKingPair
	for _, g := range s.groups {
		bb := p.Pieces(g.Color, g.Type)
		if bb.Count() != g.Count {
			return 0, false
		}
		if t != identity {
			bb = t.squares(bb)
		}
		i += comboIndex(bb) * g.Stride
	}
	return i, true
}

// Position decodes index i for the given side to move. It returns false
// for holes: pieces sharing a square, the side not to move in check, or the
// non-canonical twin of a diagonal-symmetric king pair. For every index that
// decodes, Index(Position(i)) == i.
func (s *Space) Position(i uint64, side tb.Color) (tb.Position, bool) {
	if i >= s.size {
		return tb.Position{}, false
	}
	p, ok := s.decode(i, side)
	if !ok {
		return p, false
	}
	if p.InCheck(side.Other()) {
		return p, false
	}
	if s.tied[s.KingPairOf(i)] {
		if j, _ := s.indexWith(&p, flipDiagonal); j < i {
			return p, false
		}
	}
	return p, true
}

// Decode returns the position of index i with the given side to move,
// for an index known to be a legal position (one the generator has
// decided, say): it skips Position's legality tests.
func (s *Space) Decode(i uint64, side tb.Color) tb.Position {
	p, _ := s.decode(i, side)
	return p
}

// decode places the pieces of index i (< Size) and reports false if two
// share a square.
func (s *Space) decode(i uint64, side tb.Color) (tb.Position, bool) {
	return s.decodeGroups(i, side, len(s.groups))
}

// decodeGroups is decode for the kings and the first n groups only.
func (s *Space) decodeGroups(i uint64, side tb.Color, n int) (tb.Position, bool) {
	var p tb.Position
	p.SetGame(s.game)
	k, rest := s.byKingPair.divMod(i)
	pair := s.kings.pairs[k]
	p.Put(tb.White, tb.King, pair.white)
	p.Put(tb.Black, tb.King, pair.black)
	p.Side, p.CountLimit, p.Fullmove = side, tb.NoCount, 1
	occ := p.Occupied()
	for j := len(s.groups) - 1; j >= 0; j-- {
		var digit uint64
		rest, digit = s.groupSize[len(s.groups)-1-j].divMod(rest)
		if j >= n {
			continue
		}
		g := &s.groups[j]
		bb := comboBitboard(g.Count, digit)
		if bb&occ != 0 {
			return p, false
		}
		occ |= bb
		p.AddPieces(g.Color, g.Type, bb)
	}
	return p, true
}

// Walk calls fn, in index order, for every index of king pair k that
// decodes (see Position) with the given side to move. It is Position for a
// whole king pair at once, stepping the digits like an odometer instead of
// dividing; fn must not keep p.
//
// The groups but the last form a prefix, built once for the whole run of
// the last group's digit. Adding pieces never unblocks a line, so when the
// prefix leaves the side not to move out of check, only the last group's
// own attacks can put it in check.
func (s *Space) Walk(k int, side tb.Color, fn func(i uint64, p *tb.Position)) {
	s.walk(k, side, uint64(k)*s.perKingPair, uint64(k+1)*s.perKingPair, fn)
}

// WalkRange is Walk over the indices [lo, hi) (of any king pairs) with
// the given side to move: Position for a range at once.
func (s *Space) WalkRange(side tb.Color, lo, hi uint64, fn func(i uint64, p *tb.Position)) {
	hi = min(hi, s.size)
	for lo < hi {
		k := s.KingPairOf(lo)
		end := min(hi, uint64(k+1)*s.perKingPair)
		s.walk(k, side, lo, end, fn)
		lo = end
	}
}

// walk is Walk over the indices [from, to) of king pair k.
func (s *Space) walk(k int, side tb.Color, from, to uint64, fn func(i uint64, p *tb.Position)) {
	pair := s.kings.pairs[k]
	var base tb.Position
	base.SetGame(s.game)
	base.Put(tb.White, tb.King, pair.white)
	base.Put(tb.Black, tb.King, pair.black)
	base.Side, base.CountLimit, base.Fullmove = side, tb.NoCount, 1
	them := side.Other() // not to move: must not be in check
	king := pair.white
	if them == tb.Black {
		king = pair.black
	}
	n := len(s.groups)
	if n == 0 { // KvK: the kings alone, one position per king pair
		if from < to && !base.InCheck(them) {
			fn(from, &base)
		}
		return
	}
	last := &s.groups[n-1]
	lastChecks := last.Color == side // the last group can give check
	// The odometer starts at the prefix of index from: its digits, the
	// prefix's last group fastest, above the last group's digit.
	var digit [MaxPieces]uint64
	var squares [MaxPieces]tb.Bitboard
	first := from - uint64(k)*s.perKingPair
	firstLast := first % last.Size // where the first run starts
	rest := first / last.Size
	for j := n - 2; j >= 0; j-- {
		size := s.groups[j].Size
		digit[j] = rest % size
		rest /= size
		squares[j] = comboBitboard(s.groups[j].Count, digit[j])
	}
	tied := s.tied[k]
	var p tb.Position // one variable for all calls: fn gets its address
	for i := from - firstLast; i < to; i += last.Size {
		prefix := base
		for j := range n - 1 {
			prefix.AddPieces(s.groups[j].Color, s.groups[j].Type, squares[j])
		}
		occ := prefix.Occupied()
		if occ.Count() == s.pieces-last.Count {
			prefixCheck := prefix.InCheck(them)
			for d := firstLast; d < min(last.Size, to-i); d++ {
				bb := comboBitboard(last.Count, d)
				if bb&occ != 0 {
					continue
				}
				p = prefix
				p.AddPieces(last.Color, last.Type, bb)
				switch {
				case prefixCheck:
					if p.InCheck(them) { // unless a piece of the last group blocks
						continue
					}
				case lastChecks && givesCheck(s.game, last, bb, occ|bb, king):
					continue
				}
				if tied {
					if j, _ := s.indexWith(&p, flipDiagonal); j < i+d {
						continue
					}
				}
				fn(i+d, &p)
			}
		}
		firstLast = 0
		// Advance the odometer over the prefix, its last group fastest.
		j := n - 2
		for ; j >= 0; j-- {
			g := &s.groups[j]
			digit[j]++
			if digit[j] < g.Size {
				squares[j] = comboBitboard(g.Count, digit[j])
				break
			}
			digit[j] = 0
			squares[j] = comboBitboard(g.Count, 0)
		}
		if j < 0 {
			return
		}
	}
}

// givesCheck reports whether a piece of group g on the squares bb attacks
// the king square with the board occupied by occ.
func givesCheck(game tb.Game, g *Group, bb tb.Bitboard, occ tb.Bitboard, king tb.Square) bool {
	for bb != 0 {
		if game.Attacks(g.Type, g.Color, bb.PopFirst(), occ).Has(king) {
			return true
		}
	}
	return false
}

// Multiplicity returns how many full-board positions the canonical
// position p stands for: the size of its orbit under the symmetries used.
func (s *Space) Multiplicity(p *tb.Position) int {
	n := len(s.kings.group)
	w, b := p.KingSquare(tb.White), p.KingSquare(tb.Black)
	if s.kings.tied[w][b] {
		q := flipDiagonal.position(p)
		if q.SamePlacement(p) {
			return n / 2
		}
	}
	return n
}

// binomial[n][k] = C(n, k) for n ≤ 64, k ≤ MaxPieces.
var binomial [65][MaxPieces + 1]uint64

func init() {
	for n := 0; n <= 64; n++ {
		binomial[n][0] = 1
		for k := 1; k <= MaxPieces && k <= n; k++ {
			binomial[n][k] = binomial[n-1][k-1] + binomial[n-1][k]
		}
	}
}

// comboIndex returns the binomial digit of a set of squares.
func comboIndex(bb tb.Bitboard) uint64 {
	switch bb.Count() {
	case 1:
		return uint64(bb.First())
	case 2:
		return binomial[bb.Last()][2] + uint64(bb.First())
	}
	var d uint64
	for k := 1; bb != 0; k++ {
		d += binomial[bb.PopFirst()][k]
	}
	return d
}

// comboTables[k][d] is the set of k squares with digit d, for k ≥ 3;
// smaller groups are decoded directly.
var (
	comboTables    [MaxPieces + 1][]tb.Bitboard
	comboTableOnce [MaxPieces + 1]sync.Once
)

func ensureComboTable(k int) {
	comboTableOnce[k].Do(func() {
		t := make([]tb.Bitboard, binomial[64][k])
		var rec func(from tb.Square, left int, bb tb.Bitboard)
		rec = func(from tb.Square, left int, bb tb.Bitboard) {
			if left == 0 {
				t[comboIndex(bb)] = bb
				return
			}
			for s := from; s < 64; s++ {
				rec(s+1, left-1, bb|s.Bitboard())
			}
		}
		rec(0, k, 0)
		comboTables[k] = t
	})
}

// pairSquares decodes the digit of two like pieces: the largest s with
// C(s,2) ≤ d is the upper square.
var pairSquares [2016]tb.Bitboard

func init() {
	for hi := tb.Square(1); hi < 64; hi++ {
		for lo := tb.Square(0); lo < hi; lo++ {
			pairSquares[binomial[hi][2]+uint64(lo)] = hi.Bitboard() | lo.Bitboard()
		}
	}
}

func comboBitboard(k int, d uint64) tb.Bitboard {
	switch k {
	case 1:
		return tb.Square(d).Bitboard()
	case 2:
		return pairSquares[d]
	}
	return comboTables[k][d]
}

// KingPairOf returns the king pair of index i.
func (s *Space) KingPairOf(i uint64) int {
	k, _ := s.byKingPair.divMod(i)
	return int(k)
}

// MovedIndex returns the index, and its king pair, of the position p (which
// must be exactly Position(i, …), of king pair k) after the piece on from
// steps to the empty square to. A non-king piece changes one digit, found
// by arithmetic; so does the king pair when the kings stay canonical
// without a transform. Anything else (a king leaving the canonical region,
// any move under a diagonal-symmetric king pair) is re-encoded in full.
func (s *Space) MovedIndex(i uint64, k int, p *tb.Position, from, to tb.Square) (uint64, int) {
	c, t := p.PieceAt(from)
	switch {
	case t == tb.King:
		return s.KingMovedIndex(i, k, p, c, to)
	case !s.tied[k]:
		return s.StepIndex(i, s.groupOf[c][t], p.Pieces(c, t), from, to), k
	}
	return s.reindex(p, c, t, from, to)
}

// KingMovedIndex is MovedIndex for a step of the king of colour c.
func (s *Space) KingMovedIndex(i uint64, k int, p *tb.Position, c tb.Color, to tb.Square) (uint64, int) {
	w, b := p.KingSquare(tb.White), p.KingSquare(tb.Black)
	from := w
	if c == tb.White {
		w = to
	} else {
		from, b = b, to
	}
	if n := int(s.kings.number[w][b]); n >= 0 && !s.tied[n] && !s.tied[k] {
		return i + uint64(n-k)*s.perKingPair, n
	}
	return s.reindex(p, c, tb.King, from, to)
}

// reindex encodes p after the piece of colour c and type t steps from → to.
func (s *Space) reindex(p *tb.Position, c tb.Color, t tb.PieceType, from, to tb.Square) (uint64, int) {
	q := *p
	q.Remove(from)
	q.Put(c, t, to)
	j, _ := s.Index(&q)
	return j, s.KingPairOf(j)
}

// StepIndex returns the index after a piece of group g, whose pieces stand
// on the squares pieces, steps from → to (an empty square), in a position
// of index i whose king pair is not Tied: only the group's digit changes.
func (s *Space) StepIndex(i uint64, g int, pieces tb.Bitboard, from, to tb.Square) uint64 {
	st := s.Stepper(i, g, pieces, from)
	return st.To(to)
}

// Stepper indexes the moves of one piece of a group: for a position of
// index i (king pair not Tied) whose group g stands on pieces, with the
// piece on from moving, To(sq) is the index with that piece on sq.
type Stepper struct {
	base   uint64 // i without the moving piece's contribution
	stride uint64
	rest   tb.Bitboard // the group's other pieces
	single bool
}

// Stepper prepares StepIndex for many destinations of one piece.
func (s *Space) Stepper(i uint64, g int, pieces tb.Bitboard, from tb.Square) Stepper {
	gr := &s.groups[g]
	if gr.Count == 1 {
		return Stepper{base: i - uint64(from)*gr.Stride, stride: gr.Stride, single: true}
	}
	return Stepper{base: i - comboIndex(pieces)*gr.Stride, stride: gr.Stride, rest: pieces &^ from.Bitboard()}
}

// To returns the index with the moving piece on sq.
func (st *Stepper) To(sq tb.Square) uint64 {
	if st.single {
		return st.base + uint64(sq)*st.stride
	}
	return st.base + comboIndex(st.rest|sq.Bitboard())*st.stride
}

// TiedStepper is Stepper under a Tied king pair, where a position's index
// is the lesser of its own numbering and its mirror image's in the a1–h8
// diagonal (which keeps both kings in place): the piece steps in both,
// one digit each, and To takes the lesser.
type TiedStepper struct {
	plain, flipped Stepper
}

// TiedStepper prepares the steps of the piece on from of group g (on the
// squares pieces) in the position p of index i, king pair Tied. flipped is
// FlippedIndex(p).
func (s *Space) TiedStepper(i, flipped uint64, g int, pieces tb.Bitboard, from tb.Square) TiedStepper {
	return TiedStepper{
		plain:   s.Stepper(i, g, pieces, from),
		flipped: s.Stepper(flipped, g, flipDiagonal.squares(pieces), squareMaps[flipDiagonal][from]),
	}
}

// To returns the index with the moving piece on sq.
func (st *TiedStepper) To(sq tb.Square) uint64 {
	return min(st.plain.To(sq), st.flipped.To(squareMaps[flipDiagonal][sq]))
}

// FlippedIndex numbers p mirrored in the a1–h8 diagonal, as TiedStepper
// wants (p of a Tied king pair, with its kings on the diagonal).
func (s *Space) FlippedIndex(p *tb.Position) uint64 {
	j, _ := s.indexWith(p, flipDiagonal)
	return j
}

// Images calls fn with each distinct full-board position that p, a
// position of the space's canonical form, stands for: Multiplicity(p) of
// them, p itself among them.
func (s *Space) Images(p *tb.Position, fn func(q *tb.Position)) {
	var seen [8]tb.Position
	n := 0
	for _, t := range s.kings.group {
		q := t.position(p)
		dup := false
		for i := range n {
			if seen[i].SamePlacement(&q) {
				dup = true
				break
			}
		}
		if !dup {
			seen[n] = q
			n++
			fn(&q)
		}
	}
}

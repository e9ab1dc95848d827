package tb

// NoCount is the CountLimit of a position on which no count is running
// (a "-" in the FEN's fourth field).
const NoCount = -1

// Position is a Makruk position: piece placement, side to move and the
// counting fields of the FEN. It is a plain value (no pointers), cheap to
// copy; moves are made by copy (Play) rather than make/unmake.
type Position struct {
	byColor [2]Bitboard
	byType  [NumPieceTypes]Bitboard

	// Side is the side to move.
	Side Color
	// CountLimit and CountPly are the honour-count fields of the FEN, in
	// plies; CountLimit is NoCount when no count is running (CountPly then
	// holds whatever the FEN's fifth field said, usually 0).
	CountLimit int
	CountPly   int
	// Fullmove is the FEN's move number (starts at 1).
	Fullmove int

	game Game // the zero value: Makruk
}

// Game returns the game whose rules the position follows.
func (p *Position) Game() Game { return p.game }

// SetGame makes the position one of game g (the pieces keep their squares;
// the elephant and met slots take the game's pieces).
func (p *Position) SetGame(g Game) { p.game = g }

// Occupied returns all occupied squares.
func (p *Position) Occupied() Bitboard { return p.byColor[White] | p.byColor[Black] }

// ByColor returns the squares occupied by pieces of colour c.
func (p *Position) ByColor(c Color) Bitboard { return p.byColor[c] }

// ByType returns the squares occupied by pieces of type t, either colour.
func (p *Position) ByType(t PieceType) Bitboard { return p.byType[t] }

// Pieces returns the squares of the pieces of colour c and type t.
func (p *Position) Pieces(c Color, t PieceType) Bitboard { return p.byColor[c] & p.byType[t] }

// KingSquare returns the square of c's king (NoSquare if there is none).
func (p *Position) KingSquare(c Color) Square {
	k := p.Pieces(c, King)
	if k == 0 {
		return NoSquare
	}
	return k.First()
}

// PieceAt returns the colour and type of the piece on s, or NoPiece.
func (p *Position) PieceAt(s Square) (Color, PieceType) {
	b := s.Bitboard()
	c := White
	if p.byColor[Black]&b != 0 {
		c = Black
	} else if p.byColor[White]&b == 0 {
		return White, NoPiece
	}
	for t := PieceType(0); t < NumPieceTypes; t++ {
		if p.byType[t]&b != 0 {
			return c, t
		}
	}
	return White, NoPiece
}

// Put places a piece of colour c and type t on the empty square s.
func (p *Position) Put(c Color, t PieceType, s Square) {
	b := s.Bitboard()
	p.byColor[c] |= b
	p.byType[t] |= b
}

// AddPieces places pieces of colour c and type t on the squares of b (which
// should be empty; a square already taken keeps both bits set, and the
// position is then not a valid one).
func (p *Position) AddPieces(c Color, t PieceType, b Bitboard) {
	p.byColor[c] |= b
	p.byType[t] |= b
}

// Remove empties square s.
func (p *Position) Remove(s Square) {
	b := ^s.Bitboard()
	p.byColor[White] &= b
	p.byColor[Black] &= b
	for t := range p.byType {
		p.byType[t] &= b
	}
}

// SamePlacement reports whether p and q have the same pieces on the same
// squares and the same side to move (the counting fields are ignored).
func (p *Position) SamePlacement(q *Position) bool {
	return p.byColor == q.byColor && p.byType == q.byType && p.Side == q.Side
}

// attackersOf returns the pieces of colour by (restricted to mask) that
// attack square s when the board is occupied by occ.
func (p *Position) attackersOf(s Square, by Color, occ, mask Bitboard) Bitboard {
	them := p.byColor[by] & mask
	a := knightSteps[s] & p.byType[Knight]
	a |= kingSteps[s] & p.byType[King]
	a |= metSteps[s] & p.byType[Met]
	// A khon of colour `by` attacks s from the squares a khon of the other
	// colour would step to from s; likewise for pawns.
	a |= elephantSteps[p.game][by.Other()][s] & p.byType[Khon]
	a |= pawnAttacks[by.Other()][s] & p.byType[Pawn]
	if r := p.byType[Rook] & them; r != 0 {
		a |= RookAttacks(s, occ) & r
	}
	return a & them
}

// MayCapture reports whether a piece of the side to move attacks a piece
// of the other side: false means no capture is legal, true that one is
// pseudo-legal (a pin or a check may still forbid it). A cheap test before
// LegalCaptures where most positions have no capture.
func (p *Position) MayCapture() bool {
	us, occ := p.Side, p.Occupied()
	for them := p.byColor[us.Other()]; them != 0; {
		if p.attackersOf(them.PopFirst(), us, occ, ^Bitboard(0)) != 0 {
			return true
		}
	}
	return false
}

// IsAttacked reports whether square s is attacked by colour by.
func (p *Position) IsAttacked(s Square, by Color) bool {
	return p.attackersOf(s, by, p.Occupied(), ^Bitboard(0)) != 0
}

// InCheck reports whether c's king is attacked.
func (p *Position) InCheck(c Color) bool {
	k := p.KingSquare(c)
	return k != NoSquare && p.IsAttacked(k, c.Other())
}

// Transform returns the position with every bitboard mapped by f (a board
// symmetry such as Bitboard.MirrorFiles); side and counts are unchanged.
func (p Position) Transform(f func(Bitboard) Bitboard) Position {
	for c := range p.byColor {
		p.byColor[c] = f(p.byColor[c])
	}
	for t := range p.byType {
		p.byType[t] = f(p.byType[t])
	}
	return p
}

// ColorFlipped returns the position with the colours swapped and the ranks
// mirrored, side to move swapped too: the same game seen from the other
// side. A white khon becomes a black khon moving the other way, so the
// result is equivalent for every piece.
func (p Position) ColorFlipped() Position {
	p.byColor[White], p.byColor[Black] = p.byColor[Black], p.byColor[White]
	p = p.Transform(Bitboard.MirrorRanks)
	p.Side = p.Side.Other()
	return p
}

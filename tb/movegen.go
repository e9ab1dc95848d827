package tb

import (
	"context"
	"strings"
)

// Move is a move in 16 bits: from (bits 0–5), to (bits 6–11) and a
// promotion flag (bit 12; a pawn reaching its sixth rank becomes a Met).
type Move uint16

// NoMove is the zero Move; a1a1 is never a move.
const NoMove Move = 0

const promotionFlag = 1 << 12

// NewMove returns the move from → to.
func NewMove(from, to Square) Move { return Move(from) | Move(to)<<6 }

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square.
func (m Move) To() Square { return Square(m >> 6 & 63) }

// IsPromotion reports whether the move promotes a pawn.
func (m Move) IsPromotion() bool { return m&promotionFlag != 0 }

// String returns the UCI notation, e.g. "e3e4", or "e5e6m" for a promotion
// (as Fairy-Stockfish writes it).
func (m Move) String() string {
	if m == NoMove {
		return "0000"
	}
	s := m.From().String() + m.To().String()
	if m.IsPromotion() {
		s += "m"
	}
	return s
}

// MaxMoves bounds the number of legal moves in any Makruk position.
const MaxMoves = 256

// MoveList is a fixed-capacity list of moves that lives on the stack.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

func (l *MoveList) add(m Move) { l.Moves[l.N] = m; l.N++ }

// Slice returns the moves as a slice of the list's array.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// promotionRank is the rank (0-based) on which a pawn of each colour
// promotes: the sixth rank from its own side.
var promotionRank = [2]int{5, 2}

// targets returns the destination squares of the piece of colour c and type
// t on s, excluding squares occupied by own pieces.
func (p *Position) targets(c Color, t PieceType, s Square, occ Bitboard) Bitboard {
	if t == Pawn {
		return (pawnPushes[c][s] &^ occ) | (pawnAttacks[c][s] & p.byColor[c.Other()])
	}
	return p.game.Attacks(t, c, s, occ) &^ p.byColor[c]
}

// isLegal reports whether the pseudo-legal move from → to of the side to
// move leaves its own king unattacked.
func (p *Position) isLegal(from, to Square, king Square) bool {
	occ := p.Occupied()&^from.Bitboard() | to.Bitboard()
	if king == from {
		king = to
	}
	// The captured piece, if any, no longer attacks.
	return p.attackersOf(king, p.Side.Other(), occ, ^to.Bitboard()) == 0
}

// attackedBy returns every square attacked by colour c with the board
// occupied by occ.
func (p *Position) attackedBy(c Color, occ Bitboard) Bitboard {
	var a Bitboard
	for t := PieceType(0); t < NumPieceTypes; t++ {
		for pcs := p.Pieces(c, t); pcs != 0; {
			a |= p.game.Attacks(t, c, pcs.PopFirst(), occ)
		}
	}
	return a
}

// pinned returns the pieces of the side to move that stand alone between
// their king and an enemy rook (the only sliders in Makruk).
func (p *Position) pinned(king Square) Bitboard {
	var pins Bitboard
	occ := p.Occupied()
	for r := RookAttacks(king, 0) & p.Pieces(p.Side.Other(), Rook); r != 0; {
		b := between[king][r.PopFirst()] & occ
		if b != 0 && b&(b-1) == 0 && b&p.byColor[p.Side] != 0 {
			pins |= b
		}
	}
	return pins
}

// forEachLegal calls f for every legal move of the side to move until f
// returns false. The squares the other side attacks with the king lifted
// give the king's legal steps at once, and the evasion squares the other
// pieces' moves under a check (moveMask); only a pinned piece's moves are
// tested one by one.
func (p *Position) forEachLegal(f func(from, to Square, t PieceType) bool) {
	us := p.Side
	occ := p.Occupied()
	king := p.KingSquare(us)
	attacked := p.attackedBy(us.Other(), occ&^king.Bitboard())
	pins, mask := p.pinned(king), p.moveMask(king, attacked)
	for t := PieceType(0); t < NumPieceTypes; t++ {
		for pcs := p.Pieces(us, t); pcs != 0; {
			from := pcs.PopFirst()
			if t == King {
				for to := kingSteps[king] &^ p.byColor[us] &^ attacked; to != 0; {
					if !f(from, to.PopFirst(), t) {
						return
					}
				}
				continue
			}
			check := pins.Has(from)
			for to := p.targets(us, t, from, occ) & mask; to != 0; {
				dst := to.PopFirst()
				if check && !p.isLegal(from, dst, king) {
					continue
				}
				if !f(from, dst, t) {
					return
				}
			}
		}
	}
}

// moveMask returns the squares a piece other than the king of the side to
// move may go to, given attacked, what the other side attacks with that
// king lifted: anywhere out of check; under one check, the checking
// piece's square and the squares between it and the king (only a rook
// checks from afar); under two, nowhere. A pinned piece must still keep
// to its line.
func (p *Position) moveMask(king Square, attacked Bitboard) Bitboard {
	if !attacked.Has(king) {
		return ^Bitboard(0)
	}
	checkers := p.attackersOf(king, p.Side.Other(), p.Occupied(), ^Bitboard(0))
	if checkers&(checkers-1) != 0 {
		return 0
	}
	return checkers | between[king][checkers.First()]
}

// LegalMoves appends every legal move of the side to move to l.
func (p *Position) LegalMoves(l *MoveList) {
	promo := promotionRank[p.Side]
	p.forEachLegal(func(from, to Square, t PieceType) bool {
		m := NewMove(from, to)
		if t == Pawn && to.Rank() == promo {
			m |= promotionFlag
		}
		l.add(m)
		return true
	})
}

// CountLegalMoves returns the number of legal moves without listing them.
func (p *Position) CountLegalMoves() int {
	us := p.Side
	occ := p.Occupied()
	king := p.KingSquare(us)
	attacked := p.attackedBy(us.Other(), occ&^king.Bitboard())
	pins, mask := p.pinned(king), p.moveMask(king, attacked)
	n := (kingSteps[king] &^ p.byColor[us] &^ attacked).Count()
	for t := PieceType(0); t < King; t++ {
		for pcs := p.Pieces(us, t); pcs != 0; {
			from := pcs.PopFirst()
			to := p.targets(us, t, from, occ) & mask
			if !pins.Has(from) {
				n += to.Count()
				continue
			}
			for to != 0 {
				if p.isLegal(from, to.PopFirst(), king) {
					n++
				}
			}
		}
	}
	return n
}

// LegalCaptures appends the legal captures of the side to move to l and
// returns the number of its legal quiet moves (what a retrograde seed
// needs: captures leave the table, quiet moves are only counted).
func (p *Position) LegalCaptures(l *MoveList) (quiet int) {
	us, them := p.Side, p.byColor[p.Side.Other()]
	occ := p.Occupied()
	king := p.KingSquare(us)
	promo := promotionRank[us]
	add := func(from, to Square, t PieceType) {
		m := NewMove(from, to)
		if t == Pawn && to.Rank() == promo {
			m |= promotionFlag
		}
		l.add(m)
	}
	// The squares attacked with the king lifted: where it may not step,
	// and whether it stands in check now (lifting it blocks nothing on
	// the way to its own square).
	attacked := p.attackedBy(us.Other(), occ&^king.Bitboard())
	pins, mask := p.pinned(king), p.moveMask(king, attacked)
	kt := kingSteps[king] &^ p.byColor[us] &^ attacked
	quiet += (kt &^ them).Count()
	for caps := kt & them; caps != 0; {
		add(king, caps.PopFirst(), King)
	}
	for t := PieceType(0); t < King; t++ {
		for pcs := p.Pieces(us, t); pcs != 0; {
			from := pcs.PopFirst()
			targets := p.targets(us, t, from, occ) & mask
			if !pins.Has(from) {
				quiet += (targets &^ them).Count()
				for caps := targets & them; caps != 0; {
					add(from, caps.PopFirst(), t)
				}
				continue
			}
			for targets != 0 {
				to := targets.PopFirst()
				if !p.isLegal(from, to, king) {
					continue
				}
				if them.Has(to) {
					add(from, to, t)
				} else {
					quiet++
				}
			}
		}
	}
	return quiet
}

// HasLegalMove reports whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	found := false
	p.forEachLegal(func(Square, Square, PieceType) bool { found = true; return false })
	return found
}

// IsCheckmate reports whether the side to move is checkmated.
func (p *Position) IsCheckmate() bool { return p.InCheck(p.Side) && !p.HasLegalMove() }

// IsStalemate reports whether the side to move has no legal move and is not
// in check (a draw).
func (p *Position) IsStalemate() bool { return !p.InCheck(p.Side) && !p.HasLegalMove() }

// IsCapture reports whether m captures a piece.
func (p *Position) IsCapture(m Move) bool { return p.Occupied().Has(m.To()) }

// Play returns the position after the move m, which must be legal. The
// counting fields are left for the counting rules to advance; the move
// number advances after Black's move.
func (p Position) Play(m Move) Position {
	from, to := m.From(), m.To()
	c, t := p.PieceAt(from)
	p.Remove(to)
	p.Remove(from)
	if m.IsPromotion() {
		t = Met
	}
	p.Put(c, t, to)
	if p.Side == Black {
		p.Fullmove++
	}
	p.Side = p.Side.Other()
	return p
}

// ParseMove finds the legal move written in UCI notation (e.g. "e3e4").
func (p *Position) ParseMove(uci string) (Move, bool) {
	var l MoveList
	p.LegalMoves(&l)
	for _, m := range l.Slice() {
		if m.String() == strings.ToLower(uci) {
			return m, true
		}
	}
	return NoMove, false
}

// PerftContext is Perft that stops, with ctx's error, soon after ctx is
// done: a deep count runs for hours.
func (p *Position) PerftContext(ctx context.Context, depth int) (uint64, error) {
	if depth < perftCheckDepth {
		return p.Perft(depth), nil
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var l MoveList
	p.LegalMoves(&l)
	var n uint64
	for _, m := range l.Slice() {
		q := p.Play(m)
		sub, err := q.PerftContext(ctx, depth-1)
		if err != nil {
			return 0, err
		}
		n += sub
	}
	return n, nil
}

// perftCheckDepth is the least depth at which PerftContext looks at its
// context: a subtree below it takes milliseconds at most.
const perftCheckDepth = 4

// Perft counts the leaf nodes of the legal move tree of the given depth,
// counting the last ply in bulk.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return uint64(p.CountLegalMoves())
	}
	var l MoveList
	p.LegalMoves(&l)
	var n uint64
	for _, m := range l.Slice() {
		q := p.Play(m)
		n += q.Perft(depth - 1)
	}
	return n
}

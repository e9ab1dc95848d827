package tb

// Un-moves: the retrograde step. An un-move of a position P is a legal move m
// of some position Q with Q.Play(m) == P. The tables never need un-captures
// (a capture leaves the table, so its predecessors are found from the other
// side of the capture) nor un-promotions (they change the material), so
// UnMoves lists only the quiet moves that lead to P: the side that just
// moved (the side not to move in P) steps one of its pieces back to an empty
// square. Each piece steps back along its own move pattern reversed: for all
// pieces but the khon and the pawn that is the same pattern; a khon (or pawn)
// of colour c steps back the way a khon (pawn) of the other colour steps
// forward.

// UnMoves appends to l every quiet move m such that some legal position Q
// has m as a legal move and Q.Play(m) has the placement and side to move of
// p. Q is p.UnPlay(m).
func (p *Position) UnMoves(l *MoveList) {
	r := p.Retractor()
	for t := PieceType(0); t < NumPieceTypes; t++ {
		for pcs := p.Pieces(r.them, t); pcs != 0; {
			to := pcs.PopFirst()
			for origins := r.Origins(t, to); origins != 0; {
				l.add(NewMove(origins.PopFirst(), to))
			}
		}
	}
}

// Retractor finds the un-moves of one position piece by piece, for callers
// (the generator) that want them without a move list.
type Retractor struct {
	them     Color // the side that made the last move
	game     Game
	king     Square
	occ      Bitboard
	steppers Bitboard // non-rook pieces of them attacking the king
	rooks    Bitboard // rooks of them
}

// Retractor prepares the un-moves of p.
func (p *Position) Retractor() Retractor {
	us := p.Side
	king := p.KingSquare(us)
	occ := p.Occupied()
	return Retractor{
		them:     us.Other(),
		game:     p.game,
		king:     king,
		occ:      occ,
		steppers: p.attackersOf(king, us.Other(), occ, ^p.byType[Rook]),
		rooks:    p.Pieces(us.Other(), Rook),
	}
}

// Origins returns the empty squares from which the piece of type t on to
// (of the side that just moved) can have made a legal quiet move to to.
// The side to move must not be in check in the predecessor: attacks by
// other pieces stay (rooks may be blocked or unblocked), and the piece must
// not attack the king from its origin.
func (r *Retractor) Origins(t PieceType, to Square) Bitboard {
	if r.steppers&^to.Bitboard() != 0 {
		return 0 // another piece gives check: no un-move of this one helps
	}
	them, us, king := r.them, r.them.Other(), r.king
	var origins Bitboard
	switch t {
	case Pawn:
		// A pawn that is still a pawn was not promoted on this move; it
		// came from one square behind, off its starting rank.
		if to.Rank() != startRank[them] {
			origins = pawnPushes[us][to] &^ r.occ &^ pawnAttacks[us][king]
		}
	case Khon:
		steps := &elephantSteps[r.game][us]
		origins = steps[to] &^ r.occ &^ steps[king]
	case Rook:
		// A rook on the origin sees the king iff the king sees the origin.
		origins = RookAttacks(to, r.occ) &^ r.occ &^ RookAttacks(king, r.occ&^to.Bitboard())
	default:
		step := r.game.Attacks(t, them, to, 0)
		origins = step &^ r.occ &^ r.game.Attacks(t, us, king, 0)
	}
	// Other rooks on a line with the king: whether they check depends on
	// what the move vacated and blocked.
	lined := r.rooks &^ to.Bitboard() & rookLines[king]
	if lined == 0 {
		return origins
	}
	for b := origins; b != 0; {
		from := b.PopFirst()
		if rookSees(king, lined, r.occ^to.Bitboard()^from.Bitboard()) {
			origins &^= from.Bitboard()
		}
	}
	return origins
}

// rookSees reports whether any of the rooks, all on a line with s, has a
// clear path to s on the board occ.
func rookSees(s Square, rooks, occ Bitboard) bool {
	for rooks != 0 {
		if between[rooks.PopFirst()][s]&occ == 0 {
			return true
		}
	}
	return false
}

// startRank is each colour's pawn starting rank (0-based).
var startRank = [2]int{2, 5}

// UnPlay returns the position before the quiet un-move m (as listed by
// UnMoves): the piece on m.To() goes back to m.From() and the side to move
// changes. The counting fields are left alone.
func (p Position) UnPlay(m Move) Position {
	from, to := m.From(), m.To()
	c, t := p.PieceAt(to)
	p.Remove(to)
	p.Put(c, t, from)
	p.Side = p.Side.Other()
	if p.Side == Black && p.Fullmove > 1 {
		p.Fullmove--
	}
	return p
}

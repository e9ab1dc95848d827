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
	them := p.Side.Other() // the side that made the last move
	occ := p.Occupied()
	for t := PieceType(0); t < NumPieceTypes; t++ {
		for pcs := p.Pieces(them, t); pcs != 0; {
			to := pcs.PopFirst()
			var origins Bitboard
			switch t {
			case Pawn:
				// A pawn that is still a pawn was not promoted on this move;
				// it came from one square behind, off its starting rank.
				if to.Rank() != startRank[them] {
					origins = pawnPushes[them.Other()][to] &^ occ
				}
			case Khon:
				origins = khonSteps[them.Other()][to] &^ occ
			default:
				origins = Attacks(t, them, to, occ) &^ occ
			}
			for origins != 0 {
				from := origins.PopFirst()
				if p.unMoveIsLegal(from, to) {
					l.add(NewMove(from, to))
				}
			}
		}
	}
}

// startRank is each colour's pawn starting rank (0-based).
var startRank = [2]int{2, 5}

// unMoveIsLegal reports whether taking the piece on to back to the empty
// square from gives a legal position: the side to move in p must not be in
// check there (it would have been the side not to move).
func (p *Position) unMoveIsLegal(from, to Square) bool {
	us := p.Side
	king := p.KingSquare(us)
	occ := p.Occupied()&^to.Bitboard() | from.Bitboard()
	q := *p
	q.byColor[us.Other()] ^= from.Bitboard() | to.Bitboard()
	for t := range q.byType {
		if q.byType[t].Has(to) {
			q.byType[t] ^= from.Bitboard() | to.Bitboard()
			break
		}
	}
	return q.attackersOf(king, us.Other(), occ, ^Bitboard(0)) == 0
}

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

package tb

// Lane un-moves.
//
// A retrograde generator whose index runs one piece (the lane piece) over
// all 64 squares in consecutive entries can un-move the other pieces for
// all those entries at once: the lane piece only blocks lines, gives check
// or stands in the way. A LaneRetractor takes the position without the
// lane piece and answers, for one un-move from → to of another piece, the
// set of lane squares for which it is a legal un-move.

// LaneRetractor finds the un-moves of a position that lacks its lane
// piece, for every square of that piece at once.
type LaneRetractor struct {
	them      Color // the side that made the last move
	us        Color // the side to move, whose king must not be in check before it
	game      Game
	king      Square
	occ       Bitboard // the position without the lane piece
	steppers  Bitboard // non-rook pieces of them attacking the king
	rooks     Bitboard // rooks of them
	laneColor Color
	laneType  PieceType
	// laneFrom: where the lane piece, if it belongs to them, may have come
	// from as far as check goes (the squares it is on its way to are
	// Candidates).
	laneFrom Bitboard
}

// LaneRetractor prepares the un-moves of p, which lacks the lane piece of
// colour c and type t.
func (p *Position) LaneRetractor(c Color, t PieceType) LaneRetractor {
	us := p.Side
	king := p.KingSquare(us)
	occ := p.Occupied()
	r := LaneRetractor{
		them:      us.Other(),
		us:        us,
		game:      p.game,
		king:      king,
		occ:       occ,
		steppers:  p.attackersOf(king, us.Other(), occ, ^p.byType[Rook]),
		rooks:     p.Pieces(us.Other(), Rook),
		laneColor: c,
		laneType:  t,
	}
	if c == r.them && r.steppers == 0 {
		// Before the lane piece's move, the board is occ and the piece on
		// its origin: it may not attack the king, and must block every
		// rook that sees it.
		r.laneFrom = ^occ &^ p.game.Attacks(t, us, king, occ)
		for b := r.rooks & rookLines[king]; b != 0; {
			if path := between[b.PopFirst()][king]; path&occ == 0 {
				r.laneFrom &= path
			}
		}
	}
	return r
}

// LaneOrigins returns the squares from which the lane piece, on lane, came
// by a legal quiet move (none if it belongs to the side to move).
func (r *LaneRetractor) LaneOrigins(lane Square) Bitboard {
	if r.laneFrom == 0 {
		return 0
	}
	return r.Candidates(r.laneType, lane) & r.laneFrom
}

// Candidates returns the empty squares from which the piece of type t on
// to (of the side that just moved, not the lane piece) can step or slide to
// to, with the lane piece off the board and legality not yet tested.
func (r *LaneRetractor) Candidates(t PieceType, to Square) Bitboard {
	switch t {
	case Rook:
		return RookAttacks(to, r.occ) &^ r.occ
	case Khon:
		return elephantSteps[r.game][r.us][to] &^ r.occ
	}
	return r.game.Attacks(t, r.them, to, 0) &^ r.occ
}

// Lanes returns the squares of lanes (the lane piece's squares in the
// positions after the move) for which the piece of type t on to came from
// from (one of Candidates(t, to)) by a legal quiet move: the lane piece was
// not on its way, and the king of the side to move was not in check.
func (r *LaneRetractor) Lanes(t PieceType, from, to Square, lanes Bitboard) Bitboard {
	if r.steppers&^to.Bitboard() != 0 {
		return 0 // another piece gives check, whatever the lane piece does
	}
	king := r.king
	lanes &^= from.Bitboard()
	rooks := r.rooks
	if t == Rook {
		lanes &^= between[from][to]
		rooks ^= to.Bitboard() | from.Bitboard()
	} else if r.game.Attacks(t, r.us, king, 0).Has(from) {
		return 0 // a step from the square attacks the king
	}
	occ := r.occ&^to.Bitboard() | from.Bitboard()
	// A rook that sees the king is blocked only by the lane piece.
	for b := rooks & rookLines[king]; b != 0 && lanes != 0; {
		if path := between[b.PopFirst()][king]; path&occ == 0 {
			lanes &= path
		}
	}
	if r.laneColor == r.them {
		lanes &^= r.game.Attacks(r.laneType, r.us, king, occ)
	}
	return lanes
}

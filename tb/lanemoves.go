package tb

// Lane moves.
//
// The forward counterpart of LaneRetractor: a retrograde seed visits every
// position of a run (one lane piece over all free squares, the rest fixed)
// and needs each position's legal captures and number of quiet moves. Most
// of that work — what the other side attacks, which pieces are pinned, the
// targets of the leapers — does not depend on the lane piece, so LaneMoves
// does it once per run. For one lane it then only adds what the lane piece
// changes:
//
//   - the lane piece's own moves, if it belongs to the side to move; or its
//     attacks (squares the king may not step to, pieces it defends) and its
//     capture, if it belongs to the other side;
//   - the square it stands on (no longer a quiet target), and the rooks of
//     the side to move, whose lines it may cut (recomputed per lane).
//
// In check, the other pieces may only capture the checker or block it.
// Lanes where the piece changes more than that are generated in full:
// where it gives check; on a line of an enemy rook in front of the king, a
// square the king might step to or a piece it might capture (the piece
// would cut that attack: block a check, free a square, or stand pinned);
// on a pin, which it would break; and, for an enemy rook as lane piece, on
// the king's lines, where it might pin or check. Positions with pawns
// (whose pushes the piece could block) are always generated in full.

// laneMover is an unpinned piece (not the king) of the side to move.
type laneMover struct {
	from    Square
	t       PieceType
	targets Bitboard // with the prefix's occupancy; rooks recompute theirs
}

// LaneMoves lists the legal moves of a run's positions: a prefix lacking
// its lane piece, with that piece on each free square.
type LaneMoves struct {
	prefix    Position
	laneColor Color
	laneType  PieceType
	full      Bitboard // lanes generated in full (all of them: fullRun)
	fullRun   bool
	king      Square
	occ       Bitboard
	us, them  Bitboard
	attacked  Bitboard // by the side not to move, with the king lifted
	kingQuiet Bitboard // the king's legal quiet steps in the prefix
	kingCaps  Bitboard // the king's legal captures in the prefix
	evasions  Bitboard // where a piece must move to answer a check (all: no check)
	// The pinned pieces' legal moves: along the pin, so the lane piece,
	// off it in every fast lane, does not change them.
	pinnedQuiet int
	pinnedCaps  MoveList
	pinnedMoves MoveList // quiet moves and captures
	movers      [maxLaneMovers]laneMover
	numMovers   int
}

// maxLaneMovers bounds the pieces besides the king LaneMoves handles
// quickly; a side to move with more is generated in full.
const maxLaneMovers = 8

// LaneMoves prepares the legal moves of the run of p, which lacks the lane
// piece of colour c and type t (not a king).
func (p *Position) LaneMoves(c Color, t PieceType) LaneMoves {
	m := LaneMoves{prefix: *p, laneColor: c, laneType: t}
	us, them := p.Side, p.Side.Other()
	m.king = p.KingSquare(us)
	m.occ = p.Occupied()
	if t == King || t == Pawn || p.byType[Pawn] != 0 || m.king == NoSquare ||
		p.byColor[us].Count() > maxLaneMovers {
		m.fullRun = true
		return m
	}
	m.us, m.them = p.byColor[us], p.byColor[them]
	kingBB := m.king.Bitboard()
	// In check, a piece other than the king may only capture the checker
	// or step between (lanes between are generated in full, below).
	evasions := ^Bitboard(0)
	if checkers := p.attackersOf(m.king, them, m.occ, ^Bitboard(0)); checkers != 0 {
		evasions = 0
		if checkers.Count() == 1 {
			evasions = checkers | between[m.king][checkers.First()]
		}
	}
	m.evasions = evasions
	m.attacked = p.attackedBy(them, m.occ&^kingBB)
	m.kingQuiet = kingSteps[m.king] &^ m.occ &^ m.attacked
	m.kingCaps = kingSteps[m.king] & m.them &^ m.attacked

	var pinned Bitboard
	near := kingSteps[m.king] | kingBB
	for rooks := p.Pieces(them, Rook); rooks != 0; {
		r := rooks.PopFirst()
		// A piece on this rook's line cuts its attack on what lies behind:
		// squares the king might step to, pieces it might capture, the
		// king itself (the lane piece would block a check, or be pinned).
		for x := RookAttacks(r, m.occ&^kingBB) & near; x != 0; {
			m.full |= between[r][x.PopFirst()]
		}
		if !rookLines[m.king].Has(r) {
			continue
		}
		if b := between[m.king][r] & m.occ; b.Count() == 1 && b&m.us != 0 {
			pinned |= b
			m.full |= between[m.king][r]
		}
	}
	if c == us.Other() && t == Rook {
		m.full |= rookLines[m.king]
	}

	for t := PieceType(0); t < King; t++ {
		for pcs := p.Pieces(us, t); pcs != 0; {
			from := pcs.PopFirst()
			targets := p.targets(us, t, from, m.occ)
			if !pinned.Has(from) {
				targets &= evasions
				m.movers[m.numMovers] = laneMover{from, t, targets}
				m.numMovers++
				continue
			}
			for targets != 0 {
				to := targets.PopFirst()
				if !p.isLegal(from, to, m.king) {
					continue
				}
				m.pinnedMoves.add(NewMove(from, to))
				if m.them.Has(to) {
					m.pinnedCaps.add(NewMove(from, to))
				} else {
					m.pinnedQuiet++
				}
			}
		}
	}
	return m
}

// LegalCaptures is Position.LegalCaptures for the run's position with the
// lane piece on s, a free square: it appends the legal captures to l (in
// some order) and returns the number of legal quiet moves.
func (m *LaneMoves) LegalCaptures(s Square, l *MoveList) (quiet int) {
	lane := s.Bitboard()
	us, them := m.us, m.them
	occ := m.occ | lane
	kingQuiet, kingCaps := m.kingQuiet, m.kingCaps
	switch {
	case m.fullRun || m.full.Has(s):
		return m.generate(s, l)
	case m.laneColor == m.prefix.Side:
		us |= lane
		kingQuiet &^= lane
		targets := m.prefix.game.Attacks(m.laneType, m.laneColor, s, occ) &^ us & m.evasions
		quiet += (targets &^ them).Count()
		for caps := targets & them; caps != 0; {
			l.add(NewMove(s, caps.PopFirst()))
		}
	default:
		attacks := m.prefix.game.Attacks(m.laneType, m.laneColor, s, occ&^m.king.Bitboard())
		if attacks.Has(m.king) {
			return m.generate(s, l) // check
		}
		them |= lane
		kingQuiet &^= attacks | lane
		kingCaps &^= attacks
		if kingSteps[m.king].Has(s) && !m.attacked.Has(s) {
			kingCaps |= lane
		}
	}
	quiet += kingQuiet.Count() + m.pinnedQuiet
	for caps := kingCaps; caps != 0; {
		l.add(NewMove(m.king, caps.PopFirst()))
	}
	for _, c := range m.pinnedCaps.Slice() {
		l.add(c)
	}
	for _, mv := range m.movers[:m.numMovers] {
		targets := mv.reach(occ, m.evasions) &^ us
		quiet += (targets &^ them).Count()
		for caps := targets & them; caps != 0; {
			l.add(NewMove(mv.from, caps.PopFirst()))
		}
	}
	return quiet
}

// LegalMoves is Position.LegalMoves for the run's position with the lane
// piece on s, a free square: it appends the legal moves to l, each piece's
// together (in some order).
func (m *LaneMoves) LegalMoves(s Square, l *MoveList) {
	lane := s.Bitboard()
	us := m.us
	occ := m.occ | lane
	kingMoves := m.kingQuiet | m.kingCaps
	switch {
	case m.fullRun || m.full.Has(s):
		m.generateAll(s, l)
		return
	case m.laneColor == m.prefix.Side:
		us |= lane
		kingMoves &^= lane
		targets := m.prefix.game.Attacks(m.laneType, m.laneColor, s, occ) &^ us & m.evasions
		for targets != 0 {
			l.add(NewMove(s, targets.PopFirst()))
		}
	default:
		attacks := m.prefix.game.Attacks(m.laneType, m.laneColor, s, occ&^m.king.Bitboard())
		if attacks.Has(m.king) {
			m.generateAll(s, l) // check
			return
		}
		kingMoves &^= attacks
		if kingSteps[m.king].Has(s) && !m.attacked.Has(s) {
			kingMoves |= lane
		}
	}
	for kingMoves != 0 {
		l.add(NewMove(m.king, kingMoves.PopFirst()))
	}
	for _, mv := range m.pinnedMoves.Slice() {
		l.add(mv)
	}
	for _, mv := range m.movers[:m.numMovers] {
		for targets := mv.reach(occ, m.evasions) &^ us; targets != 0; {
			l.add(NewMove(mv.from, targets.PopFirst()))
		}
	}
}

// LaneCursor keeps the LaneMoves of the run a pass over a space of runs
// is in: a pass in index order meets a run's positions one after another
// and finds what they share once.
type LaneCursor struct {
	laneColor Color
	laneType  PieceType
	run       uint64
	moves     LaneMoves
}

// NewLaneCursor returns a cursor over runs whose lane piece has colour c
// and type t (not a king).
func NewLaneCursor(c Color, t PieceType) LaneCursor {
	return LaneCursor{laneColor: c, laneType: t, run: ^uint64(0)}
}

// Moves returns the LaneMoves of the run of p, a position whose lane
// piece stands on square, with run the run's number (the same for all
// its positions), and whether run differs from the last call's.
func (lc *LaneCursor) Moves(run uint64, square Square, p *Position) (*LaneMoves, bool) {
	if run == lc.run {
		return &lc.moves, false
	}
	lc.run = run
	prefix := *p
	prefix.Remove(square)
	lc.moves = prefix.LaneMoves(lc.laneColor, lc.laneType)
	return &lc.moves, true
}

// reach returns the mover's targets with the board occupied by occ, the
// lane piece placed: a rook's line may end on it.
func (mv *laneMover) reach(occ, evasions Bitboard) Bitboard {
	if mv.t == Rook {
		return RookAttacks(mv.from, occ) & evasions
	}
	return mv.targets
}

// generateAll lists every legal move of the lane's position the ordinary
// way.
func (m *LaneMoves) generateAll(s Square, l *MoveList) {
	p := m.prefix
	p.Put(m.laneColor, m.laneType, s)
	p.LegalMoves(l)
}

// generate lists the moves of the lane's position the ordinary way.
func (m *LaneMoves) generate(s Square, l *MoveList) int {
	p := m.prefix
	p.Put(m.laneColor, m.laneType, s)
	return p.LegalCaptures(l)
}

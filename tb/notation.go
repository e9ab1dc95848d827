package tb

// SAN returns the legal move m of p in the short notation Makruk players
// read, as chess's algebraic notation: the piece's letter (K, M, S, N,
// R; none for a pawn, whose capture names its file), the file, else the
// rank, else both of the piece's square when another piece of the kind
// could go there too, x for a capture, the destination, =M for a pawn
// that becomes a Met, and + for check or # for mate. E.g. Rb1, Nxc6,
// Sdc3, Ke2#.
func (p *Position) SAN(m Move) string {
	from, to := m.From(), m.To()
	_, t := p.PieceAt(from)
	capture := p.Occupied().Has(to)
	var s []byte
	if t == Pawn {
		if capture {
			s = append(s, "abcdefgh"[from.File()], 'x')
		}
	} else {
		s = append(s, p.game.Letter(t))
		if t != King {
			s = append(s, p.disambiguation(m, t)...)
		}
		if capture {
			s = append(s, 'x')
		}
	}
	s = append(s, to.String()...)
	if m.IsPromotion() {
		s = append(s, "=M"...)
	}
	after := p.Play(m)
	if after.InCheck(after.Side) {
		if after.HasLegalMove() {
			s = append(s, '+')
		} else {
			s = append(s, '#')
		}
	}
	return string(s)
}

// disambiguation returns what tells m's piece (of type t) from the others
// of its kind that could make a legal move to the same square: its file
// when that is enough, else its rank, else both; nothing when it is alone.
func (p *Position) disambiguation(m Move, t PieceType) string {
	from, to := m.From(), m.To()
	var l MoveList
	p.LegalMoves(&l)
	sameFile, sameRank, others := false, false, false
	for _, o := range l.Slice() {
		if o.To() != to || o.From() == from || o.IsPromotion() != m.IsPromotion() {
			continue
		}
		if _, ot := p.PieceAt(o.From()); ot != t {
			continue
		}
		others = true
		sameFile = sameFile || o.From().File() == from.File()
		sameRank = sameRank || o.From().Rank() == from.Rank()
	}
	sq := from.String()
	switch {
	case !others:
		return ""
	case !sameFile:
		return sq[:1]
	case !sameRank:
		return sq[1:]
	}
	return sq
}

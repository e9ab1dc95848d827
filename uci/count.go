package uci

import (
	"fmt"
	"sort"
	"strings"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// Dialect is the way Fairy-Stockfish keeps the honour count of one of its
// variants. Its count is a pair of FEN fields, a limit and a ply, kept
// through the moves of a game by a small state machine (its
// Position::do_move and Position::count_limit), which this file restates:
//
//   - No count runs (limit 0) until, after some move, the side to move may
//     count; the count then starts with that side to move: board's honour
//     at ply 0 when it has pieces, pieces' honour at twice the number of
//     pieces on the board when it has only its king.
//   - Every move adds a ply to a running count.
//   - A capture or promotion that leaves the side to move with only its
//     king starts a fresh pieces' count, and a bare king that captures the
//     last pawn starts one for itself (at one ply less).
//   - A side may count when the other still has pieces, and no pawn is on
//     the board (cambodian: for board's honour pawns do not matter, but a
//     side with more than three pieces may not count).
//
// So a position given with no count ("-") starts its count only after the
// next move, not in the position itself as honour.Rules.FreshCount has it.
type Dialect struct {
	// Variant is the UCI_Variant name.
	Variant string
	// Rules are the limits (in plies) of the variant's counting rule.
	Rules honour.Rules
	// StartFEN is the variant's start position.
	StartFEN string
	// cambodian: board's honour may count with pawns on the board, a
	// king and a Met have a first move of their own (the FEN's third
	// field), and no count passes the board's honour limit.
	cambodian bool
}

var dialects = []Dialect{
	{Variant: "makruk", Rules: honour.ThaiRules, StartFEN: "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"},
	{Variant: "cambodian", Rules: honour.CambodianRules, StartFEN: "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1", cambodian: true},
}

// DialectOf returns the dialect of a UCI_Variant (case-insensitive), and
// false for a variant whose counts the tables do not model.
func DialectOf(variant string) (*Dialect, bool) {
	for i := range dialects {
		if strings.EqualFold(dialects[i].Variant, variant) {
			return &dialects[i], true
		}
	}
	return nil, false
}

// Variants returns the names of the variants the tables answer.
func Variants() []string {
	var names []string
	for _, d := range dialects {
		names = append(names, d.Variant)
	}
	sort.Strings(names)
	return names
}

// Count is Fairy-Stockfish's count of a position: Limit and Ply in plies,
// Limit 0 when no count runs. A running count draws the game when Ply
// passes Limit and the side to move is not checkmated.
type Count struct {
	Limit, Ply int
}

// Running reports whether a count runs.
func (c Count) Running() bool { return c.Limit > 0 }

// Expired reports whether the count has passed its limit: the game is a
// draw unless the side to move is checkmated.
func (c Count) Expired() bool { return c.Limit > 0 && c.Ply > c.Limit }

func (c Count) String() string {
	if !c.Running() {
		return "-"
	}
	return fmt.Sprintf("%d/%d", c.Ply, c.Limit)
}

// countOfFEN returns the count a FEN's fields give p, as Fairy-Stockfish
// reads them: the limit from the fourth field, the ply from the fifth. A
// cambodian limit never passes the board's honour (a FEN's 128 counts as
// 126: its counting_limit).
func (d *Dialect) countOfFEN(p *tb.Position) Count {
	if p.CountLimit == tb.NoCount || p.CountLimit == 0 {
		return Count{}
	}
	c := Count{Limit: p.CountLimit, Ply: p.CountPly}
	if d.cambodian {
		c.Limit = min(c.Limit, d.Rules.BoardPlies)
	}
	return c
}

// limitFor is the limit in plies of a count that side would start in p,
// 0 when it may not count (Fairy-Stockfish's count_limit).
func (d *Dialect) limitFor(m tb.Material, side tb.Color) int {
	own, other := m.SidePieces(side), m.SidePieces(side.Other())
	switch {
	case other == 0:
		return 0
	case d.Rules.BoardCounters > 0 && 1+own > d.Rules.BoardCounters:
		return 0
	case own > 0:
		if m.HasPawns() && !d.cambodian {
			return 0
		}
		return d.Rules.BoardPlies
	case m.HasPawns():
		return 0
	}
	return d.Rules.PiecesLimitFor(m, side)
}

// Next returns the count after the legal move mv is played from p, whose
// count is c.
func (d *Dialect) Next(p *tb.Position, mv tb.Move, c Count) Count {
	_, captured := p.PieceAt(mv.To())
	q := p.Play(mv)
	m := tb.MaterialOf(&q)
	mover, toMove := p.Side, q.Side
	if c.Running() {
		c.Ply++
	}
	if captured == tb.Pawn && m.SidePieces(mover) == 0 && !m.HasPawns() {
		if limit := d.limitFor(m, mover); limit > 0 {
			c = Count{Limit: limit, Ply: 2*m.Pieces() - 1}
		}
	}
	if captured != tb.NoPiece && captured != tb.Pawn && c.Running() && m.SidePieces(mover) == 0 &&
		d.Rules.BareKingCapture == honour.CaptureRestarts && !m.HasPawns() && m.Pieces() > 2 {
		// Rules where a capture by the bare king starts a new count: the
		// count of the material left, as a fresh one would start.
		if limit := d.limitFor(m, mover); limit > 0 {
			c = Count{Limit: limit, Ply: d.Rules.FreshCountFor(m, toMove).Ply}
		}
	}
	baredNow := (captured != tb.NoPiece || mv.IsPromotion()) && m.SidePieces(toMove) == 0
	if !c.Running() || baredNow {
		if limit := d.limitFor(m, toMove); limit > 0 {
			ply := 0
			if m.SidePieces(toMove) == 0 {
				ply = 2 * m.Pieces()
			}
			c = Count{Limit: limit, Ply: ply}
		}
	}
	return c
}

// honourCount translates Fairy-Stockfish's count c of the pawnless
// position q into the count the tables judge by. It returns false when the
// count that will run depends on the next move (a bare king to move with
// no count running, or a side to move whose opponent may not count): the
// caller then judges q by its moves.
func (d *Dialect) honourCount(q *tb.Position, c Count) (honour.Count, bool) {
	m := tb.MaterialOf(q)
	bare, oneBare := honour.Bare(m)
	kind := honour.BoardCount
	switch {
	case m.Pieces() == 2:
		return honour.Count{Kind: honour.NoCountKind}, true
	case oneBare:
		kind = honour.PiecesCount
	}
	if c.Running() {
		return honour.Count{Kind: kind, Limit: c.Limit, Ply: c.Ply}, true
	}
	switch {
	case oneBare && q.Side != bare:
		// The count starts after the strong side's move at twice the
		// pieces: a fresh count, which counts that move.
		return d.Rules.FreshCountFor(m, q.Side), d.Rules.Start == honour.StartAll
	case !oneBare && d.limitFor(m, q.Side.Other()) > 0:
		// The count starts at ply 0 after the move.
		return honour.Count{Kind: honour.BoardCount, Limit: d.Rules.BoardPlies, Ply: -1}, true
	}
	return honour.Count{}, false
}

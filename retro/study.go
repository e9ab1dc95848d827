package retro

import (
	"context"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// Study counts, over the full board (every legal placement once, as
// ComputeStats counts), the positions people study for technique:
//
//   - mutual zugzwangs: placements legal with both sides to move where the
//     side to move would be better off if it were the other side's turn —
//     whoever moves loses; White to move loses and Black to move draws;
//     White to move draws and Black to move loses;
//   - single winning moves: positions won for the side to move in which
//     exactly one legal move (captures included) leaves the opponent lost.
type Study struct {
	Material string `json:"material"`
	// Rules names the count the study was made under ("none": plain mate
	// results; the counts under a count are not made yet).
	Rules             string            `json:"rules"`
	MutualZugzwangs   MutualZugzwangs   `json:"mutual_zugzwangs"`
	SingleWinningMove map[string]uint64 `json:"single_winning_move"` // by side to move, "w" and "b"
	Wins              map[string]uint64 `json:"wins"`                // won positions, by side to move
	// Examples lists up to the number asked of each kind, hardest first.
	Examples []StudyExample `json:"examples,omitempty"`
}

// MutualZugzwangs counts the mutual zugzwangs of a material by type.
type MutualZugzwangs struct {
	WhoeverMovesLoses                uint64 `json:"whoever_moves_loses"`
	WhiteToMoveLosesBlackToMoveDraws uint64 `json:"white_to_move_loses_black_to_move_draws"`
	WhiteToMoveDrawsBlackToMoveLoses uint64 `json:"white_to_move_draws_black_to_move_loses"`
}

// studyPart is one king pair and side's share of a Study.
type studyPart struct {
	zugzwangs    MutualZugzwangs
	single, wins uint64
	examples     map[string][]example
}

// Example kinds, as Study.Examples names them.
const (
	KindWhoeverMovesLoses   = "whoever_moves_loses"
	KindWhiteLosesBlackDraw = "white_to_move_loses_black_to_move_draws"
	KindWhiteDrawsBlackLoss = "white_to_move_draws_black_to_move_loses"
	KindSingleWhite         = "single_winning_move_w"
	KindSingleBlack         = "single_winning_move_b"
)

// StudyExample is a position of one kind: a mutual zugzwang with the side
// to move that loses to move (Black to move for the third kind), or a win
// with its single winning move.
type StudyExample struct {
	FEN  string `json:"fen"`
	Kind string `json:"kind"`
	// DTM is the mate distance in plies of the position (from its side to
	// move's point of view: a loss for a zugzwang's side to move).
	DTM  int    `json:"dtm"`
	Move string `json:"move,omitempty"` // the single winning move (SAN)
}

// example is a candidate example: its index and side to move.
type example struct {
	index uint64
	side  tb.Color
	plies int
	kind  string
}

// keepLongest adds e to list (at most n, longest first).
func keepLongest(list []example, e example, n int) []example {
	if n <= 0 || len(list) == n && list[n-1].plies >= e.plies {
		return list
	}
	at := len(list)
	for at > 0 && list[at-1].plies < e.plies {
		at--
	}
	list = append(list, example{})
	copy(list[at+1:], list[at:])
	list[at] = e
	if len(list) > n {
		list = list[:n]
	}
	return list
}

// ComputeStudy computes the Study of a table whose both sides are in
// memory, its captures resolved through the sub-tables src gives, with up
// to examples positions of each kind, hardest (longest mate) first.
func ComputeStudy(ctx context.Context, table *Table, src Source, opts Options, examples int) (*Study, error) {
	_, resolvers, err := resolversOf([]Check{{Table: table, DTM: src}})
	if err != nil {
		return nil, err
	}
	space := table.Space
	parts := make([][2]studyPart, space.KingPairs())
	err = forKingPairs(ctx, space, &opts, StageStats, 0, func(side tb.Color, k int) {
		part := &parts[k][side]
		part.examples = map[string][]example{}
		keep := func(kind string, i uint64, side tb.Color, plies int) {
			part.examples[kind] = keepLongest(part.examples[kind], example{i, side, plies, kind}, examples)
		}
		var moves tb.MoveList
		space.Walk(k, side, func(i uint64, p *tb.Position) {
			n := uint64(space.Multiplicity(p))
			v := table.Values[side].At(i)
			if side == tb.White && !p.InCheck(tb.White) {
				// The placement is legal with Black to move too: once, here.
				switch b := table.Values[tb.Black].At(i); {
				case v.IsLoss() && b.IsLoss():
					part.zugzwangs.WhoeverMovesLoses += n
					keep(KindWhoeverMovesLoses, i, tb.White, v.Plies())
				case v.IsLoss() && b == value.Draw:
					part.zugzwangs.WhiteToMoveLosesBlackToMoveDraws += n
					keep(KindWhiteLosesBlackDraw, i, tb.White, v.Plies())
				case v == value.Draw && b.IsLoss():
					part.zugzwangs.WhiteToMoveDrawsBlackToMoveLoses += n
					keep(KindWhiteDrawsBlackLoss, i, tb.Black, b.Plies())
				}
			}
			if !v.IsWin() {
				return
			}
			part.wins += n
			moves.N = 0
			p.LegalMoves(&moves)
			if winningMoves(table, resolvers[0], p, i, k, moves.Slice(), 2) == 1 {
				part.single += n
				kind := KindSingleWhite
				if side == tb.Black {
					kind = KindSingleBlack
				}
				keep(kind, i, side, v.Plies())
			}
		})
	})
	if err != nil {
		return nil, err
	}
	st := &Study{Material: space.Material().String(), Rules: "none", SingleWinningMove: map[string]uint64{}, Wins: map[string]uint64{}}
	all := map[string][]example{}
	for k := range parts {
		for side := tb.White; side <= tb.Black; side++ {
			part := parts[k][side]
			z := &st.MutualZugzwangs
			z.WhoeverMovesLoses += part.zugzwangs.WhoeverMovesLoses
			z.WhiteToMoveLosesBlackToMoveDraws += part.zugzwangs.WhiteToMoveLosesBlackToMoveDraws
			z.WhiteToMoveDrawsBlackToMoveLoses += part.zugzwangs.WhiteToMoveDrawsBlackToMoveLoses
			st.SingleWinningMove[side.String()] += part.single
			st.Wins[side.String()] += part.wins
			for kind, list := range part.examples {
				for _, e := range list {
					all[kind] = keepLongest(all[kind], e, examples)
				}
			}
		}
	}
	for _, kind := range []string{KindWhoeverMovesLoses, KindWhiteLosesBlackDraw, KindWhiteDrawsBlackLoss, KindSingleWhite, KindSingleBlack} {
		for _, e := range all[kind] {
			p, _ := space.Position(e.index, e.side)
			ex := StudyExample{FEN: p.FEN(), Kind: kind, DTM: e.plies}
			if kind == KindSingleWhite || kind == KindSingleBlack {
				ex.Move = p.SAN(singleWinningMove(table, resolvers[0], &p, e.index))
			}
			st.Examples = append(st.Examples, ex)
		}
	}
	return st, nil
}

// singleWinningMove returns the move of p (index i) that leaves the
// opponent lost, the only one.
func singleWinningMove(table *Table, resolver captureValues, p *tb.Position, i uint64) tb.Move {
	var moves tb.MoveList
	p.LegalMoves(&moves)
	k := table.Space.KingPairOf(i)
	for _, m := range moves.Slice() {
		if winningMoves(table, resolver, p, i, k, []tb.Move{m}, 1) == 1 {
			return m
		}
	}
	return 0
}

// winningMoves counts the moves of p (index i, king pair k) that leave the
// opponent lost, up to enough (it stops there).
func winningMoves(table *Table, resolver captureValues, p *tb.Position, i uint64, k int, moves []tb.Move, enough int) int {
	space := table.Space
	other := p.Side.Other()
	n := 0
	for _, m := range moves {
		var v value.Value
		if c, t := p.PieceAt(m.To()); t != tb.NoPiece {
			v = captureValue(resolver, p, m, c, t)
		} else {
			j, _ := space.MovedIndex(i, k, p, m.From(), m.To())
			v = table.Values[other].At(j)
		}
		if v.IsLoss() {
			if n++; n == enough {
				break
			}
		}
	}
	return n
}

package retro

import (
	"context"
	"fmt"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
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
//     exactly one legal move (captures included) leaves the opponent lost;
//   - under a count (StudyOptions.Rules, a fresh count starting now),
//     the count-critical positions: won inside the count, where exactly
//     one move keeps the win inside the count; and the cursed wins, with
//     those whose mate comes fewer than Close plies too late. Board's
//     honour is judged by DTB (StudyOptions.DTB): its goals, not the
//     mate, must come inside the count.
type Study struct {
	Material string `json:"material"`
	// Rules names the count the study was made under ("none": plain mate
	// results only).
	Rules             string            `json:"rules"`
	MutualZugzwangs   MutualZugzwangs   `json:"mutual_zugzwangs"`
	SingleWinningMove map[string]uint64 `json:"single_winning_move"` // by side to move, "w" and "b"
	Wins              map[string]uint64 `json:"wins"`                // won positions, by side to move
	// Under a count, by side to move: the wins inside it, those where one
	// move only keeps it, the cursed wins, and those short by fewer than
	// Close plies.
	WinsInsideCount map[string]uint64 `json:"wins_inside_count,omitempty"`
	CountCritical   map[string]uint64 `json:"count_critical,omitempty"`
	CursedWins      map[string]uint64 `json:"cursed_wins,omitempty"`
	Close           int               `json:"close,omitempty"`
	CloseCursedWins map[string]uint64 `json:"close_cursed_wins,omitempty"`
	// Examples lists up to the number asked of each kind, hardest first.
	Examples []StudyExample `json:"examples,omitempty"`
	// Game is "shatranj" for a Shatranj table, empty for Makruk's.
	Game string `json:"game,omitempty"`
}

// StudyOptions chooses what ComputeStudy adds to the plain counts.
type StudyOptions struct {
	Examples int           // examples of each kind, hardest first
	Rules    *honour.Rules // a count to judge under (nil: none)
	Close    int           // plies: a cursed win short by fewer is close
	// Under board's honour (both sides with pieces), the count is judged
	// by DTB: DTB is the material's table under Rules, both sides in
	// memory, and DTBFiles gives the DTB files (same rules) of the
	// sub-materials where both sides still have pieces.
	DTB      *Table
	DTBFiles BoardSource
}

// MutualZugzwangs counts the mutual zugzwangs of a material by type.
type MutualZugzwangs struct {
	WhoeverMovesLoses                uint64 `json:"whoever_moves_loses"`
	WhiteToMoveLosesBlackToMoveDraws uint64 `json:"white_to_move_loses_black_to_move_draws"`
	WhiteToMoveDrawsBlackToMoveLoses uint64 `json:"white_to_move_draws_black_to_move_loses"`
}

// studyPart is one king pair and side's share of a Study.
type studyPart struct {
	zugzwangs                            MutualZugzwangs
	single, wins                         uint64
	insideCount, critical, cursed, close uint64
	examples                             map[string][]example
}

// Example kinds, as Study.Examples names them.
const (
	KindWhoeverMovesLoses   = "whoever_moves_loses"
	KindWhiteLosesBlackDraw = "white_to_move_loses_black_to_move_draws"
	KindWhiteDrawsBlackLoss = "white_to_move_draws_black_to_move_loses"
	KindSingleWhite         = "single_winning_move_w"
	KindSingleBlack         = "single_winning_move_b"
	KindCountCritical       = "count_critical_" // + "w" or "b"
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
func ComputeStudy(ctx context.Context, table *Table, src Source, opts Options, so StudyOptions) (*Study, error) {
	space := table.Space
	examples := so.Examples
	r := so.Rules
	var fresh [2]honour.Count
	_, resolvers, err := resolversOf([]Check{{Table: table, DTM: src}})
	if err != nil {
		return nil, err
	}
	var judge *countJudge
	if r != nil {
		m := space.Material()
		if judge, err = newCountJudge(table, resolvers[0], src, so); err != nil {
			return nil, err
		}
		for side := tb.White; side <= tb.Black; side++ {
			fresh[side] = r.FreshCountFor(m, side)
		}
	}
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
			if judge != nil {
				j, d := judge.position(v, side, i, fresh[side])
				switch j {
				case honour.Win:
					part.insideCount += n
					if judge.keepers(fresh[side], p, i, k, moves.Slice()) == 1 {
						part.critical += n
						keep(KindCountCritical+side.String(), i, side, v.Plies())
					}
				case honour.CursedWin:
					part.cursed += n
					if d.IsWin() && fresh[side].Binds(true) && d.Plies()-r.MatingPlies(fresh[side]) < so.Close {
						part.close += n
					}
				}
			}
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
	st := &Study{Material: space.Game().MaterialName(space.Material()), Rules: "none", SingleWinningMove: map[string]uint64{}, Wins: map[string]uint64{}}
	if space.Game() != tb.Makruk {
		st.Game = space.Game().String()
	}
	all := map[string][]example{}
	if r != nil {
		st.Rules, st.Close = r.Name, so.Close
		st.WinsInsideCount = map[string]uint64{"w": 0, "b": 0}
		st.CountCritical = map[string]uint64{"w": 0, "b": 0}
		st.CursedWins = map[string]uint64{"w": 0, "b": 0}
		st.CloseCursedWins = map[string]uint64{"w": 0, "b": 0}
	}
	for k := range parts {
		for side := tb.White; side <= tb.Black; side++ {
			part := parts[k][side]
			z := &st.MutualZugzwangs
			z.WhoeverMovesLoses += part.zugzwangs.WhoeverMovesLoses
			z.WhiteToMoveLosesBlackToMoveDraws += part.zugzwangs.WhiteToMoveLosesBlackToMoveDraws
			z.WhiteToMoveDrawsBlackToMoveLoses += part.zugzwangs.WhiteToMoveDrawsBlackToMoveLoses
			st.SingleWinningMove[side.String()] += part.single
			st.Wins[side.String()] += part.wins
			if r != nil {
				st.WinsInsideCount[side.String()] += part.insideCount
				st.CountCritical[side.String()] += part.critical
				st.CursedWins[side.String()] += part.cursed
				st.CloseCursedWins[side.String()] += part.close
			}
			for kind, list := range part.examples {
				for _, e := range list {
					all[kind] = keepLongest(all[kind], e, examples)
				}
			}
		}
	}
	for _, kind := range []string{KindWhoeverMovesLoses, KindWhiteLosesBlackDraw, KindWhiteDrawsBlackLoss, KindSingleWhite, KindSingleBlack, KindCountCritical + "w", KindCountCritical + "b"} {
		for _, e := range all[kind] {
			p, _ := space.Position(e.index, e.side)
			ex := StudyExample{FEN: p.FEN(), Kind: kind, DTM: e.plies}
			switch kind {
			case KindSingleWhite, KindSingleBlack:
				ex.Move = p.SAN(singleWinningMove(table, resolvers[0], &p, e.index))
			case KindCountCritical + "w", KindCountCritical + "b":
				ex.Move = p.SAN(judge.keeper(fresh[e.side], &p, e.index))
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

// moveValue returns the value of the position after move m of p (index
// i, king pair k), for the side to move there.
func moveValue(table *Table, resolver captureValues, p *tb.Position, i uint64, k int, m tb.Move) value.Value {
	if c, t := p.PieceAt(m.To()); t != tb.NoPiece {
		return captureValue(resolver, p, m, c, t)
	}
	j, _ := table.Space.MovedIndex(i, k, p, m.From(), m.To())
	return table.Values[p.Side.Other()].At(j)
}

// winningMoves counts the moves of p (index i, king pair k) that leave the
// opponent lost, up to enough (it stops there).
func winningMoves(table *Table, resolver captureValues, p *tb.Position, i uint64, k int, moves []tb.Move, enough int) int {
	n := 0
	for _, m := range moves {
		if moveValue(table, resolver, p, i, k, m).IsLoss() {
			if n++; n == enough {
				break
			}
		}
	}
	return n
}

// countJudge judges wins under a fresh count: pieces' honour from the DTM
// table, board's honour from the DTB table (a goal inside the count: mate,
// or a capture that bares the opponent into a win inside the fresh pieces'
// count).
type countJudge struct {
	rules    *honour.Rules
	table    *Table // the DTM table, or the DTB table under board's honour
	resolver captureValues
	board    bool
}

// newCountJudge returns the judge of table's material under so.Rules.
func newCountJudge(table *Table, resolver captureValues, src Source, so StudyOptions) (*countJudge, error) {
	m, r := table.Material(), so.Rules
	if !honour.HasBoardHonour(m) || r.BoardPlies <= 0 {
		return &countJudge{rules: r, table: table, resolver: resolver}, nil
	}
	if so.DTB == nil || so.DTBFiles == nil {
		return nil, fmt.Errorf("%s under %s rules: board's honour decides it, which needs its DTB table %s.%s", m, r.Name, m, r.Name)
	}
	if so.DTB.Material() != m {
		return nil, fmt.Errorf("DTB table of %s given for %s", so.DTB.Material(), m)
	}
	board, err := loadBoardCaptures(m, honour.OwnFile, r, src, so.DTBFiles)
	if err != nil {
		return nil, err
	}
	return &countJudge{rules: r, table: so.DTB, resolver: board, board: true}, nil
}

// position returns the category of a position (index i, side to move)
// of DTM value v under count c, and the value it is judged by: v, or its
// DTB value.
func (cj *countJudge) position(v value.Value, side tb.Color, i uint64, c honour.Count) (honour.Category, value.Value) {
	if !cj.board {
		return cj.rules.Judge(v, c).Category, v
	}
	d := cj.table.Values[side].At(i)
	return cj.rules.JudgeBoard(v, d, c).Category, d
}

// keeps reports whether move m of p (index i, king pair k, count c) leaves
// the opponent lost inside the count that follows it.
func (cj *countJudge) keeps(c honour.Count, p *tb.Position, i uint64, k int, m tb.Move) bool {
	v := moveValue(cj.table, cj.resolver, p, i, k, m)
	if !v.IsLoss() {
		return false
	}
	next := cj.rules.Next(p, m, c)
	if cj.board {
		// A capture that bares a side is a goal reached (a loss in no
		// moves) or a draw; any other move goes on with the board's count,
		// which binds the mover's win unless the mover runs it (or none
		// runs).
		return next.Kind != honour.BoardCount || !next.Binds(false) || v.Plies() <= cj.rules.MatingPlies(next)
	}
	return cj.rules.Judge(v, next).Category == honour.Loss
}

// keepers counts, up to two, the moves of p that keep the win inside
// count c.
func (cj *countJudge) keepers(c honour.Count, p *tb.Position, i uint64, k int, moves []tb.Move) int {
	n := 0
	for _, m := range moves {
		if cj.keeps(c, p, i, k, m) {
			if n++; n == 2 {
				break
			}
		}
	}
	return n
}

// keeper returns the move of p (index i) that keeps the win inside count
// c, the only one.
func (cj *countJudge) keeper(c honour.Count, p *tb.Position, i uint64) tb.Move {
	var moves tb.MoveList
	p.LegalMoves(&moves)
	k := cj.table.Space.KingPairOf(i)
	for _, m := range moves.Slice() {
		if cj.keeps(c, p, i, k, m) {
			return m
		}
	}
	return 0
}

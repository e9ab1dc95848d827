package retro

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// MismatchError reports a stored value that differs from the value its
// successors give.
type MismatchError struct {
	Game       tb.Game // names the material (the zero value: Makruk)
	Material   tb.Material
	FEN        string
	Stored     value.Value
	Recomputed value.Value
	Count      int64 // mismatches found in total
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("verify %s: %d mismatches, first %s: stored %v, successors give %v",
		e.Game.MaterialName(e.Material), e.Count, e.FEN, e.Stored, e.Recomputed)
}

// Verify checks every legal position of a finished table against a one-ply
// search: the best of its moves, each looked up in this table (quiet moves)
// or in a sub-table (captures). It uses nothing of the generator's
// bookkeeping (counters, frontier, capture bounds), only the move
// generator and the index, whose shortcuts the index tests check against
// the full encoding. Progress, if set in opts, is reported under
// the stage "verify".
func Verify(ctx context.Context, table *Table, src Source, opts Options) error {
	return verifyOne(ctx, Check{Table: table, DTM: src}, opts)
}

// Check is one finished table for VerifyTogether: a DTM table (Rules nil)
// whose captures are read from the DTM sub-tables DTM gives, or a DTB table
// under Rules, whose captures read DTM (for the sub-materials with a bare
// side) and DTB (the DTB tables under Rules of the others).
type Check struct {
	Table    *Table
	Rules    *honour.Rules
	DTM, DTB Source
	// Variant is the DTB file checked (honour.Variant; the material's own
	// by default), and Boards, if not nil, gives DTB sub-tables by file
	// in place of DTB (a profile whose DTB files depend on who counts).
	Variant honour.Variant
	Boards  BoardSource
}

// VerifyTogether checks tables of one material, as Verify and VerifyDTB
// would, in one pass: each position is decoded and its moves generated and
// indexed once for all of them. It returns one error per check (nil, or a
// *MismatchError), and a second error if the pass could not run at all.
func VerifyTogether(ctx context.Context, checks []Check, opts Options) ([]error, error) {
	if len(checks) == 0 {
		return nil, nil
	}
	tables, resolvers, err := resolversOf(checks)
	if err != nil {
		return nil, err
	}
	return verify(ctx, tables, resolvers, opts)
}

// resolversOf returns the tables of checks (one material) and the capture
// resolvers of their sub-tables.
func resolversOf(checks []Check) ([]*Table, []captureValues, error) {
	m := checks[0].Table.Material()
	tables := make([]*Table, len(checks))
	resolvers := make([]captureValues, len(checks))
	for x, c := range checks {
		if c.Table.Material() != m {
			return nil, nil, fmt.Errorf("tables of %s and %s in one pass", m, c.Table.Material())
		}
		tables[x] = c.Table
		var err error
		if c.Rules == nil {
			resolvers[x], err = loadSubTables(c.Table.Space.Game(), m, c.DTM)
		} else {
			boards := c.Boards
			if boards == nil {
				boards = OwnFiles(c.DTB)
			}
			resolvers[x], err = loadBoardCaptures(m, c.Variant, c.Rules, c.DTM, boards)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return tables, resolvers, nil
}

// verifyOne runs VerifyTogether for a single check.
func verifyOne(ctx context.Context, c Check, opts Options) error {
	errs, err := VerifyTogether(ctx, []Check{c}, opts)
	if err != nil {
		return err
	}
	return errs[0]
}

// verify checks tables (one material, same index) with captures resolved
// by the matching resolvers.
func verify(ctx context.Context, tables []*Table, resolvers []captureValues, opts Options) ([]error, error) {
	space := tables[0].Space
	material := space.Material()
	counts := make([]atomic.Int64, len(tables))
	// The first mismatch in index order (White to move first), whatever
	// order the workers meet them in: the report does not depend on the
	// threads.
	firsts := make([]*MismatchError, len(tables))
	firstAt := make([]uint64, len(tables))
	var firstMu sync.Mutex
	// A side Derive computed is what this pass would compute: only the
	// sides some table stores are checked.
	stored := func(side tb.Color) bool {
		for _, t := range tables {
			if !t.Derived[side] {
				return true
			}
		}
		return false
	}
	err := oneMovePass(ctx, tables, resolvers, opts, StageVerify, stored, func(side tb.Color, i uint64, p *tb.Position, want []value.Value) {
		for x, table := range tables {
			if table.Derived[side] {
				continue
			}
			got := table.Values[side].At(i)
			if got == want[x] {
				continue
			}
			counts[x].Add(1)
			at := uint64(side)*space.Size() + i
			firstMu.Lock()
			if firsts[x] == nil || at < firstAt[x] {
				firsts[x] = &MismatchError{Game: space.Game(), Material: material, FEN: p.FEN(), Stored: got, Recomputed: want[x]}
				firstAt[x] = at
			}
			firstMu.Unlock()
		}
	})
	if err != nil {
		return nil, err
	}
	errs := make([]error, len(tables))
	for x, first := range firsts {
		if first != nil {
			first.Count = counts[x].Load()
			errs[x] = first
		}
	}
	return errs, nil
}

// oneMovePass calls fn for every legal position of tables' material
// whose side to move is one of sides, with the values its successors give
// it in each of tables (captures resolved by the matching resolvers), on
// the workers of opts, reporting progress under stage.
func oneMovePass(ctx context.Context, tables []*Table, resolvers []captureValues, opts Options, stage Stage, sides func(tb.Color) bool, fn func(side tb.Color, i uint64, p *tb.Position, want []value.Value)) error {
	space := tables[0].Space
	laneColor, laneType, runs := space.LanePiece()
	return forKingPairs(ctx, space, &opts, stage, 0, func(side tb.Color, k int) {
		if !sides(side) {
			return
		}
		var moves tb.MoveList
		var succ successors
		cursor := tb.NewLaneCursor(laneColor, laneType)
		if runs && !space.Tied(k) {
			succ.kings = &kingSteps{space: space, k: k, side: side}
		}
		want := make([]value.Value, len(tables))
		space.Walk(k, side, func(i uint64, p *tb.Position) {
			moves.N = 0
			if runs { // a run's common moves found once, as the seed finds them
				square := tb.Square(i % 64)
				lane, fresh := cursor.Moves(i/64, square, p)
				lane.LegalMoves(square, &moves)
				if fresh && succ.kings != nil {
					succ.kings.enter(i-uint64(square), square, p)
				}
			} else {
				p.LegalMoves(&moves)
			}
			oneMoveValues(tables, resolvers, p, i, k, moves.Slice(), want, &succ)
			fn(side, i, p, want)
		})
	})
}

// successors are where the moves of one position lead: its quiet moves
// to indices of the table's other side to move, its captures to sites in
// the sub-tables. oneMoveValues computes them once for all tables, into
// slices reused from position to position.
type successors struct {
	quiet    []uint64
	captures []captureSuccessor
	kings    *kingSteps // nil unless the pass walks the runs of a king pair not Tied
}

// kingSteps maps the king steps of the run a pass is in, each target once
// (index.Space.KingStepRun): a step that takes the kings out of the
// canonical region moves every piece, and the run it leads to is the same
// for all the run's positions; only the lane piece's square is mapped.
type kingSteps struct {
	space  *index.Space
	k      int
	side   tb.Color // the side to move, whose king steps
	run    uint64   // the run's first index
	prefix tb.Position
	known  tb.Bitboard // targets mapped in this run
	ok     tb.Bitboard // targets whose new king pair is not Tied
	to     [64]struct {
		run   uint64
		lanes index.LaneMap
	}
}

// enter starts the run whose first index is run, from p, one of its
// positions, with the lane piece on square.
func (ks *kingSteps) enter(run uint64, square tb.Square, p *tb.Position) {
	ks.run, ks.known, ks.ok = run, 0, 0
	ks.prefix = *p
	ks.prefix.Remove(square)
}

// index returns the index of the run's position whose lane piece stands
// on square after its king steps to the square to, and false when the
// kings land on a Tied pair (there the lane piece decides the orientation).
func (ks *kingSteps) index(to, square tb.Square) (uint64, bool) {
	if !ks.known.Has(to) {
		ks.known |= to.Bitboard()
		run, _, lanes, ok := ks.space.KingStepRun(ks.run, ks.k, &ks.prefix, ks.side, to)
		if ok {
			ks.ok |= to.Bitboard()
			ks.to[to].run, ks.to[to].lanes = run, lanes
		}
	}
	if !ks.ok.Has(to) {
		return 0, false
	}
	return ks.to[to].run + uint64(ks.to[to].lanes.Square(square)), true
}

// captureSuccessor is where a capture leads: the piece of colour c and
// type t taken, and the site of the position after it.
type captureSuccessor struct {
	site captureSite
	c    tb.Color
	t    tb.PieceType
}

// negatedRank[c] is value.Rank of the value a move gives a position when
// the position after it holds code c (below value.Overflow): the best move
// is the one of highest rank, and the rank says its value (FromRank).
var negatedRank = func() (r [value.Overflow]int32) {
	for c := range r {
		r[c] = int32(value.Rank(value.Value(c).Negate()))
	}
	return r
}()

// oneMoveValues sets best[x] to the value of p (index i, king pair k) from
// the values of its successors in tables[x], captures resolved by
// resolvers[x]. The successors are computed once for all tables, into
// succ; then each table keeps the best rank of its successors in a
// register, a quiet move's from a table of ranks by code.
func oneMoveValues(tables []*Table, resolvers []captureValues, p *tb.Position, i uint64, k int, moves []tb.Move, best []value.Value, succ *successors) {
	if len(moves) == 0 {
		mated := p.LostWithoutMove()
		for x := range best {
			best[x] = value.Draw
			if mated {
				best[x] = resolvers[x].mated(p.Side)
			}
		}
		return
	}
	space := tables[0].Space
	// Moves come grouped by piece: one Stepper serves all quiet moves of a
	// non-king piece (when the king pair allows the shortcut).
	var (
		from    = tb.NoSquare
		stepper index.Stepper
		step    bool
		king    bool
	)
	quiet, captures := succ.quiet[:0], succ.captures[:0]
	theirs := p.ByColor(p.Side.Other())
	for _, m := range moves {
		if theirs.Has(m.To()) {
			c, t := p.PieceAt(m.To())
			captures = append(captures, captureSuccessor{site: resolvers[0].site(p, m, c, t), c: c, t: t})
			continue
		}
		if m.From() != from {
			from = m.From()
			fc, ft := p.PieceAt(from)
			king = ft == tb.King
			step = !king && !space.Tied(k)
			if step {
				stepper = space.Stepper(i, space.GroupOf(fc, ft), p.Pieces(fc, ft), from)
			}
		}
		if step {
			quiet = append(quiet, stepper.To(m.To()))
			continue
		}
		if king && succ.kings != nil {
			if j, ok := succ.kings.index(m.To(), tb.Square(i%64)); ok {
				quiet = append(quiet, j)
				continue
			}
		}
		j, _ := space.MovedIndex(i, k, p, m.From(), m.To())
		quiet = append(quiet, j)
	}
	succ.quiet, succ.captures = quiet, captures
	other := p.Side.Other()
	for x, table := range tables {
		values := table.Values[other]
		codes := values.Codes()
		bestRank := int32(math.MinInt32)
		for _, j := range quiet {
			var r int32
			if c := codes[j]; c != value.Overflow {
				r = negatedRank[c]
			} else {
				r = int32(value.Rank(values.At(j).Negate()))
			}
			bestRank = max(bestRank, r)
		}
		for _, s := range captures {
			bestRank = max(bestRank, int32(value.Rank(resolvers[x].valueAt(s.c, s.t, s.site).Negate())))
		}
		best[x] = value.FromRank(int(bestRank))
	}
}

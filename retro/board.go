package retro

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// # Board's honour: DTB
//
// While both sides have pieces, Makruk's board's-honour count runs: limit
// r.BoardPlies, starting at 0, not reset by captures. When a capture leaves
// one side bare, a fresh pieces'-honour count replaces it. DTB is the
// minimax distance in plies to a goal that wins inside the count:
//
//   - checkmate (as in DTM), or
//   - a capture that bares the opponent into a position the capturer mates
//     inside the fresh pieces' count: DTM ≤ r.MatingPlies(fresh count).
//
// A capture that bares the opponent into anything else is a draw (the bare
// side cannot mate, and the count will not let the other side); a capture
// that bares no one continues the same count, so its value is the
// sub-table's DTB. The retrograde analysis is the one of DTM (seed,
// iterate) with captures resolved this way. A position wins inside a board
// count at ply c iff DTB ≤ r.MatingPlies(count); DTB wins are DTM wins, and
// a DTM win that is a DTB draw is a win only the count takes away (each
// goal is a mate the winner can force, but not every forced mate passes
// through a goal).

// boardCaptures resolves captures for DTB under rules: subs holds the DTM
// tables of the materials where one side is bare and the DTB tables of the
// others.
type boardCaptures struct {
	subs  *subTables
	rules *honour.Rules
	// the file generated (honour.Variant) of material m: whose mates are
	// draws
	material tb.Material
	variant  honour.Variant
}

func (b *boardCaptures) mated(side tb.Color) value.Value {
	return b.rules.MateValue(b.material, b.variant, side)
}

func (b *boardCaptures) site(p *tb.Position, m tb.Move, c tb.Color, t tb.PieceType) captureSite {
	return b.subs.site(p, m, c, t)
}

func (b *boardCaptures) valueAt(c tb.Color, t tb.PieceType, s captureSite) value.Value {
	v := b.subs.valueAt(c, t, s)
	after := b.subs.after[c][t]
	if honour.HasBoardHonour(after) {
		return v // the board count goes on: the sub-table's DTB
	}
	// The capture bared side c, to move now under a fresh pieces' count
	// (or KvK, which draws).
	return b.rules.BaringCapture(after, c, v)
}

// GoalsIncluded reports whether every DTB goal under narrow is a goal
// under wide, in m and in every material its captures lead to. Then a
// narrow DTB win is a wide DTB win (the winner's narrow strategy reaches
// goals of both; the loser's escapes end in narrow wins, so in wide wins
// too) and a narrow loss a wide loss, so a wide DTB draw is a narrow DTB
// draw: GenerateDTB under narrow may take those draws from the wide table
// (Options.Draws). Thai includes cambodian: its limits are a move longer.
func GoalsIncluded(narrow, wide *honour.Rules, m tb.Material) bool {
	if wide.MatesDraw() {
		return false // its files leave out the counting side's mates, and depend on who counts
	}
	for _, x := range Dependencies(tb.Makruk, m) {
		for c := tb.White; c <= tb.Black; c++ {
			for t := tb.Rook; t <= tb.Met; t++ {
				if x.Count(c, t) == 0 {
					continue
				}
				after := x
				after.Counts[c][t]--
				if honour.HasBoardHonour(after) || after.SidePieces(c.Other()) == 0 {
					continue // the board count goes on, or only the kings are left
				}
				n, nUnlimited := narrow.GoalPlies(after, c)
				w, wUnlimited := wide.GoalPlies(after, c)
				if !wUnlimited && (nUnlimited || n > w) {
					return false
				}
			}
		}
	}
	return true
}

// BoardSource gives the DTB tables of one profile by canonical material
// and file (honour.Variant).
type BoardSource func(m tb.Material, v honour.Variant) (*Table, error)

// OwnFiles is the BoardSource of a profile whose materials have one DTB
// file each (every profile but one whose counting side's mates are draws).
func OwnFiles(dtb Source) BoardSource {
	return func(m tb.Material, v honour.Variant) (*Table, error) {
		if v != honour.OwnFile {
			return nil, fmt.Errorf("the DTB file of %s for a count %s runs: not in this source", m, strings.TrimPrefix(v.Suffix(), "@"))
		}
		return dtb(m)
	}
}

// boardSource returns the sub-tables the DTB generation of file v of m
// reads: the DTM table of a sub-material where one side is bare; the DTB
// table of any other, in the file of the count that goes on there — run
// by the same side as in m, whose colour the sub-table may swap; or, where
// no count ran in m (as many pieces each), the count the material left
// starts.
func boardSource(m tb.Material, v honour.Variant, r *honour.Rules, dtm Source, dtb BoardSource) func(canon tb.Material, flip bool) (*Table, error) {
	counter, counted := r.Counter(m, v)
	return func(canon tb.Material, flip bool) (*Table, error) {
		if !honour.HasBoardHonour(canon) {
			return dtm(canon)
		}
		if !counted {
			return dtb(canon, honour.OwnFile)
		}
		side := counter
		if flip {
			side = side.Other()
		}
		sub, ok := r.VariantFor(canon, side, true)
		if !ok {
			return nil, fmt.Errorf("a count %s runs goes on into %s, which has no DTB file for it", strings.ToLower(counter.Name()), canon)
		}
		return dtb(canon, sub)
	}
}

func loadBoardCaptures(m tb.Material, v honour.Variant, r *honour.Rules, dtm Source, dtb BoardSource) (*boardCaptures, error) {
	if !honour.HasBoardHonour(m) {
		return nil, fmt.Errorf("%s: one side is bare, so no board's honour and no DTB", m)
	}
	if r.BoardPlies <= 0 {
		return nil, fmt.Errorf("rules %s have no board's honour, so no DTB", r.Name)
	}
	if !slices.Contains(r.Variants(m), v) {
		return nil, fmt.Errorf("rules %s: %s has no DTB file for a count %s runs", r.Name, m, strings.TrimPrefix(v.Suffix(), "@"))
	}
	subs, err := loadSubTablesFlipped(tb.Makruk, m, boardSource(m, v, r, dtm, dtb))
	if err != nil {
		return nil, err
	}
	return &boardCaptures{subs: subs, rules: r, material: m, variant: v}, nil
}

// GenerateDTB solves material m (canonical, both sides with pieces) for
// DTB under rules r. dtm gives the DTM table of m and of the sub-materials
// where one side is bare, dtb the DTB tables (same rules) of the others.
//
// A DTM draw is a DTB draw (every DTB goal leads to a forced mate, so a
// DTB win or loss is a DTM win or loss): the seed takes those from m's DTM
// table without generating their moves, or from opts.Draws, m's DTB table
// under a profile whose goals include those of r (GoalsIncluded), which
// has more of them.
func GenerateDTB(ctx context.Context, m tb.Material, r *honour.Rules, dtm, dtb Source, opts Options) (t *Table, err error) {
	return GenerateDTBFile(ctx, m, honour.OwnFile, r, dtm, OwnFiles(dtb), opts)
}

// GenerateDTBFile is GenerateDTB for any DTB file v of m (honour.Variant):
// under a profile whose counting side's mates are draws those depend on
// who counts, and dtb gives the sub-tables by file.
func GenerateDTBFile(ctx context.Context, m tb.Material, v honour.Variant, r *honour.Rules, dtm Source, dtb BoardSource, opts Options) (t *Table, err error) {
	defer wrapError(&err, "generate %s.%s%s", m, r.Name, v.Suffix())
	if !opts.Game.HasCount() {
		return nil, fmt.Errorf("%s has no counting rule: its tables are DTM only", opts.Game)
	}
	space, err := newSpace(m, opts)
	if err != nil {
		return nil, err
	}
	subs, err := loadBoardCaptures(m, v, r, dtm, dtb)
	if err != nil {
		return nil, err
	}
	drawn := opts.Draws
	opts.Draws = nil // drawn is let go once its draws are marked (generate)
	if drawn == nil {
		table, err := dtm(m)
		if err != nil {
			return nil, fmt.Errorf("DTM table of %s: %w", m, err)
		}
		drawn = table
	}
	if drawn.Material() != m {
		return nil, fmt.Errorf("table of %s given for the draws of %s", drawn.Material(), m)
	}
	return generate(ctx, space, subs, drawn, opts)
}

// VerifyDTB checks a DTB table as Verify checks a DTM table: every stored
// value against a one-ply search over its successors, captures resolved by
// the DTM and DTB sub-tables as in GenerateDTB.
func VerifyDTB(ctx context.Context, table *Table, r *honour.Rules, dtm, dtb Source, opts Options) error {
	return verifyOne(ctx, Check{Table: table, Rules: r, DTM: dtm, DTB: dtb}, opts)
}

// BoardDependencies returns the materials whose DTB tables must exist
// before m's (in generation order, m last), and every material whose DTM
// table the DTB generation of any of them reads.
func BoardDependencies(m tb.Material) (dtb, dtm []tb.Material) {
	seenDTM := map[tb.Material]bool{}
	for _, x := range Dependencies(tb.Makruk, m) {
		if !honour.HasBoardHonour(x) {
			continue
		}
		dtb = append(dtb, x)
		for _, sub := range x.Captures() {
			if canon, _ := sub.Canonical(); !honour.HasBoardHonour(canon) && canon.Pieces() > 2 && !seenDTM[canon] {
				seenDTM[canon] = true
				dtm = append(dtm, canon)
			}
		}
	}
	return dtb, dtm
}

package honour_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// The readings of the count (issue 40), each worked by hand from the
// wording of ../shared/sources/SUMMARY.md: for each option a position
// whose verdict it changes and one whose verdict it must not.

// Where the pieces' count starts. KRRvK, the bare king to move: four
// pieces on the board, two rooks besides the strong king.
func TestReadingsStart(t *testing.T) {
	krrk := tb.MustParseMaterial("KRRvK")
	for _, c := range []struct {
		rules        *honour.Rules
		bare, strong int // the fresh count's ply, the bare side and the strong side to move
		limit        int
	}{
		{&honour.ThaiRules, 8, 7, 16},       // 4 moves counted: all four pieces
		{&honour.ThaiStrongRules, 4, 3, 16}, // 2 moves: the two rooks
		{&honour.ThaiPlainRules, 0, 0, 16},  // nothing: the whole 8 moves
		{&honour.ThaiHalfMoveRules, 0, 0, 8},
	} {
		t.Run(c.rules.Name, func(t *testing.T) {
			require.Equal(t, honour.Count{Kind: honour.PiecesCount, Limit: c.limit, Ply: c.bare}, c.rules.FreshCountFor(krrk, tb.Black))
			require.Equal(t, honour.Count{Kind: honour.PiecesCount, Limit: c.limit, Ply: c.strong}, c.rules.FreshCountFor(krrk, tb.White))
		})
	}
	// Half-moves with a start: each piece is one ply, whoever is to move.
	r := honour.ThaiHalfMoveRules
	r.Name, r.Start = "half-all", honour.StartAll
	require.NoError(t, r.Validate())
	require.Equal(t, 4, r.FreshCountFor(krrk, tb.Black).Ply)
	require.Equal(t, 4, r.FreshCountFor(krrk, tb.White).Ply)

	// KRvK, the bare king to move, mated in 28 plies: thai counts 3 moves
	// of 16 (mate by ply 27), thai-strong 1 (31), thai-plain none (33),
	// thai-halfmove 16 half-moves from 0 (17). A mate in 16 plies fits all.
	krk := tb.MustParseMaterial("KRvK")
	for _, c := range []struct {
		rules  *honour.Rules
		mating int
		in28   honour.Category
	}{
		{&honour.ThaiRules, 27, honour.BlessedLoss},
		{&honour.ThaiStrongRules, 31, honour.Loss},
		{&honour.ThaiPlainRules, 33, honour.Loss},
		{&honour.ThaiHalfMoveRules, 17, honour.BlessedLoss},
	} {
		count := c.rules.FreshCountFor(krk, tb.Black)
		require.Equal(t, c.mating, c.rules.MatingPlies(count), c.rules.Name)
		require.Equal(t, c.in28, c.rules.Judge(value.Mate(28), count).Category, c.rules.Name)
		require.Equal(t, honour.Loss, c.rules.Judge(value.Mate(16), count).Category, c.rules.Name)
	}
}

// Which limit applies when several could: the first row that matches. King,
// khon and two knights count as two knights (32 moves) in thai's order and
// as one khon (44) in thai-halfmove's, or in thai's rows with the khon's
// row moved up. Materials only one row fits are the same either way.
func TestReadingsRowOrder(t *testing.T) {
	ksnn := tb.MustParseMaterial("KSNNvK")
	require.Equal(t, 64, honour.ThaiRules.PiecesLimitFor(ksnn, tb.Black))
	require.Equal(t, 44, honour.ThaiHalfMoveRules.PiecesLimitFor(ksnn, tb.Black))
	khonFirst := honour.ThaiRules
	khonFirst.Name = "khon-first"
	rows := append([]honour.PiecesLimit(nil), khonFirst.Pieces...)
	rows[3], rows[4] = rows[4], rows[3] // one khon before two knights
	khonFirst.Pieces = rows
	require.NoError(t, khonFirst.Validate())
	require.Equal(t, 88, khonFirst.PiecesLimitFor(ksnn, tb.Black))
	for _, m := range []string{"KNNvK", "KSvK", "KSSvK", "KRSvK", "KMMvK"} {
		mat := tb.MustParseMaterial(m)
		require.Equal(t, honour.ThaiRules.PiecesLimitFor(mat, tb.Black), khonFirst.PiecesLimitFor(mat, tb.Black), m)
	}
}

// A capture by the bare king: the count goes on (thai), or a new count of
// the material left starts (restart). KRRvK at ply 12 of 16: the bare king
// takes a rook, leaving KRvK.
func TestReadingsBareKingCapture(t *testing.T) {
	p := mustFEN(t, "7R/8/8/8/8/8/1R6/k3K3 b - 16 12 40")
	m, ok := p.ParseMove("a1b2")
	require.True(t, ok)
	require.True(t, p.IsCapture(m))
	c := honour.ThaiRules.CountOf(&p)
	require.Equal(t, honour.Count{Kind: honour.PiecesCount, Limit: 16, Ply: 13}, honour.ThaiRules.Next(&p, m, c))
	restart := honour.ThaiRules
	restart.Name, restart.BareKingCapture = "restart", honour.CaptureRestarts
	require.NoError(t, restart.Validate())
	// KRvK with White to move: 3 pieces counted, a ply earlier: 5 of 32.
	after := restart.Next(&p, m, c)
	require.Equal(t, honour.Count{Kind: honour.PiecesCount, Limit: 32, Ply: 5}, after)
	// The verdict after it: a mate in 19 plies fits the new count (28),
	// not the old one (4).
	require.Equal(t, honour.Win, restart.Judge(value.Mate(19), after).Category)
	require.Equal(t, honour.CursedWin, honour.ThaiRules.Judge(value.Mate(19), honour.ThaiRules.Next(&p, m, c)).Category)
	// A move that captures nothing counts on in both readings.
	calm := mustFEN(t, "7R/8/8/8/8/2R5/8/k3K3 b - 16 12 40")
	quiet, ok := calm.ParseMove("a1b2")
	require.True(t, ok)
	c = honour.ThaiRules.CountOf(&calm)
	require.Equal(t, honour.Count{Kind: honour.PiecesCount, Limit: 16, Ply: 13}, restart.Next(&calm, quiet, c))
	// Capturing the last piece leaves KvK: no count in either.
	last := mustFEN(t, "8/8/8/8/8/8/1R6/k3K3 b - 32 12 40")
	m, ok = last.ParseMove("a1b2")
	require.True(t, ok)
	require.Equal(t, honour.NoCountKind, restart.Next(&last, m, restart.CountOf(&last)).Kind)
}

// Reaching or exceeding, for each count on its own: a draw on reaching
// takes the last ply from that count and from no other.
func TestReadingsReachOrExceed(t *testing.T) {
	pieces := honour.Count{Kind: honour.PiecesCount, Limit: 32, Ply: 6}
	board := honour.Count{Kind: honour.BoardCount, Limit: 128, Ply: 0}
	thai := honour.ThaiRules
	for _, c := range []struct {
		name          string
		pieces, board honour.LimitDraw
		legacy        bool
		dPieces       int
		dBoard        int
	}{
		{"exceed both", "", "", false, 27, 129},
		{"pieces reach", honour.DrawOnReaching, "", false, 26, 129},
		{"board reach", "", honour.DrawOnReaching, false, 27, 128},
		{"both reach", honour.DrawOnReaching, honour.DrawOnReaching, false, 26, 128},
		{"draw_at_limit", "", "", true, 26, 128},
		{"explicit exceed", honour.DrawOnExceeding, honour.DrawOnExceeding, false, 27, 129},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := thai
			r.Name, r.PiecesDraw, r.BoardDraw, r.DrawAtLimit = "x", c.pieces, c.board, c.legacy
			require.NoError(t, r.Validate())
			require.Equal(t, c.dPieces, r.MatingPlies(pieces))
			require.Equal(t, c.dBoard, r.MatingPlies(board))
			// A mate in 27 plies from KRvK at ply 6: a win when the
			// pieces' count draws on exceeding, cursed on reaching.
			want := honour.Win
			if c.dPieces < 27 {
				want = honour.CursedWin
			}
			require.Equal(t, want, r.Judge(value.Mate(27), pieces).Category)
		})
	}
	// thai-halfmove: the board's count draws on reaching 64, the pieces'
	// count on exceeding its limit.
	h := honour.ThaiHalfMoveRules
	require.Equal(t, 64, h.MatingPlies(honour.Count{Kind: honour.BoardCount, Limit: 64}))
	require.Equal(t, 17, h.MatingPlies(honour.Count{Kind: honour.PiecesCount, Limit: 16}))
}

// The invariant of the readings: under any profile, a position's verdict
// is its verdict under thai with the count the profile implies written in
// the FEN (its limit a ply shorter where the profile draws on reaching).
// Pieces' counts, every mate distance a 3- and 4-piece ending has, both
// sides to move.
func TestReadingsAsThaiCountFields(t *testing.T) {
	fens := []string{
		"k7/8/8/8/8/8/8/KR6 %s - %s 1",
		"k7/8/8/8/8/2R5/8/1R2K3 %s - %s 1",
		"k7/8/8/8/8/8/8/KSS5 %s - %s 1",
		"k7/8/8/8/8/8/8/KSM5 %s - %s 1",
		"k7/8/8/8/8/8/8/KNM5 %s - %s 1",
		"k7/8/8/8/8/8/8/KSNN4 %s - %s 1",
	}
	thai := honour.ThaiRules
	for _, r := range honour.BuiltinRules() {
		for _, f := range fens {
			for _, side := range []string{"w", "b"} {
				p := mustFEN(t, fmt.Sprintf(f, side, "- 0"))
				c := r.CountOf(&p)
				if c.Kind == honour.NoCountKind {
					continue
				}
				limit := c.Limit
				if r.MatingPlies(c) == c.Limit-c.Ply {
					limit-- // draws on reaching: thai draws on exceeding one less
				}
				q := mustFEN(t, fmt.Sprintf(f, side, fmt.Sprintf("%d %d", limit, c.Ply)))
				qc := thai.CountOf(&q)
				for d := 0; d <= 200; d++ {
					v := value.Mate(d)
					require.Equal(t, r.Judge(v, c).Category, thai.Judge(v, qc).Category, "%s %s mate %d", r.Name, p.FEN(), d)
				}
			}
		}
	}
}

// Bad values of the new options are refused with the field named.
func TestReadingsValidation(t *testing.T) {
	for _, c := range []struct{ json, msg string }{
		{`{"name":"x","start":"all","pieces":[{"plies":10}],"unit":"plies"}`, `unit "plies": must be moves or half-moves`},
		{`{"name":"x","board_plies":128,"board_draw":"touch"}`, `board_draw "touch": must be exceed or reach`},
		{`{"name":"x","board_plies":128,"pieces_draw":"never"}`, `pieces_draw "never"`},
		{`{"name":"x","board_plies":128,"pieces_draw":"reach","draw_at_limit":true}`, "draw_at_limit and pieces_draw both given"},
		{`{"name":"x","board_plies":128,"bare_king_capture":"reload"}`, `bare_king_capture "reload": must be continue or restart`},
		{`{"name":"x","start":"strong-men","pieces":[{"plies":10}]}`, "all, strong, strong-pieces or none"},
		{`{"name":"thai-strong","board_plies":128}`, "the name of the built-in profile thai-strong"},
		{`{"name":"THAI-HALFMOVE","board_plies":128}`, "the name of the built-in profile thai-halfmove"},
		{`{"name":"x","board_plies":128,"board_count_by":"weaker"}`, `board_count_by "weaker": must be either or fewer`},
		{`{"name":"x","board_plies":128,"counter_mate":"loss"}`, `counter_mate "loss": must be win or draw`},
		{`{"name":"x","board_plies":128,"counter_mate":"draw"}`, "counter_mate draw needs board_count_by fewer"},
	} {
		t.Run(c.json, func(t *testing.T) {
			_, err := honour.ParseRules([]byte(c.json))
			require.ErrorContains(t, err, c.msg)
		})
	}
	r, err := honour.ParseRules([]byte(`{"name":"mine","pieces":[{"piece":"R","at_least":1,"plies":16},{"plies":64}],"start":"strong-pieces","unit":"half-moves","pieces_draw":"reach","board_draw":"exceed","board_plies":64,"bare_king_capture":"restart"}`))
	require.NoError(t, err)
	require.Equal(t, honour.UnitHalfMoves, r.Unit)
	require.Equal(t, honour.CaptureRestarts, r.BareKingCapture)
	require.Equal(t, honour.Count{Kind: honour.PiecesCount, Limit: 16, Ply: 1}, r.FreshCountFor(tb.MustParseMaterial("KRvK"), tb.White))
	_, err = honour.LookupRules("thai-plain")
	require.NoError(t, err)
	_, err = honour.LookupRules("thai-weak")
	require.ErrorContains(t, err, "thai, thai-strong, thai-plain, thai-halfmove, cambodian, asean, none")
}

// Counting aloud in half-moves calls every ply.
func TestCalledInHalfMoves(t *testing.T) {
	c := honour.Count{Kind: honour.BoardCount, Limit: 64, Ply: 5}
	require.Equal(t, "5 of 64", c.Called(honour.AnnounceUp, honour.UnitHalfMoves))
	require.Equal(t, "59 left", c.Called(honour.AnnounceDown, honour.UnitHalfMoves))
	require.Equal(t, "3 of 32", c.Called(honour.AnnounceUp, honour.UnitMoves))
}

// Who counts board's honour: under board_count_by "fewer" only the side
// with fewer pieces runs the count, so only the other side's win must fit
// it; with as many pieces each no count runs.
func TestReadingsCountByFewer(t *testing.T) {
	fewer := honour.ThaiRules
	fewer.Name, fewer.BoardCountBy = "fewer", honour.CountByFewer
	require.NoError(t, fewer.Validate())

	// KRRvKN: Black, behind, counts. Black to move counts from now;
	// White to move, Black starts it on its move.
	krrkn := tb.MustParseMaterial("KRRvKN")
	black := fewer.FreshCountFor(krrkn, tb.Black)
	white := fewer.FreshCountFor(krrkn, tb.White)
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 128, Ply: 0, Counter: honour.MoverCounts}, black)
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 128, Ply: -1, Counter: honour.OtherCounts}, white)
	require.True(t, white.Binds(true), "White's win must fit Black's count")
	require.False(t, black.Binds(true), "Black's own win is not limited")
	require.True(t, black.Binds(false))

	// A White win whose goal lies beyond the count: cursed under both
	// readings. A Black win as far away: cursed under thai, a win under
	// fewer, Black may stop its own count.
	far := value.Mate(151)
	require.Equal(t, honour.CursedWin, fewer.JudgeBoard(value.Mate(171), far, white).Category)
	require.Equal(t, honour.CursedWin, honour.ThaiRules.JudgeBoard(value.Mate(171), far, honour.ThaiRules.FreshCountFor(krrkn, tb.White)).Category)
	require.Equal(t, honour.Win, fewer.JudgeBoard(value.Mate(171), far, black).Category)
	require.Equal(t, honour.CursedWin, honour.ThaiRules.JudgeBoard(value.Mate(171), far, honour.ThaiRules.FreshCountFor(krrkn, tb.Black)).Category)
	// A goal that cannot be reached is no win for anyone.
	require.Equal(t, honour.CursedWin, fewer.JudgeBoard(value.Mate(171), value.Draw, black).Category)
	// Inside the count both readings agree.
	require.Equal(t, honour.Win, fewer.JudgeBoard(value.Mate(41), value.Mate(41), white).Category)

	// KRvKN, one piece each: no count, the verdict is DTB's sign.
	krkn := tb.MustParseMaterial("KRvKN")
	even := fewer.FreshCountFor(krkn, tb.White)
	require.Equal(t, honour.NoCounter, even.Counter)
	require.False(t, even.Binds(true))
	require.False(t, even.Binds(false))
	j := fewer.JudgeBoard(value.Mate(201), value.Mate(199), even)
	require.Equal(t, honour.Win, j.Category)
	require.True(t, j.Exact)
	require.Equal(t, honour.CursedWin, fewer.JudgeBoard(value.Mate(201), value.Draw, even).Category)

	// Two pieces each: a capture need not bare a side, and the count it
	// would start is not in any table: not exact.
	krnkmm := tb.MustParseMaterial("KRNvKMM")
	j = fewer.JudgeBoard(value.Mate(31), value.Mate(31), fewer.FreshCountFor(krnkmm, tb.White))
	require.Equal(t, honour.NoCounterUntilCapture, j.Count.Counter)
	require.False(t, j.Exact)

	// cambodian's limit on counters still holds: a side behind with more
	// than three pieces may not count.
	camb := honour.CambodianRules
	camb.Name, camb.BoardCountBy = "camb-fewer", honour.CountByFewer
	require.Equal(t, honour.NoCountKind, camb.FreshCountFor(tb.MustParseMaterial("KRRSSvKNNN"), tb.White).Kind)
	require.Equal(t, honour.OtherCounts, camb.FreshCountFor(tb.MustParseMaterial("KRRRvKN"), tb.White).Counter)

	// The count is Black's through the moves: after a White move Black is
	// to move and counts; after Black's move White is to move, Black
	// counts.
	p := mustFEN(t, "4k3/8/8/3n4/8/8/R7/1R2K3 w - - 0 1")
	c := fewer.CountOf(&p)
	require.Equal(t, white, c)
	m, ok := p.ParseMove("a2a7")
	require.True(t, ok)
	c = fewer.Next(&p, m, c)
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 128, Ply: 0, Counter: honour.MoverCounts}, c)
	q := p.Play(m)
	m, ok = q.ParseMove("e8f8")
	require.True(t, ok)
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 128, Ply: 1, Counter: honour.OtherCounts}, fewer.Next(&q, m, c))

	// From as many pieces each, the capture that puts a side behind
	// starts its count (five pieces and fewer: it bares the side).
	even4 := mustFEN(t, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1")
	ec := fewer.CountOf(&even4)
	calm, ok := even4.ParseMove("d1d2")
	require.True(t, ok)
	require.Equal(t, ec, fewer.Next(&even4, calm, ec), "no count runs: nothing to count on")
	take, ok := even4.ParseMove("d1d5")
	require.True(t, ok)
	require.Equal(t, honour.PiecesCount, fewer.Next(&even4, take, ec).Kind)

	// A FEN's count does not say who counts; with as many pieces each it
	// is taken as neutral.
	counted := mustFEN(t, "4k3/8/8/3n4/8/8/8/3RK3 w - 128 40 1")
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 128, Ply: 40}, fewer.CountOf(&counted))
}

// A mate by the counting side is a draw (counter_mate "draw"): which DTB
// file each count reads, and what a mate scores in it.
func TestReadingsCounterMate(t *testing.T) {
	r := honour.ThaiRules
	r.Name, r.BoardCountBy, r.CounterMate = "texts", honour.CountByFewer, honour.CounterMateDraws
	require.NoError(t, r.Validate())
	krkn, krrkn := tb.MustParseMaterial("KRvKN"), tb.MustParseMaterial("KRRvKN")
	require.Equal(t, []honour.Variant{honour.OwnFile}, r.Variants(krrkn))
	require.Len(t, r.Variants(krkn), 3)
	require.Equal(t, []honour.Variant{honour.OwnFile}, honour.ThaiRules.Variants(krkn))
	// KRRvKN's own file is Black's count; KRvKN's own file no one's.
	counter, ok := r.Counter(krrkn, honour.OwnFile)
	require.True(t, ok)
	require.Equal(t, tb.Black, counter)
	_, ok = r.Counter(krkn, honour.OwnFile)
	require.False(t, ok)
	for _, c := range []struct {
		m       tb.Material
		side    tb.Color
		counted bool
		want    honour.Variant
		ok      bool
	}{
		{krrkn, tb.Black, true, honour.OwnFile, true},
		{krrkn, tb.White, true, honour.OwnFile, false}, // the side ahead never counts up to six pieces
		{krkn, tb.White, true, honour.WhiteCounting, true},
		{krkn, tb.Black, true, honour.BlackCounting, true},
		{krkn, tb.White, false, honour.OwnFile, true},
	} {
		v, ok := r.VariantFor(c.m, c.side, c.counted)
		require.Equal(t, c.ok, ok, "%s %v %v", c.m, c.side, c.counted)
		if ok {
			require.Equal(t, c.want, v, "%s %v %v", c.m, c.side, c.counted)
		}
	}
	require.Equal(t, "@white", honour.WhiteCounting.Suffix())
	// Black mated: a draw where White counts, a loss where Black does or
	// no one, and always under thai.
	require.Equal(t, value.Draw, r.Mated(tb.Black, tb.White, true))
	require.Equal(t, value.MatedIn(0), r.Mated(tb.Black, tb.Black, true))
	require.Equal(t, value.MatedIn(0), r.Mated(tb.Black, tb.White, false))
	require.Equal(t, value.MatedIn(0), honour.ThaiRules.Mated(tb.Black, tb.White, true))
	require.Equal(t, value.Draw, r.MateValue(krrkn, honour.OwnFile, tb.White))
	require.Equal(t, value.MatedIn(0), r.MateValue(krkn, honour.OwnFile, tb.White))
}

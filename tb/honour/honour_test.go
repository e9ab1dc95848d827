package honour_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// mustFEN parses a FEN known to be valid.
func mustFEN(t *testing.T, fen string) tb.Position {
	p, err := tb.ParseFEN(fen)
	require.NoError(t, err)
	return p
}

// TestWorkedCountExamples checks the honour-count arithmetic worked out
// by hand: for a position and rules, the count that runs, the longest
// mate that still fits it, and the category of a mate just inside and
// just outside.
func TestWorkedCountExamples(t *testing.T) {
	for _, tc := range []struct {
		name, fen      string
		rules          *honour.Rules
		count          honour.Count
		mating         int // r.MatingPlies(count)
		inside, beyond value.Value
		in, out        honour.Category
	}{
		// Limit 8 moves = 16 plies, start 2N = 8 (four pieces): the mating
		// move must be made from count ≤ 16, within ply 9; the strong side
		// moves on even plies from here, so ply 8 at the latest: 4 moves.
		{"KRRvK thai, bare king to move", "k7/8/8/8/8/2R5/8/1R2K3 b - - 0 1", &honour.ThaiRules,
			honour.Count{Kind: honour.PiecesCount, Limit: 16, Ply: 8}, 9, value.Mate(8), value.Mate(10), honour.Loss, honour.BlessedLoss},
		// Limit 7 moves = 14 plies, start 8: mate by ply 7, so 3 moves.
		{"KRRvK cambodian", "k7/8/8/8/8/2R5/8/1R2K3 b - - 0 1", &honour.CambodianRules,
			honour.Count{Kind: honour.PiecesCount, Limit: 14, Ply: 8}, 7, value.Mate(6), value.Mate(8), honour.Loss, honour.BlessedLoss},
		// Limit 44 moves = 88 plies, start 6 (three pieces): mate by ply
		// 83; the strong side's last chance is ply 82: 41 moves.
		{"KSvK thai, bare king to move", "k7/8/8/8/8/8/8/KS6 b - - 0 1", &honour.ThaiRules,
			honour.Count{Kind: honour.PiecesCount, Limit: 88, Ply: 6}, 83, value.Mate(82), value.Mate(84), honour.Loss, honour.BlessedLoss},
		// With the khon side to move the count started a ply earlier
		// (2N−1 = 5): mate by ply 84, a win in 83 plies still counts.
		{"KSvK thai, khon side to move", "k7/8/8/8/8/8/8/KS6 w - - 0 1", &honour.ThaiRules,
			honour.Count{Kind: honour.PiecesCount, Limit: 88, Ply: 5}, 84, value.Mate(83), value.Mate(85), honour.Win, honour.CursedWin},
		// 16 moves from 0: a loss in 32 plies counts, one in 34 does not.
		{"KRvK asean", "k7/8/8/8/8/8/8/KR6 b - - 0 1", &honour.ASEANRules,
			honour.Count{Kind: honour.PiecesCount, Limit: 32, Ply: 0}, 33, value.Mate(32), value.Mate(34), honour.Loss, honour.BlessedLoss},
		// A FEN's running count wins over a fresh one: 2 plies are left.
		{"KRRvK thai, running count", "k7/8/8/8/8/2R5/8/1R2K3 b - 16 14 1", &honour.ThaiRules,
			honour.Count{Kind: honour.PiecesCount, Limit: 16, Ply: 14}, 3, value.Mate(2), value.Mate(4), honour.Loss, honour.BlessedLoss},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Run(tc.name, func(t *testing.T) {
				p := mustFEN(t, tc.fen)
				c := tc.rules.CountOf(&p)
				require.Equal(t, tc.count, c)
				require.Equal(t, tc.mating, tc.rules.MatingPlies(c))
				require.Equal(t, tc.in, tc.rules.Judge(tc.inside, c).Category)
				require.Equal(t, tc.out, tc.rules.Judge(tc.beyond, c).Category)
			})
		})
	}
	// ASEAN has no count for mets: plain DTM.
	kmk := mustFEN(t, "k7/8/8/8/8/8/8/KMM5 b - - 0 1")
	require.Equal(t, honour.NoCountKind, honour.ASEANRules.FreshCount(&kmk).Kind)
}

func TestRulesFiles(t *testing.T) {
	r, err := honour.ParseRules([]byte(`{"name":"strong-offset","pieces":[{"piece":"R","at_least":1,"plies":32},{"plies":128}],"start":"strong","draw_at_limit":true}`))
	require.NoError(t, err)
	krk := mustFEN(t, "k7/8/8/8/8/8/8/KR6 b - - 0 1")
	c := r.FreshCount(&krk)
	require.Equal(t, honour.Count{Kind: honour.PiecesCount, Limit: 32, Ply: 4}, c) // K + R = 2 pieces
	require.Equal(t, 28, r.MatingPlies(c))
	for _, c := range []struct{ json, msg string }{
		{`{"pieces":[]}`, "missing name"},
		{`{"name":"x","start":"half"}`, "start"},
		{`{"name":"x","start":"all","pieces":[{"piece":"Q","at_least":1,"plies":10}]}`, "Q"},
		{`{"name":"x","start":"all","pieces":[{"piece":"R","at_least":1,"plies":0}]}`, "pieces[0]: plies 0: must be 1 to 10000"},
		{`{"name":"x","start":"all","pieces":[{"plies":99999999999}]}`, "pieces[0]: plies 99999999999: must be 1 to 10000"},
		{`{"name":"x","start":"all","pieces":[{"piece":"R","at_least":99,"plies":10}]}`, "pieces[0]: at_least 99: must be 1 to 15"},
		{`{"name":"x","board_plies":10001}`, "board_plies 10001"},
		{`{"name":"x","board_plies":128,"board_counters":40}`, "board_counters 40"},
		{`{"name":"thai","board_plies":2}`, "the name of the built-in profile thai"},
		{`{"name":"Cambodian","board_plies":2}`, "the name of the built-in profile cambodian"},
		{`{"name":"my.rules","board_plies":2}`, "names table files"},
		{`{"name":"a/b","board_plies":2}`, "names table files"},
		{`{"name":"x","unknown":1}`, "unknown"},
		{`not json`, "invalid"},
	} {
		t.Run(c.json, func(t *testing.T) {
			_, err := honour.ParseRules([]byte(c.json))
			require.ErrorContains(t, err, c.msg)
		})
	}
	_, err = honour.LookupRules("thai")
	require.NoError(t, err)
	upper, err := honour.LookupRules("THAI")
	require.NoError(t, err, "profile names are case-insensitive, as material names are")
	require.Equal(t, "thai", upper.Name)
	_, err = honour.LookupRules("chess")
	require.ErrorContains(t, err, "not a profile")
	broken := filepath.Join(t.TempDir(), "mine.json")
	require.NoError(t, os.WriteFile(broken, []byte(`{"name":`), 0o644))
	_, err = honour.LookupRules(broken)
	require.ErrorContains(t, err, broken+": ", "the error names the file")
}

func TestNextCount(t *testing.T) {
	// Board's honour: a capture that bares the opponent starts a fresh
	// pieces' count with the new material's limit.
	p := mustFEN(t, "k7/8/8/8/8/8/1n6/KR6 w - 128 40 30") // KRvKN: Rb1xb2 bares Black
	m, ok := p.ParseMove("b1b2")
	require.True(t, ok)
	c := honour.ThaiRules.CountOf(&p)
	require.Equal(t, honour.BoardCount, c.Kind)
	next := honour.ThaiRules.Next(&p, m, c)
	require.Equal(t, honour.Count{Kind: honour.PiecesCount, Limit: 32, Ply: 6}, next)
	// Pieces' honour: a move advances the count by one ply.
	q := mustFEN(t, "k7/8/8/8/8/2R5/8/1R2K3 b - 16 8 1")
	m, ok = q.ParseMove("a8a7")
	require.True(t, ok)
	next = honour.ThaiRules.Next(&q, m, honour.ThaiRules.CountOf(&q))
	require.Equal(t, 9, next.Ply)
}

// Board's honour is judged by DTB: the KRvKN position of the README mates
// in 41 plies, its thai goal is 51 plies away. From a fresh board count
// (129 plies for the goal) it wins; from ply 100 (29 plies) it is cursed;
// with a DTB draw it is cursed at any count; DTM alone cannot tell.
func TestJudgeBoard(t *testing.T) {
	r := &honour.ThaiRules
	fresh := honour.Count{Kind: honour.BoardCount, Limit: 128}
	late := honour.Count{Kind: honour.BoardCount, Limit: 128, Ply: 100}
	require.Equal(t, honour.Win, r.JudgeBoard(value.Mate(41), value.Mate(51), fresh).Category)
	require.Equal(t, honour.CursedWin, r.JudgeBoard(value.Mate(41), value.Mate(51), late).Category)
	require.Equal(t, honour.BlessedLoss, r.JudgeBoard(value.Mate(40), value.Mate(50), late).Category)
	require.Equal(t, honour.CursedWin, r.JudgeBoard(value.Mate(41), value.Draw, fresh).Category)
	require.Equal(t, honour.Draw, r.JudgeBoard(value.Draw, value.Draw, fresh).Category)
	// The goal may be made from ply 128 itself: 29 plies from ply 100.
	require.Equal(t, honour.Win, r.JudgeBoard(value.Mate(41), value.Mate(29), late).Category)
	j := r.Judge(value.Mate(3), fresh)
	require.False(t, j.Exact, "even a quick mate may pass through a shorter pieces' count")
	require.True(t, r.Judge(value.Mate(0), late).Exact, "checkmate stands")
}

// A Categories table answers as the judgement it tabulates, below 256
// (looked up) and above (computed).
func TestCategoriesTable(t *testing.T) {
	r := &honour.ThaiRules
	late := honour.Count{Kind: honour.BoardCount, Limit: 128, Ply: 100}
	judge := func(dtm, dtb value.Value) honour.Category { return r.JudgeBoard(dtm, dtb, late).Category }
	table := honour.NewCategories(judge)
	seen := map[honour.Category]bool{}
	for dtm := value.Value(0); dtm < 600; dtm += 3 {
		for dtb := value.Value(0); dtb < 600; dtb += 7 {
			require.Equal(t, judge(dtm, dtb), table.Of(dtm, dtb), "dtm %v dtb %v", dtm, dtb)
			seen[table.Of(dtm, dtb)] = true
		}
	}
	require.Len(t, seen, 5, "every category met")
}

// Categories are ordered worst to best, each the opposite of its mirror,
// and written as the lichess API writes them.
func TestCategories(t *testing.T) {
	order := []honour.Category{honour.Loss, honour.BlessedLoss, honour.Draw, honour.CursedWin, honour.Win}
	names := []string{"loss", "blessed-loss", "draw", "cursed-win", "win"}
	for i, c := range order {
		require.Equal(t, names[i], c.String())
		text, err := c.MarshalText()
		require.NoError(t, err)
		var back honour.Category
		require.NoError(t, back.UnmarshalText(text))
		require.Equal(t, c, back)
		require.Equal(t, order[len(order)-1-i], c.Opposite())
		if i > 0 {
			require.True(t, c.Better(order[i-1]))
			require.False(t, order[i-1].Better(c))
		}
	}
	var c honour.Category
	require.Error(t, c.UnmarshalText([]byte("cursed_win")))
}

// A profile's pieces are typed when it is read, and written back the
// same way.
func TestRulesJSONRoundTrip(t *testing.T) {
	r, err := honour.ParseRules([]byte(`{"name":"mine","pieces":[{"piece":"r","at_least":1,"plies":32},{"plies":128}],"start":"strong","draw_at_limit":true}`))
	require.NoError(t, err)
	rook, ok := r.Pieces[0].Piece.Type()
	require.True(t, ok)
	require.Equal(t, tb.Rook, rook)
	_, ok = r.Pieces[1].Piece.Type()
	require.False(t, ok, "no piece: any material")
	require.Equal(t, honour.StartStrong, r.Start)
	krk := mustFEN(t, "k7/8/8/8/8/8/8/KR6 b - - 0 1")
	require.Equal(t, honour.Count{Kind: honour.PiecesCount, Limit: 32, Ply: 4}, r.FreshCount(&krk))
	knk := mustFEN(t, "k7/8/8/8/8/8/8/KN6 b - - 0 1")
	require.Equal(t, 128, r.FreshCount(&knk).Limit)
	data, err := json.Marshal(r)
	require.NoError(t, err)
	again, err := honour.ParseRules(data)
	require.NoError(t, err)
	require.Equal(t, r, again)
}

// Fairy-Stockfish's cambodian count_limit gives a side with more than three
// pieces no count: in KMMMvKM the board count starts only when Black is to
// move, one ply later when White moves first; with three pieces each, and
// under thai rules, it starts at once.
func TestCambodianBoardCounters(t *testing.T) {
	r := honour.CambodianRules
	big := tb.MustParseMaterial("KMMMvKM")
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 126, Ply: -1}, r.FreshCountFor(big, tb.White))
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 126}, r.FreshCountFor(big, tb.Black))
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 128}, honour.ThaiRules.FreshCountFor(big, tb.White))
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 126}, r.FreshCountFor(tb.MustParseMaterial("KRMvKMM"), tb.White))
	require.Equal(t, honour.Count{Kind: honour.NoCountKind}, r.FreshCountFor(tb.MustParseMaterial("KMMMvKMMM"), tb.White), "neither side may count")

	// One more ply to mate in: the count starts after White's move.
	c := r.FreshCountFor(big, tb.White)
	require.False(t, c.Started())
	require.Equal(t, r.MatingPlies(honour.Count{Kind: honour.BoardCount, Limit: 126})+1, r.MatingPlies(c))
	p, err := tb.ParseFEN("8/8/4k3/8/8/2MMM3/4K3/5m2 w - - 0 1")
	require.NoError(t, err)
	m, ok := p.ParseMove("e2d1")
	require.True(t, ok)
	require.Equal(t, honour.Count{Kind: honour.BoardCount, Limit: 126, Ply: 0}, r.Next(&p, m, c), "Black to move: the count starts at ply 0")

	// A capture that bares Black still starts a fresh pieces' count.
	require.Equal(t, honour.PiecesCount, r.FreshCountFor(tb.MustParseMaterial("KMMMvK"), tb.Black).Kind)

	bad := r
	bad.BoardCounters = 1
	require.ErrorContains(t, bad.Validate(), "board_counters")
}

// The count fields Fairy-Stockfish prints (`d`) after moves from a FEN
// without a count, recorded from a build of its current source (commit
// c19b5f6c, "Fairy-Stockfish 011226"; Debian's 11.1 predates the cambodian
// rule). Fairy-Stockfish starts a count in do_move, at the first position
// after a move whose side to move may count; so the fresh count of the
// position after the first move, carried on by Next, must print the same.
func TestCountStartAgainstFairyStockfish(t *testing.T) {
	for _, c := range []struct {
		rules honour.Rules
		fen   string
		moves []string
		want  []string // count fields after each move; "-" for none
	}{
		// Cambodian, four Mets and king against two pieces: no count while
		// White is to move, then it starts at ply 0.
		{honour.CambodianRules, "m7/8/4k3/8/8/2MMM3/4K3/8 b - - 0 1", []string{"e6e5", "e2d1"}, []string{"-", "126 0"}},
		// Three against two: it starts at once.
		{honour.CambodianRules, "m7/8/4k3/8/8/2MM4/4K3/8 b - - 0 1", []string{"e6e5"}, []string{"126 0"}},
		// Makruk (thai) counts for any side.
		{honour.ThaiRules, "m7/8/4k3/8/8/2MMM3/4K3/8 b - - 0 1", []string{"e6e5", "e2d1"}, []string{"128 0", "128 1"}},
	} {
		t.Run(c.rules.Name+"/"+c.fen, func(t *testing.T) {
			p, err := tb.ParseFEN(c.fen)
			require.NoError(t, err)
			var count honour.Count
			for n, uci := range c.moves {
				m, ok := p.ParseMove(uci)
				require.True(t, ok, uci)
				if n == 0 {
					q := p.Play(m)
					count = c.rules.FreshCount(&q)
				} else {
					count = c.rules.Next(&p, m, count)
				}
				p = p.Play(m)
				got := "-"
				if count.Kind != honour.NoCountKind && count.Started() {
					got = fmt.Sprintf("%d %d", count.Limit, count.Ply)
				}
				require.Equal(t, c.want[n], got, "%s %s after %v", c.rules.Name, c.fen, c.moves[:n+1])
			}
		})
	}
}

// FuzzParseRules: no profile file panics; one that parses passes Validate
// and reads back the same after a round trip through JSON.
func FuzzParseRules(f *testing.F) {
	for _, r := range honour.BuiltinRules() {
		r.Name = "mine"
		data, err := json.Marshal(r)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte(`{"name":"x","pieces":[{"piece":"R","at_least":1,"plies":32}],"start":"strong","board_plies":128}`))
	f.Add([]byte(`{"name":`))
	f.Add([]byte(`{"name":"behind","board_plies":128,"board_count_by":"fewer","board_counters":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := honour.ParseRules(data)
		if err != nil {
			return
		}
		require.NoError(t, r.Validate())
		again, err := json.Marshal(r)
		require.NoError(t, err)
		back, err := honour.ParseRules(again)
		require.NoError(t, err, "%s", again)
		require.Equal(t, r, back)
	})
}

// One home for profile lookups (issue 59.3).
func TestFindAndParseList(t *testing.T) {
	custom := []honour.Rules{{Name: "behind"}}
	r, ok := honour.Find("behind", custom)
	require.True(t, ok)
	require.Same(t, &custom[0], r)
	r, ok = honour.Find("cambodian", custom)
	require.True(t, ok)
	require.Equal(t, honour.CambodianRules.Name, r.Name)
	_, ok = honour.Find("Cambodian", nil)
	require.False(t, ok, "a name is found exactly")
	_, ok = honour.Find("texts", nil)
	require.False(t, ok)

	list, err := honour.ParseList("thai, cambodian")
	require.NoError(t, err)
	require.Len(t, list, 2)
	for _, none := range []string{"", "none"} {
		list, err = honour.ParseList(none)
		require.NoError(t, err)
		require.Empty(t, list)
	}
	_, err = honour.ParseList("thai,fide")
	require.ErrorContains(t, err, `rules "fide"`)
	_, err = honour.ParseCustomList("thai")
	require.ErrorContains(t, err, "thai: a built-in profile")
	list, err = honour.ParseCustomList("")
	require.NoError(t, err)
	require.Empty(t, list)
}

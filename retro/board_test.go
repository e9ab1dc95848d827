package retro

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
	"github.com/stretchr/testify/require"
)

// boardSources keeps DTB tables per profile, solved on demand.
var (
	boardMu     sync.Mutex
	boardSolved = map[string]map[tb.Material]*Table{}
)

func solveDTB(t testing.TB, name string, r *honour.Rules) *Table {
	t.Helper()
	var get Source
	get = func(m tb.Material) (*Table, error) {
		boardMu.Lock()
		table := boardSolved[r.Name][m]
		boardMu.Unlock()
		if table != nil {
			return table, nil
		}
		table, err := GenerateDTB(context.Background(), m, r, shared.get, get, Options{})
		if err != nil {
			return nil, err
		}
		boardMu.Lock()
		if boardSolved[r.Name] == nil {
			boardSolved[r.Name] = map[tb.Material]*Table{}
		}
		boardSolved[r.Name][m] = table
		boardMu.Unlock()
		return table, nil
	}
	table, err := get(tb.MustParseMaterial(name))
	require.NoError(t, err)
	return table
}

// checkAgainstDTM asserts what DTB must be, position by position: a DTB win
// is a DTM win (every goal leads to a forced mate), a DTB loss a DTM loss,
// and checkmate is checkmate in both. DTB may be longer than DTM: the
// quickest mate may pass through a capture into a pieces' ending too long
// for its fresh count (KRvKN: n7/8/7R/8/8/8/8/K3k3 w, DTM 41, DTB 51). It
// returns how many positions are wins or losses by DTM only.
func checkAgainstDTM(t *testing.T, dtm, dtb *Table) (dtmOnly int) {
	t.Helper()
	for side := tb.White; side <= tb.Black; side++ {
		for k := range dtm.Space.KingPairs() {
			dtm.Space.Walk(k, side, func(i uint64, p *tb.Position) {
				m, b := dtm.Values[side].At(i), dtb.Values[side].At(i)
				switch {
				case b.IsWin():
					require.True(t, m.IsWin(), "%s: DTM %v, DTB %v", p.FEN(), m, b)
				case b.IsLoss():
					require.True(t, m.IsLoss(), "%s: DTM %v, DTB %v", p.FEN(), m, b)
					require.Equal(t, m.Plies() == 0, b.Plies() == 0, "%s: DTM %v, DTB %v", p.FEN(), m, b)
				case m.IsMate():
					dtmOnly++
				}
			})
		}
	}
	return dtmOnly
}

// TestDTBKRvKN: the rook side that takes the knight must then mate inside
// a fresh one-rook count — thai: limit 32 plies, starting at 2 × 3 = 6
// with the bare king to move, so the KRvK mate may take at most
// 32 − 6 + 1 = 27 plies — and KRvK needs up to 32 with Black to move, so
// some DTM wins are DTB draws.
func TestDTBKRvKN(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece DTB")
	}
	dtm := solve(t, "KRvKN")
	dtb := solveDTB(t, "KRvKN", &honour.ThaiRules)
	require.NoError(t, VerifyDTB(context.Background(), dtb, &honour.ThaiRules, shared.get, func(m tb.Material) (*Table, error) {
		return solveDTB(t, m.String(), &honour.ThaiRules), nil
	}, Options{}))
	require.Positive(t, checkAgainstDTM(t, dtm, dtb), "some wins are wins only without the count")

	// White takes the knight: Ra1xa8 leaves KRvK with Black to move, a
	// goal iff its loss fits the 27 plies.
	p, err := tb.ParseFEN("n7/8/8/8/3k4/8/8/R3K3 w - - 0 1")
	require.NoError(t, err)
	i, _ := dtb.Space.Index(&p)
	q := p.Play(tb.NewMove(tb.NewSquare(0, 0), tb.NewSquare(0, 7)))
	krk := solve(t, "KRvK")
	j, _ := krk.Space.Index(&q)
	after := krk.Values[tb.Black].At(j)
	require.True(t, after.IsLoss())
	if after.Plies() <= 27 {
		require.Equal(t, value.Mate(1), dtb.Values[tb.White].At(i), "the capture reaches the goal")
	} else {
		require.NotEqual(t, value.Mate(1), dtb.Values[tb.White].At(i))
	}
}

// The DTB of a table with a Khon (mirror symmetry only), under the
// cambodian profile, verifies against its successors too.
func TestDTBKSvKM(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece DTB")
	}
	dtb := solveDTB(t, "KSvKM", &honour.CambodianRules)
	require.NoError(t, VerifyDTB(context.Background(), dtb, &honour.CambodianRules, shared.get, func(m tb.Material) (*Table, error) {
		return solveDTB(t, m.String(), &honour.CambodianRules), nil
	}, Options{}))
	checkAgainstDTM(t, solve(t, "KSvKM"), dtb)
}

// VerifyTogether checks DTM and the DTB of two profiles in one pass, and
// a changed DTB value (a goal capture in one ply stored as a win in 3) is
// reported against that table alone: the position itself, or a predecessor
// whose recomputed value moved with it, whichever a worker meets first.
// materialChecks is the check of a material's DTM table and of its thai
// and cambodian DTB tables, solved for the tests.
func materialChecks(t testing.TB, name string) []Check {
	t.Helper()
	dtbOf := func(r *honour.Rules) Source {
		return func(m tb.Material) (*Table, error) { return solveDTB(t, m.String(), r), nil }
	}
	return []Check{
		{Table: solve(t, name), DTM: shared.get},
		{Table: solveDTB(t, name, &honour.ThaiRules), Rules: &honour.ThaiRules, DTM: shared.get, DTB: dtbOf(&honour.ThaiRules)},
		{Table: solveDTB(t, name, &honour.CambodianRules), Rules: &honour.CambodianRules, DTM: shared.get, DTB: dtbOf(&honour.CambodianRules)},
	}
}

func TestVerifyTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece DTB")
	}
	checks := materialChecks(t, "KRvKN")
	thai := checks[1].Table
	errs, err := VerifyTogether(context.Background(), checks, Options{})
	require.NoError(t, err)
	require.Equal(t, []error{nil, nil, nil}, errs)

	broken := &Table{Space: thai.Space}
	var vals [2][]value.Value
	for side := range broken.Values {
		vals[side] = thai.Values[side].All()
	}
	i := slices.Index(vals[tb.White], value.Mate(1)) // a goal capture: wins at once
	require.GreaterOrEqual(t, i, 0)
	vals[tb.White][i] = value.Mate(3)
	for side := range vals {
		broken.Values[side] = value.ArrayOf(vals[side])
	}
	checks[1].Table = broken
	errs, err = VerifyTogether(context.Background(), checks, Options{})
	require.NoError(t, err)
	require.NoError(t, errs[0])
	require.NoError(t, errs[2])
	var mm *MismatchError
	require.ErrorAs(t, errs[1], &mm) // the position, or a predecessor that relied on it
	require.Positive(t, mm.Count)
	require.Contains(t, mm.Error(), "verify KRvKN: ")

	_, err = VerifyTogether(context.Background(), []Check{checks[0], {Table: solve(t, "KRvK"), DTM: shared.get}}, Options{})
	require.ErrorContains(t, err, "tables of KRvKN and KRvK in one pass")
}

func TestDTBErrors(t *testing.T) {
	_, err := GenerateDTB(context.Background(), tb.MustParseMaterial("KRRvK"), &honour.ThaiRules, shared.get, shared.get, Options{})
	require.ErrorContains(t, err, "one side is bare")
	_, err = GenerateDTB(context.Background(), tb.MustParseMaterial("KRvKN"), &honour.ASEANRules, shared.get, shared.get, Options{})
	require.ErrorContains(t, err, "no board's honour")
}

func TestBoardDependencies(t *testing.T) {
	dtb, dtm := BoardDependencies(tb.MustParseMaterial("KRNvKR"))
	names := func(ms []tb.Material) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.String())
		}
		return out
	}
	require.Equal(t, "KRNvKR", dtb[len(dtb)-1].String())
	require.ElementsMatch(t, []string{"KRvKR", "KRvKN", "KRNvKR"}, names(dtb))
	require.ElementsMatch(t, []string{"KRvK", "KNvK", "KRNvK"}, names(dtm))
}

// BoardCounts and the plain DTM statistics agree on what is decided, and
// under thai rules some KRvKN wins are count draws: a fresh board count
// leaves 129 plies, but the one-rook count after the knight falls leaves
// only 27.
func TestBoardCountsKRvKN(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece DTB")
	}
	dtm := solve(t, "KRvKN")
	dtb := solveDTB(t, "KRvKN", &honour.ThaiRules)
	st, err := ComputeStats(context.Background(), dtm, Options{})
	require.NoError(t, err)
	counts, err := BoardCounts(context.Background(), dtm, dtb, &honour.ThaiRules, Options{})
	require.NoError(t, err)
	for _, side := range []string{"w", "b"} {
		s, c := st.Sides[side], counts[side]
		require.Equal(t, s.Wins(), c.Win+c.CursedWin, side)
		require.Equal(t, s.Losses(), c.Loss+c.BlessedLoss, side)
		require.Equal(t, s.Draw, c.Draw, side)
	}
	require.Positive(t, counts["w"].CursedWin)
	require.Positive(t, counts["w"].Win)
	require.Equal(t, judgedOneByOne(dtm, dtb, &honour.ThaiRules), counts)

	// Read a king pair at a time (as gen reads the DTM file), the same.
	ranged, err := BoardCountsFrom(context.Background(), dtm, dtb, &honour.ThaiRules, Options{})
	require.NoError(t, err)
	require.Equal(t, counts, ranged)
	_, err = BoardCountsFrom(context.Background(), failingRanger{}, dtb, &honour.ThaiRules, Options{})
	require.ErrorContains(t, err, "unreadable")
}

// judgedOneByOne is BoardCounts the plain way: every legal position of
// the full board judged by JudgeBoard.
func judgedOneByOne(dtm, dtb *Table, r *honour.Rules) map[string]CountStats {
	space := dtm.Space
	out := map[string]CountStats{}
	for side := tb.White; side <= tb.Black; side++ {
		var cs CountStats
		c := r.FreshCountFor(space.Material(), side)
		for k := range space.KingPairs() {
			space.Walk(k, side, func(i uint64, p *tb.Position) {
				n := uint64(space.Multiplicity(p))
				j := r.JudgeBoard(dtm.Values[side].At(i), dtb.Values[side].At(i), c)
				counts := map[honour.Category]*uint64{honour.Win: &cs.Win, honour.CursedWin: &cs.CursedWin, honour.Draw: &cs.Draw, honour.BlessedLoss: &cs.BlessedLoss, honour.Loss: &cs.Loss}
				*counts[j.Category] += n
			})
		}
		out[side.String()] = cs
	}
	return out
}

type failingRanger struct{}

func (failingRanger) Range(tb.Color, uint64, uint64, []value.Value) ([]value.Value, error) {
	return nil, errors.New("unreadable")
}

// Statistics of a fresh table (holes marked) skip decoding where they can;
// they must equal those found by decoding every index, as for a table read
// from a file. KRvKN has king pairs on the diagonal (decoded either way),
// KRvKS only the mirror symmetry.
func TestStatsWithMarkedHoles(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece DTB")
	}
	unmarked := func(t *Table) *Table { c := *t; c.HolesMarked = false; return &c }
	for _, name := range []string{"KRvKN", "KRvKS"} {
		dtm := solve(t, name)
		require.True(t, dtm.HolesMarked)
		fast, err := ComputeStats(context.Background(), dtm, Options{})
		require.NoError(t, err)
		slow, err := ComputeStats(context.Background(), unmarked(dtm), Options{})
		require.NoError(t, err)
		require.Equal(t, slow, fast, name)

		dtb := solveDTB(t, name, &honour.ThaiRules)
		fastCounts, err := BoardCounts(context.Background(), unmarked(dtm), dtb, &honour.ThaiRules, Options{})
		require.NoError(t, err)
		slowCounts, err := BoardCounts(context.Background(), unmarked(dtm), unmarked(dtb), &honour.ThaiRules, Options{})
		require.NoError(t, err)
		require.Equal(t, slowCounts, fastCounts, name)
	}
}

// Thai goals include the cambodian ones (every limit is a move longer),
// not the other way round, and no count includes every count. Taking the
// cambodian draws from the thai table gives the same table as taking them
// from DTM.
func TestDrawsFromWiderProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece DTB")
	}
	m := tb.MustParseMaterial("KRvKN")
	require.True(t, GoalsIncluded(&honour.CambodianRules, &honour.ThaiRules, m))
	require.False(t, GoalsIncluded(&honour.ThaiRules, &honour.CambodianRules, m))
	require.True(t, GoalsIncluded(&honour.ThaiRules, &honour.ThaiRules, m))
	require.True(t, GoalsIncluded(&honour.ThaiRules, &honour.NoRules, m))
	require.False(t, GoalsIncluded(&honour.NoRules, &honour.ThaiRules, m))

	thai := solveDTB(t, "KRvKN", &honour.ThaiRules)
	plain := solveDTB(t, "KRvKN", &honour.CambodianRules)
	dtb := func(m tb.Material) (*Table, error) { return solveDTB(t, m.String(), &honour.CambodianRules), nil }
	fast, err := GenerateDTB(context.Background(), m, &honour.CambodianRules, shared.get, dtb, Options{Draws: thai})
	require.NoError(t, err)
	for side := range plain.Values {
		require.Equal(t, plain.Values[side].All(), fast.Values[side].All())
	}
	// The other way round the cambodian draws include thai wins.
	thaiDTB := func(m tb.Material) (*Table, error) { return solveDTB(t, m.String(), &honour.ThaiRules), nil }
	wrong, err := GenerateDTB(context.Background(), m, &honour.ThaiRules, shared.get, thaiDTB, Options{Draws: plain})
	require.NoError(t, err)
	require.NotEqual(t, [2][]value.Value{thai.Values[0].All(), thai.Values[1].All()}, [2][]value.Value{wrong.Values[0].All(), wrong.Values[1].All()})

	_, err = GenerateDTB(context.Background(), m, &honour.CambodianRules, shared.get, dtb, Options{Draws: solve(t, "KRvKR")})
	require.ErrorContains(t, err, "table of KRvKR given for the draws of KRvKN")
	_, err = Generate(context.Background(), tb.MustParseMaterial("KRvK"), shared.get, Options{Draws: thai})
	require.ErrorContains(t, err, "DTM takes no draws")
}

// Who counts changes verdicts, never a DTB value: distance to the goal does
// not depend on whose win the count limits. Under thai with a board's
// count of 20 plies KRvKN has wins whose goal lies beyond the count; with
// board_count_by "fewer" no count runs between a rook and a knight, so
// every DTM win whose goal can be reached at all is a win.
func TestDTBWhoCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece DTB")
	}
	half := honour.ThaiRules
	half.Name, half.BoardPlies = "short-board", 20
	fewer := half
	fewer.Name, fewer.BoardCountBy = "short-fewer", honour.CountByFewer
	require.NoError(t, fewer.Validate())
	dtm := solve(t, "KRvKN")
	a, b := solveDTB(t, "KRvKN", &half), solveDTB(t, "KRvKN", &fewer)
	for side := tb.White; side <= tb.Black; side++ {
		require.Equal(t, a.Values[side].All(), b.Values[side].All(), side)
	}
	neutral, err := BoardCounts(context.Background(), dtm, a, &half, Options{})
	require.NoError(t, err)
	byFewer, err := BoardCounts(context.Background(), dtm, b, &fewer, Options{})
	require.NoError(t, err)
	for side := tb.White; side <= tb.Black; side++ {
		n, f := neutral[side.String()], byFewer[side.String()]
		t.Logf("%v: neutral %+v, fewer %+v", side, n, f)
		require.Less(t, f.CursedWin+f.BlessedLoss, n.CursedWin+n.BlessedLoss, "%v: the neutral count curses wins that reach their goal", side)
		require.Equal(t, n.Win+n.CursedWin, f.Win+f.CursedWin, side)
		require.Equal(t, n.Loss+n.BlessedLoss, f.Loss+f.BlessedLoss, side)
		require.Equal(t, n.Draw, f.Draw, side)
		require.Zero(t, f.Unknown, side)
	}
	// Under fewer a cursed win is one whose goal cannot be reached at
	// all: the DTM wins checkAgainstDTM finds without a DTB result.
	var cursed uint64
	for side := tb.White; side <= tb.Black; side++ {
		f := byFewer[side.String()]
		cursed += f.CursedWin + f.BlessedLoss
	}
	require.Positive(t, cursed)
}

// matesDraw is thai with the texts' counting side whose mates are draws.
func matesDraw() *honour.Rules {
	r := honour.ThaiRules
	r.Name, r.BoardCountBy, r.CounterMate = "mates-draw", honour.CountByFewer, honour.CounterMateDraws
	return &r
}

// A mate by the counting side is a draw (counter_mate "draw"): KRvKN has
// three DTB files, no count (every mate a goal: thai's values), a count
// White runs (the rook's mates are draws: it wins only by taking the
// knight into a KRvK it mates inside the fresh count) and one Black runs
// (the knight's mates are draws: it never wins). Each is checked by the
// verifier, and against thai's table position by position.
func TestDTBCounterMates(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece DTB")
	}
	r := matesDraw()
	require.NoError(t, r.Validate())
	m := tb.MustParseMaterial("KRvKN")
	require.Equal(t, []honour.Variant{honour.OwnFile, honour.WhiteCounting, honour.BlackCounting}, r.Variants(m))
	thai := solveDTB(t, "KRvKN", &honour.ThaiRules)
	files := map[honour.Variant]*Table{}
	boards := func(x tb.Material, v honour.Variant) (*Table, error) { return files[v], nil }
	for _, v := range r.Variants(m) {
		table, err := GenerateDTBFile(context.Background(), m, v, r, shared.get, boards, Options{})
		require.NoError(t, err)
		require.NoError(t, verifyOne(context.Background(), Check{Table: table, Rules: r, DTM: shared.get, Variant: v, Boards: boards}, Options{}), v.Suffix())
		files[v] = table
	}
	for side := tb.White; side <= tb.Black; side++ {
		require.Equal(t, thai.Values[side].All(), files[honour.OwnFile].Values[side].All(), "no count runs: every mate is a goal")
	}
	// wins[v][c] counts the positions side c wins in file v, by the
	// side to move's value.
	wins := map[honour.Variant][2]int{}
	for v, table := range map[honour.Variant]*Table{honour.OwnFile: thai, honour.WhiteCounting: files[honour.WhiteCounting], honour.BlackCounting: files[honour.BlackCounting]} {
		var n [2]int
		for side := tb.White; side <= tb.Black; side++ {
			for k := range table.Space.KingPairs() {
				table.Space.Walk(k, side, func(i uint64, p *tb.Position) {
					own, base := table.Values[side].At(i), thai.Values[side].At(i)
					switch {
					case own.IsWin():
						n[side]++
						require.True(t, base.IsWin(), "%s%s: %v, thai %v", p.FEN(), v.Suffix(), own, base)
					case own.IsLoss():
						n[side.Other()]++
						require.True(t, base.IsLoss(), "%s%s: %v, thai %v", p.FEN(), v.Suffix(), own, base)
					}
				})
			}
		}
		wins[v] = n
	}
	t.Logf("wins (white, black): thai %v, white counts %v, black counts %v", wins[honour.OwnFile], wins[honour.WhiteCounting], wins[honour.BlackCounting])
	require.Positive(t, wins[honour.OwnFile][tb.Black], "the knight mates in some positions")
	require.Zero(t, wins[honour.BlackCounting][tb.Black], "counting, the knight cannot win")
	require.Less(t, wins[honour.WhiteCounting][tb.White], wins[honour.OwnFile][tb.White], "counting, the rook loses its mates")
	require.Positive(t, wins[honour.WhiteCounting][tb.White], "it still wins by taking the knight")
	require.Equal(t, wins[honour.OwnFile][tb.Black], wins[honour.WhiteCounting][tb.Black])

	// A mated position: the rook's mate scores a draw where White counts.
	p, err := tb.ParseFEN("k6R/8/1K6/8/8/8/8/4n3 b - - 0 1")
	require.NoError(t, err)
	require.True(t, p.InCheck(tb.Black))
	i, _ := thai.Space.Index(&p)
	require.Equal(t, value.MatedIn(0), thai.Values[tb.Black].At(i))
	require.Equal(t, value.Draw, files[honour.WhiteCounting].Values[tb.Black].At(i))
	require.Equal(t, value.MatedIn(0), files[honour.BlackCounting].Values[tb.Black].At(i))
}

// After a capture the count goes on, run by the same side, in the colours
// of the sub-table: the file a sub-material is read from.
func TestDTBCounterMatesSubFiles(t *testing.T) {
	r := matesDraw()
	var asked []string
	dtb := func(m tb.Material, v honour.Variant) (*Table, error) {
		asked = append(asked, m.String()+v.Suffix())
		return nil, nil
	}
	dtm := func(m tb.Material) (*Table, error) { asked = append(asked, m.String()+" dtm"); return nil, nil }
	krkn := tb.MustParseMaterial("KRvKN")
	// KRRvKN, Black (fewer) counts: Black takes a rook into KRvKN.
	src := boardSource(tb.MustParseMaterial("KRRvKN"), honour.OwnFile, r, dtm, dtb)
	_, _ = src(krkn, false)
	_, _ = src(krkn, true) // the same, had the sub-table swapped colours
	_, _ = src(tb.MustParseMaterial("KRRvK"), false)
	// KRvKN with no count: a capture bares (DTM); KRvKN when White
	// counts stays with White.
	_, _ = boardSource(krkn, honour.OwnFile, r, dtm, dtb)(tb.MustParseMaterial("KRvK"), false)
	require.Equal(t, []string{"KRvKN@black", "KRvKN@white", "KRRvK dtm", "KRvK dtm"}, asked)
	// A profile whose mates score alike reads the own files only.
	asked = nil
	_, _ = boardSource(tb.MustParseMaterial("KRRvKN"), honour.OwnFile, &honour.ThaiRules, dtm, dtb)(krkn, true)
	require.Equal(t, []string{"KRvKN"}, asked)
	// A file the material does not have is refused.
	_, err := GenerateDTBFile(context.Background(), tb.MustParseMaterial("KRRvKN"), honour.WhiteCounting, r, dtm, dtb, Options{})
	require.ErrorContains(t, err, "KRRvKN has no DTB file for a count white runs")
}

package probe_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// checkMoveOrder probes n random legal positions of material (both sides
// to move, fresh count) under thai and cambodian rules and checks the
// order of their moves (issue 58): the first listed is Best; categories
// never rise down the list (no cursed win above a win inside the count);
// among wins inside the count the goals never shorten, among losses they
// never lengthen; and where board's honour judges a won position by its
// DTB, the first move's goal is that DTB, one ply nearer.
func checkMoveOrder(t *testing.T, dir, material string, n int, seed uint64) {
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	m := tb.MustParseMaterial(material)
	space, err := index.New(m)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(seed, 58))
	goalsChecked := 0
	for _, rules := range []*honour.Rules{&honour.ThaiRules, &honour.CambodianRules} {
		for probed := 0; probed < n; {
			side := tb.Color(rng.IntN(2))
			p, ok := space.Position(rng.Uint64N(space.Size()), side)
			if !ok || !p.HasLegalMove() {
				continue
			}
			probed++
			root, err := tables.Root(&p, rules)
			require.NoError(t, err, p.FEN())
			require.Equal(t, 0, root.Best, "%s under %s", p.FEN(), rules.Name)
			require.Equal(t, 0, probe.BestJudged(root.Moves), p.FEN())
			for i := 1; i < len(root.Moves); i++ {
				a, b := root.Moves[i-1], root.Moves[i]
				ca, cb := a.After.Category.Opposite(), b.After.Category.Opposite()
				require.False(t, cb.Better(ca), "%s under %s: %s (%s) listed above %s (%s)", p.FEN(), rules.Name, a.Move, ca, b.Move, cb)
				if ca == cb && (ca == honour.Win || ca == honour.Loss) {
					require.GreaterOrEqual(t, value.Compare(a.Goal(), b.Goal()), 0, "%s under %s: %s listed above %s with a worse goal", p.FEN(), rules.Name, a.Move, b.Move)
				}
			}
			j := root.Position
			if j.Category == honour.Win && j.DTB.IsMate() && j.Count.Kind == honour.BoardCount {
				require.Equal(t, j.DTB, root.Moves[0].Goal(), "%s under %s: the best move's goal is the position's DTB", p.FEN(), rules.Name)
				goalsChecked++
			}
		}
	}
	require.Positive(t, goalsChecked, "no won position judged by its DTB among those drawn")
}

func TestMoveOrderUnderTheCount(t *testing.T) {
	dir := testenv.BoardTables(t, "KRvKN")
	checkMoveOrder(t, dir, "KRvKN", 20000, 1)

	// The position of issue 58: the quickest mate (h6c6, mate in 21) is
	// cursed under thai; the win inside the count (a1b2) comes first.
	p, err := tb.ParseFEN("n7/8/7R/8/8/8/8/K3k3 w - - 0 1")
	require.NoError(t, err)
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	root, err := tables.Root(&p, &honour.ThaiRules)
	require.NoError(t, err)
	require.Equal(t, "a1b2", root.Moves[0].Move.String())
	require.Equal(t, honour.Win, root.Moves[0].After.Category.Opposite())
	require.Equal(t, "h6c6", root.Moves[1].Move.String())
	require.Equal(t, honour.CursedWin, root.Moves[1].After.Category.Opposite())
	goal, ok := root.Moves[0].GoalPlies()
	require.True(t, ok)
	require.Equal(t, 51, goal)
	_, ok = root.Moves[1].GoalPlies()
	require.False(t, ok, "a cursed win shows its mate alone")
}

// TestMoveOrderKRRvKN checks the order over KRRvKN, whose tables go test
// does not generate: CI points $MAKRUKTB_ORDER_TABLES at a directory with
// KRRvKN's DTM and DTB tables (.ci/run).
func TestMoveOrderKRRvKN(t *testing.T) {
	dir := os.Getenv("MAKRUKTB_ORDER_TABLES")
	if dir == "" {
		t.Skip("set MAKRUKTB_ORDER_TABLES to a directory holding KRRvKN with its thai and cambodian DTB tables")
	}
	checkMoveOrder(t, dir, "KRRvKN", 1000, 2)
}

func TestBaringCaptureIsAGoal(t *testing.T) {
	dir := testenv.BoardTables(t, "KRvKN")
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	// White's rook takes the knight: KRvK with a fresh pieces' count, a
	// mate in 2 inside it — a goal reached at once, as quick as the mate in
	// one (listed first: the quicker mate among equal goals).
	p, err := tb.ParseFEN("k7/8/1K6/8/8/8/8/2R3n1 w - - 0 1")
	require.NoError(t, err)
	root, err := tables.Root(&p, &honour.ThaiRules)
	require.NoError(t, err)
	var capture probe.JudgedMove
	for _, m := range root.Moves {
		if m.Move.String() == "c1g1" {
			capture = m
		}
	}
	require.True(t, capture.ReachesGoal, "c1g1 bares Black")
	goal, ok := capture.GoalPlies()
	require.True(t, ok)
	require.Equal(t, 1, goal)
	require.Equal(t, "c1c8", root.Moves[0].Move.String(), "mate in one")
	require.Equal(t, "c1g1", root.Moves[1].Move.String(), "the goal in one ply before the other mates in 2")
}

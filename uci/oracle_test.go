package uci

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// randomGame places m's pieces at random and gives the position a random
// count: none, or a running one at a random ply of its limit.
func randomGame(t *testing.T, rng *rand.Rand, d *Dialect, m tb.Material) *Game {
	for {
		p, ok := tb.RandomPosition(rng, m, tb.Color(rng.IntN(2)))
		if !ok {
			continue
		}
		if rng.IntN(3) > 0 {
			c := d.Rules.FreshCount(&p)
			p.CountLimit, p.CountPly = c.Limit, max(c.Ply, 0)+rng.IntN(c.Limit/2)
		}
		g, err := d.NewGame(p.FEN())
		if err == nil && g.Pos.HasLegalMove() {
			return g
		}
	}
}

// A game both sides play by Best ends as Judge said it would: a win inside
// the count ends in mate before the count runs out, anything else without
// mate; and while a count runs, the oracle, which follows the count move
// by move, agrees with probe's judgement of the FEN's count.
func TestBestPlayEndsAsJudged(t *testing.T) {
	tables := testenv.OpenTables(t, "KRvK", "KRvKN")
	o := &Oracle{Tables: tables}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, variant := range Variants() {
		d, _ := DialectOf(variant)
		for _, name := range []string{"KRvK", "KRvKN"} {
			m := tb.MustParseMaterial(name)
			results := map[honour.Category]int{}
			for range 60 {
				g := randomGame(t, rng, d, m)
				start := g.FEN()
				cat, err := o.Judge(g)
				require.NoError(t, err)
				results[cat]++
				if g.Count.Running() && !g.Count.Expired() {
					j, err := tables.Judge(&g.Pos, &d.Rules)
					require.NoError(t, err)
					require.Equal(t, j.Category, cat, "%s %s", variant, start)
				}
				mover := g.Pos.Side
				plies := 0
				for ; plies < 1000 && g.Pos.HasLegalMove() && !g.Count.Expired() && tb.MaterialOf(&g.Pos).Pieces() > 2; plies++ {
					a, err := o.Best(g)
					require.NoError(t, err)
					g.PlayMove(a.Move)
				}
				require.Less(t, plies, 1000, "%s %s", variant, start)
				mated := g.Pos.IsCheckmate()
				switch cat {
				case honour.Win:
					require.True(t, mated && g.Pos.Side != mover, "%s %s: %s ends in %s", variant, start, cat, g.FEN())
				case honour.Loss:
					require.True(t, mated && g.Pos.Side == mover, "%s %s: %s ends in %s", variant, start, cat, g.FEN())
				default:
					require.False(t, mated, "%s %s: %s ends in %s", variant, start, cat, g.FEN())
				}
			}
			// The sample reaches every kind of result.
			require.Greater(t, results[honour.Win], 0, "%s %s %v", variant, name, results)
			require.Greater(t, results[honour.Draw]+results[honour.CursedWin]+results[honour.BlessedLoss], 0, "%s %s %v", variant, name, results)
		}
	}
}

// The score of an answer: mate in moves for the side to move, negative
// when it is mated, cp 0 for every draw.
func TestScore(t *testing.T) {
	tables := testenv.OpenTables(t, "KRvK", "KRvKN")
	o := &Oracle{Tables: tables}
	d, _ := DialectOf("makruk")
	for _, c := range []struct{ fen, score string }{
		{"k7/8/1K6/8/8/8/8/7R w - - 0 1", "mate 1"},   // Rh8 mates
		{"k7/8/1K6/8/8/8/8/7R b - - 0 1", "mate -1"},  // Ka... then Rh8
		{"k7/8/1K6/8/8/8/8/7R w - 32 33 1", "cp 0"},   // the count has run out
		{"8/8/8/3k4/8/8/8/R3K3 w - - 0 1", "mate 14"}, // 27 plies: all the count leaves once it starts after the move
		{"8/8/8/8/8/2k5/8/n1K4R w - 128 0 1", "cp 0"}, // mate in 19, but no goal inside the board count
	} {
		t.Run(c.fen, func(t *testing.T) {
			g, err := d.NewGame(c.fen)
			require.NoError(t, err)
			a, err := o.Scored(g)
			require.NoError(t, err)
			require.Equal(t, c.score, a.Score(), c.fen)
		})
	}
}

// Without the DTB table a board's-honour position cannot be judged: the
// oracle says which table it needs rather than guess from DTM.
func TestMissingBoardTable(t *testing.T) {
	dir := t.TempDir()
	src := testenv.Tables(t, "KRvKN")
	for _, name := range []string{"KRvK.mtbm", "KNvK.mtbm", "KRvKN.mtbm"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o666))
	}
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	d, _ := DialectOf("makruk")
	g, err := d.NewGame("8/8/8/3k4/8/8/3n4/R3K3 w - 128 0 1")
	require.NoError(t, err)
	_, err = (&Oracle{Tables: tables}).Best(g)
	var missing *MissingBoardError
	require.ErrorAs(t, err, &missing)
	require.Equal(t, "KRvKN.thai.mtbb", missing.ID.FileName())
}

package probe_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// buildTables generates name and its sub-tables (package testenv) and
// returns the table and the directory of their files.
func buildTables(t testing.TB, name string) (*retro.Table, string) {
	return testenv.Generated(t, name), testenv.Tables(t, name)
}

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	if v2Dir != "" {
		os.RemoveAll(v2Dir)
	}
	os.Exit(code)
}

// checkAgainstGenerator probes every legal position of the table, and its
// colour-flipped twin, and compares with the generator's values.
func checkAgainstGenerator(t *testing.T, name string) {
	table, dir := buildTables(t, name)
	tables, err := probe.Open(dir, probe.WithCacheBytes(8<<20))
	require.NoError(t, err)
	defer tables.Close()
	space := table.Space
	checked := 0
	for side := tb.White; side <= tb.Black; side++ {
		for k := 0; k < space.KingPairs(); k++ {
			space.Walk(k, side, func(i uint64, p *tb.Position) {
				want := table.Values[side].At(i)
				got, err := tables.Value(p)
				if err != nil || got != want {
					t.Fatalf("%s: probe %v (%v), generator %v", p.FEN(), got, err, want)
				}
				flipped := p.ColorFlipped()
				got, err = tables.Value(&flipped)
				if err != nil || got != want {
					t.Fatalf("%s (flipped from %s): probe %v (%v), generator %v", flipped.FEN(), p.FEN(), got, err, want)
				}
				checked++
			})
		}
	}
	require.Positive(t, checked)
}

func TestProbeAgreesKRvKS(t *testing.T) { checkAgainstGenerator(t, "KRvKS") }

func TestProbeAgreesKMMMvK(t *testing.T) {
	if testing.Short() {
		t.Skip("5-piece table")
	}
	checkAgainstGenerator(t, "KMMMvK")
}

func TestProbeMovesAndLine(t *testing.T) {
	_, dir := buildTables(t, "KRvK")
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	p, err := tb.ParseFEN("8/8/8/8/8/2k5/1R6/K7 w - - 0 1") // a longest KRvK win
	require.NoError(t, err)
	moves, err := tables.Moves(&p)
	require.NoError(t, err)
	require.Equal(t, value.Mate(31), moves[0].ForMover())
	require.Equal(t, value.Mate(30), moves[0].After)
	for i := 1; i < len(moves); i++ {
		require.GreaterOrEqual(t, value.Compare(moves[i-1].ForMover(), moves[i].ForMover()), 0)
	}
	line, err := tables.JudgedLine(&p, &honour.NoRules)
	require.NoError(t, err)
	require.Len(t, line, 31)
	end := p
	for _, m := range line {
		end = end.Play(m.Move)
	}
	require.True(t, end.IsCheckmate(), end.FEN())
	// From the flipped side the same line, mirrored, mates too.
	q := p.ColorFlipped()
	v, err := tables.Value(&q)
	require.NoError(t, err)
	require.Equal(t, value.Mate(31), v)
}

func TestProbeErrors(t *testing.T) {
	_, dir := buildTables(t, "KRvK")
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	for fen, want := range map[string]error{
		"k7/8/8/8/4P3/8/8/K7 w - - 0 1": probe.ErrPawns,
		"k7/8/8/8/8/8/8/KRRRRR2 w":      probe.ErrTooManyPieces,
	} {
		p, err := tb.ParseFEN(fen)
		require.NoError(t, err)
		_, err = tables.Value(&p)
		require.ErrorIs(t, err, want, fen)
		var pe *probe.PositionError
		require.ErrorAs(t, err, &pe)
	}
	p, err := tb.ParseFEN("k7/8/8/8/8/8/8/K1NN4 w")
	require.NoError(t, err)
	_, err = tables.Value(&p)
	var missing *probe.MissingError
	require.ErrorAs(t, err, &missing)
	require.Equal(t, "KNNvK", missing.Material)
	kk, err := tb.ParseFEN("k7/8/8/8/8/8/8/K7 w")
	require.NoError(t, err)
	v, err := tables.Value(&kk)
	require.NoError(t, err)
	require.Equal(t, value.Draw, v)
}

// TestCorruptTableInDirectory: a damaged block gives a CorruptError naming
// the file for the positions it holds, and never a wrong answer.
func TestCorruptTableInDirectory(t *testing.T) {
	table, src := buildTables(t, "KRvK")
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(src, "KRvK.mtbm"))
	require.NoError(t, err)
	data[len(data)-100] ^= 0xff // inside Black's last block
	require.NoError(t, os.WriteFile(filepath.Join(dir, "KRvK.mtbm"), data, 0o644))
	tables, err := probe.Open(dir, probe.WithCacheBytes(0))
	require.NoError(t, err)
	defer tables.Close()
	failures := 0
	for side := tb.White; side <= tb.Black; side++ {
		for k := 0; k < table.Space.KingPairs(); k++ {
			table.Space.Walk(k, side, func(i uint64, p *tb.Position) {
				v, err := tables.Value(p)
				if err != nil {
					var corrupt *probe.CorruptError
					require.True(t, errors.As(err, &corrupt), "%v", err)
					require.Contains(t, corrupt.File, "KRvK.mtbm")
					failures++
					return
				}
				require.Equal(t, table.Values[side].At(i), v, p.FEN())
			})
		}
	}
	require.Positive(t, failures)
}

// TestConcurrentProbes probes random positions from many goroutines (make
// test runs it under the race detector).
func TestConcurrentProbes(t *testing.T) {
	table, dir := buildTables(t, "KRvKN")
	tables, err := probe.Open(dir, probe.WithCacheBytes(256<<10)) // small: forces evictions
	require.NoError(t, err)
	defer tables.Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 99))
			for range 3000 {
				side := tb.Color(rng.IntN(2))
				i := rng.Uint64N(table.Space.Size())
				p, ok := table.Space.Position(i, side)
				if !ok {
					continue
				}
				v, err := tables.Value(&p)
				if err != nil || v != table.Values[side].At(i) {
					t.Errorf("%s: %v %v", p.FEN(), v, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	require.LessOrEqual(t, tables.CacheBytes(), int64(256<<10), "the cache never holds more than its bound")
	require.Positive(t, tables.CacheBytes())
}

// TestJudgedLineUnderCount follows the count-aware line of a KRRvK mate in
// 7 moves (13 plies). Thai rules give two rooks 16 plies; from a fresh
// count with White to move the count starts at ply 7, so 10 plies remain
// for the mating move: a cursed win, and every move of the line says so
// until the count, one ply a move, ends at ply 20.
func TestJudgedLineUnderCount(t *testing.T) {
	_, dir := buildTables(t, "KRRvK")
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	p, err := tb.ParseFEN("8/8/8/8/8/3k4/2R5/KR6 w - - 0 1")
	require.NoError(t, err)
	line, err := tables.JudgedLine(&p, &honour.ThaiRules)
	require.NoError(t, err)
	require.Len(t, line, 13)
	end := p
	for i, m := range line {
		end = end.Play(m.Move)
		require.Equal(t, 7+i+1, m.After.Count.Ply, "move %d", i)
		require.Equal(t, 16, m.After.Count.Limit)
		require.Equal(t, 13-i-1, m.After.Value.Plies(), "move %d", i)
		if m.After.Value.Plies() > 0 {
			mover := m.After.Category.Opposite()
			if end.Side == tb.Black {
				require.Equal(t, honour.CursedWin, mover, "White's move %d", i)
			} else {
				require.Equal(t, honour.BlessedLoss, mover, "Black's move %d", i)
			}
		}
	}
	require.True(t, end.IsCheckmate(), end.FEN())

	// A drawn position has no line.
	d, err := tb.ParseFEN("8/8/8/8/8/8/8/K1k5 w - - 0 1")
	require.NoError(t, err)
	line, err = tables.JudgedLine(&d, &honour.ThaiRules)
	require.NoError(t, err)
	require.Empty(t, line)
}

func TestBestJudged(t *testing.T) {
	judged := func(cs ...honour.Category) []probe.JudgedMove {
		var out []probe.JudgedMove
		for _, c := range cs {
			out = append(out, probe.JudgedMove{After: honour.Judgement{Category: c.Opposite()}})
		}
		return out
	}
	require.Equal(t, -1, probe.BestJudged(nil))
	require.Equal(t, 1, probe.BestJudged(judged(honour.CursedWin, honour.Win, honour.Win)))
	require.Equal(t, 0, probe.BestJudged(judged(honour.Draw, honour.BlessedLoss, honour.Loss)))
	require.Equal(t, 2, probe.BestJudged(judged(honour.Loss, honour.Loss, honour.BlessedLoss)))
	for _, c := range []honour.Category{honour.Win, honour.CursedWin, honour.Draw, honour.BlessedLoss, honour.Loss} {
		require.Equal(t, c, c.Opposite().Opposite())
	}
	require.Equal(t, honour.BlessedLoss, honour.CursedWin.Opposite())
}

// The invariant of the count's readings (issue 40): a position's verdict
// under any profile is its verdict under thai with the count that profile
// implies written into its FEN (a limit a ply shorter where the profile
// draws on reaching it). Pieces' counts, random positions of both sides to
// move, from the tables.
func TestProfilesAsThaiCountFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 1))
	thai := honour.ThaiRules
	for _, name := range []string{"KRvK", "KRRvK"} {
		_, dir := buildTables(t, name)
		tables, err := probe.Open(dir)
		require.NoError(t, err)
		m := tb.MustParseMaterial(name)
		changed := 0
		for range 400 {
			side := tb.Color(rng.IntN(2))
			p, ok := tb.RandomPosition(rng, m, side)
			if !ok {
				continue
			}
			for _, r := range honour.BuiltinRules() {
				j, err := tables.Judge(&p, &r)
				require.NoError(t, err)
				c := j.Count
				q := p
				if c.Kind != honour.NoCountKind {
					q.CountLimit, q.CountPly = c.Limit, c.Ply
					if r.MatingPlies(c) == c.Limit-c.Ply {
						q.CountLimit-- // draws on reaching: thai draws on exceeding a ply earlier
					}
				}
				asThai, err := tables.Judge(&q, &thai)
				require.NoError(t, err)
				if c.Kind == honour.NoCountKind {
					require.Equal(t, honour.PiecesCount, asThai.Count.Kind)
					continue // no count under r; thai's own count runs
				}
				require.Equal(t, j.Category, asThai.Category, "%s under %s; %s under thai", p.FEN(), r.Name, q.FEN())
				thaiFresh, err := tables.Judge(&p, &thai)
				require.NoError(t, err)
				if thaiFresh.Category != j.Category {
					changed++
				}
			}
		}
		require.NotZero(t, changed, "%s: some verdicts differ between the profiles", name)
		require.NoError(t, tables.Close())
	}
}

// A table written after Open is found once Refresh has scanned the
// directory again; probes running meanwhile see it or not, never fail
// otherwise (run under -race).
func TestRefreshFindsNewTables(t *testing.T) {
	dir := t.TempDir()
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	p, err := tb.ParseFEN("8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	require.NoError(t, err)
	_, err = tables.Value(&p)
	var missing *probe.MissingError
	require.ErrorAs(t, err, &missing)

	added, err := tables.Refresh()
	require.NoError(t, err)
	require.Zero(t, added)

	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				q := p
				var notYet *probe.MissingError
				if _, err := tables.Value(&q); err != nil && !errors.As(err, &notYet) {
					t.Error(err)
					return
				}
			}
		})
	}
	writeKRvK(t, dir)
	added, err = tables.Refresh()
	close(stop)
	wg.Wait()
	require.NoError(t, err)
	require.Equal(t, 1, added)
	v, err := tables.Value(&p)
	require.NoError(t, err)
	require.Equal(t, 31, v.Plies())
	require.Equal(t, 3, tables.MaxPieces())

	added, err = tables.Refresh() // nothing new
	require.NoError(t, err)
	require.Zero(t, added)
}

package retro

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// shatranjTables solves Shatranj tables on demand, once per test binary.
var shatranjTables = struct {
	sync.Mutex
	m map[tb.Material]*Table
}{m: map[tb.Material]*Table{}}

func shatranjSource(m tb.Material) (*Table, error) {
	shatranjTables.Lock()
	t, ok := shatranjTables.m[m]
	shatranjTables.Unlock()
	if ok {
		return t, nil
	}
	t, err := Generate(context.Background(), m, shatranjSource, Options{Game: tb.Shatranj})
	if err != nil {
		return nil, err
	}
	shatranjTables.Lock()
	shatranjTables.m[m] = t
	shatranjTables.Unlock()
	return t, nil
}

func solveShatranj(t testing.TB, name string) *Table {
	m, err := tb.Shatranj.ParseMaterial(name)
	require.NoError(t, err)
	table, err := shatranjSource(m)
	require.NoError(t, err)
	require.Equal(t, tb.Shatranj, table.Space.Game())
	return table
}

// shatranjMaterials4 lists the canonical Shatranj materials of four pieces:
// one piece each (three-piece materials are a bare king: no table).
func shatranjMaterials4() []tb.Material {
	var out []tb.Material
	for _, m := range tb.Pawnless(4) {
		if m.Pieces() == 4 && m.SidePieces(tb.White) == 1 {
			out = append(out, m)
		}
	}
	return out
}

func TestShatranjRefusals(t *testing.T) {
	ctx := context.Background()
	_, err := Generate(ctx, tb.MustParseMaterial("KRvK"), shatranjSource, Options{Game: tb.Shatranj})
	require.ErrorContains(t, err, "KRvK has a bare king: in shatranj it is decided by the bare-king rule and has no table")
	_, err = Generate(ctx, tb.MustParseMaterial("KRRvK"), shatranjSource, Options{Game: tb.Shatranj})
	require.ErrorContains(t, err, "bare king")
	m, _ := tb.Shatranj.ParseMaterial("KRvKQ")
	thai, _ := honour.Builtin("thai")
	_, err = GenerateDTB(ctx, m, &thai, shatranjSource, shatranjSource, Options{Game: tb.Shatranj})
	require.ErrorContains(t, err, "shatranj has no counting rule")
	// A Makruk table is never a Shatranj sub-table.
	_, err = Generate(ctx, tb.MustParseMaterial("KRNvKN"), shared.get, Options{Game: tb.Shatranj})
	require.ErrorContains(t, err, "is a makruk table, not shatranj")
	require.Empty(t, Dependencies(tb.Shatranj, tb.MustParseMaterial("KRRvK")))
	deps := Dependencies(tb.Shatranj, tb.MustParseMaterial("KRSvKM"))
	var names []string
	for _, d := range deps {
		names = append(names, tb.Shatranj.MaterialName(d))
	}
	require.ElementsMatch(t, []string{"KBvKQ", "KRvKQ", "KRBvKQ"}, names, "no bare-king materials")
	require.Equal(t, "KRBvKQ", names[2], "the material itself last")
}

// TestShatranjSmall solves every four-piece Shatranj table, checks each
// value against its successors (Verify), and the short ones against a
// search that knows the rules on its own (shatranjSearch).
func TestShatranjSmall(t *testing.T) {
	for _, m := range shatranjMaterials4() {
		name := tb.Shatranj.MaterialName(m)
		t.Run(name, func(t *testing.T) {
			table := solveShatranj(t, name)
			require.NoError(t, Verify(context.Background(), table, shatranjSource, Options{}))
			checkShortValues(t, table, 3, 400)
		})
	}
}

// checkShortValues compares sampled positions of table with an exact
// search to depth plies: a value within the depth must be found by the
// search, any other must not.
func checkShortValues(t *testing.T, table *Table, depth, samples int) {
	rng := rand.New(rand.NewPCG(uint64(table.Space.Size()), 7))
	short := 0
	for n := 0; n < samples; {
		side := tb.Color(rng.IntN(2))
		i := rng.Uint64N(table.Space.Size())
		p, ok := table.Space.Position(i, side)
		if !ok {
			continue
		}
		n++
		v := table.Values[side].At(i)
		got := shatranjSearch(&p, depth)
		if v.IsMate() && v.Plies() <= depth {
			short++
			require.Equal(t, v, got, "%s: table %v, search %v", p.FEN(), v, got)
		} else {
			require.Equal(t, value.Draw, got, "%s: table %v, search to %d plies %v", p.FEN(), v, depth, got)
		}
	}
	require.Positive(t, short, "no sampled value within %d plies", depth)
}

// shatranjSearch returns the value of p if the game ends within depth
// plies under best play (value.Draw if it does not), by a plain minimax
// over the legal moves, with Shatranj's end-of-game rules written out here
// again: checkmate and stalemate lose, and a king left bare by a capture
// loses unless it can take the other side's last piece at once.
func shatranjSearch(p *tb.Position, depth int) value.Value {
	var moves tb.MoveList
	p.LegalMoves(&moves)
	if moves.N == 0 {
		return value.MatedIn(0)
	}
	if depth == 0 {
		return value.Draw
	}
	best := value.Value(0)
	for n, m := range moves.Slice() {
		q := p.Play(m)
		var v value.Value
		if bare, drawn := bareAfter(&q); bare && drawn {
			v = value.Draw
		} else if bare {
			v = value.Mate(1)
		} else {
			v = shatranjSearch(&q, depth-1).Negate()
		}
		if n == 0 || value.Compare(v, best) > 0 {
			best = v
		}
	}
	return best
}

// bareAfter: is the side to move of q (just captured) left with a bare
// king, and can it then draw by taking the last piece of the other side?
func bareAfter(q *tb.Position) (bare, drawn bool) {
	us, them := q.Side, q.Side.Other()
	king := q.KingSquare(us)
	theirs := q.ByColor(them) &^ q.ByType(tb.King)
	if q.ByColor(us)&^q.ByType(tb.King) != 0 || theirs == 0 {
		return false, false
	}
	if theirs.Count() > 1 {
		return true, false
	}
	var moves tb.MoveList
	q.LegalMoves(&moves)
	for _, m := range moves.Slice() {
		if m.From() == king && theirs.Has(m.To()) {
			return true, true
		}
	}
	return true, false
}

// The famous endings: rook against ferz is a win in Shatranj, and a lone
// piece against nothing is no table; two knights against a knight win
// here where chess draws (a bare king loses).
func TestShatranjResults(t *testing.T) {
	krq := solveShatranj(t, "KRvKQ")
	wins, longest := krq.Census(tb.White)
	t.Logf("KRvKQ: white to move wins %d positions, longest %d plies", wins, longest)
	require.Positive(t, longest)
	// Stalemate loses: black to move, stalemated in the corner.
	p, err := tb.Shatranj.ParseFEN("k7/2R5/1K6/8/8/8/8/7q b")
	require.NoError(t, err)
	require.False(t, p.InCheck(tb.Black))
	var l tb.MoveList
	p.LegalMoves(&l)
	if l.N == 0 {
		i, ok := krq.Space.Index(&p)
		require.True(t, ok)
		require.Equal(t, value.MatedIn(0), krq.Values[tb.Black].At(i))
	}
}

// syzygyShatranjStats reads the outside oracle's counts: table → side →
// {wins, draws, losses} (retro/testdata/syzygy-shatranj-stats.txt).
func syzygyShatranjStats(t *testing.T) map[string]map[string][3]uint64 {
	data, err := os.ReadFile("testdata/syzygy-shatranj-stats.txt")
	require.NoError(t, err)
	out := map[string]map[string][3]uint64{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var name, side string
		var c [3]uint64
		_, err := fmt.Sscan(line, &name, &side, &c[0], &c[1], &c[2])
		require.NoError(t, err, line)
		if out[name] == nil {
			out[name] = map[string][3]uint64{}
		}
		out[name][side] = c
	}
	return out
}

// TestShatranjAgreesWithSyzygy: every four-piece table's wins, draws and
// losses per side to move, each position once up to symmetry (stats'
// canonical counts), are those of Syzygy's independent Shatranj generator.
// (The five-piece lines of the file were compared the same way, weighting
// a pair of like pieces as Syzygy counts it: docs/shatranj.md.)
func TestShatranjAgreesWithSyzygy(t *testing.T) {
	want := syzygyShatranjStats(t)
	for _, m := range shatranjMaterials4() {
		name := tb.Shatranj.MaterialName(m)
		table := solveShatranj(t, name)
		st, err := ComputeStats(context.Background(), table, Options{Threads: 2})
		require.NoError(t, err)
		require.Contains(t, want, name)
		for _, side := range []string{"w", "b"} {
			c := st.Sides[side].Canonical
			require.Equal(t, want[name][side], [3]uint64{c.Win, c.Draw, c.Loss}, "%s %s to move", name, side)
			require.Equal(t, c.Legal, c.Win+c.Draw+c.Loss)
		}
	}
}

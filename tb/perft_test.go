package tb

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPerftOracle checks every line of the Fairy-Stockfish perft files
// (MATERIAL|FEN|DEPTH|NODES), Makruk's and Shatranj's.
func TestPerftOracle(t *testing.T) {
	for _, c := range []struct {
		game     Game
		file     string
		minLines int
	}{
		{Makruk, "testdata/perft-fairy-stockfish.txt", 90},
		{Shatranj, "testdata/perft-shatranj-fairy-stockfish.txt", 45},
	} {
		t.Run(c.game.String(), func(t *testing.T) { checkPerftFile(t, c.game, c.file, c.minLines) })
	}
}

func checkPerftFile(t *testing.T, game Game, file string, minLines int) {
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	lines := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		require.Len(t, parts, 4, line)
		t.Run(parts[0]+" "+parts[1]+" depth "+parts[2], func(t *testing.T) {
			depth, err := strconv.Atoi(parts[2])
			require.NoError(t, err)
			want, err := strconv.ParseUint(parts[3], 10, 64)
			require.NoError(t, err)
			pos, err := game.ParseFEN(parts[1])
			require.NoError(t, err)
			require.Equal(t, parts[1], pos.FEN(), "the FEN written back")
			m := MaterialOf(&pos)
			require.Equal(t, parts[0], game.MaterialName(m), "material")
			require.Equal(t, want, pos.Perft(depth))
		})
		lines++
	}
	require.NoError(t, sc.Err())
	require.Greater(t, lines, minLines)
}

// TestPerftWithPawns checks positions with pawns and promotions, counted by
// hand: a white pawn on e5 promotes to a met on e6.
func TestPerftWithPawns(t *testing.T) {
	pos, err := ParseFEN("7k/8/8/4P3/8/8/8/K7 w - - 0 1")
	require.NoError(t, err)
	var l MoveList
	pos.LegalMoves(&l)
	var names []string
	for _, m := range l.Slice() {
		names = append(names, m.String())
	}
	require.ElementsMatch(t, []string{"a1a2", "a1b1", "a1b2", "e5e6m"}, names)
	m, ok := pos.ParseMove("e5e6m")
	require.True(t, ok)
	after := pos.Play(m)
	require.Equal(t, "7k/8/4M3/8/8/8/8/K7 b - - 0 1", after.FEN())
}

func BenchmarkPerft(b *testing.B) {
	pos, err := ParseFEN("2R5/8/5K2/2S5/8/8/8/k7 w - - 0 1")
	require.NoError(b, err)
	var nodes uint64
	for b.Loop() {
		nodes += pos.Perft(5)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}

// PerftContext counts as Perft does, and stops with the context's error.
func TestPerftContext(t *testing.T) {
	p, err := ParseFEN("2R5/8/5K2/2S5/8/8/8/k7 w - - 0 1")
	require.NoError(t, err)
	for depth := range 6 {
		n, err := p.PerftContext(context.Background(), depth)
		require.NoError(t, err)
		require.Equal(t, p.Perft(depth), n, "depth %d", depth)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.PerftContext(ctx, 12)
	require.ErrorIs(t, err, context.Canceled)
}

// BenchmarkLegalMoves lists the legal moves of random legal positions of
// a five-piece material with a Khon, either side to move: the one-ply
// searches of verify and of the derivation of a version-2 file's other
// side call it at every position.
func BenchmarkLegalMoves(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := MustParseMaterial("KRSvKN")
	var positions []Position
	for len(positions) < 4096 {
		if p, ok := RandomPosition(rng, m, Color(len(positions)%2)); ok {
			positions = append(positions, p)
		}
	}
	var l MoveList
	moves := 0
	for n := 0; b.Loop(); n++ {
		l.N = 0
		positions[n%len(positions)].LegalMoves(&l)
		moves += l.N
	}
	if moves == 0 {
		b.Fatal("no moves")
	}
}

// TestLegalMovesAgainstEveryTest lists the legal moves of random legal
// positions (checks, double checks and pins among them) and compares them
// with the plainest rule: every pseudo-legal move of the side to move
// that does not leave its king attacked, tested by playing it. The move
// counts and the captures' lists must agree too.
func TestLegalMovesAgainstEveryTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	materials := []string{"KRRvKN", "KRSvKR", "KRNvKRM", "KSSvKM", "KRvKRR", "KNNvKRS"}
	checks := 0
	for _, g := range []Game{Makruk, Shatranj} {
		for _, name := range materials {
			m := MustParseMaterial(name)
			for n := 0; n < 3000; {
				p, ok := RandomPosition(rng, m, Color(n%2))
				if !ok {
					continue
				}
				n++
				p.game = g
				if p.InCheck(p.Side) {
					checks++
				}
				var want []Move
				occ := p.Occupied()
				for from := p.byColor[p.Side]; from != 0; {
					s := from.PopFirst()
					_, pt := p.PieceAt(s)
					for to := p.targets(p.Side, pt, s, occ); to != 0; {
						mv := NewMove(s, to.PopFirst())
						if q := p.Play(mv); !q.InCheck(p.Side) {
							want = append(want, mv)
						}
					}
				}
				var l MoveList
				p.LegalMoves(&l)
				require.ElementsMatch(t, want, l.Slice(), "%s %s", g, p.FEN())
				require.Equal(t, len(want), p.CountLegalMoves(), "%s %s", g, p.FEN())
				var caps MoveList
				quiet := p.LegalCaptures(&caps)
				var wantCaps []Move
				for _, mv := range want {
					if p.IsCapture(mv) {
						wantCaps = append(wantCaps, mv)
					}
				}
				require.ElementsMatch(t, wantCaps, caps.Slice(), "%s %s", g, p.FEN())
				require.Equal(t, len(want)-len(wantCaps), quiet, "%s %s", g, p.FEN())
			}
		}
	}
	require.Greater(t, checks, 1000, "the random positions should hold many checks")
}

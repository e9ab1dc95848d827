package retro

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// valueOf is the DTM value of a legal pawnless position, read from the
// solved tables (colours swapped for a material named weaker side first).
func valueOf(t *testing.T, p tb.Position) value.Value {
	m := tb.MaterialOf(&p)
	if m.Pieces() == 2 {
		return value.Draw
	}
	if !m.IsCanonical() {
		p, m = p.ColorFlipped(), m.Flipped()
	}
	table := solve(t, m.String())
	i, ok := table.Space.Index(&p)
	require.True(t, ok, p.FEN())
	return table.Values[p.Side].At(i)
}

// eachPlacement calls fn with every placement of m's pieces on the full
// board, like pieces unordered (each set of squares once).
func eachPlacement(m tb.Material, fn func(p tb.Position)) {
	type piece struct {
		c tb.Color
		t tb.PieceType
	}
	var pieces []piece
	for c := tb.White; c <= tb.Black; c++ {
		pieces = append(pieces, piece{c, tb.King})
		for ty := tb.Rook; ty <= tb.Met; ty++ {
			for range m.Count(c, ty) {
				pieces = append(pieces, piece{c, ty})
			}
		}
	}
	var place func(n int, p tb.Position, used tb.Bitboard, after tb.Square)
	place = func(n int, p tb.Position, used tb.Bitboard, after tb.Square) {
		if n == len(pieces) {
			fn(p)
			return
		}
		pc := pieces[n]
		first := tb.Square(0)
		if n > 0 && pieces[n-1] == pc {
			first = after + 1 // like pieces in increasing squares: each set once
		}
		for s := first; s < 64; s++ {
			if used.Has(s) {
				continue
			}
			q := p
			q.Put(pc.c, pc.t, s)
			place(n+1, q, used|s.Bitboard(), s)
		}
	}
	place(0, tb.Position{}, 0, 0)
}

// eachLegal calls fn with every legal position of m on the full board,
// both sides to move, no count running.
func eachLegal(m tb.Material, fn func(q tb.Position)) {
	eachPlacement(m, func(p tb.Position) {
		for side := tb.White; side <= tb.Black; side++ {
			q := p
			q.Side, q.CountLimit, q.Fullmove = side, tb.NoCount, 1
			if q.Validate() == nil {
				fn(q)
			}
		}
	})
}

// bruteStudy counts what ComputeStudy counts by brute force: every
// placement of the pieces on the full board, each position looked up on
// its own and each move played.
func bruteStudy(t *testing.T, m tb.Material) *Study {
	st := &Study{Material: m.String(), Rules: "none", SingleWinningMove: map[string]uint64{"w": 0, "b": 0}, Wins: map[string]uint64{"w": 0, "b": 0}}
	eachPlacement(m, func(p tb.Position) {
		var v [2]value.Value
		var legal [2]bool
		for side := tb.White; side <= tb.Black; side++ {
			q := p
			q.Side, q.CountLimit, q.Fullmove = side, tb.NoCount, 1
			if q.Validate() != nil {
				continue
			}
			legal[side], v[side] = true, valueOf(t, q)
			if !v[side].IsWin() {
				continue
			}
			st.Wins[side.String()]++
			winning := 0
			var moves tb.MoveList
			q.LegalMoves(&moves)
			for _, mv := range moves.Slice() {
				if valueOf(t, q.Play(mv)).IsLoss() {
					winning++
				}
			}
			if winning == 1 {
				st.SingleWinningMove[side.String()]++
			}
		}
		if legal[tb.White] && legal[tb.Black] {
			z := &st.MutualZugzwangs
			switch w, b := v[tb.White], v[tb.Black]; {
			case w.IsLoss() && b.IsLoss():
				z.WhoeverMovesLoses++
			case w.IsLoss() && b == value.Draw:
				z.WhiteToMoveLosesBlackToMoveDraws++
			case w == value.Draw && b.IsLoss():
				z.WhiteToMoveDrawsBlackToMoveLoses++
			}
		}
	})
	return st
}

// ComputeStudy counts what a brute force over the full board counts: the
// three-piece materials in go test, and KRvKN (16.7 M placements, minutes)
// with MAKRUKTB_STUDY=long (make study-test).
func TestStudyAgainstBruteForce(t *testing.T) {
	materials := []string{"KRvK", "KSvK", "KNvK", "KMvK"}
	if os.Getenv("MAKRUKTB_STUDY") == "long" {
		materials = append(materials, "KRvKN")
	}
	for _, name := range materials {
		t.Run(name, func(t *testing.T) {
			m := tb.MustParseMaterial(name)
			got, err := ComputeStudy(context.Background(), solve(t, name), shared.get, Options{Threads: 2}, StudyOptions{})
			require.NoError(t, err)
			want := bruteStudy(t, m)
			require.Equal(t, want, got)
		})
	}
}

// A rook keeps a won KRvK in more than one way from every won position,
// and Black never wins it; a Khon's win often hangs on one move, and it
// has mutual zugzwangs where White would rather Black moved.
func TestStudyFigures(t *testing.T) {
	krvk, err := ComputeStudy(context.Background(), solve(t, "KRvK"), shared.get, Options{}, StudyOptions{})
	require.NoError(t, err)
	require.Equal(t, MutualZugzwangs{}, krvk.MutualZugzwangs)
	require.Equal(t, map[string]uint64{"w": 0, "b": 0}, krvk.SingleWinningMove)
	require.Equal(t, map[string]uint64{"w": 175168, "b": 0}, krvk.Wins)
	ksvk, err := ComputeStudy(context.Background(), solve(t, "KSvK"), shared.get, Options{}, StudyOptions{})
	require.NoError(t, err)
	require.Equal(t, MutualZugzwangs{WhiteToMoveDrawsBlackToMoveLoses: 12}, ksvk.MutualZugzwangs)
	require.Equal(t, map[string]uint64{"w": 124, "b": 0}, ksvk.SingleWinningMove)
	require.Equal(t, map[string]uint64{"w": 162, "b": 0}, ksvk.Wins)
}

// The examples are of their kind, longest mate first, at most as many as
// asked: checked position by position from the tables.
func TestStudyExamples(t *testing.T) {
	st, err := ComputeStudy(context.Background(), solve(t, "KSvKN"), shared.get, Options{Threads: 2}, StudyOptions{Examples: 3})
	require.NoError(t, err)
	byKind := map[string][]StudyExample{}
	for _, e := range st.Examples {
		byKind[e.Kind] = append(byKind[e.Kind], e)
	}
	require.Len(t, byKind[KindSingleWhite], 3)
	require.Len(t, byKind[KindSingleBlack], 3)
	require.Len(t, byKind[KindWhiteDrawsBlackLoss], 1, "KSvKN has two, one the mirror image of the other")
	for kind, list := range byKind {
		for n, e := range list {
			if n > 0 {
				require.LessOrEqual(t, e.DTM, list[n-1].DTM, "longest first")
			}
			p, err := tb.ParseFEN(e.FEN)
			require.NoError(t, err)
			v := valueOf(t, p)
			require.Equal(t, e.DTM, v.Plies(), e.FEN)
			switch kind {
			case KindSingleWhite, KindSingleBlack:
				require.True(t, v.IsWin(), e.FEN)
				var moves tb.MoveList
				p.LegalMoves(&moves)
				var winning []string
				for _, m := range moves.Slice() {
					if valueOf(t, p.Play(m)).IsLoss() {
						winning = append(winning, p.SAN(m))
					}
				}
				require.Equal(t, []string{e.Move}, winning, e.FEN)
			case KindWhiteDrawsBlackLoss:
				require.Equal(t, tb.Black, p.Side)
				require.True(t, v.IsLoss(), e.FEN)
				p.Side = tb.White
				require.Equal(t, value.Draw, valueOf(t, p), e.FEN)
			}
		}
	}
}

// Under a count, ComputeStudy counts what a brute force counts: the wins
// inside the fresh count, those one move only keeps inside it, and the
// cursed wins, close or not.
func TestStudyUnderCountAgainstBruteForce(t *testing.T) {
	for _, c := range []struct {
		name  string
		rules honour.Rules
	}{{"KRvK", honour.ThaiRules}, {"KSvK", honour.CambodianRules}, {"KRvK", honour.ASEANRules}} {
		t.Run(c.name+" "+c.rules.Name, func(t *testing.T) {
			m := tb.MustParseMaterial(c.name)
			r := &c.rules
			got, err := ComputeStudy(context.Background(), solve(t, c.name), shared.get, Options{Threads: 2}, StudyOptions{Rules: r, Close: 4})
			require.NoError(t, err)
			want := map[string]map[string]uint64{"inside": {"w": 0, "b": 0}, "critical": {"w": 0, "b": 0}, "cursed": {"w": 0, "b": 0}, "close": {"w": 0, "b": 0}}
			eachLegal(m, func(q tb.Position) {
				side := q.Side
				v := valueOf(t, q)
				count := r.FreshCount(&q)
				switch r.Judge(v, count).Category {
				case honour.Win:
					want["inside"][side.String()]++
					keepers := 0
					var moves tb.MoveList
					q.LegalMoves(&moves)
					for _, mv := range moves.Slice() {
						after := valueOf(t, q.Play(mv))
						if r.Judge(after, r.Next(&q, mv, count)).Category == honour.Loss {
							keepers++
						}
					}
					if keepers == 1 {
						want["critical"][side.String()]++
					}
				case honour.CursedWin:
					want["cursed"][side.String()]++
					if v.Plies()-r.MatingPlies(count) < 4 {
						want["close"][side.String()]++
					}
				}
			})
			require.Equal(t, want["inside"], got.WinsInsideCount)
			require.Equal(t, want["critical"], got.CountCritical)
			require.Equal(t, want["cursed"], got.CursedWins)
			require.Equal(t, want["close"], got.CloseCursedWins)
		})
	}
	space, err := index.New(tb.MustParseMaterial("KRvKN"))
	require.NoError(t, err)
	_, err = ComputeStudy(context.Background(), &Table{Space: space}, shared.get, Options{}, StudyOptions{Rules: &honour.ThaiRules})
	require.ErrorContains(t, err, "board's honour decides it")
}

// dtbSource gives the DTB tables of profile r, solved on demand.
func dtbSource(t testing.TB, r *honour.Rules) Source {
	return func(m tb.Material) (*Table, error) { return solveDTB(t, m.String(), r), nil }
}

// bruteBoardKeepers counts, position by position, the moves of p (a win
// under board's-honour count c) that keep it inside the count: the count
// after the move (honour.Rules.Next) judges the DTB value of a position
// where both sides still have pieces, and the DTM value of a fresh pieces'
// count after a capture that bares a side.
func bruteBoardKeepers(t *testing.T, r *honour.Rules, p tb.Position, c honour.Count) (keepers int, keeper tb.Move) {
	var moves tb.MoveList
	p.LegalMoves(&moves)
	for _, mv := range moves.Slice() {
		q := p.Play(mv)
		next := r.Next(&p, mv, c)
		var keeps bool
		switch next.Kind {
		case honour.BoardCount:
			d := dtbOf(t, r, q)
			keeps = d.IsLoss() && d.Plies() <= r.MatingPlies(next)
		case honour.PiecesCount:
			keeps = r.Judge(valueOf(t, q), next).Category == honour.Loss
		default:
			keeps = valueOf(t, q).IsLoss()
		}
		if keeps {
			keepers++
			keeper = mv
		}
	}
	return keepers, keeper
}

// dtbOf is the DTB value under r of a legal position whose sides both
// have pieces.
func dtbOf(t *testing.T, r *honour.Rules, p tb.Position) value.Value {
	m := tb.MaterialOf(&p)
	if !m.IsCanonical() {
		p, m = p.ColorFlipped(), m.Flipped()
	}
	table := solveDTB(t, m.String(), r)
	i, ok := table.Space.Index(&p)
	require.True(t, ok, p.FEN())
	return table.Values[p.Side].At(i)
}

// Under board's honour, study judges by DTB: its wins inside the count and
// cursed wins are those BoardCounts counts (statistics), and each
// count-critical example has exactly the one keeping move a position by
// position count finds. Without the DTB table it says which it needs.
func TestStudyUnderBoardCount(t *testing.T) {
	for _, r := range []*honour.Rules{&honour.ThaiRules, &honour.CambodianRules, &honour.ThaiHalfMoveRules} {
		t.Run(r.Name, func(t *testing.T) {
			dtm, dtb := solve(t, "KRvKN"), solveDTB(t, "KRvKN", r)
			st, err := ComputeStudy(context.Background(), dtm, shared.get, Options{Threads: 2}, StudyOptions{Rules: r, Examples: 25, Close: 6, DTB: dtb, DTBFiles: OwnFiles(dtbSource(t, r))})
			require.NoError(t, err)
			counts, err := BoardCounts(context.Background(), dtm, dtb, r, Options{})
			require.NoError(t, err)
			for _, side := range []string{"w", "b"} {
				require.Equal(t, counts[side].Win, st.WinsInsideCount[side], side)
				require.Equal(t, counts[side].CursedWin, st.CursedWins[side], side)
				require.LessOrEqual(t, st.CloseCursedWins[side], st.CursedWins[side])
			}
			require.NotZero(t, st.CountCritical["w"])
			seen := 0
			for _, e := range st.Examples {
				if e.Kind != KindCountCritical+"w" && e.Kind != KindCountCritical+"b" {
					continue
				}
				seen++
				p, err := tb.ParseFEN(e.FEN)
				require.NoError(t, err)
				c := r.FreshCount(&p)
				require.Equal(t, honour.Win, r.JudgeBoard(valueOf(t, p), dtbOf(t, r, p), c).Category, e.FEN)
				n, keeper := bruteBoardKeepers(t, r, p, c)
				require.Equal(t, 1, n, e.FEN)
				require.Equal(t, p.SAN(keeper), e.Move, e.FEN)
			}
			require.NotZero(t, seen)
			if os.Getenv("MAKRUKTB_STUDY") != "long" || r != &honour.ThaiRules {
				return
			}
			// make study-test: every legal placement, position by position.
			want := map[string]map[string]uint64{"inside": {"w": 0, "b": 0}, "critical": {"w": 0, "b": 0}}
			eachLegal(tb.MustParseMaterial("KRvKN"), func(q tb.Position) {
				c := r.FreshCount(&q)
				if r.JudgeBoard(valueOf(t, q), dtbOf(t, r, q), c).Category != honour.Win {
					return
				}
				want["inside"][q.Side.String()]++
				if n, _ := bruteBoardKeepers(t, r, q, c); n == 1 {
					want["critical"][q.Side.String()]++
				}
			})
			require.Equal(t, want["inside"], st.WinsInsideCount)
			require.Equal(t, want["critical"], st.CountCritical)
		})
	}
	_, err := ComputeStudy(context.Background(), solve(t, "KRvKN"), shared.get, Options{}, StudyOptions{Rules: &honour.ThaiRules})
	require.ErrorContains(t, err, "needs its DTB table KRvKN.thai")
}

package tb

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// randomPosition places the pieces of material m on random squares until the
// placement is legal for the given side to move.
func randomPosition(rng *rand.Rand, m Material, side Color) Position {
	for {
		var p Position
		p.Side, p.CountLimit, p.Fullmove = side, NoCount, 1
		place := func(c Color, t PieceType) {
			for {
				s := Square(rng.IntN(64))
				if t == Pawn && (s.Rank() < 2 || s.Rank() > 5) {
					continue
				}
				if !p.Occupied().Has(s) {
					p.Put(c, t, s)
					return
				}
			}
		}
		place(White, King)
		place(Black, King)
		for c := White; c <= Black; c++ {
			for t := Rook; t <= Pawn; t++ {
				for range m.Count(c, t) {
					place(c, t)
				}
			}
		}
		if p.validate() == "" {
			return p
		}
	}
}

func containsMove(l *MoveList, m Move) bool {
	for _, x := range l.Slice() {
		if x == m {
			return true
		}
	}
	return false
}

// TestUnMovesInvertMoves: for random positions of many materials, every
// quiet legal move's result lists the move among its un-moves (leading back
// to the original), and every un-move's predecessor has the move back.
func TestUnMovesInvertMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	materials := []string{"KRvK", "KSvK", "KvKS", "KNvK", "KMvK", "KRSvKN", "KSSvKM", "KRRvKS", "KSNvKSM", "KPvKS", "KSvKP", "KRMvKNS"}
	for _, name := range materials {
		m := MustParseMaterial(name)
		for i := 0; i < 3000; i++ {
			p := randomPosition(rng, m, Color(i&1))
			var moves MoveList
			p.LegalMoves(&moves)
			for _, mv := range moves.Slice() {
				if p.IsCapture(mv) || mv.IsPromotion() {
					continue
				}
				q := p.Play(mv)
				var un MoveList
				q.UnMoves(&un)
				require.True(t, containsMove(&un, mv), "%s: %s after %s lacks the un-move", name, q.FEN(), mv)
				back := q.UnPlay(mv)
				require.True(t, back.SamePlacement(&p), "%s: unplay %s", name, mv)
			}
			var un MoveList
			p.UnMoves(&un)
			for _, mv := range un.Slice() {
				q := p.UnPlay(mv)
				require.Empty(t, q.validate(), "%s: predecessor %s of %s via %s", name, q.FEN(), p.FEN(), mv)
				var fwd MoveList
				q.LegalMoves(&fwd)
				require.True(t, containsMove(&fwd, mv), "%s: %s has no move %s back to %s", name, q.FEN(), mv, p.FEN())
				after := q.Play(mv)
				require.True(t, after.SamePlacement(&p))
			}
		}
	}
}

// TestKhonDirection: a white khon steps forward (up), a black one down; its
// un-moves run the other way.
func TestKhonDirection(t *testing.T) {
	p, err := ParseFEN("7k/8/8/8/3S4/8/8/K7 w - - 0 1")
	require.NoError(t, err)
	var l MoveList
	p.LegalMoves(&l)
	var khon []string
	for _, m := range l.Slice() {
		if m.From() == NewSquare(3, 3) {
			khon = append(khon, m.String())
		}
	}
	require.ElementsMatch(t, []string{"d4d5", "d4c5", "d4e5", "d4c3", "d4e3"}, khon)
	q := p.ColorFlipped()
	require.Equal(t, "k7/8/8/3s4/8/8/8/7K b - - 0 1", q.FEN())
	l.N = 0
	q.LegalMoves(&l)
	khon = khon[:0]
	for _, m := range l.Slice() {
		if m.From() == NewSquare(3, 4) {
			khon = append(khon, m.String())
		}
	}
	require.ElementsMatch(t, []string{"d5d4", "d5c4", "d5e4", "d5c6", "d5e6"}, khon)
	// Black to move after a white khon move: it came from below or diagonally.
	r, err := ParseFEN("7k/8/8/8/3S4/8/8/K7 b - - 0 1")
	require.NoError(t, err)
	l.N = 0
	r.UnMoves(&l)
	var back []string
	for _, m := range l.Slice() {
		if m.To() == NewSquare(3, 3) {
			back = append(back, m.String())
		}
	}
	require.ElementsMatch(t, []string{"d3d4", "c3d4", "e3d4", "c5d4", "e5d4"}, back)
}

// TestLegalCaptures: captures plus the quiet count equal the legal moves,
// and MayCapture is true wherever a capture is legal.
func TestLegalCaptures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range []string{"KRvKN", "KRRvKS", "KSNvKSM", "KRMvKNS", "KRRvKR"} {
		m := MustParseMaterial(name)
		for i := 0; i < 5000; i++ {
			p := randomPosition(rng, m, Color(i&1))
			var all, caps MoveList
			p.LegalMoves(&all)
			quiet := p.LegalCaptures(&caps)
			want := 0
			for _, mv := range all.Slice() {
				if p.IsCapture(mv) {
					require.True(t, containsMove(&caps, mv), "%s %s", p.FEN(), mv)
				} else {
					want++
				}
			}
			require.Equal(t, all.N-want, caps.N, p.FEN())
			if caps.N > 0 {
				require.True(t, p.MayCapture(), p.FEN())
			}
			require.Equal(t, want, quiet, p.FEN())
			require.Equal(t, all.N, p.CountLegalMoves(), p.FEN())
		}
	}
}

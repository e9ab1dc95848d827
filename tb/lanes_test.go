package tb

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLaneRetractorMatchesRetractor: for random positions, taking one piece
// off as the lane piece and asking the LaneRetractor for every other piece's
// un-moves gives, lane by lane, exactly the origins the Retractor finds with
// the lane piece on that square.
func TestLaneRetractorMatchesRetractor(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	materials := []string{"KRvKN", "KRRvKN", "KRSvKN", "KNvKR", "KSvKR", "KRvKS", "KSSvKM", "KRMvKNS", "KRNvKR", "KMvKR"}
	for _, name := range materials {
		m := MustParseMaterial(name)
		for i := 0; i < 400; i++ {
			side := Color(i & 1)
			prefix, laneColor, laneType := randomRun(rng, m, side)
			lr := prefix.LaneRetractor(laneColor, laneType)
			// Every square where the lane piece gives a legal position.
			var lanes Bitboard
			for s := Square(0); s < 64; s++ {
				q := prefix
				if q.Occupied().Has(s) {
					continue
				}
				q.Put(laneColor, laneType, s)
				if q.validate() == "" {
					lanes |= s.Bitboard()
				}
			}
			them := side.Other()
			for l := lanes; l != 0; {
				lane := l.PopFirst()
				q := prefix
				q.Put(laneColor, laneType, lane)
				var want Bitboard
				if laneColor == them {
					r := q.Retractor()
					want = r.Origins(laneType, lane)
				}
				require.Equal(t, want, lr.LaneOrigins(lane), "%s %s: un-moves of the lane piece on %v", name, q.FEN(), lane)
			}
			for pt := Rook; pt <= King; pt++ {
				for pcs := prefix.Pieces(them, pt); pcs != 0; {
					to := pcs.PopFirst()
					got := map[Square]Bitboard{}
					for from := lr.Candidates(pt, to); from != 0; {
						f := from.PopFirst()
						got[f] = lr.Lanes(pt, f, to, lanes)
					}
					for l := lanes; l != 0; {
						lane := l.PopFirst()
						q := prefix
						q.Put(laneColor, laneType, lane)
						r := q.Retractor()
						want := r.Origins(pt, to)
						var have Bitboard
						for f, ls := range got {
							if ls.Has(lane) {
								have |= f.Bitboard()
							}
						}
						require.Equal(t, want, have, "%s %s: un-moves of the %v on %v, lane piece on %v", name, q.FEN(), pt, to, lane)
					}
				}
			}
		}
	}
}

// TestLaneMovesMatchLegalCaptures: for random positions, with one piece
// taken off as the lane piece, LaneMoves gives on every legal lane the quiet
// count and the captures (as a set) that Position.LegalCaptures gives with
// the piece on that square, and the moves Position.LegalMoves gives (as a
// set, each piece's together) — and most lanes take its quick path.
func TestLaneMovesMatchLegalCaptures(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	materials := []string{"KRvKN", "KRRvKN", "KRSvKN", "KNvKR", "KSvKR", "KRvKS", "KSSvKM", "KRMvKNS", "KRNvKR", "KMvKR", "KRRvKRR", "KSSvKSS"}
	quick, all := 0, 0
	for _, name := range materials {
		m := MustParseMaterial(name)
		for i := 0; i < 400; i++ {
			prefix, laneColor, laneType := randomRun(rng, m, Color(i&1))
			lm := prefix.LaneMoves(laneColor, laneType)
			for s := Square(0); s < 64; s++ {
				q := prefix
				if q.Occupied().Has(s) {
					continue
				}
				q.Put(laneColor, laneType, s)
				if q.validate() != "" {
					continue
				}
				var want, got MoveList
				wantQuiet := q.LegalCaptures(&want)
				gotQuiet := lm.LegalCaptures(s, &got)
				require.Equal(t, wantQuiet, gotQuiet, "%s %s: quiet moves", name, q.FEN())
				require.ElementsMatch(t, want.Slice(), got.Slice(), "%s %s: captures", name, q.FEN())
				want.N, got.N = 0, 0
				q.LegalMoves(&want)
				lm.LegalMoves(s, &got)
				require.ElementsMatch(t, want.Slice(), got.Slice(), "%s %s: moves", name, q.FEN())
				require.True(t, groupedByPiece(got.Slice()), "%s %s: moves %v not grouped by piece", name, q.FEN(), got.Slice())
				all++
				if !lm.fullRun && !lm.full.Has(s) {
					quick++
				}
			}
		}
	}
	t.Logf("%d of %d lanes took the quick path", quick, all)
	require.Greater(t, quick, all/2, "the quick path should serve most lanes")
}

// randomRun returns a random position of m with side to move, less one of
// its pieces other than the kings (the lane piece), and that piece.
func randomRun(rng *rand.Rand, m Material, side Color) (prefix Position, c Color, t PieceType) {
	prefix = randomPosition(rng, m, side)
	for {
		s := Square(rng.IntN(64))
		if c, t = prefix.PieceAt(s); t != NoPiece && t != King {
			prefix.Remove(s)
			return prefix, c, t
		}
	}
}

// groupedByPiece reports whether the moves of each piece come together.
func groupedByPiece(moves []Move) bool {
	var done Bitboard
	for i, m := range moves {
		if i > 0 && moves[i-1].From() != m.From() {
			if done.Has(m.From()) {
				return false
			}
			done |= moves[i-1].From().Bitboard()
		}
	}
	return true
}

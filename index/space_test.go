package index

import (
	"math/rand/v2"
	"testing"

	"github.com/makruktb/makruktb/tb"
	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/longtest"
)

func TestKingPairCounts(t *testing.T) {
	require.Len(t, kingsFull.pairs, 462)
	require.Len(t, kingsMirror.pairs, 1806)
}

// TestRoundTripExhaustive: for every material up to 4 pieces and every
// index that decodes, Index(Position(i)) == i.
func TestRoundTripExhaustive(t *testing.T) {
	if testing.Short() {
		t.Skip("exhaustive")
	}
	for _, m := range tb.Pawnless(4) {
		s, err := New(m)
		require.NoError(t, err)
		decoded := 0
		for i := uint64(0); i < s.Size(); i++ {
			p, ok := s.Position(i, tb.White)
			if !ok {
				continue
			}
			decoded++
			j, ok := s.Index(&p)
			if !ok || i != j {
				t.Fatalf("%s: index %d decodes to %s which indexes to %d", m, i, p.FEN(), j)
			}
		}
		require.Positive(t, decoded, m.String())
	}
}

// images returns every symmetric image of p that the space's group allows.
func images(s *Space, p *tb.Position) []tb.Position {
	var out []tb.Position
	for _, t := range s.kings.group {
		out = append(out, t.position(p))
	}
	return out
}

func isImage(s *Space, p, q *tb.Position) bool {
	for _, img := range images(s, p) {
		if img.SamePlacement(q) {
			return true
		}
	}
	return false
}

// checkFullBoard asserts that a legal full-board position maps to an index
// whose decoded position is one of its symmetric images.
func checkFullBoard(t *testing.T, s *Space, p *tb.Position) {
	i, ok := s.Index(p)
	if !ok {
		t.Fatalf("%s: no index", p.FEN())
	}
	q, ok := s.Position(i, p.Side)
	if !ok {
		t.Fatalf("%s: index %d is a hole", p.FEN(), i)
	}
	if !isImage(s, p, &q) {
		t.Fatalf("%s indexes to %d which decodes to %s", p.FEN(), i, q.FEN())
	}
}

// TestFullBoardExhaustive places the pieces of every 3-piece material on
// every square combination.
func TestFullBoardExhaustive(t *testing.T) {
	for _, m := range tb.Pawnless(3) {
		if m.Pieces() != 3 {
			continue
		}
		s, err := New(m)
		require.NoError(t, err)
		g := s.Groups()[0]
		legal := 0
		for w := tb.Square(0); w < 64; w++ {
			for b := tb.Square(0); b < 64; b++ {
				for x := tb.Square(0); x < 64; x++ {
					if w == b || w == x || b == x {
						continue
					}
					for side := tb.White; side <= tb.Black; side++ {
						var p tb.Position
						p.Put(tb.White, tb.King, w)
						p.Put(tb.Black, tb.King, b)
						p.Put(g.Color, g.Type, x)
						p.Side = side
						if p.Validate() != nil {
							continue
						}
						legal++
						checkFullBoard(t, s, &p)
					}
				}
			}
		}
		require.Positive(t, legal)
	}
}

// TestFullBoardExhaustive4 places the pieces of 4-piece materials (one
// with a khon, one with a like-piece pair, and Shatranj's with alfils, which
// keep all eight symmetries) on every square combination.
func TestFullBoardExhaustive4(t *testing.T) {
	longtest.Skip(t, "every placement of three four-piece materials")
	for _, c := range []struct {
		game tb.Game
		name string
	}{{tb.Makruk, "KRvKS"}, {tb.Makruk, "KRRvK"}, {tb.Shatranj, "KBvKQ"}} {
		name := c.name
		m, err := c.game.ParseMaterial(name)
		require.NoError(t, err)
		s, err := NewGame(c.game, m)
		require.NoError(t, err)
		require.Equal(t, c.game, s.Game())
		if c.game == tb.Shatranj {
			require.Equal(t, 8, s.Symmetries(), name)
		}
		var pieces []Group
		for _, g := range s.Groups() {
			for range g.Count {
				pieces = append(pieces, g)
			}
		}
		legal := 0
		for w := tb.Square(0); w < 64; w++ {
			for b := tb.Square(0); b < 64; b++ {
				if !kingsApart(w, b) {
					continue
				}
				for x := tb.Square(0); x < 64; x++ {
					for y := tb.Square(0); y < 64; y++ {
						var p tb.Position
						p.SetGame(c.game)
						p.Put(tb.White, tb.King, w)
						p.Put(tb.Black, tb.King, b)
						p.AddPieces(pieces[0].Color, pieces[0].Type, x.Bitboard())
						p.AddPieces(pieces[1].Color, pieces[1].Type, y.Bitboard())
						if p.Occupied().Count() != 4 {
							continue
						}
						for side := tb.White; side <= tb.Black; side++ {
							p.Side = side
							if p.InCheck(side.Other()) {
								continue
							}
							legal++
							checkFullBoard(t, s, &p)
						}
					}
				}
			}
		}
		require.Positive(t, legal, name)
		q := s.Decode(12345, tb.White)
		require.Equal(t, c.game, q.Game(), "decoded positions are the space's game's")
	}
}

// randomLegal places material m at random until the position is legal.
func randomLegal(rng *rand.Rand, m tb.Material) tb.Position {
	for {
		var p tb.Position
		p.Side = tb.Color(rng.IntN(2))
		put := func(c tb.Color, k tb.PieceType) {
			for {
				sq := tb.Square(rng.IntN(64))
				if !p.Occupied().Has(sq) {
					p.Put(c, k, sq)
					return
				}
			}
		}
		put(tb.White, tb.King)
		put(tb.Black, tb.King)
		for c := tb.White; c <= tb.Black; c++ {
			for k := tb.Rook; k <= tb.Met; k++ {
				for range m.Count(c, k) {
					put(c, k)
				}
			}
		}
		if p.Validate() == nil {
			return p
		}
	}
}

// TestFullBoardSampled: a million random legal positions of 4, 5 and 6
// pieces (with and without khons, with like-piece groups) map to one of
// their images, and round-trip.
func TestFullBoardSampled(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 20_000
	}
	rng := rand.New(rand.NewPCG(3, 4))
	materials := []string{"KRSvKN", "KRRvKN", "KSSvKM", "KNMvKM", "KMMMvK", "KRSvKNM", "KRRvKSS", "KMMMvKN", "KRNvKR", "KSSSSvK", "KRRNvKN"}
	for i := 0; i < n; i++ {
		m := tb.MustParseMaterial(materials[i%len(materials)])
		s, err := New(m)
		require.NoError(t, err)
		p := randomLegal(rng, m)
		checkFullBoard(t, s, &p)
	}
}

// IndexAs gives Index's index, and with the index's own weights its
// place is the index; with other weights, the sum of the same digits
// weighed so (diagonally tied king pairs included: KRRvKN's kings on
// the long diagonal).
func TestIndexAs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range []string{"KRRvKN", "KSvKM", "KNMMvK"} {
		m := tb.MustParseMaterial(name)
		s, err := New(m)
		require.NoError(t, err)
		own := make([]uint64, s.KingPairs())
		other := make([]uint64, s.KingPairs())
		for k := range own {
			own[k], other[k] = uint64(k)*s.PerKingPair(), uint64(k)*7
		}
		var strides, weights []uint64
		for j, g := range s.Groups() {
			strides, weights = append(strides, g.Stride), append(weights, uint64(1000*(j+1)))
		}
		for range 20_000 {
			p := randomLegal(rng, m)
			i, ok := s.Index(&p)
			require.True(t, ok)
			j, place, ok := s.IndexAs(&p, own, strides)
			require.True(t, ok)
			require.Equal(t, i, j)
			require.Equal(t, i, place)
			_, place, _ = s.IndexAs(&p, other, weights)
			want := uint64(s.KingPairOf(i)) * 7
			for j, g := range s.Groups() {
				want += i % s.PerKingPair() / g.Stride % g.Size * weights[j]
			}
			require.Equal(t, want, place, "%s %s", name, p.FEN())
		}
	}
}

func TestColourFlip(t *testing.T) {
	p, err := tb.ParseFEN("8/8/8/3k4/8/2S5/8/r3K3 w - - 0 1") // KSvKR: the rook is black
	require.NoError(t, err)
	q, flipped := Canonical(&p)
	require.True(t, flipped)
	require.Equal(t, "R3k3/8/2s5/8/3K4/8/8/8 b - - 0 1", q.FEN())
	require.Equal(t, "KRvKS", tb.MaterialOf(&q).String())
}

// TestWalk: walking a king pair visits exactly the indices that decode,
// with the same positions. KRvKR has checks by a rook of the prefix that a
// rook of the last group blocks; KRvKS a khon table; KvK has no groups.
func TestWalk(t *testing.T) {
	shatranj := map[string]bool{"KBvKN": true, "KBBvKQ": true}
	for _, name := range []string{"KvK", "KRvK", "KRRvK", "KSvKN", "KMMvKM", "KNvKN", "KRvKR", "KRNvK", "KRvKS", "KBvKN", "KBBvKQ"} {
		game := tb.Makruk
		if shatranj[name] {
			game = tb.Shatranj
		}
		m, err := game.ParseMaterial(name)
		require.NoError(t, err)
		s, err := NewGame(game, m)
		require.NoError(t, err)
		for k := 0; k < s.KingPairs(); k += 7 {
			for side := tb.White; side <= tb.Black; side++ {
				var walked []uint64
				s.Walk(k, side, func(i uint64, p *tb.Position) {
					q, ok := s.Position(i, side)
					require.True(t, ok)
					require.True(t, q.SamePlacement(p))
					walked = append(walked, i)
				})
				var decoded []uint64
				for i := uint64(k) * s.PerKingPair(); i < uint64(k+1)*s.PerKingPair(); i++ {
					if _, ok := s.Position(i, side); ok {
						decoded = append(decoded, i)
					}
				}
				require.Equal(t, decoded, walked, "%s pair %d", name, k)
			}
		}
	}
}

func TestDivisor(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, d := range []uint64{1, 2, 3, 7, 64, 2016, 41664, 635376, 129024, 262144, 1 << 27} {
		v := newDivisor(d)
		for range 100000 {
			n := rng.Uint64N(1 << 36)
			q, r := v.divMod(n)
			require.Equal(t, n/d, q, "%d/%d", n, d)
			require.Equal(t, n%d, r)
		}
	}
}

func TestNewRejects(t *testing.T) {
	for _, name := range []string{"KPvK", "KvKR", "KRRRRRvK"} {
		_, err := New(tb.MustParseMaterial(name))
		require.Error(t, err, name)
	}
}

func BenchmarkIndex(b *testing.B) {
	s, _ := New(tb.MustParseMaterial("KRSvKN"))
	rng := rand.New(rand.NewPCG(5, 6))
	ps := make([]tb.Position, 1024)
	for i := range ps {
		ps[i] = randomLegal(rng, s.Material())
	}
	b.ReportAllocs()
	var sink uint64
	i := 0
	for b.Loop() {
		j, _ := s.Index(&ps[i&1023])
		sink += j
		i++
	}
	_ = sink
}

func BenchmarkPosition(b *testing.B) {
	s, _ := New(tb.MustParseMaterial("KRSvKN"))
	rng := rand.New(rand.NewPCG(7, 8))
	b.ReportAllocs()
	ok := 0
	for b.Loop() {
		if _, good := s.Position(rng.Uint64N(s.Size()), tb.White); good {
			ok++
		}
	}
	_ = ok
}

// TestMovedIndex: the one-digit shortcut agrees with a full Index for every
// quiet move (and un-move) of random decoded positions, and Decode with
// Position on them.
func TestMovedIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, name := range []string{"KRvK", "KRRvK", "KSvKN", "KRSvKN", "KMMMvK", "KNNvKM", "KRRvKN"} {
		s, err := New(tb.MustParseMaterial(name))
		require.NoError(t, err)
		checked, tied := 0, 0
		for checked < 20000 || tied == 0 && s.FullSymmetry() {
			i := rng.Uint64N(s.Size())
			p, ok := s.Position(i, tb.Color(rng.IntN(2)))
			if !ok {
				continue
			}
			checked++
			d := s.Decode(i, p.Side)
			require.True(t, d.SamePlacement(&p))
			var l tb.MoveList
			p.LegalMoves(&l)
			for _, m := range l.Slice() {
				if p.IsCapture(m) {
					continue
				}
				q := p.Play(m)
				want, _ := s.Index(&q)
				j, k := s.MovedIndex(i, s.KingPairOf(i), &p, m.From(), m.To())
				require.Equal(t, want, j, "%s %s", p.FEN(), m)
				require.Equal(t, s.KingPairOf(want), k)
				requireStepPair(t, s, s.KingPairOf(i), k, p.Side)
			}
			l.N = 0
			p.UnMoves(&l)
			for _, m := range l.Slice() {
				q := p.UnPlay(m)
				want, _ := s.Index(&q)
				j, k := s.MovedIndex(i, s.KingPairOf(i), &p, m.To(), m.From())
				require.Equal(t, want, j, "%s un %s", p.FEN(), m)
				if c, pt := p.PieceAt(m.To()); pt != tb.King && s.Tied(s.KingPairOf(i)) {
					st := s.TiedStepper(i, s.FlippedIndex(&p), s.groupOf[c][pt], p.Pieces(c, pt), m.To())
					require.Equal(t, want, st.To(m.From()), "%s tied un %s", p.FEN(), m)
					tied++
				}
				require.Equal(t, s.KingPairOf(want), k)
				requireStepPair(t, s, s.KingPairOf(i), k, p.Side.Other())
				if c, pt := p.PieceAt(m.To()); pt == tb.King {
					kj, kk := s.KingMovedIndex(i, s.KingPairOf(i), &p, c, m.From())
					require.Equal(t, j, kj, "%s king un %s", p.FEN(), m)
					require.Equal(t, k, kk)
				}
			}
		}
	}
}

// requireStepPair checks that a move or un-move by side c from king pair k
// lands in k or in one of KingStepPairs(k, c).
func requireStepPair(t *testing.T, s *Space, k, landed int, c tb.Color) {
	t.Helper()
	if landed != k {
		require.Contains(t, s.KingStepPairs(k, c), landed, "king pair %d, %s moves", k, c)
	}
}

// TestKingStepPairs: the relation is symmetric (a step across a mirror may
// lead back to k itself).
func TestKingStepPairs(t *testing.T) {
	for _, name := range []string{"KRvK", "KSvK"} {
		s, err := New(tb.MustParseMaterial(name))
		require.NoError(t, err)
		for k := range s.KingPairs() {
			for c := tb.White; c <= tb.Black; c++ {
				pairs := s.KingStepPairs(k, c)
				require.LessOrEqual(t, len(pairs), 8)
				for _, n := range pairs {
					require.Contains(t, s.KingStepPairs(n, c), k, "%s: %d → %d and back, %s moves", name, k, n, c)
				}
			}
		}
	}
}

// A position's images are Multiplicity of them, distinct, and each
// indexes back to the position.
func TestImages(t *testing.T) {
	for _, name := range []string{"KRvK", "KSvK", "KRRvK"} {
		s, err := New(tb.MustParseMaterial(name))
		require.NoError(t, err)
		for k := 0; k < s.KingPairs(); k += 7 { // a sample of king pairs, tied ones among them
			s.Walk(k, tb.White, func(i uint64, p *tb.Position) {
				n := 0
				s.Images(p, func(q *tb.Position) {
					n++
					j, ok := s.Index(q)
					require.True(t, ok)
					require.Equal(t, i, j, "%s is an image of %s", q.FEN(), p.FEN())
				})
				require.Equal(t, s.Multiplicity(p), n, p.FEN())
			})
		}
	}
}

// WalkRange visits the legal indices of a range, wherever it starts and
// ends (inside a run of the last group, across king pairs, past the
// end), as Position finds them.
func TestWalkRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, name := range []string{"KvK", "KRvK", "KRRvK", "KSvKN", "KNvKN", "KRvKS"} {
		m, err := tb.ParseMaterial(name)
		require.NoError(t, err)
		s, err := New(m)
		require.NoError(t, err)
		for range 40 {
			lo := rng.Uint64N(s.Size())
			hi := lo + rng.Uint64N(3*s.PerKingPair()+2)
			side := tb.Color(rng.IntN(2))
			var walked []uint64
			s.WalkRange(side, lo, hi, func(i uint64, p *tb.Position) {
				q, ok := s.Position(i, side)
				require.True(t, ok)
				require.True(t, q.SamePlacement(p))
				walked = append(walked, i)
			})
			var decoded []uint64
			for i := lo; i < min(hi, s.Size()); i++ {
				if _, ok := s.Position(i, side); ok {
					decoded = append(decoded, i)
				}
			}
			require.Equal(t, decoded, walked, "%s [%d, %d)", name, lo, hi)
		}
	}
}

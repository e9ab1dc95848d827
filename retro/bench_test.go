package retro

import (
	"context"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/makruktb/makruktb/tb"
)

// benchmarkGenerate solves one table, its sub-tables solved beforehand,
// and reports positions (both sides to move) per second.
func benchmarkGenerate(b *testing.B, name string) {
	m := tb.MustParseMaterial(name)
	for _, dep := range Dependencies(tb.Makruk, m) {
		if dep != m {
			solve(b, dep.String())
		}
	}
	var size uint64
	for b.Loop() {
		table, err := Generate(context.Background(), m, shared.get, Options{})
		if err != nil {
			b.Fatal(err)
		}
		size = 2 * table.Space.Size()
	}
	b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds(), "indices/s")
}

// BenchmarkGenerateKRvKS solves one 4-piece khon table.
func BenchmarkGenerateKRvKS(b *testing.B) { benchmarkGenerate(b, "KRvKS") }

// BenchmarkGenerateKRRvKN solves the 5-piece table of the generator's
// speed target (about 10 s with both cores); a run takes about that long.
func BenchmarkGenerateKRRvKN(b *testing.B) {
	if testing.Short() {
		b.Skip("5-piece generation")
	}
	benchmarkGenerate(b, "KRRvKN")
}

// BenchmarkRemoveEscapes takes escapes off random words of counters,
// other bytes and positions with too many moves, the whole word at once
// (removeEscapes) and byte by byte (removeEscapesByLane), groups of one
// to eight lanes.
func BenchmarkRemoveEscapes(b *testing.B) {
	const words = 1 << 12
	r := rand.New(rand.NewPCG(1, 2))
	s := newStates(8 * words)
	groups := make([]uint8, words)
	fill := func() {
		for j := range s.codes {
			switch r.IntN(6) {
			case 0:
				s.codes[j] = byte(r.IntN(256))
			case 1:
				s.codes[j] = manyByte
			default:
				s.codes[j] = counterByte(1+r.IntN(maxCounter), r.IntN(2) == 0)
			}
		}
		for k := range groups {
			groups[k] = uint8(r.IntN(255) + 1)
		}
	}
	run := func(b *testing.B, remove func(k int) uint8) {
		fill()
		var sink uint8
		k := 0
		for b.Loop() {
			sink += remove(k)
			if k++; k == words {
				k = 0
				b.StopTimer()
				fill() // the counters ran down: new ones
				b.StartTimer()
			}
		}
		_ = sink
	}
	b.Run("word", func(b *testing.B) {
		run(b, func(k int) uint8 {
			d, _, _ := s.removeEscapes(uint64(8*k), groups[k], 2, nil, writingByte)
			return d
		})
	})
	b.Run("byLane", func(b *testing.B) {
		run(b, func(k int) uint8 {
			d, _, _ := removeEscapesByLane((*uint64)(unsafe.Pointer(&s.codes[8*k])), groups[k], 2, nil, writingByte)
			return d
		})
	})
}

// BenchmarkVerifyTogether checks KRvKS's DTM and its thai and cambodian
// DTB tables in one pass (the one-ply search verify and the derivation of
// a version-2 file's other side run), and reports positions (both sides
// to move) per second.
func BenchmarkVerifyTogether(b *testing.B) {
	checks := materialChecks(b, "KRvKS")
	for b.Loop() {
		errs, err := VerifyTogether(context.Background(), checks, Options{})
		if err != nil || errs[0] != nil || errs[1] != nil || errs[2] != nil {
			b.Fatal(err, errs)
		}
	}
	b.ReportMetric(float64(2*checks[0].Table.Space.Size())*float64(b.N)/b.Elapsed().Seconds(), "indices/s")
}

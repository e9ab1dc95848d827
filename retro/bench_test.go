package retro

import (
	"context"
	"testing"

	"github.com/makruktb/makruktb/tb"
)

// benchmarkGenerate solves one table, its sub-tables solved beforehand,
// and reports positions (both sides to move) per second.
func benchmarkGenerate(b *testing.B, name string) {
	m := tb.MustParseMaterial(name)
	for _, dep := range Dependencies(m) {
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
// speed target (20 s with both cores); a run takes about that long.
func BenchmarkGenerateKRRvKN(b *testing.B) {
	if testing.Short() {
		b.Skip("5-piece generation")
	}
	benchmarkGenerate(b, "KRRvKN")
}

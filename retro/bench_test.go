package retro

import (
	"context"
	"testing"

	"github.com/makruktb/makruktb/tb"
)

// BenchmarkGenerateKRvKS solves one 4-piece khon table (sub-tables ready).
func BenchmarkGenerateKRvKS(b *testing.B) {
	m := tb.MustParseMaterial("KRvKS")
	for _, dep := range Dependencies(m) {
		if dep != m {
			solve(b, dep.String())
		}
	}
	for b.Loop() {
		if _, err := Generate(context.Background(), m, shared.get, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

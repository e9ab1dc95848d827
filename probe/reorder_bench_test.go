package probe

import (
	"math/rand/v2"
	"testing"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
)

// BenchmarkReordered reorders KRRvKN's side (59.6 M values) into a
// layout with the rooks outermost and the kings apart, innermost: the
// version-3 writer does this twice a side for its final layouts.
func BenchmarkReordered(b *testing.B) {
	space, err := index.New(tb.MustParseMaterial("KRRvKN"))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	codes := make([]byte, space.Size()) // cells, every code exact
	for i := range codes {
		codes[i] = byte(rng.IntN(5))
	}
	for _, order := range [][]uint8{{1, 2, 0}, {2, 3, 1, 0}} {
		o, err := newDigitOrder(space, order)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(string('0'+rune(len(order))), func(b *testing.B) {
			b.SetBytes(int64(len(codes)))
			for b.Loop() {
				reordered(codes, o, false)
			}
		})
	}
}

package uci

import (
	"testing"

	"github.com/makruktb/makruktb/internal/testenv"
)

// The adapter's answer to go: the best move under the count and the line
// to mate played out (KRvKN, board's honour: the knight is won in 3
// plies, mate in 13 moves).
func BenchmarkScored(b *testing.B) {
	o := &Oracle{Tables: testenv.OpenTables(b, "KRvKN")}
	d, _ := DialectOf("makruk")
	g, err := d.NewGame("k7/8/8/8/8/8/8/n1K4R w - 128 0 1")
	if err != nil {
		b.Fatal(err)
	}
	a, err := o.Scored(g)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := o.Scored(g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(a.Plies), "plies")
}

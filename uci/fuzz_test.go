package uci

import (
	"testing"

	"github.com/makruktb/makruktb/tb"
)

// The position command's reader never panics; what it accepts is a legal
// position whose count is either not running or at a ply of its own.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		"startpos",
		"startpos moves e3e4 e6e5",
		"fen 8/8/4k3/8/3P4/8/8/R3K3 w - - 0 1 moves a1c1 e6d5 e1d2 d5d4",
		"fen 8/8/8/3k4/8/8/8/R3K3 w - 32 5 1 moves a1a4",
		"fen rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1 moves d1c2",
		"fen m7/8/4k3/8/8/2MMM3/4K3/8 b - - 0 0 moves e6e5 e2d1",
		"fen k7/8/8/8/8/8/8/K7 w - 128 200 1",
		"fen",
		"moves e3e4",
	} {
		f.Add("makruk", s)
		f.Add("cambodian", s)
	}
	f.Fuzz(func(t *testing.T, variant, args string) {
		d, ok := DialectOf(variant)
		if !ok {
			return
		}
		g, err := d.ParsePosition(args)
		if err != nil {
			return
		}
		if err := g.Pos.Validate(); err != nil {
			t.Fatalf("%q gives an illegal position %s: %v", args, g.FEN(), err)
		}
		if g.Count.Limit < 0 || g.Count.Running() && g.Count.Ply < 0 {
			t.Fatalf("%q gives count %+v", args, g.Count)
		}
		if g.Rights&^(g.Pos.ByType(tb.King)|g.Pos.ByType(tb.Met)) != 0 {
			t.Fatalf("%q gives first-move rights on squares without a king or Met", args)
		}
	})
}

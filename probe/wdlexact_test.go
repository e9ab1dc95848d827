package probe

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// No WDL file is made where a count no table models decides categories:
// two pieces each under a board's count the side behind runs.
func TestWDLRefusesUnmodelledCount(t *testing.T) {
	fewer := honour.ThaiRules
	fewer.Name, fewer.BoardCountBy = "fewer", honour.CountByFewer
	for _, m := range []string{"KRNvKMM", "KRMvKMM"} {
		require.ErrorContains(t, wdlExact(tb.MustParseMaterial(m), &fewer), "no table models", m)
	}
	for _, m := range []string{"KRvKN", "KRRvKN", "KRNvKM", "KRRSvKM"} {
		require.NoError(t, wdlExact(tb.MustParseMaterial(m), &fewer), m)
	}
	require.NoError(t, wdlExact(tb.MustParseMaterial("KRNvKMM"), &honour.ThaiRules))
}

// TestRunCapturesMatchLegalCaptures checks the capture lists the passes
// over a side take from runs (runCaptures) against the position's own
// LegalCaptures, at every legal position of both sides of tables with and
// without a Khon (whose space has no diagonal symmetry), in index order
// with the passes' gaps: every third index of some stretches is skipped.
func TestRunCapturesMatchLegalCaptures(t *testing.T) {
	for _, name := range []string{"KRvKN", "KSvKM"} {
		space, err := index.New(tb.MustParseMaterial(name))
		require.NoError(t, err)
		for side := tb.White; side <= tb.Black; side++ {
			rc := newRunCaptures(space)
			checked := 0
			space.WalkRange(side, 0, space.Size(), func(i uint64, p *tb.Position) {
				if i/1000%2 == 1 && i%3 == 0 {
					return
				}
				var want tb.MoveList
				p.LegalCaptures(&want)
				got := rc.of(i, p)
				slices.Sort(want.Slice())
				slices.Sort(got)
				if !slices.Equal(want.Slice(), got) {
					t.Fatalf("%s %s: captures %v from runs, %v from the position", name, p.FEN(), got, want.Slice())
				}
				checked++
			})
			require.Positive(t, checked)
		}
	}
}

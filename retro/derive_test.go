package retro

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Deriving either side of a DTM and of a DTB table from the other gives
// back every legal position's value: what a version-2 file, which stores
// one side, relies on.
func TestDeriveGivesBackEachSide(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece DTB")
	}
	dtm := solve(t, "KRvKN")
	thai := solveDTB(t, "KRvKN", &honour.ThaiRules)
	dtbOf := func(m tb.Material) (*Table, error) { return solveDTB(t, m.String(), &honour.ThaiRules), nil }
	for side := tb.White; side <= tb.Black; side++ {
		copyDTM, copyThai := onlySide(dtm, side.Other()), onlySide(thai, side.Other())
		checks := []Check{
			{Table: copyDTM, DTM: shared.get},
			{Table: copyThai, Rules: &honour.ThaiRules, DTM: shared.get, DTB: dtbOf},
		}
		require.NoError(t, Derive(context.Background(), checks, side, Options{Threads: 2}))
		for x, want := range []*Table{dtm, thai} {
			got := checks[x].Table
			n := 0
			for k := range want.Space.KingPairs() {
				want.Space.Walk(k, side, func(i uint64, p *tb.Position) {
					n++
					if got.Values[side].At(i) != want.Values[side].At(i) {
						t.Fatalf("%s, table %d: derived %v, generated %v", p.FEN(), x, got.Values[side].At(i), want.Values[side].At(i))
					}
				})
			}
			require.Positive(t, n)
		}
	}
	require.NoError(t, Derive(context.Background(), nil, tb.White, Options{}))
}

// Verify skips the side Derive computed (it would compute it again) and
// still finds a wrong value on the side stored, even one the derived side
// was computed from.
func TestVerifyDerived(t *testing.T) {
	dtm := solve(t, "KRvKS")
	copied := onlySide(dtm, tb.White)
	vals := copied.Values[tb.White].All()
	require.NoError(t, Derive(context.Background(), []Check{{Table: copied, DTM: shared.get}}, tb.Black, Options{}))
	require.Equal(t, [2]bool{false, true}, copied.Derived)
	require.NoError(t, Verify(context.Background(), copied, shared.get, Options{}))

	i := 0
	for vals[i] != value.Mate(1) {
		i++
	}
	vals[i] = value.Mate(3)
	broken := &Table{Space: dtm.Space, Values: [2]*value.Array{value.ArrayOf(vals), nil}}
	require.NoError(t, Derive(context.Background(), []Check{{Table: broken, DTM: shared.get}}, tb.Black, Options{}))
	var mm *MismatchError
	require.ErrorAs(t, Verify(context.Background(), broken, shared.get, Options{}), &mm)
}

// Derive with several workers on a small table (make race runs it under
// the race detector): each side of KRvK given back from the other.
func TestDeriveSmallTable(t *testing.T) {
	krk := solve(t, "KRvK")
	for side := tb.White; side <= tb.Black; side++ {
		copied := onlySide(krk, side.Other())
		require.NoError(t, Derive(context.Background(), []Check{{Table: copied, DTM: shared.get}}, side, Options{Threads: 4}))
		for k := range krk.Space.KingPairs() {
			krk.Space.Walk(k, side, func(i uint64, p *tb.Position) {
				if got, want := copied.Values[side].At(i), krk.Values[side].At(i); got != want {
					t.Fatalf("%s: derived %v, generated %v", p.FEN(), got, want)
				}
			})
		}
	}
}

// onlySide copies table keeping the values of side; the other side's
// values are all draws.
func onlySide(table *Table, side tb.Color) *Table {
	out := &Table{Space: table.Space}
	out.Values[side] = value.ArrayOf(table.Values[side].All())
	out.Values[side.Other()] = value.NewArray(table.Space.Size())
	return out
}

package pipeline

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
)

// Out of core, the tables of a material are checked in as few passes as
// the scratch disk holds their values for, and a material of which not
// even one table fits is refused before any work.
func TestVerifyByDisk(t *testing.T) {
	m := tb.MustParseMaterial("KRvKN")
	e, err := retro.EstimateTable(tb.Makruk, m, false)
	require.NoError(t, err)
	each := 2 * int64(e.Indices)
	ids := []probe.ID{probe.DTMID(m), {Material: m, Rules: "thai"}, {Material: m, Rules: "cambodian"}}
	for free, want := range map[int64][]int{10 * each: {3}, 2*each + each/2: {2, 1}, each + each/2: {1, 1, 1}} {
		v := &Verifier{Scratch: "/scratch", freeDisk: func(string) (int64, error) { return free, nil }}
		runs, err := v.byDisk(ids)
		require.NoError(t, err)
		var sizes []int
		for _, r := range runs {
			sizes = append(sizes, len(r))
		}
		require.Equal(t, want, sizes, "free %d", free)
		require.Equal(t, ids, slices.Concat(runs...))
	}
	v := &Verifier{Scratch: "/scratch", freeDisk: func(string) (int64, error) { return each / 2, nil }}
	_, err = v.byDisk(ids)
	require.ErrorContains(t, err, "cannot verify KRvKN out of core: each of its tables takes "+units.Bytes(each)+" of scratch files, /scratch has "+units.Bytes(each/2)+" free")
}

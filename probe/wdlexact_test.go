package probe

import (
	"testing"

	"github.com/stretchr/testify/require"

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

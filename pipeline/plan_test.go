package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// The plan makes each material's DTB tables right after its DTM table,
// sub-materials before the materials that capture into them.
func TestPlanOrder(t *testing.T) {
	var names []string
	for _, j := range mustPlan(t, []tb.Material{tb.MustParseMaterial("KRNvKR")}, []honour.Rules{honour.ThaiRules}) {
		names = append(names, j.ID.String())
	}
	pos := map[string]int{}
	for i, n := range names {
		pos[n] = i
	}
	require.Len(t, names, len(pos), "no repeats: %v", names)
	for _, n := range []string{"KRvK", "KNvK", "KRNvK", "KRvKR", "KRvKN", "KRNvKR", "KRvKR.thai", "KRvKN.thai", "KRNvKR.thai"} {
		require.Contains(t, pos, n)
	}
	for _, m := range []string{"KRvKR", "KRvKN", "KRNvKR"} {
		require.Equal(t, pos[m]+1, pos[m+".thai"], "%s's DTB table right after its DTM table: %v", m, names)
	}
	require.Less(t, pos["KRNvK"], pos["KRNvKR"])
	require.Less(t, pos["KRvKR.thai"], pos["KRNvKR.thai"])
	require.Less(t, pos["KRvKN.thai"], pos["KRNvKR.thai"])
	require.NotContains(t, pos, "KRNvK.thai", "one side bare: no board's honour")
	_, err := BoardProfiles("thai,asean")
	require.ErrorContains(t, err, "no board's honour")
	profiles, err := BoardProfiles("none")
	require.NoError(t, err)
	require.Empty(t, profiles)
}

// A material needs the materials of every table its DTM and DTB tables
// read, sub-tables of sub-tables included, and not itself.
func TestNeeds(t *testing.T) {
	var names []string
	for _, m := range Needs(tb.Makruk, tb.MustParseMaterial("KRNvKR")) {
		names = append(names, m.String())
	}
	require.ElementsMatch(t, []string{"KRvK", "KNvK", "KRNvK", "KRvKR", "KRvKN"}, names)
}

// An interrupted table's message says what a rerun does with it: resume
// it from the checkpoint it saved, or start it afresh (issue 58.15).
func TestRerunText(t *testing.T) {
	dir := t.TempDir()
	j := Job{ID: probe.DTMID(tb.MustParseMaterial("KRRvKN"))}
	r := &Runner{Scratch: dir, CheckpointEvery: time.Minute}
	require.Equal(t, "a rerun keeps the tables made and starts it afresh (no checkpoint of it was saved: --checkpoint sets how often)", r.rerunText(j))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "KRRvKN.resume"), nil, 0o644))
	require.Equal(t, "a rerun resumes it from its checkpoint "+filepath.Join(dir, "KRRvKN.resume"), r.rerunText(j))
}

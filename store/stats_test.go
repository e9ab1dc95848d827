package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// A table's recorded statistics are read back while its files are the
// bytes they were counted from, and not once a file changes; a record
// that cannot be parsed is not used.
func TestStatsRecords(t *testing.T) {
	dir := t.TempDir()
	m := tb.MustParseMaterial("KRvKN")
	dtm, dtb := probe.DTMID(m), probe.ID{Material: m, Rules: honour.ThaiRules.Name}
	write := func(id probe.ID, text string) {
		require.NoError(t, os.WriteFile(id.Path(dir), []byte(text), 0o644))
	}
	write(dtm, "the DTM file")
	write(dtb, "the DTB file")

	st, err := LoadStats(dir, dtm)
	require.NoError(t, err)
	require.Nil(t, st, "nothing recorded")

	want := &retro.Stats{Material: "KRvKN", Sides: map[string]retro.SideStats{"w": {Legal: 7, Win: map[int]uint64{31: 2}, Loss: map[int]uint64{}}}}
	counts := map[string]retro.CountStats{"w": {Win: 3}}
	require.NoError(t, SaveStats(dir, dtm, want))
	require.NoError(t, SaveBoardCounts(dir, dtb, counts))
	st, err = LoadStats(dir, dtm)
	require.NoError(t, err)
	require.Equal(t, want, st)
	got, err := LoadBoardCounts(dir, dtb)
	require.NoError(t, err)
	require.Equal(t, counts, got)

	write(dtm, "the DTM file, made again")
	st, err = LoadStats(dir, dtm)
	require.NoError(t, err)
	require.Nil(t, st, "the DTM file changed")
	got, err = LoadBoardCounts(dir, dtb)
	require.NoError(t, err)
	require.Nil(t, got, "the board's-honour counts were counted with the old DTM file")

	require.NoError(t, SaveStats(dir, dtm, want))
	require.NoError(t, os.WriteFile(filepath.Join(dir, StatsDir, dtm.FileName()+".json"), []byte(`{"version": 1, "files": {`), 0o644))
	st, err = LoadStats(dir, dtm)
	require.NoError(t, err)
	require.Nil(t, st, "a record cut short is counted again")

	require.NoError(t, os.Remove(dtm.Path(dir)))
	_, err = LoadBoardCounts(dir, dtb)
	require.ErrorContains(t, err, "KRvKN.mtbm", "a table file that cannot be read is an error naming it")
}

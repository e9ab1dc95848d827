package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// A run with WDL on writes the WDL file of every material under every
// profile of its DTB tables, records their checksums, and keeps them on
// the next run; a WDL file beside tables it was not made from is made
// anew, and one that differs from its reference is rejected.
func TestRunWritesWDLFiles(t *testing.T) {
	dir := t.TempDir()
	jobs := mustPlan(t, []tb.Material{tb.MustParseMaterial("KRvKN")}, []honour.Rules{honour.ThaiRules})
	rec := &record{}
	r := &Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences(), Report: rec, WDL: true}
	require.NoError(t, r.Run(context.Background(), jobs))
	var want []string
	for _, j := range jobs {
		if j.Rules == nil {
			want = append(want, probe.WDLFileName(j.ID.Material, "thai"))
		}
	}
	require.Contains(t, want, "KRvKN.thai.mtbw")
	sums, err := store.ReadChecksums(dir)
	require.NoError(t, err)
	for _, name := range want {
		require.FileExists(t, filepath.Join(dir, name))
		sum, err := store.FileSHA256(filepath.Join(dir, name))
		require.NoError(t, err)
		require.Equal(t, sum, sums[name], name)
	}
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	pos, err := tb.ParseFEN("n7/8/7R/8/8/8/8/K3k3 w - - 0 1")
	require.NoError(t, err)
	judged, err := tables.Judge(&pos, &honour.ThaiRules)
	require.NoError(t, err)
	category, err := tables.WDL(&pos, &honour.ThaiRules)
	require.NoError(t, err)
	require.Equal(t, judged.Category, category)
	tables.Close()

	// The next run keeps them, and says nothing of them.
	rec.printed = nil
	require.NoError(t, r.Run(context.Background(), jobs))
	for _, line := range rec.printed {
		require.NotContains(t, line, ".mtbw", line)
	}

	// A WDL file made from other tables (here KRvK's, under KRvKN's
	// name) is made anew.
	path := filepath.Join(dir, "KRvKN.thai.mtbw")
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	other, err := os.ReadFile(filepath.Join(dir, "KRvK.thai.mtbw"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, other, 0o644))
	res, err := WriteWDL(context.Background(), quiet{}, openDir(t, dir, store.References{}), tb.MustParseMaterial("KRvKN"), &honour.ThaiRules)
	require.NoError(t, err)
	require.False(t, res.Kept)
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, good, again)

	// A reference that disagrees rejects the file.
	require.NoError(t, os.Remove(path))
	_, err = WriteWDL(context.Background(), quiet{}, openDir(t, dir, store.References{V3: map[string]string{"KRvKN.thai.mtbw": "00"}}), tb.MustParseMaterial("KRvKN"), &honour.ThaiRules)
	require.ErrorContains(t, err, "not accepted")
	require.NoFileExists(t, path)
	require.FileExists(t, path+store.RejectedSuffix)

	// Without its DTB table, KRvKN has no WDL file.
	require.NoError(t, os.Remove(probe.ID{Material: tb.MustParseMaterial("KRvKN"), Rules: "thai"}.Path(dir)))
	_, err = WriteWDL(context.Background(), quiet{}, openDir(t, dir, store.References{}), tb.MustParseMaterial("KRvKN"), &honour.ThaiRules)
	require.ErrorIs(t, err, probe.ErrNeedsBoardTable)
}

// A material without DTB tables (a bare king: KRvK) gets the WDL files of
// the run's profiles all the same: gen KRvK wrote none while its profiles
// came from its DTB jobs only.
func TestRunWritesWDLFilesOfABareKing(t *testing.T) {
	dir := t.TempDir()
	profiles := []honour.Rules{honour.ThaiRules, honour.CambodianRules}
	jobs := mustPlan(t, []tb.Material{tb.MustParseMaterial("KRvK")}, profiles)
	for _, j := range jobs {
		require.Nil(t, j.Rules, "KRvK has no DTB table")
	}
	r := &Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences(), WDL: true, Profiles: profiles}
	require.NoError(t, r.Run(context.Background(), jobs))
	for _, name := range []string{"KRvK.thai.mtbw", "KRvK.cambodian.mtbw"} {
		require.Equal(t, store.RepositoryReferences().V3[name], mustSum(t, filepath.Join(dir, name)), name)
	}
}

// Version-3 WDL files (pairs streams) are written on request, recorded
// without a reference list, verified from their tables, and kept by a
// later run in the default format; asking for version 2 writes them anew.
func TestRunWritesVersion3WDLFiles(t *testing.T) {
	dir := t.TempDir()
	profiles := []honour.Rules{honour.ThaiRules}
	jobs := mustPlan(t, []tb.Material{tb.MustParseMaterial("KRvKN")}, profiles)
	r := &Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences(), WDL: true, WDLVersion: probe.Version3, Profiles: profiles}
	require.NoError(t, r.Run(context.Background(), jobs))
	path := filepath.Join(dir, "KRvKN.thai.mtbw")
	f, err := probe.OpenFile(path)
	require.NoError(t, err)
	require.Equal(t, probe.Version3, f.Header.Version)
	f.Close()
	sums, err := store.ReadChecksums(dir)
	require.NoError(t, err)
	require.Equal(t, mustSum(t, path), sums["KRvKN.thai.mtbw"])
	v := &Verifier{Dir: dir, Threads: 2, Reference: store.RepositoryReferences()}
	tally, err := v.Verify(context.Background(), []probe.ID{probe.DTMID(tb.MustParseMaterial("KRvKN"))})
	require.NoError(t, err)
	require.Zero(t, tally.Failed)
	require.Equal(t, 2, tally.Files, "the table and its WDL file")

	again := &Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences(), WDL: true, Profiles: profiles}
	require.NoError(t, again.Run(context.Background(), jobs))
	require.Equal(t, sums["KRvKN.thai.mtbw"], mustSum(t, path), "kept")
	again.WDLVersion = probe.Version2
	require.NoError(t, again.Run(context.Background(), jobs))
	require.Equal(t, store.RepositoryReferences().V2["KRvKN.thai.mtbw"], mustSum(t, path), "version 2, its reference")
}

// A WDLWriter, which derives each side a version-2 file does not store
// once for many files, writes the bytes the run wrote (their references,
// in the default format 3).
func TestWDLWriterWritesTheReference(t *testing.T) {
	dir := t.TempDir()
	profiles := []honour.Rules{honour.ThaiRules, honour.CambodianRules}
	m := tb.MustParseMaterial("KRvKN")
	r := &Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences()}
	require.NoError(t, r.Run(context.Background(), mustPlan(t, []tb.Material{m}, profiles)))
	w := NewWDLWriter(openDir(t, dir, store.RepositoryReferences()))
	for _, mat := range []tb.Material{tb.MustParseMaterial("KRvK"), m} {
		w.Done()
		for i := range profiles {
			res, err := w.Write(context.Background(), quiet{}, mat, &profiles[i])
			require.NoError(t, err)
			require.False(t, res.Kept)
			require.Equal(t, store.RepositoryReferences().V3[res.Name], mustSum(t, filepath.Join(dir, res.Name)), res.Name)
		}
	}
	res, err := w.Write(context.Background(), quiet{}, m, &profiles[0])
	require.NoError(t, err)
	require.True(t, res.Kept, "made from the tables beside it")
}

// A WDL file made before WDL files stored bounds where captures decide
// (codec 1) beside the tables it was made from is written anew in
// version 2 from its own categories, the file the writer makes today, and
// then kept.
func TestWriteWDLRecodesAnOldFile(t *testing.T) {
	dir := t.TempDir()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(filepath.Join("..", "probe", "testdata", from))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, to), b, 0o666))
	}
	copyFile("KMvK.mtbm", "KMvK.mtbm")
	copyFile("KMvK.thai.codec1.mtbw", "KMvK.thai.mtbw")
	m := tb.MustParseMaterial("KMvK")
	w := NewWDLWriter(openDir(t, dir, store.References{}))
	w.Version = probe.Version2
	res, err := w.Write(context.Background(), quiet{}, m, &honour.ThaiRules)
	require.NoError(t, err)
	require.True(t, res.Recoded)
	require.Contains(t, res.String(), "written anew from the file present")
	got, err := store.FileSHA256(filepath.Join(dir, "KMvK.thai.mtbw"))
	require.NoError(t, err)
	want, err := store.FileSHA256(filepath.Join("..", "probe", "testdata", "KMvK.thai.mtbw"))
	require.NoError(t, err)
	require.Equal(t, want, got)

	res, err = WriteWDL(context.Background(), quiet{}, openDir(t, dir, store.References{}), m, &honour.ThaiRules)
	require.NoError(t, err)
	require.True(t, res.Kept)
	require.False(t, res.Recoded)
}

func TestDefaultWDLVersionUpToFivePieces(t *testing.T) {
	for name, want := range map[string]int{"KRvK": probe.Version3, "KRSvKN": probe.Version3, "KSMvKM": probe.Version3, "KRMvKMM": probe.Version2, "KRRRRvK": probe.Version2} {
		require.Equal(t, want, DefaultWDLVersion(tb.MustParseMaterial(name)), name)
	}
}

// Under a --memory that holds a table but not the version-3 writer,
// gen writes that material's WDL file in version 2, byte for byte its
// reference, and says why; a smaller material beside it still gets
// version 3.
func TestRunWritesVersion2WithinMemory(t *testing.T) {
	krvkn := tb.MustParseMaterial("KRvKN")
	e, err := retro.EstimateTable(tb.Makruk, krvkn, false)
	require.NoError(t, err)
	need, err := WDLMemory(tb.Makruk, krvkn, probe.Version3)
	require.NoError(t, err)
	limit := (e.Memory + need) / 2
	require.Less(t, e.Memory*2, limit, "the table itself fits in memory and may be held")
	krvk, err := WDLMemory(tb.Makruk, tb.MustParseMaterial("KRvK"), probe.Version3)
	require.NoError(t, err)
	require.Less(t, krvk, limit)

	dir := t.TempDir()
	jobs := mustPlan(t, []tb.Material{krvkn}, []honour.Rules{honour.ThaiRules})
	rec := &record{}
	r := &Runner{Dir: dir, Threads: 2, Memory: limit, Reference: store.RepositoryReferences(), Report: rec, WDL: true}
	require.NoError(t, r.Run(context.Background(), jobs))
	version := func(name string) int {
		f, err := probe.OpenFile(filepath.Join(dir, name))
		require.NoError(t, err)
		defer f.Close()
		return int(f.Header.Version)
	}
	require.Equal(t, probe.Version2, version("KRvKN.thai.mtbw"))
	require.Equal(t, probe.Version3, version("KRvK.thai.mtbw"))
	sum, err := store.FileSHA256(filepath.Join(dir, "KRvKN.thai.mtbw"))
	require.NoError(t, err)
	require.Equal(t, store.RepositoryReferences().V2["KRvKN.thai.mtbw"], sum)
	require.Contains(t, strings.Join(rec.logged, "\n"), "KRvKN.thai.mtbw             format 3 would take about")

	// Without a limit, the default.
	v, why := wdlVersionWithin(tb.Makruk, krvkn, 0)
	require.Equal(t, probe.Version3, v)
	require.Empty(t, why)
	v, _ = wdlVersionWithin(tb.Makruk, tb.MustParseMaterial("KRMvKMM"), 1<<50)
	require.Equal(t, probe.Version2, v, "six pieces: version 2 whatever the memory")
}

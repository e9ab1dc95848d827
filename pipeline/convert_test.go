package pipeline

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Version 2 from the generator and from version-1 files is the same:
// gen --format 2 of KRvKN (DTM and thai DTB, with their WDL files) and
// convert of the version-1 run give the same bytes, each its reference in
// data/checksums-v2.txt; the verified marks carry over, the WDL files made
// from the version-1 tables are made anew, and verify passes every value
// and category of the converted directory. Converting again keeps it all.
func TestConvertMakesWhatGenMakes(t *testing.T) {
	profiles := []honour.Rules{honour.ThaiRules}
	jobs := mustPlan(t, []tb.Material{tb.MustParseMaterial("KRvKN")}, profiles)
	refs := store.RepositoryReferences()
	v2 := t.TempDir()
	gen := &Runner{Dir: v2, Threads: 2, Reference: refs, Verify: true, Report: &record{}, WDL: true, Format: probe.Version2}
	require.NoError(t, gen.Run(context.Background(), jobs))
	v1 := t.TempDir()
	old := &Runner{Dir: v1, Threads: 2, Reference: refs, Verify: true, Report: &record{}, WDL: true, Format: probe.Version}
	require.NoError(t, old.Run(context.Background(), jobs))
	require.NoError(t, store.MarkVerified(v1, jobs[len(jobs)-1].ID, mustSum(t, jobs[len(jobs)-1].ID.Path(v1))))

	// A WDL file of another profile, made from the version-1 tables.
	none := filepath.Join(v1, probe.WDLFileName(tb.MustParseMaterial("KRvK"), "none"))
	_, err := WriteWDL(context.Background(), quiet{}, openDir(t, v1, refs), tb.MustParseMaterial("KRvK"), &honour.NoRules)
	require.NoError(t, err)
	require.FileExists(t, none)
	v1Sums, err := store.ReadChecksums(v1)
	require.NoError(t, err)
	for _, j := range jobs {
		if j.Rules != nil {
			continue
		}
		rec := &record{}
		tables, wdl, err := ConvertMaterial(context.Background(), rec, openDir(t, v1, refs), j.ID.Material, profiles, WDLFormat{})
		require.NoError(t, err)
		require.NotEmpty(t, tables)
		for _, res := range tables {
			require.False(t, res.Kept)
			require.Less(t, res.After, res.Before)
			require.Contains(t, rec.printed, res.String())
		}
		for _, res := range wdl {
			require.False(t, res.Kept, "made anew from the version-2 tables")
			require.Contains(t, rec.printed, res.String())
		}
	}
	require.NoFileExists(t, none, "made from version 1 and not asked for: removed")
	files, err := filepath.Glob(filepath.Join(v2, "*.mtb?"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		name := filepath.Base(path)
		f, err := probe.OpenFile(path)
		require.NoError(t, err)
		version, list := probe.Version2, refs.V2
		if f.Header.Metric == probe.WDL {
			version, list = DefaultWDLVersion(f.Header.Material), refs.V3 // the default WDL format
		}
		require.Equal(t, version, f.Header.Version, name)
		f.Close()
		sum := mustSum(t, path)
		require.Equal(t, sum, mustSum(t, filepath.Join(v1, name)), "%s: converted and generated differ", name)
		if ref, ok := list[name]; ok {
			require.Equal(t, ref, sum, name)
		}
		require.NotEqual(t, v1Sums[name], sum, name)
	}
	sums, err := store.ReadChecksums(v1)
	require.NoError(t, err)
	rows, err := store.ReadCatalogue(v1)
	require.NoError(t, err)
	last := jobs[len(jobs)-1].ID
	require.True(t, rows[last.String()].VerifiedAs(sums[last.FileName()]), "the verified mark carried over")

	v := &Verifier{Dir: v1, Threads: 2, Reference: refs}
	var ids []probe.ID
	for _, j := range jobs {
		ids = append(ids, j.ID)
	}
	tally, err := v.Verify(context.Background(), ids)
	require.NoError(t, err)
	require.Zero(t, tally.Failed)
	require.Zero(t, tally.Unchecked)
	require.GreaterOrEqual(t, tally.Files, len(ids))

	tables, _, err := ConvertMaterial(context.Background(), &record{}, openDir(t, v1, refs), last.Material, profiles, WDLFormat{})
	require.NoError(t, err)
	for _, res := range tables {
		require.True(t, res.Kept, res.ID)
	}
	require.NoError(t, os.Remove(probe.DTMID(tb.MustParseMaterial("KRvK")).Path(v1)))
	_, _, err = ConvertMaterial(context.Background(), &record{}, openDir(t, v1, refs), tb.MustParseMaterial("KRvK"), profiles, WDLFormat{})
	require.ErrorIs(t, err, fs.ErrNotExist, "no DTM table to make the WDL file from")
}

func mustSum(t *testing.T, path string) string {
	t.Helper()
	sum, err := store.FileSHA256(path)
	require.NoError(t, err)
	return sum
}

// sameStoredValues, convert's read-back check, fails at a legal position
// whose value the version-2 file does not hold, naming it, and lets the
// holes differ (the file fills them to compress).
func TestSameStoredValuesFindsADifference(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	jobs := mustPlan(t, []tb.Material{tb.MustParseMaterial("KRvK")}, nil)
	run := &Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences(), Report: &record{}, Format: probe.Version}
	require.NoError(t, run.Run(ctx, jobs))
	old, err := probe.OpenFile(filepath.Join(dir, "KRvK.mtbm"))
	require.NoError(t, err)
	defer old.Close()
	values, err := old.LoadAll()
	require.NoError(t, err)
	require.NoError(t, markHoles(ctx, old.Space, values, quiet{}.Progress))
	path := filepath.Join(dir, "KRvK.v2.mtbm")
	require.NoError(t, probe.WriteFile(path, old.Space, values, probe.Options{Version: probe.Version2, Metric: probe.DTM}))
	require.NoError(t, sameStoredValues(ctx, path, values, quiet{}.Progress), "holes differ, legal values agree")

	f, err := probe.OpenFile(path)
	require.NoError(t, err)
	side := f.Header.StoredSide()
	f.Close()
	all := values[side].All()
	i := uint64(len(all) / 2)
	for all[i] == value.Illegal {
		i++
	}
	p, legal := old.Space.Position(i, side)
	require.True(t, legal)
	if all[i] == value.Draw {
		all[i] = value.MatedIn(0)
	} else {
		all[i] = value.Draw
	}
	changed := values
	changed[side] = value.ArrayOf(all)
	err = sameStoredValues(ctx, path, changed, quiet{}.Progress)
	require.Error(t, err)
	require.Contains(t, err.Error(), p.FEN())
}

// stages records the stages a run reports, each once in a row, and the
// furthest each came.
type stages struct {
	record
	mu       sync.Mutex
	seen     []retro.Stage
	furthest map[retro.Stage]retro.Progress
}

func (s *stages) Progress(p retro.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.seen); n == 0 || s.seen[n-1] != p.Stage {
		s.seen = append(s.seen, p.Stage)
	}
	if s.furthest == nil {
		s.furthest = map[retro.Stage]retro.Progress{}
	}
	if p.Done >= s.furthest[p.Stage].Done {
		s.furthest[p.Stage] = p
	}
}

// A conversion reports each table's stages in order, the passes that go
// by unit to their end, then the derivation of the other sides for the
// WDL files: a long convert is never silent.
func TestConvertReportsProgress(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	profiles := []honour.Rules{honour.ThaiRules}
	m := tb.MustParseMaterial("KRvKN")
	run := &Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences(), Report: &record{}, Format: probe.Version}
	require.NoError(t, run.Run(ctx, mustPlan(t, []tb.Material{m}, profiles)))
	rec := &stages{}
	tables, _, err := ConvertMaterial(ctx, rec, openDir(t, dir, store.RepositoryReferences()), m, profiles, WDLFormat{})
	require.NoError(t, err)
	require.Len(t, tables, 2, "DTM and thai DTB")
	perTable := []retro.Stage{StageCheckData, StageLoad, StageHoles, StageWrite, StageReadBack, StageChecksum}
	want := slices.Concat(perTable, perTable, []retro.Stage{retro.StageDerive})
	require.Equal(t, want, rec.seen)
	for _, stage := range []retro.Stage{StageHoles, StageReadBack, retro.StageDerive} {
		p := rec.furthest[stage]
		require.Positive(t, p.Total, stage)
		require.Equal(t, p.Total, p.Done, "%s reported to its end", stage)
	}
}

// openDir opens dir as a table directory held to refs.
func openDir(t *testing.T, dir string, refs store.References) *store.Dir {
	t.Helper()
	d, err := store.OpenDir(dir)
	require.NoError(t, err)
	d.Reference = refs
	return d
}

// Convert writes the WDL files of the smaller materials first, whatever
// order they are given in: a larger material's captures then read them
// (smallestFirst).
func TestConvertWritesTheSmallerMaterialsFirst(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	profiles := []honour.Rules{honour.ThaiRules}
	krvkn, krvk := tb.MustParseMaterial("KRvKN"), tb.MustParseMaterial("KRvK")
	run := &Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences()}
	require.NoError(t, run.Run(ctx, mustPlan(t, []tb.Material{krvkn}, profiles))) // no WDL files
	rec := &record{}
	c := Conversion{Materials: []tb.Material{krvkn, krvk}, Profiles: profiles, Format: probe.Version, Named: true}
	require.NoError(t, Convert(ctx, rec, openDir(t, dir, store.RepositoryReferences()), c))
	var written []string
	for _, line := range rec.printed {
		if name, _, ok := strings.Cut(line, " "); ok && strings.HasSuffix(name, ".mtbw") {
			written = append(written, name)
		}
	}
	require.Equal(t, []string{"KRvK.thai.mtbw", "KRvKN.thai.mtbw"}, written)
	require.Equal(t, []tb.Material{krvkn, krvk}, c.Materials, "the caller's slice is left as it was")
}

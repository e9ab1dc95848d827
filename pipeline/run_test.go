package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// plan returns the jobs of the named materials, DTM only.
func plan(t *testing.T, names ...string) []Job {
	var ms []tb.Material
	for _, n := range names {
		ms = append(ms, tb.MustParseMaterial(n))
	}
	require.NoError(t, CheckSupported(tb.Makruk, ms))
	return mustPlan(t, ms, nil)
}

// mustPlan is Plan for Makruk tables.
func mustPlan(t *testing.T, targets []tb.Material, profiles []honour.Rules) []Job {
	t.Helper()
	jobs, err := Plan(tb.Makruk, targets, profiles)
	require.NoError(t, err)
	return jobs
}

// record is a Reporter that keeps what it hears.
type record struct {
	quiet
	printed, logged []string
	made            []Result
}

func (r *record) Print(line string) { r.printed = append(r.printed, line) }
func (r *record) Log(line string)   { r.logged = append(r.logged, line) }
func (r *record) Made(res Result)   { r.made = append(r.made, res) }

// spoilWin makes the first win of White to move two plies slower, as a
// faulty generator would.
func spoilWin(table *retro.Table) {
	codes := table.Values[tb.White].Codes()
	for i, c := range codes {
		if value.Value(c).IsWin() {
			codes[i] += 2
			return
		}
	}
}

// A table with a reference checksum is accepted only when it matches it;
// one that differs is kept as NAME.rejected, which no reader opens, and
// the run goes on with the tables that do not need it.
func TestRunRejectsAMismatch(t *testing.T) {
	dir := t.TempDir()
	reference := data.Checksums()
	reference["KSvK.mtbm"] = strings.Repeat("0", 64)
	rec := &record{}
	r := &Runner{Dir: dir, Threads: 2, Reference: store.References{V1: reference}, Verify: true, Report: rec, Format: probe.Version}
	err := r.Run(context.Background(), plan(t, "KSvK", "KRvK"))
	require.EqualError(t, err, "1 table failed: KSvK")
	require.Equal(t, []string{"makruktb: KSvK.mtbm: SHA-256 " + data.Checksums()["KSvK.mtbm"] + " differs from " + strings.Repeat("0", 64) +
		" in the reference data/checksums.txt: the generator's output changed; not accepted: the file is kept as " +
		filepath.Join(dir, "KSvK.mtbm.rejected") + ", which no reader opens"}, rec.logged)
	require.NoFileExists(t, filepath.Join(dir, "KSvK.mtbm"))
	require.NoFileExists(t, filepath.Join(dir, "KSvK.mtbm"+store.PendingSuffix))
	require.FileExists(t, filepath.Join(dir, "KSvK.mtbm"+store.RejectedSuffix))
	require.False(t, openDir(t, dir, store.References{}).Has(probe.DTMID(tb.MustParseMaterial("KSvK"))))
	require.Len(t, rec.made, 1)
	require.Equal(t, "KRvK", rec.made[0].Summary.Table)
	sums, err := store.ReadChecksums(dir)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"KRvK.mtbm": data.Checksums()["KRvK.mtbm"]}, sums)
}

// A table without a reference checksum is checked value by value before
// it is accepted, and then marked verified in the catalogue; spoiled, it
// is rejected and the table accepted before stays; unchecked (Verify
// false), even a spoiled one is accepted: that is what the opt-out means.
func TestRunVerifiesATableWithoutReference(t *testing.T) {
	dir := t.TempDir()
	reference := data.ChecksumsV2() // version 2, the default
	delete(reference, "KRvK.mtbm")
	rec := &record{}
	r := &Runner{Dir: dir, Threads: 2, Reference: store.References{V2: reference}, Verify: true, Report: rec}
	require.NoError(t, r.Run(context.Background(), plan(t, "KRvK")))
	sum, err := store.FileSHA256(filepath.Join(dir, "KRvK.mtbm"))
	require.NoError(t, err)
	require.Equal(t, data.ChecksumsV2()["KRvK.mtbm"], sum)
	rows, err := store.ReadCatalogue(dir)
	require.NoError(t, err)
	require.True(t, rows["KRvK"].VerifiedAs(sum), "the check is recorded as a verification")
	require.Contains(t, rec.made[0].Timings.String(), "verify ")

	rec = &record{}
	r = &Runner{Dir: dir, Threads: 2, Reference: store.References{V2: reference}, Verify: true, Force: true, Report: rec, spoil: spoilWin}
	err = r.Run(context.Background(), plan(t, "KRvK"))
	require.EqualError(t, err, "1 table failed: KRvK")
	require.Len(t, rec.logged, 1)
	require.Contains(t, rec.logged[0], "makruktb: verify KRvK: 2 mismatches, first 8/8/8/8/8/8/R7/K1k5 w - - 0 1: stored win in 17 plies, successors give win in 15 plies; not accepted: the file is kept as "+filepath.Join(dir, "KRvK.mtbm.rejected"))
	got, err := store.FileSHA256(filepath.Join(dir, "KRvK.mtbm"))
	require.NoError(t, err)
	require.Equal(t, sum, got, "the table accepted before stays")

	require.NoError(t, os.Remove(filepath.Join(dir, "KRvK.mtbm")))
	require.NoError(t, os.Remove(filepath.Join(dir, store.ChecksumFile)))
	r = &Runner{Dir: dir, Threads: 2, Reference: store.References{V2: reference}, Verify: false, Report: &record{}, spoil: spoilWin}
	require.NoError(t, r.Run(context.Background(), plan(t, "KRvK")))
	require.FileExists(t, filepath.Join(dir, "KRvK.mtbm"))
}

// A DTB table that takes its draws from a wider profile's table lets that
// table go once the draws are marked, as one that reads them from the DTM
// table does: the heap while the passes run is the same in both, not a
// byte per index and side more.
func TestBoardLetsGoOfDraws(t *testing.T) {
	dir := t.TempDir()
	m := tb.MustParseMaterial("KRvKR")
	runner := &Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences()}
	require.NoError(t, runner.Run(context.Background(), mustPlan(t, []tb.Material{m}, []honour.Rules{honour.ThaiRules})))
	r := &Runner{Dir: dir, Threads: 1, cache: store.NewCache(dir, 0), dir: openDir(t, dir, store.RepositoryReferences())} // the cache keeps nothing

	heapWhileIterating := func(rules *honour.Rules) uint64 {
		var heap uint64
		opts := retro.Options{Threads: 1, Progress: func(p retro.Progress) {
			if p.Stage == retro.StageIterate && heap == 0 {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				heap = ms.HeapAlloc
			}
		}}
		j := Job{ID: probe.ID{Material: m, Rules: rules.Name}, Rules: rules}
		table, err := r.generateBoard(context.Background(), j, opts, false)
		require.NoError(t, err)
		table.Close()
		require.NotZero(t, heap, "no iterate pass was reported")
		return heap
	}
	fromDTM := heapWhileIterating(&honour.ThaiRules) // no wider profile: the DTM table's draws
	_, wider := r.widerBoardID(m, &honour.CambodianRules)
	require.True(t, wider, "the thai table gives the cambodian one its draws")
	fromThai := heapWhileIterating(&honour.CambodianRules)

	e, err := Job{ID: probe.DTMID(m)}.Estimate()
	require.NoError(t, err)
	tableBytes := 2 * e.Indices // the thai table held whole: a byte per index and side
	require.Less(t, fromThai, fromDTM+tableBytes/2, "heap %d B reading the thai draws, %d B reading the DTM ones", fromThai, fromDTM)
}

// The runner holds a table for its material's next tables only within
// half its memory: the table, those it holds and the next table's peak.
func TestMayHold(t *testing.T) {
	table := &retro.Table{Values: [2]*value.Array{value.NewArray(1000), value.NewArray(1000)}}
	r := &Runner{cache: store.NewCache(t.TempDir(), 0)}
	require.True(t, r.mayHold(table, 1<<40), "no limit")
	r.Memory = 10000
	require.True(t, r.mayHold(table, 3000))
	require.False(t, r.mayHold(table, 3001))
	r.cache.Hold(probe.DTMID(tb.MustParseMaterial("KRRvKN")), table)
	require.False(t, r.mayHold(table, 1001), "what it holds counts")
	require.True(t, r.mayHold(table, 1000))
}

// A DTB table's summary counts the same from the DTM table the runner
// holds as from its file, which a run with little memory to spare reads
// instead (mayHold).
func TestBoardCountsHeldOrRead(t *testing.T) {
	counts := func(memory int64) map[string]retro.CountStats {
		dir := t.TempDir()
		r := &Runner{Dir: dir, Threads: 2, Memory: memory, Reference: store.RepositoryReferences(), Profiles: []honour.Rules{honour.ThaiRules}}
		jobs := mustPlan(t, []tb.Material{tb.MustParseMaterial("KRvKN")}, r.Profiles)
		require.NoError(t, r.Run(context.Background(), jobs))
		got, err := store.LoadBoardCounts(dir, probe.ID{Material: tb.MustParseMaterial("KRvKN"), Rules: "thai"})
		require.NoError(t, err)
		require.NotNil(t, got)
		return got
	}
	held := counts(0)
	read := counts(6 << 20) // KRvKN takes about 4.2 MiB: made in memory, not held
	require.Equal(t, held, read)
	require.NotZero(t, held["w"].Win+held["b"].Win, "the counts count")
}

package cluster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}

// plannedKRvKN is the plan of KRvKN's tables (DTM, then thai DTB) with
// made-up estimates.
func plannedKRvKN() []Table {
	var tables []Table
	for _, m := range retro.Dependencies(tb.Makruk, tb.MustParseMaterial("KRvKN")) {
		tables = append(tables, Table{ID: probe.DTMID(m), Estimate: retro.Estimate{Memory: 100 << 20, Time: 10 * time.Minute}})
	}
	return append(tables, Table{ID: probe.ID{Material: tb.MustParseMaterial("KRvKN"), Rules: "thai"}, Estimate: retro.Estimate{Memory: 300 << 20, Time: 20 * time.Minute}})
}

func TestJobs(t *testing.T) {
	jobs := mustJobs(t, plannedKRvKN(), 4)
	var names []string
	for _, j := range jobs {
		names = append(names, j.Material.String())
	}
	require.Equal(t, []string{"KNvK", "KRvK", "KRvKN"}, names)
	last := jobs[2]
	require.Equal(t, []probe.ID{probe.DTMID(last.Material), {Material: last.Material, Rules: "thai"}}, last.Tables)
	require.ElementsMatch(t, []tb.Material{tb.MustParseMaterial("KRvK"), tb.MustParseMaterial("KNvK")}, last.After)
	require.Empty(t, jobs[0].After)
	// Memory: the larger table's with the margin; time: both, for 4 CPUs
	// instead of 2, with the margin.
	require.Equal(t, int64(300<<20)*5/4+512<<20, last.Memory)
	require.Equal(t, (10+20)*time.Minute/2*3, last.Time)
	require.Equal(t, minTime, mustJobs(t, plannedKRvKN(), 256)[0].Time)
}

func TestScript(t *testing.T) {
	jobs := mustJobs(t, plannedKRvKN(), 2)
	s := jobs[2].Script(ScriptOptions{Binary: "/opt/mtb/makruktb", Dir: "/shared/my tables", DTB: "thai", Partition: "long", Account: "chess", LogDir: "/shared/logs"}, []string{"11", "12"})
	for _, want := range []string{
		"#!/bin/sh\n",
		"#SBATCH --job-name=mtb-KRvKN\n",
		"#SBATCH --cpus-per-task=2\n",
		fmt.Sprintf("#SBATCH --mem=%dM\n", jobs[2].Memory>>20),
		"#SBATCH --time=90\n",
		"#SBATCH --output=/shared/logs/KRvKN-%j.log\n",
		"#SBATCH --partition=long\n",
		"#SBATCH --account=chess\n",
		"#SBATCH --dependency=afterok:11:12\n",
		"#SBATCH --kill-on-invalid-dep=yes\n",
		"exec /opt/mtb/makruktb gen --tables '/shared/my tables' --dtb thai --threads \"$SLURM_CPUS_PER_TASK\" --memory",
		" KRvKN\n",
	} {
		require.Contains(t, s, want)
	}
	require.NotContains(t, jobs[0].Script(ScriptOptions{}, nil), "--dependency")
	require.NotContains(t, s, "--scratch")
}

// A Shatranj material has a job of its own, named apart from the Makruk
// material of the same letters (KRvKN is in both games), whose gen is
// told the game and names the material in Shatranj's letters.
func TestShatranjJobs(t *testing.T) {
	g := tb.Shatranj
	target, err := g.ParseMaterial("KRQvKN")
	require.NoError(t, err)
	var tables []Table
	for _, m := range retro.Dependencies(g, target) {
		tables = append(tables, Table{ID: probe.ShatranjID(m), Estimate: retro.Estimate{Memory: 100 << 20, Time: 10 * time.Minute}})
	}
	jobs, err := Jobs(tables, 2, 0, func(m tb.Material) []tb.Material { return pipeline.Needs(g, m) })
	require.NoError(t, err)
	var keys []string
	for _, j := range jobs {
		require.Equal(t, g, j.Game)
		keys = append(keys, j.Key())
	}
	require.Equal(t, []string{"KNvKQ.shatranj", "KRvKN.shatranj", "KRQvKN.shatranj"}, keys)
	last := jobs[2]
	require.ElementsMatch(t, []tb.Material{jobs[0].Material, jobs[1].Material}, last.After)
	s := last.Script(ScriptOptions{Binary: "mtb", Dir: "/tb", DTB: "none", LogDir: "/logs"}, []string{"7"})
	for _, want := range []string{
		"#SBATCH --job-name=mtb-KRQvKN.shatranj\n",
		"#SBATCH --output=/logs/KRQvKN.shatranj-%j.log\n",
		fmt.Sprintf("--memory %dMiB --game shatranj KRQvKN\n", last.Memory>>20),
	} {
		require.Contains(t, s, want)
	}
	makruk := mustJobs(t, plannedKRvKN(), 2)[2]
	require.Equal(t, "mtb-KRvKN", makruk.Name())
	require.NotEqual(t, makruk.Name(), jobs[0].Name())
	require.NotContains(t, makruk.Script(ScriptOptions{}, nil), "--game")
}

func TestScriptScratch(t *testing.T) {
	job := mustJobs(t, plannedKRvKN(), 2)[2]
	for scratch, want := range map[string]string{
		"/local/scratch": " --scratch /local/scratch KRvKN\n",
		"/local/my tmp":  " --scratch '/local/my tmp' KRvKN\n",
		"$TMPDIR":        ` --scratch "${TMPDIR}" KRvKN` + "\n",
		"${SLURM_TMP_1}": ` --scratch "${SLURM_TMP_1}" KRvKN` + "\n",
		"/x/$TMPDIR/y'z": ` --scratch '/x/$TMPDIR/y'\''z' KRvKN` + "\n",
	} {
		require.NoError(t, CheckScratch(scratch), scratch)
		require.Contains(t, job.Script(ScriptOptions{Scratch: scratch}, nil), want, scratch)
	}
	// The format reaches gen; 0 leaves gen its default.
	require.Contains(t, job.Script(ScriptOptions{Format: 1}, nil), "MiB --format 1 KRvKN\n")
	require.NotContains(t, job.Script(ScriptOptions{}, nil), "--format")
	for _, bad := range []string{"scratch", "./tmp", "$", "${TMPDIR", "$1X", "$A-B", "${}"} {
		require.ErrorContains(t, CheckScratch(bad), "want an absolute path", bad)
	}
}

// fakeSlurm answers sbatch with increasing ids and squeue from states.
type fakeSlurm struct {
	next      int
	submitted []string // the scripts, in order
	states    map[string]string
}

func (f *fakeSlurm) slurm() *Slurm {
	return &Slurm{Run: func(ctx context.Context, name string, args ...string) ([]byte, error) {
		switch name {
		case "sbatch":
			script, err := os.ReadFile(args[len(args)-1])
			if err != nil {
				return nil, err
			}
			f.next++
			f.submitted = append(f.submitted, string(script))
			return []byte(fmt.Sprintf("%d\n", f.next)), nil
		case "squeue":
			var b strings.Builder
			for id, st := range f.states {
				fmt.Fprintf(&b, "%s %s\n", id, st)
			}
			return []byte(b.String()), nil
		}
		return nil, fmt.Errorf("%s: not in this test", name)
	}}
}

func copyTable(t *testing.T, from, to string, id probe.ID) {
	data, err := os.ReadFile(id.Path(from))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(id.Path(to), data, 0o666))
}

// Submit skips the materials done, keeps the jobs still queued (the
// others wait for them), resubmits the failed ones, and records each job.
func TestSubmitResumes(t *testing.T) {
	built := testenv.Tables(t, "KRvKN")
	dir := t.TempDir()
	fake := &fakeSlurm{states: map[string]string{}}
	var out bytes.Buffer
	s := &Submitter{Slurm: fake.slurm(), Dir: dir, Out: &out, Options: ScriptOptions{Binary: "makruktb", Dir: dir, DTB: "thai", LogDir: LogDir(dir)}}
	jobs := mustJobs(t, plannedKRvKN(), 2)
	require.NoError(t, s.Submit(context.Background(), jobs))
	require.Len(t, fake.submitted, 3)
	require.Contains(t, fake.submitted[2], "--dependency=afterok:1:2\n")
	records, err := ReadRecords(dir)
	require.NoError(t, err)
	require.Equal(t, "3", records["KRvKN"].ID)

	// KRvK is done, KNvK's job still queued, KRvKN's failed.
	copyTable(t, built, dir, probe.DTMID(tb.MustParseMaterial("KRvK")))
	fake.states["1"] = StatePending
	out.Reset()
	require.NoError(t, s.Submit(context.Background(), jobs))
	require.Len(t, fake.submitted, 4)
	require.Contains(t, fake.submitted[3], "--job-name=mtb-KRvKN\n")
	require.Contains(t, fake.submitted[3], "--dependency=afterok:1\n")
	require.Contains(t, out.String(), "KNvK         already PENDING as job 1")
	require.Contains(t, out.String(), "1 jobs submitted, 1 already queued or running, 1 materials done")

	statuses, err := Statuses(context.Background(), fake.slurm(), dir, jobs)
	require.NoError(t, err)
	var got []string
	for _, st := range statuses {
		got = append(got, st.Job.Material.String()+" "+st.State)
	}
	require.Equal(t, []string{"KNvK queued", "KRvK done", "KRvKN failed"}, got)
}

// A dry run prints the scripts and writes nothing; a present table whose
// checksum is not the reference stops the submit before anything is
// submitted.
func TestDryRunAndDamagedTable(t *testing.T) {
	built := testenv.Tables(t, "KRvKN")
	dir := filepath.Join(t.TempDir(), "tables")
	require.NoError(t, os.Mkdir(dir, 0o777))
	fake := &fakeSlurm{}
	var out bytes.Buffer
	s := &Submitter{Slurm: fake.slurm(), Dir: dir, Out: &out, DryRun: true, Options: ScriptOptions{Binary: "makruktb", Dir: dir, DTB: "thai", LogDir: LogDir(dir)}}
	jobs := mustJobs(t, plannedKRvKN(), 2)
	require.NoError(t, s.Submit(context.Background(), jobs))
	require.Empty(t, fake.submitted)
	require.Contains(t, out.String(), "--dependency=afterok:{KNvK}:{KRvK}")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries)

	krvk := probe.DTMID(tb.MustParseMaterial("KRvK"))
	copyTable(t, built, dir, krvk)
	data, err := os.ReadFile(krvk.Path(dir))
	require.NoError(t, err)
	data[len(data)-1] ^= 1
	require.NoError(t, os.WriteFile(krvk.Path(dir), data, 0o666))
	s.DryRun = false
	err = s.Submit(context.Background(), jobs)
	require.ErrorContains(t, err, krvk.Path(dir))
	require.ErrorContains(t, err, "delete the file")
	require.Empty(t, fake.submitted)

	// A sound file whose record says another SHA-256: the record is what
	// submit reads (verify reads the bytes).
	copyTable(t, built, dir, krvk)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(strings.Repeat("0", 64)+"  KRvK.mtbm\n"), 0o666))
	err = s.Submit(context.Background(), jobs)
	require.ErrorContains(t, err, "SHA-256 "+strings.Repeat("0", 64))
	require.Empty(t, fake.submitted)
}

// mustJobs plans the jobs of tables with no node memory limit.
func mustJobs(t *testing.T, tables []Table, cpus int) []Job {
	t.Helper()
	jobs, err := Jobs(tables, cpus, 0, func(m tb.Material) []tb.Material { return pipeline.Needs(tb.Makruk, m) })
	require.NoError(t, err)
	return jobs
}

// With a node memory limit, a table too large for it is asked for out of
// core, and one too large even then is refused.
func TestJobsOutOfCore(t *testing.T) {
	m := tb.MustParseMaterial("KSNvKSN")
	e, err := retro.EstimateTable(tb.Makruk, m, false)
	require.NoError(t, err)
	tables := []Table{{ID: probe.DTMID(m), Estimate: e}}
	jobs, err := Jobs(tables, 2, 8<<30, func(tb.Material) []tb.Material { return nil })
	require.NoError(t, err)
	require.Equal(t, request(e.OutOfCoreMemory), jobs[0].Memory)
	require.Equal(t, (e.OutOfCoreTime * timeFactor).Round(time.Minute), jobs[0].Time)
	jobs, err = Jobs(tables, 2, 0, func(tb.Material) []tb.Material { return nil })
	require.NoError(t, err)
	require.Equal(t, request(e.Memory), jobs[0].Memory)
	_, err = Jobs(tables, 2, 1<<30, func(tb.Material) []tb.Material { return nil })
	require.ErrorContains(t, err, "KSNvKSN needs 5978 MiB even out of core, more than --node-memory")
}

// A job that writes its material's WDL files asks for what their default
// format's writer takes when the node has it; where it does not, it asks
// for its tables only, and gen writes format 2 within that.
func TestJobsWDLMemory(t *testing.T) {
	m := tb.MustParseMaterial("KRRvKN")
	e, err := retro.EstimateTable(tb.Makruk, m, false)
	require.NoError(t, err)
	wdl, err := pipeline.WDLMemory(tb.Makruk, m, pipeline.DefaultWDLVersion(m))
	require.NoError(t, err)
	require.Greater(t, wdl, e.Memory)
	tables := []Table{{ID: probe.DTMID(m), Estimate: e, WDL: wdl}}
	none := func(tb.Material) []tb.Material { return nil }
	for _, node := range []int64{0, 64 << 30} {
		jobs, err := Jobs(tables, 2, node, none)
		require.NoError(t, err)
		require.Equal(t, request(wdl), jobs[0].Memory, "node memory %d", node)
	}
	jobs, err := Jobs(tables, 2, request(wdl)-1, none)
	require.NoError(t, err)
	require.Equal(t, request(e.Memory), jobs[0].Memory)
	tables[0].WDL = 0 // --dtb none: no WDL file
	jobs, err = Jobs(tables, 2, 0, none)
	require.NoError(t, err)
	require.Equal(t, request(e.Memory), jobs[0].Memory)
}

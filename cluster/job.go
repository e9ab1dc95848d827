// Package cluster generates tables on a Slurm cluster: one batch job per
// material (its DTM table and its DTB tables), submitted in dependency
// order with sbatch --dependency=afterok, its resources taken from the
// generator's estimates, each running makruktb gen on a directory every
// node shares.
//
// A shared directory is safe for many jobs at once: a table appears only
// by an atomic rename of a complete file (package atomicfile), so a job
// that fails or is cancelled leaves at most a temporary file that no
// reader takes for a table; and the directory's lists (SHA256SUMS, the
// catalogue) are edited under the directory's flock(2) lock
// (store.Lock), which Linux's NFS client turns into a POSIX lock held by
// the server, so that it excludes writers on every node (NFSv4, or NFSv3
// with the lock manager; a mount with -o nolock or local_lock=all would
// only lock within each node).
package cluster

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
)

// Table is a table to generate and its estimate.
type Table struct {
	ID       probe.ID
	Estimate retro.Estimate
	// WDL is the peak while the job writes its material's WDL files in
	// their default format (pipeline.WDLMemory), 0 when it writes none.
	WDL int64
}

// Job is the batch job of one material: its tables, the materials whose
// jobs must succeed first, and the resources to ask for.
type Job struct {
	Material tb.Material
	Game     tb.Game // the zero value: Makruk
	Tables   []probe.ID
	After    []tb.Material
	CPUs     int
	Memory   int64 // bytes
	Time     time.Duration
}

// Key names the job's material in the record of jobs, its script and its
// log: "KRvKN", or "KRvKQ.shatranj" for a Shatranj material (a material
// such as KRvKN is in both games).
func (j *Job) Key() string { return probe.ID{Material: j.Material, Game: j.Game}.String() }

// Name is the job's name in Slurm: "mtb-KRvKN", "mtb-KRvKQ.shatranj".
func (j *Job) Name() string { return "mtb-" + j.Key() }

// Resource margins over the generator's estimates: memory is within 5% of
// the measured peak, time within a factor of two or three.
const (
	memoryFactor = 1.25
	memoryExtra  = 512 << 20
	timeFactor   = 3
	minTime      = 10 * time.Minute
)

// Jobs groups tables (in generation order) into one job per material, in
// the order of each material's first table, each asking for cpus CPUs.
// A job waits for the jobs of the other materials its tables read
// (deps(m): every material whose tables m's need, itself excluded). With
// nodeMemory above 0, a table that would ask for more in memory is made
// out of core (gen does so within the job's --memory), asking for its
// out-of-core memory and time; one that asks for more even then is an
// error.
func Jobs(tables []Table, cpus int, nodeMemory int64, deps func(tb.Material) []tb.Material) ([]Job, error) {
	var jobs []Job
	index := map[tb.Material]int{}
	for _, t := range tables {
		m := t.ID.Material
		i, ok := index[m]
		if !ok {
			i = len(jobs)
			index[m] = i
			jobs = append(jobs, Job{Material: m, Game: t.ID.Game, CPUs: cpus})
		}
		j := &jobs[i]
		j.Tables = append(j.Tables, t.ID)
		memory, took := request(t.Estimate.Memory), t.Estimate.Time
		if nodeMemory > 0 && memory > nodeMemory {
			memory, took = request(t.Estimate.OutOfCoreMemory), t.Estimate.OutOfCoreTime
			if memory > nodeMemory {
				return nil, fmt.Errorf("%s needs %d MiB even out of core, more than --node-memory", t.ID, memory>>20)
			}
		}
		j.Memory = max(j.Memory, memory)
		// The WDL files, at the end of the job: gen writes them in their
		// default format where its --memory (the job's) allows that, and
		// in format 2 otherwise, as it does where the node cannot give it.
		if wdl := request(t.WDL); t.WDL > 0 && (nodeMemory == 0 || wdl <= nodeMemory) {
			j.Memory = max(j.Memory, wdl)
		}
		// Estimates are for two cores.
		j.Time += took * 2 / time.Duration(cpus) * timeFactor
	}
	for i := range jobs {
		jobs[i].Time = max(jobs[i].Time, minTime).Round(time.Minute)
		for _, d := range deps(jobs[i].Material) {
			if _, planned := index[d]; planned && d != jobs[i].Material {
				jobs[i].After = append(jobs[i].After, d)
			}
		}
	}
	return jobs, nil
}

// request is the memory a job asks for a table estimated at estimate.
func request(estimate int64) int64 { return int64(float64(estimate)*memoryFactor) + memoryExtra }

// ScriptOptions are what every job script shares.
type ScriptOptions struct {
	Binary    string // the makruktb binary, on the shared file system
	Dir       string // the shared table directory (absolute)
	DTB       string // the --dtb list
	Format    int    // gen's --format (0: gen's default)
	Partition string
	Account   string
	LogDir    string // where Slurm writes each job's output
	// Scratch is gen's --scratch in every job: where a table made out of
	// core keeps its state, best a disk local to the node ("": the shared
	// table directory). "$NAME" or "${NAME}" is the job's environment
	// variable, such as a per-job $TMPDIR.
	Scratch string
}

// Script returns the job's batch script; dependsOn lists the Slurm job ids
// it must wait for (afterok; a failed one cancels it).
func (j *Job) Script(o ScriptOptions, dependsOn []string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", j.Name())
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", j.CPUs)
	fmt.Fprintf(&b, "#SBATCH --mem=%dM\n", (j.Memory+(1<<20)-1)>>20)
	fmt.Fprintf(&b, "#SBATCH --time=%d\n", int(j.Time.Minutes()))
	fmt.Fprintf(&b, "#SBATCH --output=%s/%s-%%j.log\n", o.LogDir, j.Key())
	if o.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", o.Partition)
	}
	if o.Account != "" {
		fmt.Fprintf(&b, "#SBATCH --account=%s\n", o.Account)
	}
	if len(dependsOn) > 0 {
		fmt.Fprintf(&b, "#SBATCH --dependency=afterok:%s\n", strings.Join(dependsOn, ":"))
		b.WriteString("#SBATCH --kill-on-invalid-dep=yes\n")
	}
	var names []string
	for _, id := range j.Tables {
		names = append(names, id.String())
	}
	fmt.Fprintf(&b, "# %s: %s\n", j.Key(), strings.Join(names, " "))
	flags := ""
	if j.Game != tb.Makruk {
		flags = " --game " + j.Game.String()
	}
	if o.Scratch != "" {
		flags += " --scratch " + scratchWord(o.Scratch)
	}
	if o.Format != 0 {
		flags += fmt.Sprintf(" --format %d", o.Format)
	}
	fmt.Fprintf(&b, "exec %s gen --tables %s --dtb %s --threads \"$SLURM_CPUS_PER_TASK\" --memory %dMiB%s %s\n",
		shellQuote(o.Binary), shellQuote(o.Dir), shellQuote(o.DTB), j.Memory>>20, flags, j.Game.MaterialName(j.Material))
	return b.String()
}

// CheckScratch checks a ScriptOptions.Scratch: an absolute path (a job's
// working directory is not the submitter's) or an environment variable.
func CheckScratch(dir string) error {
	if dir == "" || filepath.IsAbs(dir) {
		return nil
	}
	if _, ok := variableName(dir); ok {
		return nil
	}
	return fmt.Errorf("--scratch %q: want an absolute path, or a variable of the job such as '$TMPDIR'", dir)
}

// scratchWord is the --scratch argument for sh: an environment variable
// ("$TMPDIR", "${TMPDIR}") expanded in the job, anything else quoted.
func scratchWord(dir string) string {
	if name, ok := variableName(dir); ok {
		return `"${` + name + `}"`
	}
	return shellQuote(dir)
}

// variableName returns NAME for "$NAME" or "${NAME}".
func variableName(s string) (string, bool) {
	name, ok := strings.CutPrefix(s, "$")
	if !ok {
		return "", false
	}
	if inner, braced := strings.CutPrefix(name, "{"); braced {
		if name, ok = strings.CutSuffix(inner, "}"); !ok {
			return "", false
		}
	}
	valid := name != "" && !(name[0] >= '0' && name[0] <= '9') && strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}) < 0
	return name, valid
}

// shellQuote quotes s for sh when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-,+=:", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

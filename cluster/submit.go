package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
)

// StateDir is where, inside the table directory, submit keeps its record
// of the jobs (jobs.json), their scripts and their logs.
const StateDir = ".cluster"

// Record is a submitted job.
type Record struct {
	ID        string    `json:"id"`
	Submitted time.Time `json:"submitted"`
}

// Records maps a material's name (Job.Key) to its last job.
type Records map[string]Record

func recordsPath(dir string) string { return filepath.Join(dir, StateDir, "jobs.json") }

// ReadRecords reads the jobs submit recorded in dir (none yet: empty).
func ReadRecords(dir string) (Records, error) {
	data, err := os.ReadFile(recordsPath(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return Records{}, nil
	}
	if err != nil {
		return nil, err
	}
	r := Records{}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", recordsPath(dir), err)
	}
	return r, nil
}

func writeRecords(dir string, r Records) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(recordsPath(dir), append(data, '\n'))
}

// tablesDone reports whether every table of j is in dir, complete.
func tablesDone(dir *store.Dir, j *Job) bool {
	for _, id := range j.Tables {
		if !dir.Has(id) {
			return false
		}
	}
	return true
}

// checkValid fails for a table of j present in dir whose SHA-256 is not
// the reference's (of version 1 or 2, whichever the file is): a job would
// keep it. The SHA-256 is the one the
// directory's SHA256SUMS recorded when the table was made; a table with
// no record (a job stopped between the rename and the record) is read.
// (Whether the bytes still match the record is verify's question: reading
// terabytes at every submit would not do.)
func checkValid(dir *store.Dir, j *Job, recorded map[string]string) error {
	for _, id := range j.Tables {
		if !dir.Has(id) {
			continue
		}
		name, path := id.FileName(), id.Path(dir.Path())
		sum, ok := recorded[name]
		if !ok {
			var err error
			if sum, err = store.FileSHA256(path); err != nil {
				return err
			}
		}
		v1, _, ok1 := dir.ReferenceOf(name, probe.Version)
		v2, _, ok2 := dir.ReferenceOf(name, probe.Version2)
		switch {
		case !ok1 && !ok2, sum == v1, sum == v2:
		case !ok2:
			return fmt.Errorf("%s: SHA-256 %s, expected %s: delete the file and submit again", path, sum, v1)
		default:
			return fmt.Errorf("%s: SHA-256 %s, expected %s (version 1) or %s (version 2): delete the file and submit again", path, sum, v1, v2)
		}
	}
	return nil
}

// Submitter submits the jobs of a plan.
type Submitter struct {
	Slurm   *Slurm
	Dir     string // absolute
	Options ScriptOptions
	DryRun  bool      // print the scripts, submit nothing
	Out     io.Writer // a line per job
}

// Submit submits, in order, the job of every material whose tables are
// not all in the directory, unless a job of its is still queued or
// running; each waits (afterok) for the jobs of the materials it needs
// that are not done. It records every job as soon as it is submitted.
func (s *Submitter) Submit(ctx context.Context, jobs []Job) error {
	recorded, err := store.ReadChecksums(s.Dir)
	if err != nil {
		return err
	}
	dir, err := store.OpenDir(s.Dir)
	if err != nil {
		return err
	}
	for i := range jobs {
		if err := checkValid(dir, &jobs[i], recorded); err != nil {
			return err
		}
	}
	if !s.DryRun {
		// One submit at a time edits the record.
		unlock, err := store.Lock(s.Dir)
		if err != nil {
			return err
		}
		defer unlock()
	}
	records, err := ReadRecords(s.Dir)
	if err != nil {
		return err
	}
	states := map[string]string{}
	if !s.DryRun {
		for _, d := range []string{filepath.Join(s.Dir, StateDir, "scripts"), s.Options.LogDir} {
			if err := os.MkdirAll(d, 0o777); err != nil {
				return err
			}
		}
		var ids []string
		for _, r := range records {
			ids = append(ids, r.ID)
		}
		if states, err = s.Slurm.States(ctx, ids); err != nil {
			return err
		}
	}
	width := 12 // of the names in the lines printed
	for i := range jobs {
		width = max(width, len(jobs[i].Key()))
	}
	waitFor := map[tb.Material]string{} // the job of a material not done yet
	submitted, queued, done := 0, 0, 0
	for i := range jobs {
		j := &jobs[i]
		name := j.Key()
		if tablesDone(dir, j) {
			done++
			continue
		}
		if r, ok := records[name]; ok && Active(states[r.ID]) {
			waitFor[j.Material] = r.ID
			queued++
			fmt.Fprintf(s.Out, "%-*s already %s as job %s\n", width, name, states[r.ID], r.ID)
			continue
		}
		var deps []string
		for _, d := range j.After {
			if id, ok := waitFor[d]; ok {
				deps = append(deps, id)
			}
		}
		script := j.Script(s.Options, deps)
		path := filepath.Join(s.Dir, StateDir, "scripts", name+".sh")
		if s.DryRun {
			waitFor[j.Material] = "{" + name + "}"
			fmt.Fprintf(s.Out, "# %s\n%s\n", path, script)
			submitted++
			continue
		}
		if err := atomicfile.WriteBytes(path, []byte(script)); err != nil {
			return err
		}
		id, err := s.Slurm.Submit(ctx, path)
		if err != nil {
			return fmt.Errorf("submit %s: %w", name, err)
		}
		records[name] = Record{ID: id, Submitted: time.Now().UTC()}
		if err := writeRecords(s.Dir, records); err != nil {
			return err
		}
		waitFor[j.Material] = id
		submitted++
		fmt.Fprintf(s.Out, "%-*s submitted as job %s (%d CPUs, %d MiB, %v)%s\n", width, name, id, j.CPUs, j.Memory>>20, j.Time, afterText(deps))
	}
	verb := "submitted"
	if s.DryRun {
		verb = "to submit (dry run)"
	}
	fmt.Fprintf(s.Out, "%d jobs %s, %d already queued or running, %d materials done\n", submitted, verb, queued, done)
	return nil
}

func afterText(deps []string) string {
	if len(deps) == 0 {
		return ""
	}
	return fmt.Sprintf(" after %d jobs", len(deps))
}

// Status is the state of one material's job.
type Status struct {
	Job   *Job
	State string // done, queued, running, failed, not submitted
	ID    string // the last job's id, if any
	Slurm string // its state in Slurm
	Log   string // its output file, if any
}

// The states Statuses reports.
const (
	Done         = "done"
	Queued       = "queued"
	Running      = "running"
	Failed       = "failed"
	NotSubmitted = "not submitted"
)

// Statuses says, for every job, whether its tables are done (and its job
// ended), its job queued or running, failed (ended without its tables)
// or not submitted.
func Statuses(ctx context.Context, sl *Slurm, dir string, jobs []Job) ([]Status, error) {
	records, err := ReadRecords(dir)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, r := range records {
		ids = append(ids, r.ID)
	}
	states, err := sl.States(ctx, ids)
	if err != nil {
		return nil, err
	}
	tables, err := store.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Status, len(jobs))
	for i := range jobs {
		j := &jobs[i]
		st := Status{Job: j, State: NotSubmitted}
		if r, ok := records[j.Key()]; ok {
			st.ID, st.Slurm = r.ID, states[r.ID]
			st.Log = filepath.Join(dir, StateDir, "logs", fmt.Sprintf("%s-%s.log", j.Key(), r.ID))
			switch {
			case st.Slurm == StateRunning:
				st.State = Running
			case Active(st.Slurm):
				st.State = Queued
			default:
				st.State = Failed
			}
		}
		if st.State != Running && st.State != Queued && tablesDone(tables, j) {
			st.State = Done // a job still running may not have finished its records
		}
		out[i] = st
	}
	return out, nil
}

// LogDir is where the jobs' output goes, inside dir.
func LogDir(dir string) string { return filepath.Join(dir, StateDir, "logs") }

// WaitStatuses polls the statuses until no job is queued or running, or
// wait has passed (0: look once).
func WaitStatuses(ctx context.Context, sl *Slurm, dir string, jobs []Job, wait time.Duration) ([]Status, error) {
	deadline := time.Now().Add(wait)
	for {
		statuses, err := Statuses(ctx, sl, dir, jobs)
		if err != nil {
			return nil, err
		}
		active := false
		for _, s := range statuses {
			active = active || s.State == Queued || s.State == Running
		}
		if !active || !time.Now().Before(deadline) {
			return statuses, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

// PrintStatuses writes a line per material and a summary, and returns the
// number of materials not done.
func PrintStatuses(w io.Writer, statuses []Status) int {
	width := 12
	for _, s := range statuses {
		width = max(width, len(s.Job.Key()))
	}
	counts := map[string]int{}
	for _, s := range statuses {
		counts[s.State]++
		line := fmt.Sprintf("%-*s %-13s", width, s.Job.Key(), s.State)
		if s.ID != "" {
			line += fmt.Sprintf(" job %s (%s)", s.ID, s.Slurm)
		}
		if s.State == Failed {
			line += " log " + s.Log
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "%s: %d done, %d running, %d queued, %d failed, %d not submitted\n", units.Plural(len(statuses), "material", "materials"),
		counts[Done], counts[Running], counts[Queued], counts[Failed], counts[NotSubmitted])
	return len(statuses) - counts[Done]
}

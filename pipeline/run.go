package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/internal/sysinfo"
	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// Reporter hears what a Runner or a Verifier does, as it happens. The
// command line prints it; a nil Reporter hears nothing.
type Reporter interface {
	// Start says that the passes of the tables named begin; Progress
	// reports them (concurrently, from the workers) until Stop.
	Start(name string)
	Progress(p retro.Progress)
	Stop()
	// Print says what became of a table; Log makes a remark on the side
	// (a checkpoint saved, a table that failed while the run goes on).
	Print(line string)
	Log(line string)
	// Made reports a table generated and accepted.
	Made(r Result)
}

// Result is one table generated: its summary (the catalogue row) and how
// long each stage took.
type Result struct {
	Job     Job
	Summary Summary
	Timings *Timings
}

// Runner generates planned tables into a table directory: each table is
// solved, written, accepted (accept), its checksum recorded and its row
// put in the directory's catalogue. Tables already present are kept, so a
// run that was interrupted continues with what is missing.
type Runner struct {
	Dir     string
	Scratch string // where a table out of core keeps its state (default Dir)
	Memory  int64  // a table that needs more is generated out of core (0: no limit)
	// AllOutOfCore generates every table out of core, whatever its size.
	AllOutOfCore bool
	Threads      int
	Force        bool // regenerate the targets even if present
	// Verify checks the values of a table without a reference checksum
	// against their successors before accepting it.
	Verify bool
	// CheckpointEvery is the least time between two saves of a table's
	// state (0: never).
	CheckpointEvery time.Duration
	// Reference holds the SHA-256 each file must have, by format version
	// and file name (RepositoryReferences for the repository's).
	Reference store.References
	// Format is the format version of the tables written (probe.Options):
	// 2 (one side to move stored; also when 0, see DefaultFormat) or 1
	// (both sides). A table made out of core is written in version 1
	// whatever Format says (formatOf).
	Format int
	Report Reporter
	// WDL makes, once the tables are made, the WDL file of every material
	// run under every profile of Profiles and of the run's DTB tables
	// (WriteWDL).
	WDL bool
	// WDLVersion is the format of the WDL files written (see
	// WDLWriter.Version).
	WDLVersion int
	// Profiles are the rule profiles of the run: those of its DTB jobs,
	// and the ones a material without DTB tables (a bare king) gets its
	// WDL files under.
	Profiles []honour.Rules

	dir   *store.Dir // the directory as listed when the run began, kept as it accepts files
	cache *store.Cache
	// spoil, set by tests, sees every table solved before it is written,
	// as a faulty generator would.
	spoil func(*retro.Table)
}

// DefaultFormat is the format version a Runner writes when its Format is
// 0: version 2, about a third of version 1's size.
const DefaultFormat = probe.Version2

// formatOf returns the format version a table is written in: the run's,
// but version 1 for a table made out of core. Such a table is too large
// to hold whole in memory, and its readers out of core — the DTB tables
// of its material (draws) and verify — read it a king pair at a time,
// both sides to move, which only a version-1 file gives without deriving
// one side from the other in memory. convert --format 2 rewrites it
// where memory allows.
func (r *Runner) formatOf(outOfCore bool) int {
	switch {
	case outOfCore:
		return probe.Version
	case r.Format == 0:
		return DefaultFormat
	}
	return r.Format
}

// holdBelow bounds the pieces of a table the runner holds in memory, once
// written in version 2, for its material's next tables: the DTM table for
// the DTB tables' draws and count-draw summaries, the thai DTB table for
// the cambodian one's draws. Read from the file, each would derive its
// side not stored again (KRRvKN: about 20 CPU-seconds each, against 18
// for the whole generation of its DTM table). A five-piece table takes at
// most 1.4 GB; a six-piece one, up to 16 GB, is let go as the memory plan
// assumes, and derived again.
const holdBelow = 6

// mayHold reports whether the runner may hold table besides the tables it
// holds, when a table of the same material, which takes about peak bytes
// in memory, is made next. The memory plan (--memory, a cluster job's
// memory) counts each table alone, and the heap runs above what is live
// (the collector's goal, the WDL files' copies), so the runner holds only
// within half of --memory: a run with little to spare derives instead,
// slower but within its memory. KRRvKN's run, holding two tables, peaked
// at 674 MiB with version-2 WDL files (its tables' cluster request: 680
// MiB), 1.6–1.7 GiB with version 3's (the request with their writer,
// cluster.Table.WDL: 1 889 MiB).
func (r *Runner) mayHold(table *retro.Table, peak int64) bool {
	if r.Memory == 0 {
		return true
	}
	held := r.cache.HeldBytes() + int64(table.Values[0].Len()+table.Values[1].Len())
	return held+peak <= r.Memory/2
}

// Run generates the jobs in order. A table that fails is reported and
// the run goes on (tables that do not need it can still be made); the
// error then names every table that failed.
func (r *Runner) Run(ctx context.Context, jobs []Job) error {
	if r.Report == nil {
		r.Report = quiet{}
	}
	if r.Scratch == "" {
		r.Scratch = r.Dir
	}
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return err
	}
	if err := RemoveStale(r.Report, r.Dir, filepath.Join(r.Dir, store.StatsDir), r.Scratch); err != nil {
		return err
	}
	dir, err := store.OpenDir(r.Dir)
	if err != nil {
		return err
	}
	dir.Reference, r.dir = r.Reference, dir
	// The directory records the custom profiles its files are made under
	// (store.RecordProfile), before any file of theirs is written.
	for i := range r.Profiles {
		if err := store.RecordProfile(r.Dir, &r.Profiles[i]); err != nil {
			return err
		}
	}
	for _, j := range jobs {
		if j.Rules != nil {
			if err := store.RecordProfile(r.Dir, j.Rules); err != nil {
				return err
			}
		}
	}
	// The value arrays are most of the heap and hold no pointers: collect
	// garbage early rather than let the heap double past them.
	debug.SetGCPercent(20)
	r.cache = store.NewCacheContext(ctx, r.Dir, 5)
	var wdl *wdlPlan
	if r.WDL {
		wdl = r.planWDL(ctx, jobs)
	}
	var failed []string
	failedMaterial := map[tb.Material]bool{}
	kept := 0
	for n, j := range jobs {
		made, fatal, err := r.runJob(ctx, j)
		if fatal != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted before %s; a rerun keeps the tables made and starts there", j.ID)
			}
			return fatal
		}
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted during %s; %s", j.ID, r.rerunText(j))
			}
			r.Report.Log("makruktb: " + err.Error())
			failed = append(failed, j.ID.String())
			failedMaterial[j.ID.Material] = true
		}
		if !made && err == nil {
			kept++
		}
		// A material's WDL files as soon as its tables are made, while
		// the runner still holds them.
		if m := j.ID.Material; wdl != nil && wdl.last[m] == n && !failedMaterial[m] {
			if err := r.writeWDLOf(ctx, wdl, m); err != nil {
				return err
			}
		}
	}
	r.cache.Release()
	if len(failed) > 0 {
		return fmt.Errorf("%s failed: %s", units.Plural(len(failed), "table", "tables"), strings.Join(failed, " "))
	}
	switch {
	case kept == len(jobs):
		r.Report.Print(fmt.Sprintf("%s already in %s: nothing to do (--force regenerates the named ones)", units.Plural(kept, "table", "tables"), r.Dir))
	case kept > 0:
		r.Report.Print(fmt.Sprintf("%s generated; %s already in %s kept", units.Plural(len(jobs)-kept, "table", "tables"), units.Plural(kept, "table", "tables"), r.Dir))
	default:
		r.Report.Print(fmt.Sprintf("%s generated in %s", units.Plural(len(jobs), "table", "tables"), r.Dir))
	}
	return nil
}

// runJob makes j's table unless it is present, holding the table's lock
// (store.LockTable) meanwhile: a run that is making it is waited for. It
// reports whether it made the table; err is the table's failure, fatal
// one that stops the run.
func (r *Runner) runJob(ctx context.Context, j Job) (made bool, fatal, err error) {
	waited := false
	unlock, fatal := store.LockTable(ctx, r.Dir, j.ID.FileName(), func(holder string) {
		waited = true
		r.Report.Log(fmt.Sprintf("%-27s another run is making it (%s): waiting for it", j.ID, holder))
	})
	if fatal != nil {
		return false, fatal, nil
	}
	defer unlock()
	if waited {
		r.dir.Look(j.ID.FileName()) // what the other run made
	}
	if !(r.Force && j.Target) && r.dir.Has(j.ID) {
		// A table asked for by name is made anew when its file no longer
		// has the checksum the directory records for it (damaged).
		if j.Target {
			damaged, err := r.damaged(j.ID)
			if err != nil {
				return false, err, nil
			}
			if damaged != "" {
				r.Report.Print(fmt.Sprintf("%-27s damaged (%s): generating it anew", j.ID, damaged))
				err = r.generate(ctx, j)
				debug.FreeOSMemory()
				return true, nil, err
			}
		}
		// A run stopped between writing a table and recording its
		// checksum leaves a complete file without one.
		version, _ := r.dir.Version(j.ID)
		reference, _ := r.Reference.Of(version)
		recorded, err := store.EnsureChecksum(r.Dir, j.ID, reference)
		if err != nil {
			return false, err, nil
		}
		if recorded {
			r.Report.Print(fmt.Sprintf("%-27s present but not in %s (a run stopped before recording it, or the directory predates it): recorded it", j.ID, store.ChecksumFile))
		}
		return false, nil, nil
	}
	err = r.generate(ctx, j)
	// The table's arrays are garbage now, but the collector's goal is
	// still a fifth above them: left to it, the next table would allocate
	// that much before they went (KSSvKMM's DTM and DTB run peaked at
	// 22.45 GiB, against 16.44 GiB for each table alone).
	debug.FreeOSMemory()
	return true, nil, err
}

// checkpointPath is where j's generation saves its state.
func (r *Runner) checkpointPath(j Job) string {
	return filepath.Join(r.Scratch, j.ID.String()+store.CheckpointSuffix)
}

// rerunText says what a rerun does with j, interrupted: resume it from
// the checkpoint it saved, or start it afresh.
func (r *Runner) rerunText(j Job) string {
	if path := r.checkpointPath(j); r.CheckpointEvery > 0 {
		if _, err := os.Stat(path); err == nil {
			return "a rerun resumes it from its checkpoint " + path
		}
	}
	return "a rerun keeps the tables made and starts it afresh (no checkpoint of it was saved: --checkpoint sets how often)"
}

// damaged says how the file of id differs from the checksum the directory
// records for it ("" when it does not, or none is recorded).
func (r *Runner) damaged(id probe.ID) (string, error) {
	sums, err := store.ReadChecksums(r.Dir)
	if err != nil {
		return "", err
	}
	recorded, ok := sums[id.FileName()]
	if !ok {
		return "", nil
	}
	sum, err := store.FileSHA256(id.Path(r.Dir))
	if err != nil || sum == recorded {
		return "", err
	}
	return fmt.Sprintf("SHA-256 %.12s…, %s records %.12s…", sum, store.ChecksumFile, recorded), nil
}

// generate makes one table, in named phases: solve it (in memory or out of
// core, from its checkpoint if one was saved), write it under its pending
// name, accept it (store.Dir.Accept: reference or verification, checksum
// recorded), keep it for its material's next tables, and record its row
// in the catalogue.
func (r *Runner) generate(ctx context.Context, j Job) (err error) {
	start := time.Now()
	r.cache.ReleaseOthers(j.ID.Material) // the tables held for the next of their material's (holdBelow)
	clock := &Timings{}
	opts := retro.Options{Threads: r.Threads, Game: j.ID.Game, Progress: func(p retro.Progress) {
		clock.enter(string(p.Stage))
		r.Report.Progress(p)
	}}
	e, err := j.Estimate()
	if err != nil {
		return err
	}
	spill, err := j.OutOfCore(e, r.Memory)
	if err != nil {
		return err
	}
	spill = spill || r.AllOutOfCore
	if spill {
		opts.Scratch = r.Scratch
		r.Report.Print(fmt.Sprintf("%-27s out of core: about %s of memory and %s of scratch in %s (in memory it would take %s)",
			j.ID, units.Bytes(e.OutOfCoreMemory), units.Bytes(e.Scratch), r.Scratch, units.Bytes(e.Memory)))
		if read, written, ok := sysinfo.DiskIO(); ok {
			defer func() {
				if rd, wr, ok := sysinfo.DiskIO(); ok && err == nil {
					r.Report.Print(fmt.Sprintf("%-27s out of core: %s read from disk, %s written", j.ID, units.Bytes(rd-read), units.Bytes(wr-written)))
				}
			}()
		}
	}
	if opts.Checkpoint, err = r.checkpoint(j, e.Indices); err != nil {
		return err
	}
	table, err := r.solve(ctx, j, opts, spill, clock)
	if err != nil {
		return err
	}
	defer table.Close() // out of core: its scratch files go
	format, replacing, err := r.write(j, table, spill, clock)
	if err != nil {
		return err
	}
	sum, verified, err := r.accept(ctx, j, table, format, replacing, clock)
	if err != nil {
		return err
	}
	if c := opts.Checkpoint; c != nil {
		if err := os.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	r.keep(j, table, format, e)
	return r.record(ctx, j, table, sum, verified, time.Since(start), clock)
}

// solve solves j's table, saving its state to opts.Checkpoint as it goes
// when checkpoints are on, and reports its passes.
func (r *Runner) solve(ctx context.Context, j Job, opts retro.Options, spill bool, clock *Timings) (*retro.Table, error) {
	var err error
	if c := opts.Checkpoint; c != nil {
		c.Saved = func(depth int, size int64, took time.Duration) {
			r.Report.Log(fmt.Sprintf("%-27s saved after pass %d to %s (%s, %.1fs)", j.ID, depth, c.Path, units.Bytes(size), took.Seconds()))
		}
	}
	r.Report.Start(j.ID.String())
	defer r.Report.Stop()
	clock.enter("load") // the sub-tables; the generator's progress starts the next stage
	var table *retro.Table
	if j.Rules == nil {
		table, err = retro.Generate(ctx, j.ID.Material, r.cache.DTMOf(j.ID.Game), opts)
	} else {
		r.cache.AddRules(j.Rules) // a custom profile's sub-tables may need deriving
		table, err = r.generateBoard(ctx, j, opts, spill)
	}
	if err != nil {
		return nil, err // retro's errors name the table
	}
	if r.spoil != nil {
		r.spoil(table)
	}
	return table, nil
}

// write writes j's table under its pending name in the run's format
// (formatOf), and says whether it replaces a file of the other version.
func (r *Runner) write(j Job, table *retro.Table, spill bool, clock *Timings) (format int, replacing bool, err error) {
	clock.enter("write")
	format = r.formatOf(spill)
	if format != probe.Version2 && r.formatOf(false) == probe.Version2 {
		r.Report.Print(fmt.Sprintf("%-27s written in version 1, as every table made out of core is: its readers out of core need both sides to move (convert --format 2 rewrites it where memory allows)", j.ID))
	}
	o := probe.Options{Version: format, Metric: j.ID.Metric(), Rules: j.ID.Rules}
	// A table made again in its own format must give the bytes the
	// directory records for it; gen --force --format over a file of the
	// other format replaces that file and its record.
	present, ok := r.dir.Version(j.ID)
	replacing = ok && present != format
	// The writer's errors name the file.
	return format, replacing, probe.WriteFile(r.dir.PendingPath(j.ID.FileName()), table.Space, table.Values, o)
}

// keep keeps j's table, just accepted, for the tables of its material
// that come next (store.Cache.Keep, and Hold: see holdBelow); e is its
// estimate.
func (r *Runner) keep(j Job, table *retro.Table, format int, e retro.Estimate) {
	if table.OutOfCore() { // out of core, the table lives until Close
		return
	}
	r.cache.Keep(j.ID, table)
	if format == probe.Version2 && j.ID.Material.Pieces() < holdBelow && r.mayHold(table, e.Memory) {
		r.cache.Hold(j.ID, table)
	}
}

// record reports j's table made and puts its row, with its SHA-256 and
// its share of count draws, in the catalogue (marked verified when its
// values were checked).
func (r *Runner) record(ctx context.Context, j Job, table *retro.Table, sum string, verified bool, took time.Duration, clock *Timings) error {
	info, err := os.Stat(j.ID.Path(r.Dir))
	if err != nil {
		return err
	}
	clock.enter("summary")
	s := summarise(j.ID, table, info.Size(), took)
	s.SHA256 = sum
	if s.CountDraws, err = countDraws(ctx, r.Dir, r.cache, j, table, r.Threads); err != nil {
		return err
	}
	r.Report.Made(Result{Job: j, Summary: s, Timings: clock})
	if err := store.UpdateRow(r.Dir, s.Row()); err != nil {
		return err
	}
	if verified {
		return store.MarkVerified(r.Dir, j.ID, sum)
	}
	return nil
}

// accept gives the table just written, in format version format, its name
// if it is right (store.Dir.Accept): byte for byte its reference checksum
// when it has one, else, unless Verify is off, every value against its
// successors (the check Verifier makes); unless replacing a file of the
// other version, byte for byte what the directory records for it. It
// returns the file's SHA-256 and whether it checked the values.
func (r *Runner) accept(ctx context.Context, j Job, table *retro.Table, format int, replacing bool, clock *Timings) (sum string, verified bool, err error) {
	clock.enter("checksum")
	name := j.ID.FileName()
	check := func(string) (fault, err error) {
		if _, _, ok := r.dir.ReferenceOf(name, format); ok || !r.Verify {
			return nil, nil
		}
		clock.enter("verify")
		r.Report.Start(j.ID.String())
		fault = r.verifyValues(ctx, j, table)
		r.Report.Stop()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		verified = fault == nil
		return fault, nil
	}
	sum, err = r.dir.Accept(store.Candidate{Name: name, Version: format, Check: check, Replace: replacing})
	return sum, verified && err == nil, err
}

// verifyValues checks every value of a freshly generated table against its
// successors, with its sub-tables from the cache.
func (r *Runner) verifyValues(ctx context.Context, j Job, table *retro.Table) error {
	c := retro.Check{Table: table, DTM: r.cache.DTMOf(j.ID.Game)}
	if j.Rules != nil {
		c.Rules, c.Variant, c.Boards = j.Rules, j.Variant, r.cache.Boards(j.Rules.Name)
	}
	errs, err := retro.VerifyTogether(ctx, []retro.Check{c}, retro.Options{Threads: r.Threads, Progress: r.Report.Progress})
	if err != nil {
		return err
	}
	return errs[0]
}

// generateBoard solves j's DTB table. The table its draws come from
// reaches the generator only through opts, a copy: the generator lets it
// go once the draws are marked. Kept in the caller's options, a wider
// profile's table held whole (a byte per index and side) would stay beside
// the new table for the whole run: KRRvKRM.cambodian after its thai table
// peaked at 16.8 GiB that way, against 8.7 GiB for its DTM table.
func (r *Runner) generateBoard(ctx context.Context, j Job, opts retro.Options, outOfCore bool) (*retro.Table, error) {
	draws, closeDraws, err := r.draws(j.ID.Material, j.Rules, outOfCore)
	if err != nil {
		return nil, fmt.Errorf("generate %s: %w", j.ID, err)
	}
	defer closeDraws()
	opts.Draws = draws
	return retro.GenerateDTBFile(ctx, j.ID.Material, j.Variant, j.Rules, r.cache.DTM, r.cache.Boards(j.Rules.Name), opts)
}

// checkpoint returns where j's generation saves its state and resumes
// from, and says so when it resumes; with Force the targets start afresh.
// Nil when checkpoints are off.
func (r *Runner) checkpoint(j Job, indices uint64) (*retro.Checkpoint, error) {
	if r.CheckpointEvery == 0 {
		return nil, nil
	}
	c := &retro.Checkpoint{Path: r.checkpointPath(j), Key: j.ID.String(), Every: r.CheckpointEvery}
	if r.Force && j.Target {
		if err := os.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return c, nil
	}
	depth, ok, err := retro.ResumeDepth(c.Path, c.Key, indices)
	if err != nil {
		return nil, err
	}
	if ok {
		r.Report.Print(fmt.Sprintf("%-27s resuming after pass %d from %s", j.ID, depth, c.Path))
	}
	return c, nil
}

// draws returns what a DTB generation of m under rules takes its draws
// from: a DTB table of m already in the directory under a built-in profile
// whose goals include those of rules (retro.GoalsIncluded), or nil, which
// lets GenerateDTB read m's DTM table. Out of core, that table or the DTM
// table is read from its file a king pair at a time instead of held
// whole, when it is a version-1 file. done closes what draws opened.
func (r *Runner) draws(m tb.Material, rules *honour.Rules, outOfCore bool) (draws retro.RangeTable, done func(), err error) {
	id, wider := r.widerBoardID(m, rules)
	if !outOfCore {
		if !wider {
			return nil, func() {}, nil
		}
		t, err := r.cache.Load(id)
		if err != nil {
			return nil, nil, err
		}
		return t, func() {}, nil
	}
	if !wider {
		id = probe.DTMID(m)
	}
	f, err := probe.OpenFile(id.Path(r.Dir))
	if err != nil {
		return nil, nil, err
	}
	if f.Header.OneSided() {
		// A table made in memory (version 2) whose DTB tables are not:
		// read whole, its side not stored derived.
		f.Close()
		r.Report.Log(fmt.Sprintf("%-27s %s stores one side to move: read whole to derive the other, as out of core cannot", id, id.FileName()))
		t, err := r.cache.Load(id)
		if err != nil {
			return nil, nil, err
		}
		return t, func() {}, nil
	}
	return f, func() { f.Close() }, nil
}

// widerBoardID names the DTB table of m under a wider profile (see draws),
// if there is one.
func (r *Runner) widerBoardID(m tb.Material, rules *honour.Rules) (probe.ID, bool) {
	for _, w := range honour.BuiltinRules() {
		id := probe.ID{Material: m, Rules: w.Name}
		if w.Name != rules.Name && w.BoardPlies > 0 && r.dir.Has(id) && retro.GoalsIncluded(rules, &w, m) {
			return id, true
		}
	}
	return probe.ID{}, false
}

// quiet is the Reporter of a Runner given none.
type quiet struct{}

func (quiet) Start(string)            {}
func (quiet) Progress(retro.Progress) {}
func (quiet) Stop()                   {}
func (quiet) Print(string)            {}
func (quiet) Log(string)              {}
func (quiet) Made(Result)             {}

// RemoveStale removes from dirs the temporary files a killed run left
// (atomicfile.RemoveStale) and says so (Report.Log). Runner and Verifier
// call it as they start.
func RemoveStale(report Reporter, dirs ...string) error {
	seen := map[string]bool{}
	for _, dir := range dirs {
		if seen[dir] {
			continue
		}
		seen[dir] = true
		removed, err := atomicfile.RemoveStale(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if len(removed) > 0 {
			report.Log(fmt.Sprintf("removed %s left in %s by a run that was killed: %s", units.Plural(len(removed), "temporary file", "temporary files"), dir, strings.Join(removed, " ")))
		}
	}
	return nil
}

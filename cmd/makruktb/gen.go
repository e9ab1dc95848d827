package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/probe/atomicfile"
	"github.com/makruktb/makruktb/probe/store"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newGenCommand() *cobra.Command {
	var dir, scratch, dtbProfiles string
	var threads, maxPieces int
	var memory int64
	var force, timings, noVerify bool
	var every time.Duration
	cmd := &cobra.Command{
		Use:   "gen [--tables DIR] [--threads N] [--dtb PROFILES] (--max-pieces N | MATERIAL...)",
		Short: "Generate DTM tables and the board's-honour DTB tables (and every sub-table they need)",
		Long: `Generate distance-to-mate (DTM) tables by retrograde analysis, and for
every material with pieces on both sides its board's-honour (DTB) tables for
the rule profiles named by --dtb. Every sub-table a material needs is
generated first. Tables already present are kept, so a run that was
interrupted continues with what is missing. Files are written atomically:
an interrupted run never leaves a file that looks complete.

A table that takes long saves its state between passes, at most every
--checkpoint, in TABLE.resume under the scratch directory (compressed, at
most 1.14 bytes per index and side); a rerun after an interruption (SIGINT,
SIGTERM, a crash, a lost node) resumes from there, and the file goes once
the table is written. --force starts the named tables afresh.

A table is written under its final name only when it is right: byte for
byte its reference checksum (data/checksums.txt) when it has one, and
otherwise every value checked against its successors, as verify does
(--no-verify skips that check, for those who run verify separately). A
table that fails is kept as NAME.rejected, which no reader opens, and gen
says so and fails.`,
		Example: `  makruktb gen --max-pieces 4
  makruktb gen KRRvKN
  makruktb gen --dtb none --tables /tmp/tb --threads 2 KRSvKN`,
		RunE: func(cmd *cobra.Command, args []string) error {
			targets, jobs, err := planFlags(maxPieces, args, dtbProfiles)
			if err != nil {
				return err
			}
			if err := checkSupported(targets); err != nil {
				return err
			}
			dir = tableDir(dir)
			if scratch == "" {
				scratch = dir
			}
			for _, d := range []string{dir, scratch} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			if every < 0 {
				return fmt.Errorf("--checkpoint %s: want a duration of 0 (never) or more", every)
			}
			if err := checkResources(jobs, memory, scratch, every > 0); err != nil {
				return err
			}
			gn := &generation{out: cmd.OutOrStdout(), errOut: cmd.ErrOrStderr(), dir: dir, scratch: scratch, memory: memory, threads: threads, force: force, timings: timings, verify: !noVerify, checkpointEvery: every}
			return gn.run(cmd.Context(), jobs)
		},
	}
	addTablesFlag(cmd, &dir)
	addThreadsFlag(cmd, &threads)
	addMemoryFlag(cmd, &memory)
	cmd.Flags().IntVar(&maxPieces, "max-pieces", 0, "generate every pawnless table with up to N pieces")
	cmd.Flags().BoolVar(&force, "force", false, "regenerate the named tables even if present")
	cmd.Flags().StringVar(&scratch, "scratch", "", "directory for the state of a table generated out of core (default: the table directory); its files are unlinked as soon as made, so nothing is left there however a run ends, but the checkpoints (--checkpoint) meant to outlive a run")
	cmd.Flags().DurationVar(&every, "checkpoint", 30*time.Minute, "save a table's state at most this often, to resume it after an interruption (0: never)")
	cmd.Flags().BoolVar(&timings, "timings", false, "print how long each stage of each table took (on stderr)")
	cmd.Flags().BoolVar(&noVerify, "no-verify", false, "record a table without a reference checksum without checking its values against their successors first")
	cmd.Flags().StringVar(&dtbProfiles, "dtb", "thai,cambodian", "rule profiles to generate DTB tables for (comma-separated; \"none\" for no DTB)")
	return cmd
}

// planFlags plans the tables that --max-pieces or the materials and the
// --dtb list name (the targets, canonical, and every table in order).
func planFlags(maxPieces int, args []string, dtbProfiles string) ([]tb.Material, []job, error) {
	targets, err := selectMaterials(maxPieces, args)
	if err != nil {
		return nil, nil, err
	}
	profiles, err := boardProfiles(dtbProfiles)
	if err != nil {
		return nil, nil, err
	}
	return targets, plan(targets, profiles), nil
}

// boardProfiles reads the --dtb list: built-in profiles with a board's
// honour.
func boardProfiles(list string) ([]honour.Rules, error) {
	var out []honour.Rules
	if list == "none" || list == "" {
		return nil, nil
	}
	for _, name := range strings.Split(list, ",") {
		r, err := honour.LookupRules(strings.TrimSpace(name))
		if err != nil {
			return nil, fmt.Errorf("--dtb: %w", err)
		}
		if r.BoardPlies <= 0 {
			return nil, fmt.Errorf("--dtb: rules %s have no board's honour, so no DTB tables", r.Name)
		}
		out = append(out, r)
	}
	return out, nil
}

// job is one table to generate: its id and, for DTB, its rules.
type job struct {
	id    probe.ID
	rules *honour.Rules
	// target: named on the command line (--force regenerates it).
	target bool
}

// plan lists the tables to solve for targets, sub-tables first, without
// repeats: every DTM table, then the DTB tables of each profile for the
// materials with pieces on both sides (a DTB table needs the DTM tables of
// its bare sub-materials and the DTB tables of the others, all earlier).
func plan(targets []tb.Material, profiles []honour.Rules) []job {
	var dtm, dtb []tb.Material // in generation order, without repeats
	isTarget := map[tb.Material]bool{}
	for _, t := range targets {
		canon, _ := t.Canonical()
		isTarget[canon] = true
		dtm = appendNew(dtm, retro.Dependencies(t))
		boards, _ := retro.BoardDependencies(t)
		dtb = appendNew(dtb, boards)
	}
	var jobs []job
	for _, m := range dtm {
		jobs = append(jobs, job{id: probe.DTMID(m), target: isTarget[m]})
	}
	for _, m := range dtb {
		for i := range profiles {
			jobs = append(jobs, job{id: probe.ID{Material: m, Rules: profiles[i].Name}, rules: &profiles[i], target: isTarget[m]})
		}
	}
	return jobs
}

// appendNew appends the materials of add that list does not hold yet.
func appendNew(list, add []tb.Material) []tb.Material {
	for _, m := range add {
		if !slices.Contains(list, m) {
			list = append(list, m)
		}
	}
	return list
}

// checkSupported refuses, before any work, targets the generator cannot
// make. Their sub-tables have fewer pieces and moves, so it makes those.
func checkSupported(targets []tb.Material) error {
	for _, m := range targets {
		if err := retro.Supported(m); err != nil {
			return fmt.Errorf("cannot generate: %w", err)
		}
	}
	return nil
}

// generation is one run of gen over a list of jobs.
type generation struct {
	out, errOut io.Writer
	dir         string
	scratch     string // where tables out of core keep their state
	memory      int64  // --memory: tables that need more go out of core
	threads     int
	force       bool // regenerate the targets even if present
	timings     bool // print each table's stage times on errOut
	verify      bool // check the values of a table without a reference checksum before accepting it
	// checkpointEvery is the least time between two saves of a table's
	// state (0: never).
	checkpointEvery time.Duration
	cache           *store.Cache
}

func (gn *generation) run(ctx context.Context, jobs []job) error {
	if err := os.MkdirAll(gn.dir, 0o755); err != nil {
		return err
	}
	// The value arrays are most of the heap and hold no pointers: collect
	// garbage early rather than let the heap double past them.
	debug.SetGCPercent(20)
	gn.cache = store.NewCache(gn.dir, 5)
	var failed []string
	kept := 0
	for _, j := range jobs {
		if !(gn.force && j.target) && store.Present(gn.dir, j.id) {
			// A run stopped between writing a table and recording its
			// checksum leaves a complete file without one.
			recorded, err := store.EnsureChecksum(gn.dir, j.id)
			if err != nil {
				return err
			}
			if recorded {
				fmt.Fprintf(gn.out, "%-15s present but not in %s (a run stopped before recording it, or the directory predates it): recorded it\n", j.id, store.ChecksumFile)
			}
			kept++
			continue
		}
		err := gn.generate(ctx, j)
		// The table's arrays are garbage now, but the collector's goal is
		// still a fifth above them: left to it, the next table would
		// allocate that much before they went (KSSvKMM's DTM and DTB run
		// peaked at 22.45 GiB, against 16.44 GiB for each table alone).
		debug.FreeOSMemory()
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted during %s; a rerun continues from there", j.id)
			}
			// Keep going: tables that do not need this one can still be made.
			fmt.Fprintf(gn.errOut, "makruktb: %v\n", err)
			failed = append(failed, j.id.String())
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d tables failed: %s", len(failed), strings.Join(failed, " "))
	}
	switch {
	case kept == len(jobs):
		fmt.Fprintf(gn.out, "%s already in %s: nothing to do (--force regenerates the named ones)\n", plural(kept, "table", "tables"), gn.dir)
	case kept > 0:
		fmt.Fprintf(gn.out, "%s generated; %s already in %s kept\n", plural(len(jobs)-kept, "table", "tables"), plural(kept, "table", "tables"), gn.dir)
	}
	return nil
}

// generate solves one table, writes it, records its checksum and adds its
// row to the table of tables.
func (gn *generation) generate(ctx context.Context, j job) (err error) {
	start := time.Now()
	m := j.id.Material
	clock := &stageClock{}
	var progress *bar
	opts := retro.Options{Threads: gn.threads, Progress: func(p retro.Progress) {
		clock.enter(string(p.Stage))
		progress.update(p)
	}}
	e, err := j.estimate()
	if err != nil {
		return err
	}
	spill, err := j.outOfCore(e, gn.memory)
	if err != nil {
		return err
	}
	if spill {
		opts.Scratch = gn.scratch
		fmt.Fprintf(gn.out, "%-15s out of core: about %s of memory and %s of scratch in %s (in memory it would take %s)\n",
			j.id, humanBytes(e.OutOfCoreMemory), humanBytes(e.Scratch), gn.scratch, humanBytes(e.Memory))
		if read, written, ok := diskIO(); ok {
			defer func() {
				if r, w, ok := diskIO(); ok && err == nil {
					fmt.Fprintf(gn.out, "%-15s out of core: %s read from disk, %s written\n", j.id, humanBytes(r-read), humanBytes(w-written))
				}
			}()
		}
	}
	if opts.Checkpoint, err = gn.checkpoint(j, e.Indices); err != nil {
		return err
	}
	progress = newBar(j.id.String())
	if c := opts.Checkpoint; c != nil {
		c.Saved = func(depth int, size int64, took time.Duration) {
			progress.clear() // the bar redraws below the line
			fmt.Fprintf(gn.errOut, "%-15s saved after pass %d to %s (%s, %.1fs)\n", j.id, depth, c.Path, humanBytes(size), took.Seconds())
		}
	}
	var table *retro.Table
	metric := probe.DTM
	clock.enter("load") // the sub-tables; the generator's progress starts the next stage
	if j.rules == nil {
		table, err = retro.Generate(ctx, m, gn.cache.DTM, opts)
	} else {
		metric = probe.DTB
		table, err = gn.generateBoard(ctx, j, opts, spill)
	}
	progress.finish()
	if err != nil {
		return err // retro's errors name the table
	}
	testHookGenerated(table)
	defer table.Close() // out of core: its scratch files go
	path := j.id.Path(gn.dir)
	clock.enter("write")
	pending := path + pendingSuffix
	if err := probe.WriteFile(pending, table.Space, metric, j.id.Rules, table.Values); err != nil {
		return fmt.Errorf("write %s: %w", pending, err)
	}
	sum, verified, err := gn.accept(ctx, j, table, pending, clock)
	if err != nil {
		return err
	}
	if opts.Checkpoint != nil {
		if err := os.Remove(opts.Checkpoint.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := store.RecordChecksumOf(gn.dir, path, sum); err != nil {
		return err
	}
	if !table.OutOfCore() { // out of core, the table lives until Close
		gn.cache.Keep(j.id, table)
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	clock.enter("summary")
	row := summarise(j.id, table, info.Size(), time.Since(start))
	row.sum = sum
	if row.countDraws, err = countDraws(ctx, gn.dir, j, table, gn.threads); err != nil {
		return err
	}
	fmt.Fprintln(gn.out, row.line())
	if gn.timings {
		fmt.Fprintf(gn.errOut, "%-15s %s\n", j.id, clock)
	}
	if err := store.UpdateRow(gn.dir, row.row()); err != nil {
		return err
	}
	if verified {
		return store.MarkVerified(gn.dir, j.id, sum)
	}
	return nil
}

// testHookGenerated sees every table gen has solved before it is written:
// tests spoil one, as a faulty generator would.
var testHookGenerated = func(*retro.Table) {}

// The suffixes of a table file that no reader opens: a table written but
// not yet accepted, and one that failed its check.
const (
	pendingSuffix  = ".unaccepted"
	rejectedSuffix = ".rejected"
)

// accept gives the table just written to pending its final name if it is
// right: byte for byte its reference checksum when it has one, else,
// unless --no-verify, every value against its successors (retro.Verify,
// the check verify makes). A table that fails is renamed NAME.rejected and
// the error says so: the generator itself is what this guards against
// (issue 42: two workers once wrote wrong values from time to time). It
// returns the file's SHA-256 and whether it checked the values.
func (gn *generation) accept(ctx context.Context, j job, table *retro.Table, pending string, clock *stageClock) (sum string, verified bool, err error) {
	path := j.id.Path(gn.dir)
	clock.enter("checksum")
	if sum, err = store.FileSHA256(pending); err != nil {
		return "", false, err
	}
	var fault error
	if ref, ok := store.ReferenceChecksums()[j.id.FileName()]; ok {
		if sum != ref {
			fault = fmt.Errorf("%s: SHA-256 %s differs from %s in %s: the generator's output changed", j.id, sum, ref, store.ReferenceFile)
		}
	} else if gn.verify {
		clock.enter("verify")
		bar := newBar(j.id.String())
		fault = gn.verifyValues(ctx, j, table, bar.update)
		bar.finish()
		if ctx.Err() != nil {
			os.Remove(pending)
			return "", false, ctx.Err()
		}
		verified = fault == nil
	}
	if fault != nil {
		rejected := path + rejectedSuffix
		if err := atomicfile.Rename(pending, rejected); err != nil {
			return "", false, err
		}
		return "", false, fmt.Errorf("%w; not accepted: the file is kept as %s, which no reader opens", fault, rejected) // both faults name the table
	}
	return sum, verified, atomicfile.Rename(pending, path)
}

// verifyValues checks every value of a freshly generated table against its
// successors, with its sub-tables from the cache.
func (gn *generation) verifyValues(ctx context.Context, j job, table *retro.Table, progress func(retro.Progress)) error {
	c := retro.Check{Table: table, DTM: gn.cache.DTM}
	if j.rules != nil {
		c.Rules, c.DTB = j.rules, gn.cache.Board(j.rules.Name)
	}
	errs, err := retro.VerifyTogether(ctx, []retro.Check{c}, retro.Options{Threads: gn.threads, Progress: progress})
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
func (gn *generation) generateBoard(ctx context.Context, j job, opts retro.Options, outOfCore bool) (*retro.Table, error) {
	draws, closeDraws, err := gn.draws(j.id.Material, j.rules, outOfCore)
	if err != nil {
		return nil, fmt.Errorf("generate %s: %w", j.id, err)
	}
	defer closeDraws()
	opts.Draws = draws
	return retro.GenerateDTB(ctx, j.id.Material, j.rules, gn.cache.DTM, gn.cache.Board(j.rules.Name), opts)
}

// checkpoint returns where j's generation saves its state and resumes
// from, and says so when it resumes; with --force the targets start
// afresh. Nil when checkpoints are off.
func (gn *generation) checkpoint(j job, indices uint64) (*retro.Checkpoint, error) {
	if gn.checkpointEvery == 0 {
		return nil, nil
	}
	c := &retro.Checkpoint{Path: filepath.Join(gn.scratch, j.id.String()+".resume"), Key: j.id.String(), Every: gn.checkpointEvery}
	if gn.force && j.target {
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
		fmt.Fprintf(gn.out, "%-15s resuming after pass %d from %s\n", j.id, depth, c.Path)
	}
	return c, nil
}

// draws returns what a DTB generation of m under r takes its draws from:
// a DTB table of m already in the directory under a built-in profile whose
// goals include those of r (retro.GoalsIncluded), or nil, which lets
// GenerateDTB read m's DTM table. Out of core, that table or the DTM table
// is read from its file a king pair at a time instead of held whole.
// done closes what draws opened.
func (gn *generation) draws(m tb.Material, r *honour.Rules, outOfCore bool) (draws retro.RangeTable, done func(), err error) {
	id, wider := widerBoardID(gn.dir, m, r)
	if !outOfCore {
		if !wider {
			return nil, func() {}, nil
		}
		t, err := gn.cache.Load(id)
		if err != nil {
			return nil, nil, err
		}
		return t, func() {}, nil
	}
	if !wider {
		id = probe.DTMID(m)
	}
	f, err := probe.OpenFile(id.Path(gn.dir))
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// widerBoardID names the DTB table of m under a wider profile (see draws),
// if there is one.
func widerBoardID(dir string, m tb.Material, r *honour.Rules) (probe.ID, bool) {
	for _, w := range honour.BuiltinRules() {
		id := probe.ID{Material: m, Rules: w.Name}
		if w.Name != r.Name && w.BoardPlies > 0 && store.Present(dir, id) && retro.GoalsIncluded(r, &w, m) {
			return id, true
		}
	}
	return probe.ID{}, false
}

// countDraws returns the count-draw cell of a freshly generated table:
// for DTM, the share of wins a fresh thai count draws (pieces' honour, or
// board's honour as far as DTM tells); for DTB, the share under its own
// profile, which for thai also completes the DTM row of the material.
func countDraws(ctx context.Context, dir string, j job, table *retro.Table, threads int) (string, error) {
	opts := retro.Options{Threads: threads}
	if j.rules == nil {
		st, err := retro.ComputeStats(ctx, table, opts)
		if err != nil {
			return "", err
		}
		return countDrawShare(st.Count[honour.ThaiRules.Name]), nil
	}
	// The DTM table is read from its file a king pair at a time: held
	// whole beside the DTB table it would double a large table's memory.
	dtmID := probe.DTMID(j.id.Material)
	dtm, err := probe.OpenFile(dtmID.Path(dir))
	if err != nil {
		return "", err
	}
	defer dtm.Close()
	counts, err := retro.BoardCountsFrom(ctx, dtm, table, j.rules, opts)
	if err != nil {
		return "", err
	}
	share := countDrawShare(counts)
	if j.rules.Name == honour.ThaiRules.Name {
		name := j.id.Material.String()
		err = store.EditCatalogue(dir, func(rows map[string]*store.Row) {
			if row, ok := rows[name]; ok {
				row.CountDraws = share
			}
		})
	}
	return share, err
}

// summary is one table's line in the gen output and its catalogue row.
type summary struct {
	material          string // the table: "KRvKN" or "KRvKN.thai" (DTB)
	dtb               bool
	pieces            int
	perSide           uint64
	legal             uint64 // legal canonical positions, both sides
	longestW, longstB int    // plies, -1 if none
	bytes             int64
	total             time.Duration // generation and writing
	countDraws        string        // share of wins drawn by a fresh thai count
	sum               string        // the file's SHA-256, hex
}

func summarise(id probe.ID, t *retro.Table, bytes int64, total time.Duration) summary {
	var legal [2]uint64
	var longest [2]int
	var wg sync.WaitGroup
	for side := tb.White; side <= tb.Black; side++ {
		wg.Go(func() { legal[side], longest[side] = t.Census(side) })
	}
	wg.Wait()
	return summary{
		material: id.String(), dtb: id.Rules != "", pieces: t.Material().Pieces(),
		perSide: t.Space.Size(), legal: legal[tb.White] + legal[tb.Black],
		longestW: longest[tb.White], longstB: longest[tb.Black],
		bytes: bytes, total: total,
	}
}

// row is the summary's row in the catalogue.
func (s summary) row() store.Row {
	return store.Row{
		Table: s.material, Pieces: s.pieces, PerSide: s.perSide, Positions: s.legal,
		LongestWhite: movesOf(s.longestW), LongestBlack: movesOf(s.longstB),
		Bytes: s.bytes, BitsPerPosition: s.bitsPerPosition(), Seconds: s.total.Seconds(),
		CountDraws: s.countDraws, SHA256: s.sum,
	}
}

func (s summary) bitsPerPosition() float64 { return float64(8*s.bytes) / float64(max(s.legal, 1)) }

// movesOf turns a longest win in plies into moves, -1 (none) staying -1.
func movesOf(plies int) int {
	if plies < 0 {
		return -1
	}
	return (plies + 1) / 2
}

func movesText(plies int) string {
	if plies < 0 {
		return "-"
	}
	return fmt.Sprint(movesOf(plies))
}

func (s summary) line() string {
	longest, draws := "mate", "thai count-draws"
	if s.dtb {
		longest, draws = "goal", "count-draws"
	}
	return fmt.Sprintf("%-15s %7.1fs  %13d positions  longest %s %3s moves (white to move) %3s (black)  %10s  %.3f bits/position  %s %s",
		s.material, s.total.Seconds(), s.legal, longest, movesText(s.longestW), movesText(s.longstB), humanBytes(s.bytes), s.bitsPerPosition(), draws, s.countDraws)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// countDrawShare describes the share of decided positions (wins and
// losses, both sides to move) that a fresh count draws; "+N% DTB" is the
// share of board's-honour results only a DTB table can judge.
func countDrawShare(counts map[string]retro.CountStats) string {
	var wins, cursed, unknown uint64
	for _, side := range []string{"w", "b"} {
		c := counts[side]
		wins += c.Win + c.CursedWin + c.Loss + c.BlessedLoss + c.Unknown
		cursed += c.CursedWin + c.BlessedLoss
		unknown += c.Unknown
	}
	if wins == 0 {
		return "no wins"
	}
	text := fmt.Sprintf("%.1f%%", 100*float64(cursed)/float64(wins))
	if unknown > 0 {
		text += fmt.Sprintf(" +%.1f%% DTB", 100*float64(unknown)/float64(wins))
	}
	return text
}

// bar shows the progress of one table's passes on stderr when it is a
// terminal.
type bar struct {
	mu    sync.Mutex
	name  string
	pb    *progressbar.ProgressBar
	stage retro.Stage
	depth int
}

func newBar(name string) *bar {
	b := &bar{name: name}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		b.pb = progressbar.NewOptions64(1,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(),
		)
	}
	return b
}

// clear takes the bar off its line, for a line of text.
func (b *bar) clear() {
	if b.pb == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.pb.Clear()
}

func (b *bar) update(p retro.Progress) {
	if b.pb == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if p.Stage != b.stage || p.Depth != b.depth {
		b.stage, b.depth = p.Stage, p.Depth
		b.pb.Reset()
		b.pb.ChangeMax64(p.Total)
		desc := fmt.Sprintf("%s %s", b.name, p.Stage)
		if p.Stage == retro.StageIterate {
			desc = fmt.Sprintf("%s mates in %d plies", b.name, p.Depth)
		}
		b.pb.Describe(desc)
	}
	_ = b.pb.Set64(p.Done)
}

func (b *bar) finish() {
	if b.pb != nil {
		_ = b.pb.Finish()
		_ = b.pb.Clear()
	}
}

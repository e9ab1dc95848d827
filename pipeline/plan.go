package pipeline

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// Job is one table to generate: its id and, for a DTB table, its rules.
type Job struct {
	ID    probe.ID
	Rules *honour.Rules // nil: the DTM table
	// Variant is which of the material's DTB files under Rules
	// (honour.Variant: its own, or a count one side runs).
	Variant honour.Variant
	// Target says the table was asked for by name (Runner.Force
	// regenerates it), not only needed by one that was.
	Target bool
}

// Plan lists the tables of game g to solve for targets, sub-tables
// first, without repeats: each material's DTM table, then, for a material
// with pieces on both sides, its DTB tables under each profile (a DTB
// table needs the DTM tables of its bare sub-materials and the DTB tables
// of the others, all earlier). The DTB tables follow their DTM table
// straight away, while the runner still holds it: read back from a
// version-2 file, its side not stored would be derived again, for the
// first DTB table and again for the first WDL file (KRSvKN: about 45 s
// each). A game without a count (Shatranj) has DTM tables only: profiles
// must be empty.
func Plan(g tb.Game, targets []tb.Material, profiles []honour.Rules) ([]Job, error) {
	if len(profiles) > 0 && !g.HasCount() {
		return nil, fmt.Errorf("%s has no counting rule: no DTB tables (give --dtb none)", g)
	}
	var dtm, dtb []tb.Material // in generation order, without repeats
	isTarget := map[tb.Material]bool{}
	for _, t := range targets {
		canon, _ := t.Canonical()
		isTarget[canon] = true
		dtm = appendNew(dtm, retro.Dependencies(g, t))
		if g.HasCount() {
			boards, _ := retro.BoardDependencies(t)
			dtb = appendNew(dtb, boards)
		}
	}
	var jobs []Job
	for _, m := range dtm {
		jobs = append(jobs, Job{ID: probe.ID{Material: m, Game: g}, Target: isTarget[m]})
		if !slices.Contains(dtb, m) {
			continue
		}
		for i := range profiles {
			for _, v := range profiles[i].Variants(m) {
				jobs = append(jobs, Job{ID: probe.BoardID(m, profiles[i].Name, v), Rules: &profiles[i], Variant: v, Target: isTarget[m]})
			}
		}
	}
	return jobs, nil
}

// Needs returns every material of game g whose tables m's DTM and DTB
// tables read, m excluded: what a cluster job for m waits for. A game
// without a count has DTM tables only, which read the tables of their
// captures.
func Needs(g tb.Game, m tb.Material) []tb.Material {
	if !g.HasCount() {
		return others(m, retro.Dependencies(g, m))
	}
	dtb, dtm := retro.BoardDependencies(m)
	return others(m, appendNew(appendNew(retro.Dependencies(g, m), dtb), dtm))
}

// others returns the materials of list other than m's canonical side.
func others(m tb.Material, list []tb.Material) []tb.Material {
	canon, _ := m.Canonical()
	var out []tb.Material
	for _, x := range list {
		if x != canon {
			out = append(out, x)
		}
	}
	return out
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

// BoardProfiles reads a comma-separated list of built-in profiles with a
// board's honour, the profiles of the DTB tables ("none" or "": none).
func BoardProfiles(list string) ([]honour.Rules, error) {
	out, err := honour.ParseList(list)
	for _, r := range out {
		if r.BoardPlies <= 0 {
			return nil, fmt.Errorf("rules %s have no board's honour, so no DTB tables", r.Name)
		}
	}
	return out, err
}

// CheckSupported refuses, before any work, targets the generator cannot
// make in game g. Their sub-tables have fewer pieces and moves, so it
// makes those.
func CheckSupported(g tb.Game, targets []tb.Material) error {
	for _, m := range targets {
		if err := retro.Supported(g, m); err != nil {
			return fmt.Errorf("cannot generate: %w", err)
		}
	}
	return nil
}

// Estimate returns the job's estimated memory, disk and time, in memory
// and out of core.
func (j Job) Estimate() (retro.Estimate, error) {
	return retro.EstimateTable(j.ID.Game, j.ID.Material, j.Rules != nil)
}

// OutOfCore says whether a table of estimate e is generated out of core
// within limit (0: no limit), or why it cannot be generated within it.
func (j Job) OutOfCore(e retro.Estimate, limit int64) (bool, error) {
	switch {
	case limit <= 0 || e.Memory <= limit:
		return false, nil
	case e.OutOfCoreMemory <= limit:
		return true, nil
	}
	return false, fmt.Errorf("cannot generate %s: it needs about %s of memory (%d indices per side), or %s out of core; --memory allows %s (see makruktb plan)",
		j.ID, units.Bytes(e.Memory), e.Indices, units.Bytes(e.OutOfCoreMemory), units.Bytes(limit))
}

// CheckResources refuses, before any work, a plan with a table that does
// not fit limit even out of core, or whose scratch files and checkpoint
// (with checkpoints on, at its budgeted compressed size) would not fit in
// the free space of the scratch directory.
//
// flag names the option that chose the scratch directory in messages
// ("--scratch", or "--tables" when the scratch is the table directory).
func CheckResources(jobs []Job, limit int64, scratch, flag string, checkpoints bool) error {
	var need, scratchFiles, checkpoint int64
	var needing probe.ID
	for _, j := range jobs {
		e, err := j.Estimate()
		if err != nil {
			return err
		}
		spill, err := j.OutOfCore(e, limit)
		if err != nil {
			return err
		}
		var files, saved int64
		if spill {
			files = e.Scratch
		}
		if checkpoints {
			saved = retro.CheckpointEstimate(e.Indices)
		}
		if files+saved > need {
			need, scratchFiles, checkpoint, needing = files+saved, files, saved, j.ID
		}
	}
	if need == 0 {
		return nil
	}
	if err := CheckWritable(scratch, flag); err != nil {
		return err
	}
	free, err := retro.FreeDisk(existingAncestor(scratch))
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	if free >= need {
		return nil
	}
	switch {
	case checkpoint == 0:
		return fmt.Errorf("cannot generate %s out of core: its scratch files take %s, %s has %s free (--scratch names another directory)",
			needing, units.Bytes(need), scratch, units.Bytes(free))
	case scratchFiles == 0:
		return fmt.Errorf("cannot generate %s: its checkpoint takes %s, %s has %s free (--scratch names another directory, --checkpoint 0 saves none)",
			needing, units.Bytes(need), scratch, units.Bytes(free))
	}
	return fmt.Errorf("cannot generate %s out of core: its scratch files and checkpoint take %s and %s, %s has %s free (--scratch names another directory, --checkpoint 0 saves none)",
		needing, units.Bytes(scratchFiles), units.Bytes(checkpoint), scratch, units.Bytes(free))
}

// CheckWritable says, before any work and without leaving anything
// behind, why dir (named by the option flag) cannot take files: its
// nearest existing ancestor is not a directory, or nothing can be made
// in it.
func CheckWritable(dir, flag string) error {
	disk := existingAncestor(dir)
	info, err := os.Stat(disk)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s %s: %s is not a directory", flag, dir, disk)
	}
	tmp, err := os.MkdirTemp(disk, ".makruktb-writable-")
	if err != nil {
		return fmt.Errorf("%s %s: cannot write in %s: %v", flag, dir, disk, errors.Unwrap(err))
	}
	return os.Remove(tmp)
}

// existingAncestor returns dir, or its nearest ancestor that exists: the
// file system a directory not made yet will be on.
func existingAncestor(dir string) string {
	for {
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// Materials returns the materials of game g that maxPieces names (every
// material g has tables for up to that many pieces) or that names does
// (canonical, pawns refused); one of the two, not both.
func Materials(g tb.Game, maxPieces int, names []string) ([]tb.Material, error) {
	var out []tb.Material
	switch {
	case maxPieces > 0 && len(names) > 0:
		return nil, errors.New("give either --max-pieces or materials, not both")
	case maxPieces < 0 || maxPieces > tb.MaxTablePieces:
		return nil, fmt.Errorf("--max-pieces %d: tables have 3 to %d pieces", maxPieces, tb.MaxTablePieces)
	case maxPieces > 0 && maxPieces < 3:
		return nil, fmt.Errorf("--max-pieces %d: the smallest tables have 3 pieces (KvK is a draw and has none)", maxPieces)
	case maxPieces > 0:
		for _, m := range tb.Pawnless(maxPieces) {
			if m.Pieces() > 2 && retro.Supported(g, m) == nil {
				out = append(out, m)
			}
		}
	case len(names) > 0:
		for _, a := range names {
			m, err := g.ParseTableMaterial(a)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
	default:
		return nil, errors.New("give --max-pieces N or materials such as KRvK")
	}
	return out, nil
}

// WritePlan writes the plan of jobs as a Markdown table, a row per table
// with its estimate in memory and out of core (a table that needs more
// than memory in memory is made out of core; 0: no limit), then the
// totals; with wdl (the run writes WDL files), the peak while a
// material's WDL files are written in format 3 where it is higher
// (WDLMemory), and how many materials' files are written in format 2 to
// stay within memory.
func WritePlan(out io.Writer, jobs []Job, memory int64, wdl bool) error {
	fmt.Fprintln(out, "| table | pieces | index per side | memory | file | time (2 cores) | out of core: memory | scratch | disk read, written | time | note |\n|---|---|---|---|---|---|---|---|---|---|---|")
	var total retro.Estimate
	var peak, peakOutOfCore, peakWDL int64
	var tables, refused, outOfCore, fallBack int
	for _, j := range jobs {
		if m := j.ID.Material; wdl && j.Rules == nil && DefaultWDLVersion(m) == probe.Version3 {
			if v, _ := wdlVersionWithin(j.ID.Game, m, memory); v != probe.Version3 {
				fallBack++
			} else if need, err := WDLMemory(j.ID.Game, m, v); err == nil {
				peakWDL = max(peakWDL, need)
			}
		}
		tables++
		e, err := j.Estimate()
		if err != nil {
			refused++
			fmt.Fprintf(out, "| %s | %d | | | | | | | | | cannot: %v |\n", j.ID, j.ID.Material.Pieces(), err)
			continue
		}
		note := ""
		spill, err := j.OutOfCore(e, memory)
		switch {
		case err != nil:
			refused++
			note = "exceeds --memory " + units.Bytes(memory) + " even out of core"
		case spill:
			outOfCore++
			note = "out of core"
			peakOutOfCore = max(peakOutOfCore, e.OutOfCoreMemory)
		default:
			peak = max(peak, e.Memory)
		}
		fmt.Fprintf(out, "| %s | %d | %d | %s | %s | %s | %s | %s | %s, %s | %s | %s |\n", j.ID, j.ID.Material.Pieces(), e.Indices,
			units.Bytes(e.Memory), units.Bytes(e.Disk), e.Time.Round(time.Second),
			units.Bytes(e.OutOfCoreMemory), units.Bytes(e.Scratch), units.Bytes(e.OutOfCoreRead), units.Bytes(e.OutOfCoreWritten), e.OutOfCoreTime.Round(time.Second), note)
		total.Disk += e.Disk
		total.Time += e.Time
		if spill {
			total.Time += e.OutOfCoreTime - e.Time
		}
	}
	fmt.Fprintf(out, "\n%d tables: %.1f CPU-hours (%s wall on 2 cores), peak memory %s", tables, 2*total.Time.Hours(), total.Time.Round(time.Second), units.Bytes(peak))
	if peakWDL > peak {
		fmt.Fprintf(out, " (%s writing format-3 WDL files)", units.Bytes(peakWDL))
	}
	fmt.Fprintf(out, ", %s of files", units.Bytes(total.Disk))
	switch {
	case fallBack == 1:
		fmt.Fprint(out, "; 1 material's WDL files in format 2, within --memory")
	case fallBack > 1:
		fmt.Fprintf(out, "; %d materials' WDL files in format 2, within --memory", fallBack)
	}
	if outOfCore > 0 {
		fmt.Fprintf(out, "; %d out of core, within %s (their time with their disk traffic at worst)", outOfCore, units.Bytes(peakOutOfCore))
	}
	if refused > 0 {
		fmt.Fprintf(out, "; %d cannot be generated here", refused)
	}
	_, err := fmt.Fprintln(out)
	return err
}

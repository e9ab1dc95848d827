package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/probe/store"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/spf13/cobra"
)

func newVerifyCommand() *cobra.Command {
	var dir, scratch string
	var threads int
	var pending bool
	var memory int64
	cmd := &cobra.Command{
		Use:   "verify [--tables DIR] [--pending] [--memory SIZE] [MATERIAL | MATERIAL.PROFILE ...]",
		Short: "Check tables: checksums, then every value against its successors",
		Long: `Check tables: the file's SHA-256 against the directory's SHA256SUMS and
the reference checksums, and its internal checksums; then every stored
value against a one-ply search over the table and its sub-tables (the
tables of one material in one pass). A material names its DTM table and
the board's-honour (DTB) tables of it in the directory; MATERIAL.PROFILE
(e.g. KRvKN.thai) names one DTB table. Without arguments, every table in
the directory is checked. A table that passes gets the day in the
directory's catalogue; --pending skips the tables whose mark there names
their current checksum, so a long verification can be resumed. Tables
that would take more than --memory held whole are read out of core: their
values go to scratch files (--scratch, default the table directory) and
memory holds only what the pass is reading; when the scratch disk cannot
hold the values of all the tables of a material, they are checked in
several passes.
Exits non-zero on any mismatch, naming the position.`,
		Example: "  makruktb verify\n  makruktb verify KRvKN KSSSvK\n  makruktb verify KRSvKN.thai\n  makruktb verify --pending",
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := tableDir(dir)
			if scratch == "" {
				scratch = dir
			}
			ids, err := verifyTargets(dir, args)
			if err != nil {
				return err
			}
			sums, err := store.ReadChecksums(dir)
			if err != nil {
				return err
			}
			if pending {
				if ids, err = unverified(dir, ids, sums); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "%d tables not yet verified\n", len(ids))
			}
			v := &verification{cmd: cmd, dir: dir, scratch: scratch, memory: memory, sums: sums, cache: store.NewCache(dir, 5), threads: threads, freeDisk: retro.FreeDisk}
			failed := 0
			for _, group := range byMaterial(ids) {
				n, err := v.material(group)
				if err != nil {
					return err
				}
				failed += n
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d tables failed verification", failed, len(ids))
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addThreadsFlag(cmd, &threads)
	memory = max(machineMemory()-memoryMargin, 0)
	cmd.Flags().Var((*sizeFlag)(&memory), "memory", "read out of core the tables of a material that would take more than SIZE held whole (0: no limit; default: the machine's RAM less 2 GiB)")
	cmd.Flags().StringVar(&scratch, "scratch", "", "directory for the values of tables read out of core (default: the table directory); its files are unlinked as soon as made")
	cmd.Flags().BoolVar(&pending, "pending", false, "only the tables that the directory's catalogue does not list as verified with their current checksum")
	return cmd
}

// unverified keeps the ids whose catalogue row has no verified mark for
// the checksum recorded for the file.
func unverified(dir string, ids []probe.ID, sums map[string]string) ([]probe.ID, error) {
	rows, err := store.ReadCatalogue(dir)
	if err != nil {
		return nil, err
	}
	var out []probe.ID
	for _, id := range ids {
		if !rows[id.String()].VerifiedAs(sums[id.FileName()]) {
			out = append(out, id)
		}
	}
	return out, nil
}

// verifyTargets returns the tables the arguments name (see verify's help),
// or every table in dir when there are none.
func verifyTargets(dir string, args []string) ([]probe.ID, error) {
	var ids []probe.ID
	if len(args) == 0 {
		materials, err := tablesIn(dir)
		if err != nil {
			return nil, err
		}
		for _, m := range materials {
			args = append(args, m.String())
		}
	}
	for _, a := range args {
		name, profile, one := strings.Cut(a, ".")
		m, err := parseMaterialArg(name)
		if err != nil {
			return nil, err
		}
		if one {
			r, err := honour.LookupRules(profile)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", a, err)
			}
			if r.BoardPlies == 0 {
				return nil, fmt.Errorf("%s: the %s rules have no board's honour, so no DTB table", a, r.Name)
			}
			if !honour.HasBoardHonour(m) {
				return nil, fmt.Errorf("%s: %s has a bare king, so no DTB table", a, m)
			}
			ids = append(ids, probe.ID{Material: m, Rules: r.Name})
			continue
		}
		ids = append(ids, probe.DTMID(m))
		for _, r := range honour.BuiltinRules() {
			if id := (probe.ID{Material: m, Rules: r.Name}); r.BoardPlies > 0 && store.Present(dir, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
}

// byMaterial splits ids into runs of one material, keeping their order.
func byMaterial(ids []probe.ID) [][]probe.ID {
	var groups [][]probe.ID
	for _, id := range ids {
		if n := len(groups); n > 0 && groups[n-1][0].Material == id.Material {
			groups[n-1] = append(groups[n-1], id)
			continue
		}
		groups = append(groups, []probe.ID{id})
	}
	return groups
}

// verification is one run of verify.
type verification struct {
	cmd          *cobra.Command
	dir, scratch string
	memory       int64 // --memory: materials that need more are read out of core
	sums         map[string]string
	cache        *store.Cache
	threads      int
	freeDisk     func(dir string) (int64, error) // retro.FreeDisk; a test fills the disk
}

// material checks tables of one material: each file's checksums, then
// the values of every table that passed them, in one pass
// (retro.VerifyTogether), or out of core in as few passes as the scratch
// disk allows. It prints a line per table and returns how many failed; an
// error means the pass was interrupted or could not start.
func (v *verification) material(ids []probe.ID) (int, error) {
	outOfCore, err := v.outOfCore(ids)
	if err != nil {
		return 0, err
	}
	if !outOfCore {
		return v.pass(ids, false)
	}
	runs, err := v.byDisk(ids)
	if err != nil {
		return 0, err
	}
	out := v.cmd.OutOrStdout()
	how := "one pass"
	if len(runs) > 1 {
		how = fmt.Sprintf("%d passes, the scratch disk holding %d of its %d tables at a time", len(runs), len(runs[0]), len(ids))
	}
	fmt.Fprintf(out, "%-15s out of core: the values in scratch files in %s, %s (held whole they would pass --memory %s)\n", ids[0].Material, v.scratch, how, humanBytes(v.memory))
	failed := 0
	for _, run := range runs {
		n, err := v.pass(run, true)
		failed += n
		if err != nil {
			return failed, err
		}
	}
	return failed, nil
}

// byDisk splits tables of one material read out of core into runs whose
// scratch files (retro.LoadScratchBytes for each table) fit together in the free space of the scratch
// directory: all in one run when they fit, else as many per run as do. A
// material whose single table does not fit is refused before any work.
func (v *verification) byDisk(ids []probe.ID) ([][]probe.ID, error) {
	e, err := retro.EstimateTable(ids[0].Material, false)
	if err != nil {
		return nil, err
	}
	each := retro.LoadScratchBytes(e.Indices)
	free, err := v.freeDisk(v.scratch)
	if err != nil {
		return nil, fmt.Errorf("--scratch: %w", err)
	}
	fit := int((free - free/64) / each) // a margin for the overflow values and the rest of the disk's users
	if fit < 1 {
		return nil, fmt.Errorf("cannot verify %s out of core: each of its tables takes %s of scratch files, %s has %s free (--scratch names another directory)",
			ids[0].Material, humanBytes(each), v.scratch, humanBytes(free))
	}
	var runs [][]probe.ID
	for len(ids) > fit {
		runs, ids = append(runs, ids[:fit]), ids[fit:]
	}
	return append(runs, ids), nil
}

// pass checks tables of one material in one pass: each file's checksums,
// then the values of every table that passed them (retro.VerifyTogether),
// whole or out of core.
func (v *verification) pass(ids []probe.ID, outOfCore bool) (int, error) {
	cmd, dir := v.cmd, v.dir
	start := time.Now()
	out := cmd.OutOrStdout()
	failed := 0
	fail := func(id probe.ID, err error) {
		fmt.Fprintf(out, "%-15s FAILED: %v\n", id, err)
		failed++
	}
	var passed []probe.ID
	var checks []retro.Check
	var fileSums []string
	for _, id := range ids {
		c, sum, err := v.load(id, outOfCore)
		if err != nil {
			fail(id, err)
			continue
		}
		defer c.Table.Close() // out of core: its scratch files go
		passed = append(passed, id)
		checks = append(checks, c)
		fileSums = append(fileSums, sum)
	}
	if len(checks) == 0 {
		return failed, nil
	}
	names := make([]string, len(passed))
	for x, id := range passed {
		names[x] = id.String()
	}
	bar := newBar(strings.Join(names, ","))
	errs, err := retro.VerifyTogether(cmd.Context(), checks, retro.Options{Threads: v.threads, Progress: bar.update})
	bar.finish()
	if err != nil && cmd.Context().Err() != nil {
		return failed, err
	}
	for x, id := range passed {
		switch {
		case err != nil:
			fail(id, err)
		case errs[x] != nil:
			fail(id, errs[x])
		case x == 0:
			fmt.Fprintf(out, "%-15s ok  checksum and every value  %.1fs\n", id, time.Since(start).Seconds())
		default:
			fmt.Fprintf(out, "%-15s ok  checksum and every value  (same pass)\n", id)
		}
		if err == nil && errs[x] == nil {
			if err := store.MarkVerified(dir, id, fileSums[x]); err != nil {
				return failed, fmt.Errorf("%s verified, but not recorded in %s: %w", id, store.CatalogueFile, err)
			}
		}
	}
	return failed, nil
}

// outOfCore says whether the tables of ids, held whole with the
// sub-tables they read, would take more than --memory.
func (v *verification) outOfCore(ids []probe.ID) (bool, error) {
	if v.memory <= 0 {
		return false, nil
	}
	e, err := retro.EstimateTable(ids[0].Material, false)
	if err != nil {
		return false, err
	}
	// The generator's estimate holds the table being solved at 2.25 bytes
	// per index and both sides, about what a table held whole for its
	// check takes with the checker's own; each further table is 2 bytes.
	need := e.Memory + int64(len(ids)-1)*2*int64(e.Indices)
	return need > v.memory, nil
}

// load checks a table file against the checksums recorded for it —
// the directory's SHA256SUMS and the reference, at least one of them —
// and its internal checksums, and loads it for verification, whole or
// out of core.
func (v *verification) load(id probe.ID, outOfCore bool) (c retro.Check, sum string, err error) {
	dir, sums, cache := v.dir, v.sums, v.cache
	path := id.Path(dir)
	sum, err = store.FileSHA256(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, "", fmt.Errorf("not found: no file %s", path)
	}
	if err != nil {
		return c, "", err
	}
	name := filepath.Base(path)
	local, inDir := sums[name]
	ref, inReference := store.ReferenceChecksums()[name]
	switch {
	case !inDir && !inReference:
		return c, "", fmt.Errorf("%s: no checksum recorded, neither in %s nor in %s (gen records it)", path, filepath.Join(dir, store.ChecksumFile), store.ReferenceFile)
	case inDir && sum != local:
		return c, "", fmt.Errorf("%s: SHA-256 %s, %s records %s", path, sum, filepath.Join(dir, store.ChecksumFile), local)
	case inReference && sum != ref:
		return c, "", fmt.Errorf("%s: SHA-256 %s, %s records %s", path, sum, store.ReferenceFile, ref)
	}
	f, err := probe.OpenFile(path)
	if err != nil {
		return c, "", err
	}
	err = f.CheckData()
	f.Close()
	if err != nil {
		return c, "", err
	}
	var table *retro.Table
	if outOfCore {
		table, err = store.LoadOutOfCore(v.cmd.Context(), dir, id, v.scratch, v.threads)
	} else {
		table, err = cache.Load(id)
	}
	if err != nil {
		return c, "", err
	}
	c = retro.Check{Table: table, DTM: cache.DTM}
	if id.Rules != "" {
		r, err := honour.LookupRules(id.Rules)
		if err != nil {
			return c, "", err
		}
		c.Rules, c.DTB = &r, cache.Board(id.Rules)
	}
	return c, sum, nil
}

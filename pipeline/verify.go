package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Unverified keeps the ids whose catalogue row in dir has no verified mark
// for the checksum recorded for the file in sums.
func Unverified(dir string, ids []probe.ID, sums map[string]string) ([]probe.ID, error) {
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

// byMaterial splits ids into runs of one material, keeping their order.
func byMaterial(ids []probe.ID) [][]probe.ID {
	var groups [][]probe.ID
	for _, id := range ids {
		if n := len(groups); n > 0 && groups[n-1][0].Material == id.Material && groups[n-1][0].Game == id.Game {
			groups[n-1] = append(groups[n-1], id)
			continue
		}
		groups = append(groups, []probe.ID{id})
	}
	return groups
}

// Verifier checks the tables of a directory: each file's checksums, then
// every value against a one-ply search over the table and its sub-tables
// (the tables of one material in one pass), whole or out of core.
type Verifier struct {
	Dir     string
	Scratch string // where tables read out of core keep their values (default Dir)
	Memory  int64  // a material whose tables need more is read out of core (0: no limit)
	Threads int
	// Reference holds the SHA-256 each file must have, by format version
	// and file name (RepositoryReferences), beside the directory's own
	// record.
	Reference store.References
	Report    Reporter
	// Profiles are the custom rule profiles (profile files) whose DTB and
	// WDL files may be checked; the built-in ones need not be given.
	Profiles []honour.Rules

	dir      *store.Dir
	sums     map[string]string
	cache    *store.Cache
	freeDisk func(dir string) (int64, error) // retro.FreeDisk; a test fills the disk
}

// rules returns the profile of that name: a built-in one or one of
// Profiles.
func (v *Verifier) rules(name string) (*honour.Rules, error) {
	if r, ok := honour.Find(name, v.Profiles); ok {
		return r, nil
	}
	return nil, fmt.Errorf("rules %q: not a built-in profile (%s); give its profile file (verify --rules FILE.json)", name, honour.BuiltinNames())
}

// Tally counts the files a verification looked at: every table and WDL
// file checked, those that failed, and those it could not check because
// a file they are made from failed.
type Tally struct {
	Files, Failed, Unchecked int
}

// Verify checks the tables ids, a material at a time, with the WDL files
// of each material whose DTM table is among them, and returns the tally
// of files; each is reported by a line (Report.Print). An error means the
// work could not go on (interrupted, or a material refused before any
// work).
func (v *Verifier) Verify(ctx context.Context, ids []probe.ID) (tally Tally, err error) {
	tally.Files = len(ids)
	if v.Report == nil {
		v.Report = quiet{}
	}
	if v.Scratch == "" {
		v.Scratch = v.Dir
	}
	if v.freeDisk == nil {
		v.freeDisk = retro.FreeDisk
	}
	if err := RemoveStale(v.Report, v.Dir, v.Scratch); err != nil {
		return tally, err
	}
	if v.dir, err = store.OpenDir(v.Dir); err != nil {
		return tally, err
	}
	v.dir.Reference = v.Reference
	if v.sums, err = store.ReadChecksums(v.Dir); err != nil {
		return tally, err
	}
	if err := v.addRecordedProfiles(); err != nil {
		return tally, err
	}
	v.cache = store.NewCacheContext(ctx, v.Dir, 5)
	for i := range v.Profiles {
		v.cache.AddRules(&v.Profiles[i]) // to derive the side a version-2 file does not store
	}
	for _, group := range byMaterial(ids) {
		failedIDs, derived, err := v.material(ctx, group)
		tally.Failed += len(failedIDs)
		if err != nil {
			return tally, err
		}
		if group[0].Rules == "" && group[0].Game == tb.Makruk { // the material's DTM table: its WDL files too
			t, err := v.wdlFiles(ctx, group[0].Material, failedIDs, derived)
			tally.Files += t.Files
			tally.Failed += t.Failed
			tally.Unchecked += t.Unchecked
			if err != nil {
				return tally, err
			}
		}
	}
	return tally, nil
}

// addRecordedProfiles adds to Profiles the custom profiles the directory
// records (store.RecordProfile) that --rules did not give; one given
// under a recorded name must be the same rules.
func (v *Verifier) addRecordedProfiles() error {
	recorded, err := store.RecordedProfiles(v.Dir)
	if err != nil {
		return err
	}
	for _, r := range recorded {
		i := slices.IndexFunc(v.Profiles, func(p honour.Rules) bool { return p.Name == r.Name })
		switch {
		case i < 0:
			v.Profiles = append(v.Profiles, r)
		case !store.SameRules(&v.Profiles[i], &r):
			return fmt.Errorf("--rules: the profile %s differs from the one %s records, under which its files were made", r.Name, store.ProfileFile(v.Dir, r.Name))
		}
	}
	return nil
}

// material checks tables of one material: each file's checksums, then
// the values of every table that passed them, in one pass
// (retro.VerifyTogether), or out of core in as few passes as the scratch
// disk allows. It prints a line per table and returns those that failed
// and, held whole, the sides the passed ones derived (for their WDL
// files' check); an error means the pass was interrupted or could not
// start.
func (v *Verifier) material(ctx context.Context, ids []probe.ID) ([]probe.ID, map[probe.ID][2]*value.Array, error) {
	outOfCore, err := v.outOfCore(ids)
	if err != nil {
		return nil, nil, err
	}
	if !outOfCore {
		return v.pass(ctx, ids, false)
	}
	runs, err := v.byDisk(ids)
	if err != nil {
		return nil, nil, err
	}
	how := "one pass"
	if len(runs) > 1 {
		how = fmt.Sprintf("%d passes, the scratch disk holding %d of its %d tables at a time", len(runs), len(runs[0]), len(ids))
	}
	v.Report.Print(fmt.Sprintf("%-27s out of core: the values in scratch files in %s, %s (held whole they would pass --memory %s)", ids[0].Material, v.Scratch, how, units.Bytes(v.Memory)))
	var failed []probe.ID
	for _, run := range runs {
		f, _, err := v.pass(ctx, run, true)
		failed = append(failed, f...)
		if err != nil {
			return failed, nil, err
		}
	}
	return failed, nil, nil
}

// byDisk splits tables of one material read out of core into runs whose
// scratch files (retro.LoadScratchBytes for each table) fit together in the free space of the scratch
// directory: all in one run when they fit, else as many per run as do. A
// material whose single table does not fit is refused before any work.
func (v *Verifier) byDisk(ids []probe.ID) ([][]probe.ID, error) {
	e, err := retro.EstimateTable(tb.Makruk, ids[0].Material, false)
	if err != nil {
		return nil, err
	}
	each := retro.LoadScratchBytes(e.Indices)
	free, err := v.freeDisk(v.Scratch)
	if err != nil {
		return nil, fmt.Errorf("--scratch: %w", err)
	}
	fit := int((free - free/64) / each) // a margin for the overflow values and the rest of the disk's users
	if fit < 1 {
		return nil, fmt.Errorf("cannot verify %s out of core: each of its tables takes %s of scratch files, %s has %s free (--scratch names another directory)",
			ids[0].Material, units.Bytes(each), v.Scratch, units.Bytes(free))
	}
	var runs [][]probe.ID
	for len(ids) > fit {
		runs, ids = append(runs, ids[:fit]), ids[fit:]
	}
	return append(runs, ids), nil
}

// pass checks tables of one material in one pass: each file's checksums,
// then the values of every table that passed them (retro.VerifyTogether),
// whole or out of core. It returns the tables that failed and, held whole
// and below six pieces, the sides of the passed ones that their files do
// not store, as loading derived them: the material's WDL files are checked
// against them next, without deriving them again.
func (v *Verifier) pass(ctx context.Context, ids []probe.ID, outOfCore bool) ([]probe.ID, map[probe.ID][2]*value.Array, error) {
	dir := v.Dir
	start := time.Now()
	var failed []probe.ID
	fail := func(id probe.ID, err error) {
		v.Report.Print(fmt.Sprintf("%-27s FAILED: %v", id, err))
		failed = append(failed, id)
	}
	// The files' checksums first, then the tables whose files pass them
	// loaded: held whole, together (their unstored sides derived in one
	// pass), else one by one into scratch files.
	var sound []probe.ID
	var soundSums []string
	for _, id := range ids {
		sum, err := v.checkFile(id)
		if err != nil {
			fail(id, err)
			continue
		}
		sound, soundSums = append(sound, id), append(soundSums, sum)
	}
	var together []*retro.Table
	if !outOfCore && len(sound) > 1 {
		// A failure here is told table by table below, by loading each.
		together, _ = v.cache.LoadTogether(sound)
	}
	var passed []probe.ID
	var checks []retro.Check
	var fileSums []string
	for x, id := range sound {
		var table *retro.Table
		var err error
		switch {
		case together != nil:
			table = together[x]
		case outOfCore:
			table, err = store.LoadOutOfCore(ctx, dir, id, v.Scratch, v.Threads)
		default:
			table, err = v.cache.Load(id)
		}
		var c retro.Check
		if err == nil {
			c, err = v.checkOf(id, table)
		}
		if err != nil && ctx.Err() != nil {
			return failed, nil, ctx.Err() // interrupted, not failed
		}
		if err != nil {
			fail(id, err)
			continue
		}
		defer c.Table.Close() // out of core: its scratch files go
		passed = append(passed, id)
		checks = append(checks, c)
		fileSums = append(fileSums, soundSums[x])
	}
	if len(checks) == 0 {
		return failed, nil, nil
	}
	names := make([]string, len(passed))
	for x, id := range passed {
		names[x] = id.String()
	}
	v.Report.Start(strings.Join(names, ","))
	errs, err := retro.VerifyTogether(ctx, checks, retro.Options{Threads: v.Threads, Progress: v.Report.Progress})
	v.Report.Stop()
	if err != nil && ctx.Err() != nil {
		return failed, nil, err
	}
	derived := map[probe.ID][2]*value.Array{}
	for x, id := range passed {
		switch {
		case err != nil:
			fail(id, err)
		case errs[x] != nil:
			fail(id, errs[x])
		case x == 0:
			v.Report.Print(fmt.Sprintf("%-27s ok  checksum and every value  %.1fs", id, time.Since(start).Seconds()))
		default:
			v.Report.Print(fmt.Sprintf("%-27s ok  checksum and every value  (same pass)", id))
		}
		if err == nil && errs[x] == nil {
			if err := store.MarkVerified(dir, id, fileSums[x]); err != nil {
				return failed, nil, fmt.Errorf("%s verified, but not recorded in %s: %w", id, store.CatalogueFile, err)
			}
			// Kept below six pieces: a six-piece material's derived sides
			// (up to 4 GB each) are let go, as the memory plan assumes, and
			// its WDL files' check derives them again (holdBelow).
			if t := checks[x].Table; !outOfCore && id.Material.Pieces() < holdBelow && (t.Derived[0] || t.Derived[1]) {
				var sides [2]*value.Array
				for side := range sides {
					if t.Derived[side] {
						sides[side] = t.Values[side]
					}
				}
				derived[id] = sides
			}
		}
	}
	return failed, derived, nil
}

// outOfCore says whether the tables of ids, held whole with the
// sub-tables they read, would take more than --memory.
func (v *Verifier) outOfCore(ids []probe.ID) (bool, error) {
	if v.Memory <= 0 {
		return false, nil
	}
	e, err := retro.EstimateTable(tb.Makruk, ids[0].Material, false)
	if err != nil {
		return false, err
	}
	// The generator's estimate holds the table being solved at 2.25 bytes
	// per index and both sides, about what a table held whole for its
	// check takes with the checker's own; each further table is 2 bytes.
	need := e.Memory + int64(len(ids)-1)*2*int64(e.Indices)
	return need > v.Memory, nil
}

// checkFile checks a table file against the checksums recorded for it —
// the directory's SHA256SUMS and the reference, at least one of them —
// and its internal checksums, and returns its SHA-256.
func (v *Verifier) checkFile(id probe.ID) (sum string, err error) {
	dir, sums := v.Dir, v.sums
	path := id.Path(dir)
	sum, err = store.FileSHA256(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("not found: no file %s", path)
	}
	if err != nil {
		return "", err
	}
	name := filepath.Base(path)
	local, inDir := sums[name]
	version, _ := v.dir.Version(id)
	ref, listName, inReference := v.dir.ReferenceOf(name, version)
	switch {
	case !inDir && !inReference:
		return "", fmt.Errorf("%s: no checksum recorded, neither in %s nor in %s (gen records it)", path, filepath.Join(dir, store.ChecksumFile), listName)
	case inDir && sum != local:
		return "", fmt.Errorf("%s: SHA-256 %s, %s records %s", path, sum, filepath.Join(dir, store.ChecksumFile), local)
	case inReference && sum != ref:
		return "", fmt.Errorf("%s: SHA-256 %s, %s records %s", path, sum, listName, ref)
	}
	f, err := probe.OpenFile(path)
	if err != nil {
		return "", err
	}
	err = f.CheckData()
	f.Close()
	if err != nil {
		return "", err
	}
	return sum, nil
}

// checkOf is the check of the loaded table of id: its sub-tables, and for
// a DTB table its rules.
func (v *Verifier) checkOf(id probe.ID, table *retro.Table) (retro.Check, error) {
	c := retro.Check{Table: table, DTM: v.cache.DTMOf(id.Game)}
	if id.Rules != "" {
		profile, variant := id.Profile()
		r, err := v.rules(profile)
		if err != nil {
			return c, fmt.Errorf("%s: %w", id.Path(v.Dir), err)
		}
		c.Rules, c.Variant, c.Boards = r, variant, v.cache.Boards(profile)
	}
	return c, nil
}

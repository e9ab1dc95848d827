package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/parallel"
	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// ConvertResult is what became of one table converted to format version 2.
type ConvertResult struct {
	ID            probe.ID
	Before, After int64 // file sizes
	Took          time.Duration
	// Kept says the file was version 2 already.
	Kept bool
}

// String is the line that reports the table.
func (c ConvertResult) String() string {
	if c.Kept {
		return fmt.Sprintf("%-27s %10s  version 2 already: kept", c.ID.FileName(), units.Bytes(c.After))
	}
	return fmt.Sprintf("%-27s %10s → %10s  %5.1fs", c.ID.FileName(), units.Bytes(c.Before), units.Bytes(c.After), c.Took.Seconds())
}

// The stages of a table's conversion, as its progress reports them
// (Reporter.Progress); then the material's other sides are derived for its
// WDL files (retro.StageDerive).
const (
	StageCheckData retro.Stage = "check data"
	StageLoad      retro.Stage = "load"
	StageHoles     retro.Stage = "holes"
	StageWrite     retro.Stage = "write"
	StageReadBack  retro.Stage = "read back"
	StageChecksum  retro.Stage = "checksum"
)

// Conversion is what convert does to a directory.
type Conversion struct {
	Materials []tb.Material
	// Profiles are those of the WDL files to write (none: the tables
	// only, with Format 2).
	Profiles []honour.Rules
	// Format 2 rewrites the DTM and DTB tables in version 2 first
	// (ConvertMaterial); 1 leaves them as they are.
	Format int
	// Named says the materials were named: a WDL file whose DTB table is
	// missing is then an error, else listed at the end.
	Named bool
	// WDL is the WDL files' format.
	WDL WDLFormat
}

// Convert does c to dir: the tables in version 2 (with Format 2), then
// every WDL file of c's materials under c's profiles, a file made from
// the tables beside it kept. Each file is reported (report.Print), then
// the totals.
func Convert(ctx context.Context, report Reporter, dir *store.Dir, c Conversion) error {
	c.Materials = smallestFirst(c.Materials)
	converted := map[string]bool{} // WDL files ConvertMaterial wrote
	if c.Format == probe.Version2 {
		var before, after int64
		for _, m := range c.Materials {
			tables, wdl, err := ConvertMaterial(ctx, report, dir, m, c.Profiles, c.WDL)
			for _, res := range tables {
				before, after = before+res.Before, after+res.After
			}
			for _, res := range wdl {
				converted[res.Name] = !res.Kept
			}
			if err != nil {
				return err
			}
		}
		report.Print(fmt.Sprintf("tables in version 2: %s, %s before", units.Bytes(after), units.Bytes(before)))
	}
	if len(c.Profiles) == 0 {
		return nil // the tables only
	}
	wrote, kept := 0, 0
	var bytes int64
	var missing []string
	writer := NewWDLWriter(dir)
	writer.WDLFormat = c.WDL
	for _, m := range c.Materials {
		writer.Done() // the previous material's tables
		writer.Prepare(m, c.Profiles)
		for i := range c.Profiles {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("interrupted before %s; a rerun continues from there", probe.WDLFileName(m, c.Profiles[i].Name))
			}
			res, err := writer.Write(ctx, report, m, &c.Profiles[i])
			switch {
			case errors.Is(err, probe.ErrNeedsBoardTable) && !c.Named:
				missing = append(missing, res.Name)
				continue
			case err != nil:
				return err
			case converted[res.Name]:
				wrote++ // and reported as it was written
			case res.Kept:
				kept++
			default:
				wrote++
				report.Print(res.String())
			}
			bytes += res.Size
		}
	}
	report.Print(fmt.Sprintf("%s written, %s kept: %s of WDL files in %s", units.Plural(wrote, "WDL file", "WDL files"), units.Plural(kept, "file", "files"), units.Bytes(bytes), dir.Path()))
	if len(missing) > 0 {
		report.Print(fmt.Sprintf("%s not written: their DTB tables are not in %s (makruktb gen --dtb PROFILE MATERIAL makes them): %v", units.Plural(len(missing), "WDL file", "WDL files"), dir.Path(), missing))
	}
	return nil
}

// smallestFirst orders materials by their number of pieces, the
// smallest first (stable). A capture takes one piece, so every material a
// capture leads to comes before the material: its WDL file is there when
// the larger one's captures are searched (where a side's file stores
// bounds, or where version 3 looks for them at every position), instead
// of the position being judged from its DTM and DTB tables. In the order
// of the directory's names KMMvKS came before KSvKM: its thai WDL file
// (version 3) took 48.5 s without KSvKM's, 37.8 s with it, the same bytes.
func smallestFirst(materials []tb.Material) []tb.Material {
	out := slices.Clone(materials)
	slices.SortStableFunc(out, func(a, b tb.Material) int { return cmp.Compare(a.Pieces(), b.Pieces()) })
	return out
}

// ConvertMaterial rewrites the version-1 DTM and DTB tables of m in dir
// as version-2 files (convertTable), then writes m's WDL files under each
// of profiles whose tables are there. Those are computed from the side
// each file stores and the other side derived from it (retro.Derive, the
// tables of the material in one pass over the values still in memory),
// so a WDL file is the same whether made here or beside tables generated
// in version 2. Tables already in version 2 are kept. Other WDL files of
// m made from the version-1 tables are removed (Tables would refuse
// them). Each table and file written is reported (report.Print); each is
// held to dir.Reference.
// format is the WDL files' format.
func ConvertMaterial(ctx context.Context, report Reporter, dir *store.Dir, m tb.Material, profiles []honour.Rules, format WDLFormat) ([]ConvertResult, []WDLResult, error) {
	ids := dir.Tables()
	// The value arrays are most of the heap and hold no pointers: collect
	// garbage early rather than let the heap double past them (a
	// six-piece table's two sides are up to 15 GB).
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	var tables []ConvertResult
	loaded := map[probe.ID][2]*value.Array{}
	for _, id := range ids {
		if id.Material != m {
			continue
		}
		if err := ctx.Err(); err != nil {
			return tables, nil, fmt.Errorf("interrupted before %s; a rerun continues from there", id.FileName())
		}
		res, values, err := convertTable(ctx, report, dir, id)
		if err != nil {
			return tables, nil, err
		}
		report.Print(res.String())
		tables = append(tables, res)
		// The WDL pass below derives each table's other side from these
		// values. A six-piece table (up to 16 GB) is let go, as the runner
		// lets it go (holdBelow): the WDL pass loads and derives it again.
		switch {
		case res.Kept:
		case len(profiles) > 0 && m.Pieces() < holdBelow:
			loaded[id] = values
		default:
			// Garbage now, but the collector would let the next table
			// allocate as much again before they went.
			debug.FreeOSMemory()
		}
	}
	if len(profiles) == 0 { // the tables only: no other side to derive
		return tables, nil, removeStaleWDL(report, dir, m)
	}
	var wdl []WDLResult
	cache := store.NewCacheContext(ctx, dir.Path(), 5)
	if err := deriveOthers(ctx, report, m, cache, loaded, profiles); err != nil {
		return tables, nil, err
	}
	others := otherSides{cache: cache, loaded: loaded}
	for i := range profiles {
		r := &profiles[i]
		if probe.NeedsBoardTable(m, r) && !slices.Contains(ids, probe.ID{Material: m, Rules: r.Name}) {
			continue // convert's WDL pass reports it
		}
		res, err := writeWDLWith(ctx, report, dir, m, r, format.Version, format.Memory, others)
		if err != nil {
			return tables, wdl, err
		}
		if !res.Kept {
			report.Print(res.String())
		}
		wdl = append(wdl, res)
	}
	return tables, wdl, removeStaleWDL(report, dir, m)
}

// markHoles sets every index of values that is not a legal canonical
// position to value.Illegal, as a table fresh from the generator holds
// it. Its progress (StageHoles) goes by king pair, over both sides.
func markHoles(ctx context.Context, space *index.Space, values [2]*value.Array, progress func(retro.Progress)) error {
	per := space.PerKingPair()
	pairs := int64(space.KingPairs())
	// One buffer per worker, not per king pair: a six-piece table's
	// buffers add up to its size, garbage the collector would let pile up.
	buffers := sync.Pool{New: func() any { legal := make([]bool, per); return &legal }}
	for side := tb.White; side <= tb.Black; side++ {
		codes := values[side].Codes()
		before := int64(side) * pairs
		done := func(finished int64) {
			progress(retro.Progress{Stage: StageHoles, Done: before + finished, Total: 2 * pairs})
		}
		err := parallel.For(ctx, pairs, 0, func(k int64) error {
			lo := uint64(k) * per
			buf := buffers.Get().(*[]bool)
			defer buffers.Put(buf)
			legal := *buf
			clear(legal)
			space.Walk(int(k), side, func(i uint64, _ *tb.Position) { legal[i-lo] = true })
			for x, ok := range legal {
				if !ok {
					codes[lo+uint64(x)] = byte(value.Illegal)
				}
			}
			return nil
		}, done)
		if err != nil {
			return err
		}
	}
	return nil
}

// deriveOthers replaces, in each of tables (the version-1 values of one
// material's tables just converted, by id), the side its version-2 file
// does not store by the values derived from the side it stores, as
// loading the version-2 file would give them (holes included): one pass
// per side to move derived.
func deriveOthers(ctx context.Context, report Reporter, m tb.Material, cache *store.Cache, tables map[probe.ID][2]*value.Array, profiles []honour.Rules) error {
	var checks [2][]retro.Check
	var ids [2][]probe.ID
	for id, values := range tables {
		f, err := probe.OpenFile(id.Path(cache.Dir()))
		if err != nil {
			return err
		}
		side := f.Header.StoredSide().Other()
		space := f.Space
		f.Close()
		c := retro.Check{Table: &retro.Table{Space: space, Values: values}, DTM: cache.DTM}
		if id.Rules != "" {
			profile, variant := id.Profile()
			r, err := rulesNamed(profile, profiles)
			if err != nil {
				return err
			}
			c.Rules, c.Variant, c.Boards = r, variant, cache.Boards(profile)
		}
		checks[side] = append(checks[side], c)
		ids[side] = append(ids[side], id)
	}
	for side := range checks {
		if len(checks[side]) == 0 {
			continue
		}
		report.Start(fmt.Sprintf("%s, %s to move:", m, tb.Color(side)))
		err := retro.Derive(ctx, checks[side], tb.Color(side), retro.Options{Progress: report.Progress})
		report.Stop()
		if err != nil {
			return err
		}
		for x, id := range ids[side] {
			tables[id] = checks[side][x].Table.Values
		}
	}
	return nil
}

// rulesNamed returns the profile of that name among profiles, else the
// built-in one.
func rulesNamed(name string, profiles []honour.Rules) (*honour.Rules, error) {
	if r, ok := honour.Find(name, profiles); ok {
		return r, nil
	}
	return nil, fmt.Errorf("rule profile %q: neither built in nor given", name)
}

// convertTable rewrites the version-1 table id in dir as a version-2 file
// (probe.WriteFile), without regenerating it, and returns its values
// (none when it was version 2 already). The new file must read
// back as the old one's values on the side it stores and match its
// reference checksum when references have one; then it takes the old
// file's name, its checksum replaces the old one in the directory's
// record, and the catalogue row follows (a verified mark carries over: the
// side not stored is derived by the one-ply search verify checked). It
// holds the table's lock meanwhile.
func convertTable(ctx context.Context, report Reporter, d *store.Dir, id probe.ID) (res ConvertResult, values [2]*value.Array, err error) {
	dir := d.Path()
	res.ID = id
	name := id.FileName()
	path := id.Path(dir)
	unlock, err := store.LockTable(ctx, dir, name, func(holder string) {
		report.Log(fmt.Sprintf("%-27s another run is making it (%s): waiting for it", name, holder))
	})
	if err != nil {
		return res, values, err
	}
	defer unlock()
	old, err := probe.OpenFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return res, values, &probe.MissingError{Material: id.String(), Dir: dir}
	}
	if err != nil {
		return res, values, err
	}
	defer old.Close()
	if res.Before, err = fileSize(path); err != nil {
		return res, values, err
	}
	if old.Header.Version == probe.Version2 {
		res.Kept, res.After = true, res.Before
		return res, values, nil
	}
	start := time.Now()
	defer func() { res.Took = time.Since(start) }()
	report.Start(name)
	defer report.Stop()
	// Loading and writing report their stage only; the passes that go
	// by unit (king pairs, blocks) report each unit.
	stage := func(s retro.Stage) { report.Progress(retro.Progress{Stage: s, Total: 1}) }
	stage(StageCheckData)
	if err := old.CheckData(); err != nil {
		return res, values, err
	}
	stage(StageLoad)
	values, err = old.LoadAllContext(ctx)
	if err != nil {
		return res, values, err
	}
	// A version-1 file stores copies of neighbouring values in its
	// holes; marked as the generator marks them, they are filled as
	// version 2 fills them, so the file is the one gen --format 2 writes.
	if err := markHoles(ctx, old.Space, values, report.Progress); err != nil {
		return res, values, err
	}
	pending := d.PendingPath(name)
	stage(StageWrite)
	if err := probe.WriteFile(pending, old.Space, values, probe.Options{Version: probe.Version2, Metric: old.Header.Metric, Rules: old.Header.Rules}); err != nil {
		return res, values, err
	}
	defer os.Remove(pending) // gone once renamed
	if err := sameStoredValues(ctx, pending, values, report.Progress); err != nil {
		return res, values, err
	}
	stage(StageChecksum)
	oldSum, err := store.FileSHA256(path)
	if err != nil {
		return res, values, err
	}
	rows, err := store.ReadCatalogue(dir)
	if err != nil {
		return res, values, err
	}
	// The version-2 file replaces the version-1 file and its record; one
	// that differs from its reference is not kept: the old file stays.
	sum, err := d.Accept(store.Candidate{Name: name, Version: probe.Version2, Replace: true, Discard: true})
	if err != nil {
		return res, values, fmt.Errorf("%w: not converted, %s stays in version 1", err, name)
	}
	if res.After, err = fileSize(path); err != nil {
		return res, values, err
	}
	if row, ok := rows[id.String()]; ok {
		verified := row.VerifiedAs(oldSum)
		row.SHA256, row.Bytes = sum, res.After
		row.BitsPerPosition = float64(res.After) * 8 / float64(row.Positions)
		if err := store.UpdateRow(dir, *row); err != nil {
			return res, values, err
		}
		if verified {
			if err := store.MarkVerified(dir, id, sum); err != nil {
				return res, values, err
			}
		}
	}
	return res, values, nil
}

// sameStoredValues checks that the version-2 file at path holds values
// at every legal position of the side it stores (holes, which markHoles
// set to value.Illegal, may differ: each format fills them to compress
// best). It reads the file a block at a time, so the check holds no
// second copy of the table.
func sameStoredValues(ctx context.Context, path string, values [2]*value.Array, progress func(retro.Progress)) error {
	f, err := probe.OpenFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	side, h := f.Header.StoredSide(), &f.Header
	blocks := int64((h.Size + uint64(h.BlockSize) - 1) / uint64(h.BlockSize))
	done := func(finished int64) {
		progress(retro.Progress{Stage: StageReadBack, Done: finished, Total: blocks})
	}
	return parallel.For(ctx, blocks, 0, func(k int64) error {
		lo := uint64(k) * uint64(h.BlockSize)
		hi := min(lo+uint64(h.BlockSize), h.Size)
		stored, err := f.Range(side, lo, hi, nil)
		if err != nil {
			return err
		}
		for x, got := range stored {
			i := lo + uint64(x)
			if want := values[side].At(i); want != value.Illegal && got != want {
				p, _ := f.Space.Position(i, side)
				return fmt.Errorf("%s: %s reads back as %v, not %v", path, p.FEN(), got, want)
			}
		}
		return nil
	}, done)
}

// removeStaleWDL removes the WDL files of m in dir that were not made
// from the tables now beside them.
func removeStaleWDL(report Reporter, d *store.Dir, m tb.Material) error {
	dir := d.Path()
	for _, id := range d.WDLFilesOf(m) {
		path := filepath.Join(dir, probe.WDLFileName(m, id.Rules))
		wdl, err := probe.OpenFile(path)
		if err != nil {
			continue // verify reports a damaged file
		}
		dtm, _ := probe.OpenFile(probe.DTMID(m).Path(dir))
		dtb, _ := probe.OpenFile(probe.ID{Material: m, Rules: wdl.Header.Rules}.Path(dir))
		stale := probe.CheckSources(wdl, dtm, dtb) != nil
		rules := wdl.Header.Rules
		for _, f := range []*probe.File{wdl, dtm, dtb} {
			if f != nil {
				f.Close()
			}
		}
		if stale {
			if err := os.Remove(path); err != nil {
				return err
			}
			d.Forget(filepath.Base(path))
			report.Log(fmt.Sprintf("%-27s made from the version-1 tables: removed (convert --wdl %s makes it anew)", filepath.Base(path), rules))
		}
	}
	return nil
}

package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// WDLResult is what became of one WDL file.
type WDLResult struct {
	Name string // file name, e.g. "KRvKN.thai.mtbw"
	Size int64
	Took time.Duration
	// Kept says the file was present, made from the tables beside it,
	// and left alone.
	Kept bool
	// Recoded says that the file present was written anew from its own
	// categories (made before WDL files stored bounds where captures
	// decide).
	Recoded bool
}

// WriteWDL makes the WDL file of material m under rules r in dir from the
// DTM file there and, where board's honour decides, r's DTB file, unless
// a WDL file made from exactly those is present. It holds the file's lock
// meanwhile (store.LockTable: a run making it is waited for, which it
// tells report). The file is accepted as a table is (store.Dir.Accept): it
// must match its reference checksum (dir.Reference) when there is one,
// else it is recorded as it is (it is computed from tables that were
// checked); a mismatch leaves it as NAME.rejected.
func WriteWDL(ctx context.Context, report Reporter, dir *store.Dir, m tb.Material, r *honour.Rules) (res WDLResult, err error) {
	return writeWDLWith(ctx, report, dir, m, r, 0, 0, otherSides{cache: store.NewCache(dir.Path(), 5)})
}

// WDLWriter writes the WDL files of many materials and profiles in one
// directory, as WriteWDL does, deriving the sides version-2 files do not
// store once: the small tables for every material, a material's DTM table
// for all its profiles (until Done).
type WDLWriter struct {
	WDLFormat
	dir    *store.Dir
	others otherSides
}

// WDLFormat is the format of the WDL files written.
type WDLFormat struct {
	// Version is probe.Version2 (zstd blocks), probe.Version3 (pairs
	// streams, probed with no cache), or 0: DefaultWDLVersion(m), a file
	// of either version made from the tables beside it kept.
	Version int
	// Memory bounds what writing a file may take when Version is 0
	// (WDLMemory: version 2 where version 3 would take more); 0: no
	// bound.
	Memory int64
}

// NewWDLWriter returns a WDLWriter for dir.
func NewWDLWriter(dir *store.Dir) *WDLWriter {
	return &WDLWriter{dir: dir, others: otherSides{cache: store.NewCache(dir.Path(), 5), hold: true}}
}

// Write makes the WDL file of m under r (see WriteWDL).
func (w *WDLWriter) Write(ctx context.Context, report Reporter, m tb.Material, r *honour.Rules) (WDLResult, error) {
	return writeWDLWith(ctx, report, w.dir, m, r, w.Version, w.Memory, w.others)
}

// Done lets go of the tables held for the material's profiles.
func (w *WDLWriter) Done() { w.others.cache.Release() }

// Prepare reads, for the WDL files of m under profiles that are to be
// written anew, the version-2 tables they are made from together, their
// unstored sides derived in one pass (store.Cache.LoadTogether), and holds
// them until Done: KRRvKN's DTM and two DTB tables take one derivation
// instead of three. Six-piece tables are left to Write, one at a time, as
// the memory plan assumes (holdBelow). It is only a head start: what it
// cannot read, Write reads, and reports.
func (w *WDLWriter) Prepare(m tb.Material, profiles []honour.Rules) {
	if m.Pieces() >= holdBelow {
		return
	}
	var ids []probe.ID
	add := func(id probe.ID) {
		if v, ok := w.dir.Version(id); ok && v == probe.Version2 && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	for i := range profiles {
		r := &profiles[i]
		id := probe.ID{Material: m, Rules: r.Name}
		if w.dir.WDLCurrent(id, w.Version) {
			continue
		}
		w.others.cache.AddRules(r)
		add(probe.DTMID(m))
		if probe.NeedsBoardTable(m, r) {
			add(id)
		}
	}
	if len(ids) < 2 {
		return // nothing to share
	}
	tables, err := w.others.cache.LoadTogether(ids)
	if err != nil {
		return
	}
	for x, id := range ids {
		w.others.cache.Hold(id, tables[x])
	}
}

// DefaultWDLVersion returns the format of m's WDL files when none is asked
// for: version 3, whose probes read a few bytes of the file and need no
// cache of decompressed blocks, up to five pieces; version 2 beyond. The
// version-3 writer takes about 17 bytes per index of a side beside the
// tables it reads (probe.WDLWriterMemory: some 65 GB for a six-piece
// side of 3.8 G indices), and has not been run on six pieces. gen also
// writes version 2 where version 3 would not fit its --memory
// (wdlVersionWithin).
func DefaultWDLVersion(m tb.Material) int {
	if m.Pieces() <= 5 {
		return probe.Version3
	}
	return probe.Version2
}

// WDLMemory is the peak of writing m's WDL files of game g in format
// version as gen does, at the end of the material's run: the
// generation's own estimate (retro.EstimateTable: the tables and
// sub-tables it holds) and what the writer takes beyond version 2's
// (probe.WDLWriterMemory).
func WDLMemory(g tb.Game, m tb.Material, version int) (int64, error) {
	e, err := retro.EstimateTable(g, m, false)
	if err != nil {
		return 0, err
	}
	return e.Memory + probe.WDLWriterMemory(e.Indices, version), nil
}

// wdlVersionWithin returns the format of m's WDL files when none is asked
// for and the run may take limit bytes (0: no limit): DefaultWDLVersion,
// but version 2 where version 3's writer would take more than limit, and
// the line that says so ("" when nothing is said).
func wdlVersionWithin(g tb.Game, m tb.Material, limit int64) (int, string) {
	version := DefaultWDLVersion(m)
	if version != probe.Version3 || limit <= 0 {
		return version, ""
	}
	need, err := WDLMemory(g, m, version)
	if err != nil || need <= limit {
		return version, ""
	}
	return probe.Version2, fmt.Sprintf("format 3 would take about %s, more than --memory (%s): written in format 2", units.Bytes(need), units.Bytes(limit))
}

// writeWDLWith is WriteWDL with the values of the sides version-2 files do
// not store from others.
//
// With version 0 the version is chosen (wdlVersionWithin) within limit
// bytes of memory (0: no limit).
func writeWDLWith(ctx context.Context, report Reporter, d *store.Dir, m tb.Material, r *honour.Rules, version int, limit int64, others otherSides) (res WDLResult, err error) {
	dir := d.Path()
	name := probe.WDLFileName(m, r.Name)
	res.Name = name
	others.cache.AddRules(r) // a custom profile's DTB tables may need deriving
	path := filepath.Join(dir, name)
	waited := false
	unlock, err := store.LockTable(ctx, dir, name, func(holder string) {
		waited = true
		report.Log(fmt.Sprintf("%-27s another run is making it (%s): waiting for it", name, holder))
	})
	if err != nil {
		return res, err
	}
	defer unlock()
	if err := store.RecordProfile(dir, r); err != nil {
		return res, err
	}
	id := probe.ID{Material: m, Rules: r.Name}
	if waited {
		d.Look(name) // what the other run made
	}
	// A file present made from the tables beside it is kept: the
	// directory's listing tells, no file is opened.
	if d.WDLCurrent(id, version) {
		res.Kept = true
		reference, _ := d.Reference.Of(wdlReferenceVersion(d, id))
		_, err := store.EnsureChecksumOf(dir, name, reference)
		if err == nil {
			res.Size, err = fileSize(path)
		}
		return res, err
	}
	dtm, err := probe.OpenFile(probe.DTMID(m).Path(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return res, &probe.MissingError{Material: m.String(), Dir: dir}
	}
	if err != nil {
		return res, err
	}
	defer dtm.Close()
	if version == 0 {
		var why string
		if version, why = wdlVersionWithin(dtm.Header.Game, m, limit); why != "" {
			report.Log(fmt.Sprintf("%-27s %s", name, why))
		}
	}
	var dtb *probe.File
	if probe.NeedsBoardTable(m, r) {
		id := probe.ID{Material: m, Rules: r.Name}
		dtb, err = probe.OpenFile(id.Path(dir))
		if errors.Is(err, fs.ErrNotExist) {
			return res, fmt.Errorf("%s needs %s in %s (makruktb gen --dtb %s %s makes it): %w", name, id.FileName(), dir, r.Name, m, probe.ErrNeedsBoardTable)
		}
		if err != nil {
			return res, err
		}
		defer dtb.Close()
	}
	start := time.Now()
	defer func() { res.Took = time.Since(start) }()
	// A file present made from these tables before WDL files stored
	// bounds where captures decide is written anew (in version 2) from its
	// own categories, with no table derived. (One made since was kept
	// above.)
	var old *probe.File
	if present, err := probe.OpenFile(path); err == nil && version != probe.Version3 {
		defer present.Close()
		if probe.CheckSources(present, dtm, dtb) == nil && !present.Header.CapturesDecided() {
			old, res.Recoded = present, true
		}
	} else if err == nil {
		present.Close()
	}
	subs, err := probe.Open(dir, wholeSubs) // the positions after a capture
	if err != nil {
		return res, err
	}
	defer subs.Close()
	pending := d.PendingPath(name)
	if old != nil {
		err = probe.RecodeWDL(pending, old, r, subs)
	} else if err = others.give(dtm, dtb); err == nil {
		err = probe.WriteWDL(pending, dtm, dtb, r, subs, version)
	}
	if err != nil {
		return res, err
	}
	// Made anew from its tables, the file replaces its record.
	held := wdlList(version, dtm.Header.Version)
	if _, err := d.Accept(store.Candidate{Name: name, Version: held, Replace: true}); err != nil {
		return res, err
	}
	res.Size, err = fileSize(path)
	return res, err
}

// String is the line that reports the file.
func (w WDLResult) String() string {
	if w.Kept {
		return fmt.Sprintf("%-27s %10s  present, made from the tables beside it: kept", w.Name, units.Bytes(w.Size))
	}
	if w.Recoded {
		return fmt.Sprintf("%-27s %10s  %5.1fs  written anew from the file present (bounds where captures decide)", w.Name, units.Bytes(w.Size), w.Took.Seconds())
	}
	return fmt.Sprintf("%-27s %10s  %5.1fs", w.Name, units.Bytes(w.Size), w.Took.Seconds())
}

// wdlPlan is what a run needs to write the WDL files of its materials
// (Runner.WDL): every material of its DTM jobs under every profile of the
// run (Runner.Profiles and its DTB jobs'), where the DTB table a WDL file
// needs was among them or is in the directory, each material's once its
// last job is done (Run).
type wdlPlan struct {
	profiles []*honour.Rules
	boards   map[probe.ID]bool
	last     map[tb.Material]int // the index of the material's last job
	others   otherSides
}

func (r *Runner) planWDL(ctx context.Context, jobs []Job) *wdlPlan {
	w := &wdlPlan{boards: map[probe.ID]bool{}, last: map[tb.Material]int{}}
	for i := range r.Profiles {
		w.profiles = append(w.profiles, &r.Profiles[i])
	}
	dtm := map[tb.Material]bool{}
	for n, j := range jobs {
		w.last[j.ID.Material] = n
		if j.Rules == nil {
			dtm[j.ID.Material] = true
			continue
		}
		w.boards[j.ID] = true
		if !slices.ContainsFunc(w.profiles, func(p *honour.Rules) bool { return p.Name == j.Rules.Name }) {
			w.profiles = append(w.profiles, j.Rules)
		}
	}
	for m := range w.last {
		if !dtm[m] {
			delete(w.last, m)
		}
	}
	// One cache for the run: a small table a version-2 file stores one
	// side of is derived once for all its profiles. The tables the runner
	// has just made come from its own cache (Hold), their holes filled as
	// the files' derived sides have them.
	w.others = otherSides{cache: store.NewCacheContext(ctx, r.Dir, 5), made: r.cache, hold: true}
	return w
}

// writeWDLOf writes the WDL files of m under the plan's profiles.
func (r *Runner) writeWDLOf(ctx context.Context, w *wdlPlan, m tb.Material) error {
	defer w.others.cache.Release() // m's DTM table, derived once for its profiles
	for _, p := range w.profiles {
		if id := (probe.ID{Material: m, Rules: p.Name}); probe.NeedsBoardTable(m, p) && !w.boards[id] && !r.dir.Has(id) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted before %s; a rerun continues from there", probe.WDLFileName(m, p.Name))
		}
		res, err := writeWDLWith(ctx, r.Report, r.dir, m, p, r.WDLVersion, r.Memory, w.others)
		if err != nil {
			return err
		}
		if !res.Kept {
			r.Report.Print(res.String())
		}
	}
	return nil
}

// otherSides gives a file that stores one side to move (version 2) the
// other side's values (probe.File.SetDerived): those of the table in
// memory (loaded, by id: a table just converted; or one the cache made
// holds, just generated, a copy with its holes filled as Derive fills
// them), else derived from the sub-tables cache gives; with hold, a DTM
// table below holdBelow pieces so derived stays in the cache until its
// Release.
type otherSides struct {
	cache  *store.Cache
	loaded map[probe.ID][2]*value.Array
	made   *store.Cache
	hold   bool
}

func (o otherSides) give(files ...*probe.File) error {
	for _, f := range files {
		if f == nil || !f.Header.OneSided() {
			continue
		}
		id := probe.ID{Material: f.Header.Material, Rules: f.Header.Rules}
		other := f.Header.StoredSide().Other()
		values, ok := o.loaded[id]
		ok = ok && values[other] != nil
		if t, held := o.made.Held(id); !ok && held {
			filled, err := retro.HolesFilled(t.Values[other])
			if err != nil {
				return err
			}
			values[other], ok = filled, true
		}
		if !ok {
			table, err := o.cache.Load(id)
			if err != nil {
				return err
			}
			if o.hold && id.Rules == "" && id.Material.Pieces() < holdBelow {
				o.cache.Hold(id, table) // for the material's other profiles, until Release
			}
			values = table.Values
		}
		if err := f.SetDerived(other, values[other]); err != nil {
			return err
		}
	}
	return nil
}

func fileSize(path string) (int64, error) {
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}

// wdlFiles checks the WDL files of m in the directory: each file's SHA-256
// against the directory's record and the reference, then every category
// recomputed from the DTM and DTB files it was made from. A file made from
// a table among failed is not checked (the line names that table). It
// prints a line per file and returns their tally. derived holds the sides
// of m's tables their files do not store, where the tables' own check
// derived them.
func (v *Verifier) wdlFiles(ctx context.Context, m tb.Material, failed []probe.ID, derived map[probe.ID][2]*value.Array) (Tally, error) {
	var tally Tally
	for _, id := range v.dir.WDLFilesOf(m) {
		tally.Files++
		name := probe.WDLFileName(m, id.Rules)
		if i := slices.IndexFunc(failed, func(f probe.ID) bool { profile, _ := f.Profile(); return f.Rules == "" || profile == id.Rules }); i >= 0 {
			v.Report.Print(fmt.Sprintf("%-27s not checked: made from %s, which failed", name, failed[i].FileName()))
			tally.Unchecked++
			continue
		}
		start := time.Now()
		err := v.checkWDL(ctx, filepath.Join(v.Dir, name), m, id.Rules, derived)
		if ctx.Err() != nil {
			return tally, ctx.Err()
		}
		if err != nil {
			v.Report.Print(fmt.Sprintf("%-27s FAILED: %v", name, err))
			tally.Failed++
			continue
		}
		v.Report.Print(fmt.Sprintf("%-27s ok  checksum and every category from its tables  %.1fs", name, time.Since(start).Seconds()))
	}
	return tally, nil
}

func (v *Verifier) checkWDL(ctx context.Context, path string, m tb.Material, rulesName string, derived map[probe.ID][2]*value.Array) error {
	name := filepath.Base(path)
	r, err := v.rules(rulesName)
	if err != nil {
		return fmt.Errorf("cannot tell its rules: %w", err)
	}
	sum, err := store.FileSHA256(path)
	if err != nil {
		return err
	}
	if ref, listName, ok := v.dir.ReferenceOf(name, wdlReferenceVersion(v.dir, probe.ID{Material: m, Rules: rulesName})); ok && ref != sum {
		return fmt.Errorf("SHA-256 %s differs from %s in %s", sum, ref, listName)
	}
	if own, ok := v.sums[name]; ok && own != sum {
		return fmt.Errorf("SHA-256 %s differs from %s in %s", sum, own, filepath.Join(v.Dir, store.ChecksumFile))
	}
	wdl, err := probe.OpenFile(path)
	if err != nil {
		return err
	}
	defer wdl.Close()
	if err := wdl.CheckData(); err != nil {
		return err
	}
	dtm, err := probe.OpenFile(probe.DTMID(m).Path(v.Dir))
	if err != nil {
		return err
	}
	defer dtm.Close()
	var dtb *probe.File
	if probe.NeedsBoardTable(m, r) {
		if dtb, err = probe.OpenFile(probe.ID{Material: m, Rules: r.Name}.Path(v.Dir)); err != nil {
			return err
		}
		defer dtb.Close()
	}
	if err := (otherSides{cache: v.cache, loaded: derived}).give(dtm, dtb); err != nil {
		return err
	}
	subs, err := probe.Open(v.Dir, wholeSubs)
	if err != nil {
		return err
	}
	defer subs.Close()
	return probe.CheckWDL(ctx, wdl, dtm, dtb, r, subs)
}

// wholeSubs decodes the version-3 WDL files of the materials a capture
// leads to, when a side has at most 2^27 values (every table up to five
// pieces without a Khon; a byte a value): writing or checking a WDL file
// searches the captures of most positions, and a decoded side answers
// without decoding a block each time (KRRvKN.thai in version 3 beside
// version-3 sub-tables: written in 28-31 s against 35-39, a gen beside).
var wholeSubs = probe.WithDecodedWDL(1 << 27)

// wdlReferenceVersion is the reference list a WDL file present is held to
// (wdlList of its version and its DTM table's).
func wdlReferenceVersion(d *store.Dir, id probe.ID) int {
	wdl, _ := d.Entry(id.WDLFileName())
	tables, _ := d.Version(probe.DTMID(id.Material))
	return wdlList(wdl.Version, tables)
}

// wdlList is the reference list of a WDL file of format version made from
// tables of format tables: version 3's for a version-3 file made from
// version-2 tables (data/checksums-v3.txt), none for one made from
// version-1 tables (its bytes record their checksums), else the list of
// its tables' version (the two kinds of directory give the same names
// different bytes).
func wdlList(version, tables int) int {
	switch {
	case version != probe.Version3:
		return tables
	case tables == probe.Version2:
		return probe.Version3
	}
	return store.Unlisted
}

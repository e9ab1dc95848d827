package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// A table directory holds, besides the tables and WDL files readers open,
// the files of work under way or refused, each named after the file it
// would be:
//
//	KRvKN.thai.mtbb              a table (DTM .mtbm, DTB .mtbb)
//	KRvKN.thai.mtbw              a WDL file
//	KRvKN.thai.mtbb.unaccepted   written, not yet accepted (Accept)
//	KRvKN.thai.mtbb.rejected     failed its check; no reader opens it
//	KRvKN.thai.resume            a generation's saved state (checkpoint)
//	PROFILE.rules.json           a custom rule profile (RecordProfile)
//
// Dir lists them once, when opened, and keeps the listing as it accepts
// files: every question "is this table here, in which version" is
// answered from it, not by opening the file again.

// The suffixes of the files no reader opens: a table written but not yet
// accepted, one that failed its check, a generation's saved state.
const (
	PendingSuffix    = ".unaccepted"
	RejectedSuffix   = ".rejected"
	CheckpointSuffix = ".resume"
)

// ErrNoTables is wrapped by errors about a directory that holds no table.
var ErrNoTables = errors.New("no tables")

// Kind is what a file of a table directory is.
type Kind uint8

const (
	KindTable      Kind = iota + 1 // a DTM or DTB table
	KindWDL                        // a WDL file
	KindPending                    // NAME.unaccepted
	KindRejected                   // NAME.rejected
	KindCheckpoint                 // NAME.resume
	KindProfile                    // PROFILE.rules.json
)

var kindNames = map[Kind]string{KindTable: "table", KindWDL: "WDL file", KindPending: "pending", KindRejected: "rejected", KindCheckpoint: "checkpoint", KindProfile: "rule profile"}

func (k Kind) String() string { return kindNames[k] }

// Entry is one file of a table directory.
type Entry struct {
	Name string // in the directory
	Kind Kind
	// ID is the table the file is, would be (pending, rejected,
	// checkpoint) or answers for (a WDL file: its DTB table's ID). A
	// profile's file has the profile's name in ID.Rules.
	ID probe.ID
	// Version is a table's or WDL file's format version, from its header;
	// Err says why the header could not be read (the file is damaged or
	// not whole), and Version is then 0.
	Version int
	Err     error
	// Header is the header of a table or WDL file read (nil with Err).
	Header *probe.Header
}

// Usable reports whether e is a table or WDL file whose header was read.
func (e Entry) Usable() bool { return (e.Kind == KindTable || e.Kind == KindWDL) && e.Err == nil }

// Dir is a table directory, listed once: its tables and WDL files with the
// version of each, and the files of work under way. Its methods are safe
// for concurrent use.
type Dir struct {
	path string
	// Reference holds the SHA-256 each file must have, by format version
	// and name: the repository's (RepositoryReferences) unless set.
	Reference References

	mu      sync.Mutex
	entries map[string]Entry
}

// OpenDir lists the directory at path, reading the header of each table
// and WDL file. A directory that does not exist is empty.
func OpenDir(path string) (*Dir, error) {
	d := &Dir{path: path, Reference: RepositoryReferences()}
	return d, d.Refresh()
}

// Path returns the directory's path.
func (d *Dir) Path() string { return d.path }

// Refresh lists the directory again: files made or removed by another
// process since it was opened.
func (d *Dir) Refresh() error {
	dirents, err := os.ReadDir(d.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	entries := map[string]Entry{}
	for _, de := range dirents {
		if de.IsDir() {
			continue
		}
		if e, ok := d.classify(de.Name()); ok {
			entries[e.Name] = e
		}
	}
	d.mu.Lock()
	d.entries = entries
	d.mu.Unlock()
	return nil
}

// classify tells what the file of that name is, reading its header when it
// is a table or WDL file; false for a file the project does not write.
func (d *Dir) classify(name string) (Entry, bool) {
	e := Entry{Name: name}
	var ok bool
	switch {
	case strings.HasSuffix(name, PendingSuffix):
		e.Kind = KindPending
		e.ID, ok = parseAnyFileName(strings.TrimSuffix(name, PendingSuffix))
	case strings.HasSuffix(name, RejectedSuffix):
		e.Kind = KindRejected
		e.ID, ok = parseAnyFileName(strings.TrimSuffix(name, RejectedSuffix))
	case strings.HasSuffix(name, CheckpointSuffix):
		e.Kind = KindCheckpoint
		e.ID, ok = probe.ParseID(strings.TrimSuffix(name, CheckpointSuffix))
	case strings.HasSuffix(name, profileSuffix):
		e.Kind, e.ID.Rules, ok = KindProfile, strings.TrimSuffix(name, profileSuffix), true
	default:
		if e.ID, ok = probe.ParseFileName(name); ok {
			e.Kind = KindTable
		} else if e.ID, ok = probe.ParseWDLFileName(name); ok {
			e.Kind = KindWDL
		}
		if ok {
			d.readHeader(&e)
		}
	}
	return e, ok
}

// readHeader sets e's Version, or its Err when the header is not that of
// the file its name says.
func (d *Dir) readHeader(e *Entry) {
	path := filepath.Join(d.path, e.Name)
	h, err := probe.ReadHeader(path)
	if err == nil {
		metric := e.ID.Metric()
		if e.Kind == KindWDL {
			metric = probe.WDL
		}
		err = h.Holds(e.ID, metric, path)
	}
	if err != nil {
		e.Err = err
		return
	}
	e.Version, e.Header = h.Version, h
}

// parseAnyFileName reads the name of a table or of a WDL file.
func parseAnyFileName(name string) (probe.ID, bool) {
	if id, ok := probe.ParseFileName(name); ok {
		return id, true
	}
	return probe.ParseWDLFileName(name)
}

// Entry returns the entry of the file of that name.
func (d *Dir) Entry(name string) (Entry, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[name]
	return e, ok
}

// Has reports whether the table of id is present: its file is there and
// its header holds that table.
func (d *Dir) Has(id probe.ID) bool {
	e, ok := d.Entry(id.FileName())
	return ok && e.Usable()
}

// HasWDL reports whether the WDL file of id (a DTB table's ID) is present.
func (d *Dir) HasWDL(id probe.ID) bool {
	e, ok := d.Entry(id.WDLFileName())
	return ok && e.Usable()
}

// Version returns the format version of the table of id, if present.
func (d *Dir) Version(id probe.ID) (int, bool) {
	e, ok := d.Entry(id.FileName())
	return e.Version, ok && e.Usable()
}

// WDLCurrent reports whether the WDL file of id (a DTB table's ID) is
// present in the current form (bounds where captures decide), in format
// version (any, when 0), and was made from the DTM file and, where it
// needs one, the DTB file beside it: the data checksums its header
// records are theirs. The listing answers; no file is opened.
func (d *Dir) WDLCurrent(id probe.ID, version int) bool {
	wdl, ok := d.Entry(id.WDLFileName())
	if !ok || !wdl.Usable() || !wdl.Header.CapturesDecided() || version != 0 && wdl.Version != version {
		return false
	}
	dtm, ok := d.Entry(probe.DTMID(id.Material).FileName())
	if !ok || !dtm.Usable() || dtm.Header.DataCRC != wdl.Header.DTMCRC {
		return false
	}
	if wdl.Header.DTBCRC == 0 {
		return true
	}
	dtb, ok := d.Entry(id.FileName())
	return ok && dtb.Usable() && dtb.Header.DataCRC == wdl.Header.DTBCRC
}

// Entries returns the entries of the given kinds (every kind when none is
// given), in the order of their names.
func (d *Dir) Entries(kinds ...Kind) []Entry {
	d.mu.Lock()
	var out []Entry
	for _, e := range d.entries {
		if len(kinds) == 0 || slices.Contains(kinds, e.Kind) {
			out = append(out, e)
		}
	}
	d.mu.Unlock()
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Tables returns the IDs of the tables in the directory by name, DTM and
// DTB, damaged or not (Has tells), in the order of their file names.
func (d *Dir) Tables() []probe.ID {
	var out []probe.ID
	for _, e := range d.Entries(KindTable) {
		out = append(out, e.ID)
	}
	return out
}

// WDLFilesOf returns the WDL files of Makruk material m in the directory,
// damaged or not (HasWDL tells), each by its DTB table's ID, in the order
// of their names.
func (d *Dir) WDLFilesOf(m tb.Material) []probe.ID {
	var out []probe.ID
	for _, e := range d.Entries(KindWDL) {
		if e.ID.Material == m {
			out = append(out, e.ID)
		}
	}
	return out
}

// Materials returns the materials of the Makruk DTM tables present.
func (d *Dir) Materials() []tb.Material {
	var out []tb.Material
	for _, id := range d.Tables() {
		if id.Rules == "" && id.Game == tb.Makruk && d.Has(id) {
			out = append(out, id.Material)
		}
	}
	return out
}

// ReferenceOf returns the SHA-256 the file of that name must have in
// format version, if the references hold one, and the list's name.
func (d *Dir) ReferenceOf(name string, version int) (sum, list string, ok bool) {
	refs, list := d.Reference.Of(version)
	sum, ok = refs[name]
	return sum, list, ok
}

// A Candidate is a file written under its pending name (NAME.unaccepted)
// for Accept to give its name.
type Candidate struct {
	Name    string // the file's final name in the directory
	Version int    // its format version: the reference list it is held to
	// Check, if set, checks the file further once its SHA-256 is known to
	// be the reference's or the references hold none: a fault refuses
	// the file; err stops Accept, the pending file removed.
	Check func(sum string) (fault, err error)
	// Replace lets a SHA-256 other than the one SHA256SUMS records for the
	// name replace it (a WDL file made anew, a table written over a file
	// of the other version); otherwise that refuses the file.
	Replace bool
	// Discard removes a refused file instead of keeping it as
	// NAME.rejected.
	Discard bool
}

// PendingPath returns where the file of that name is written before
// Accept.
func (d *Dir) PendingPath(name string) string {
	return filepath.Join(d.path, name+PendingSuffix)
}

// Accept gives the pending file of c its name if it is right: byte for
// byte its reference when the references hold one, then c.Check, then,
// unless c.Replace, byte for byte what SHA256SUMS records for it. The
// file is renamed over whatever had the name and its checksum recorded.
// A file refused is kept as NAME.rejected (or removed, with c.Discard),
// what had the name stays, and the error says so. The generator itself is
// what this guards against (issue 42: two workers once wrote wrong values
// from time to time). Accept returns the file's SHA-256.
func (d *Dir) Accept(c Candidate) (sum string, err error) {
	pending := d.PendingPath(c.Name)
	if sum, err = FileSHA256(pending); err != nil {
		return "", err
	}
	var fault error
	ref, list, hasRef := d.ReferenceOf(c.Name, c.Version)
	if hasRef && sum != ref {
		fault = fmt.Errorf("%s: SHA-256 %s differs from %s in %s: the generator's output changed", c.Name, sum, ref, list)
	}
	if fault == nil && c.Check != nil {
		if fault, err = c.Check(sum); err != nil {
			os.Remove(pending)
			return "", err
		}
	}
	if fault == nil && !c.Replace {
		sums, err := ReadChecksums(d.path)
		if err != nil {
			return "", err
		}
		fault = RecordMismatch(d.path, sums, c.Name, sum)
	}
	if fault != nil {
		if c.Discard {
			os.Remove(pending)
			return "", fmt.Errorf("%w; not accepted", fault)
		}
		rejected := filepath.Join(d.path, c.Name+RejectedSuffix)
		if err := atomicfile.Rename(pending, rejected); err != nil {
			return "", err
		}
		d.add(rejected)
		return "", fmt.Errorf("%w; not accepted: the file is kept as %s, which no reader opens", fault, rejected)
	}
	path := filepath.Join(d.path, c.Name)
	if err := atomicfile.Rename(pending, path); err != nil {
		return "", err
	}
	d.add(path)
	refs, _ := d.Reference.Of(c.Version)
	return sum, recordChecksum(d.path, c.Name, sum, refs, c.Replace)
}

// add lists the file at path (just written or renamed) and forgets its
// pending file.
func (d *Dir) add(path string) {
	name := filepath.Base(path)
	d.Forget(name + PendingSuffix)
	d.Look(name)
}

// Look lists the file of that name again: made, or removed, by another
// process since the directory was listed.
func (d *Dir) Look(name string) {
	e, ok := d.classify(name)
	if ok {
		if _, err := os.Stat(filepath.Join(d.path, name)); err != nil {
			ok = false
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if ok {
		d.entries[name] = e
	} else {
		delete(d.entries, name)
	}
}

// Forget drops the file of that name from the listing (it was removed).
func (d *Dir) Forget(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.entries, name)
}

// References are the checksums the files of a table directory are held
// to, by the format version of the tables: V1 for version-1 tables and
// the WDL files made from them, V2 for version-2 tables and theirs (the
// two kinds of directory give the same names different bytes). A file
// named in the list of its version must match it.
type References struct{ V1, V2, V3 map[string]string }

// RepositoryReferences returns the repository's lists, data.Checksums,
// data.ChecksumsV2 and data.ChecksumsV3.
func RepositoryReferences() References {
	return References{V1: data.Checksums(), V2: data.ChecksumsV2(), V3: data.ChecksumsV3()}
}

// Unlisted is the list key of files no reference list holds (References.Of
// gives no list): a version-3 WDL file made from version-1 tables, whose
// bytes record those tables' checksums.
const Unlisted = -1

// Of returns the list of format version and its name for messages.
func (r References) Of(version int) (map[string]string, string) {
	switch version {
	case Unlisted:
		return nil, "no reference list"
	case probe.Version2:
		return r.V2, data.ReferenceV2Name
	case probe.Version3:
		return r.V3, data.ReferenceV3Name
	}
	return r.V1, data.ReferenceName
}

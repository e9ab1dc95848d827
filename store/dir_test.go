package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// copyTestdata copies probe's test file from into dir as to.
func copyTestdata(t *testing.T, dir, from, to string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "probe", "testdata", from))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, to), b, 0o644))
}

// A directory is listed once: each file by its kind and table, a table's
// version from its header, a damaged file or one under another table's
// name present by name but not usable, files of other programs ignored.
func TestOpenDirLists(t *testing.T) {
	dir := t.TempDir()
	copyTestdata(t, dir, "KMvK.mtbm", "KMvK.mtbm")
	copyTestdata(t, dir, "KMvK.thai.mtbw", "KMvK.thai.mtbw")
	copyTestdata(t, dir, "KMvK.mtbm", "KSvK.mtbm") // KMvK's table under KSvK's name
	copyTestdata(t, dir, "KMvK.mtbm", "KRvK.mtbm.rejected")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "KNvK.mtbm"), []byte("short"), 0o644))
	for _, name := range []string{"KRvKN.thai.mtbb.unaccepted", "KRvKN.thai.resume", "mine.rules.json", "notes.txt", "SHA256SUMS"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	d, err := OpenDir(dir)
	require.NoError(t, err)
	kmvk := probe.DTMID(tb.MustParseMaterial("KMvK"))
	require.True(t, d.Has(kmvk))
	v, ok := d.Version(kmvk)
	require.True(t, ok)
	require.Equal(t, probe.Version, v)
	v2 := t.TempDir()
	copyTestdata(t, v2, "KMvK.v2.mtbm", "KMvK.mtbm")
	d2, err := OpenDir(v2)
	require.NoError(t, err)
	v, ok = d2.Version(kmvk)
	require.True(t, ok)
	require.Equal(t, probe.Version2, v)
	require.True(t, d.HasWDL(probe.ID{Material: kmvk.Material, Rules: "thai"}))
	for _, name := range []string{"KSvK", "KNvK", "KRvK"} {
		require.False(t, d.Has(probe.DTMID(tb.MustParseMaterial(name))), name)
	}
	e, ok := d.Entry("KSvK.mtbm")
	require.True(t, ok)
	require.ErrorContains(t, e.Err, "not what its name says")
	e, _ = d.Entry("KNvK.mtbm")
	require.Error(t, e.Err)

	kinds := map[string]Kind{}
	for _, e := range d.Entries() {
		kinds[e.Name] = e.Kind
	}
	require.Equal(t, map[string]Kind{
		"KMvK.mtbm": KindTable, "KNvK.mtbm": KindTable, "KSvK.mtbm": KindTable,
		"KMvK.thai.mtbw":             KindWDL,
		"KRvK.mtbm.rejected":         KindRejected,
		"KRvKN.thai.mtbb.unaccepted": KindPending,
		"KRvKN.thai.resume":          KindCheckpoint,
		"mine.rules.json":            KindProfile,
	}, kinds)
	e, _ = d.Entry("KRvKN.thai.resume")
	require.Equal(t, "KRvKN.thai", e.ID.String())
	require.Len(t, d.Tables(), 3, "by name, damaged or not")
	require.Equal(t, []tb.Material{kmvk.Material}, d.Materials())
	require.Len(t, d.WDLFilesOf(kmvk.Material), 1)

	// A file another process makes is seen once looked at again.
	copyTestdata(t, dir, "KMvK.mtbm", "KMvK.mtbm.x")
	require.NoError(t, os.Rename(filepath.Join(dir, "KMvK.mtbm.x"), filepath.Join(dir, "KSvK.mtbm")))
	d.Look("KSvK.mtbm")
	require.False(t, d.Has(probe.DTMID(tb.MustParseMaterial("KSvK"))), "still KMvK's table")
	require.NoError(t, os.Remove(filepath.Join(dir, "KMvK.mtbm")))
	d.Look("KMvK.mtbm")
	require.False(t, d.Has(kmvk))
	_, ok = d.Entry("KMvK.mtbm")
	require.False(t, ok)

	empty, err := OpenDir(filepath.Join(dir, "none"))
	require.NoError(t, err, "a directory not made yet is empty")
	require.Empty(t, empty.Entries())
}

// Accept renames a pending file that passes and records its checksum;
// one that differs from its reference, fails its check or from what the
// directory records is kept as NAME.rejected (or removed), and what had
// the name stays.
func TestAccept(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenDir(dir)
	require.NoError(t, err)
	src, err := FileSHA256(filepath.Join("..", "probe", "testdata", "KMvK.mtbm"))
	require.NoError(t, err)
	d.Reference = References{V1: map[string]string{"KMvK.mtbm": src, "KSvK.mtbm": "00"}}
	kmvk := probe.DTMID(tb.MustParseMaterial("KMvK"))
	pend := func(name string) { copyTestdata(t, dir, "KMvK.mtbm", name+PendingSuffix) }

	pend("KMvK.mtbm")
	checked := false
	sum, err := d.Accept(Candidate{Name: "KMvK.mtbm", Version: probe.Version, Check: func(string) (error, error) { checked = true; return nil, nil }})
	require.NoError(t, err)
	require.Equal(t, src, sum)
	require.True(t, checked)
	require.True(t, d.Has(kmvk))
	require.NoFileExists(t, d.PendingPath("KMvK.mtbm"))
	sums, err := ReadChecksums(dir)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"KMvK.mtbm": src}, sums)

	// The reference refuses it: kept as rejected, never checked.
	pend("KSvK.mtbm")
	_, err = d.Accept(Candidate{Name: "KSvK.mtbm", Version: probe.Version, Check: func(string) (error, error) { t.Fatal("checked"); return nil, nil }})
	require.ErrorContains(t, err, "KSvK.mtbm: SHA-256 "+src+" differs from 00 in the reference data/checksums.txt")
	require.ErrorContains(t, err, "not accepted: the file is kept as "+filepath.Join(dir, "KSvK.mtbm.rejected"))
	e, ok := d.Entry("KSvK.mtbm.rejected")
	require.True(t, ok)
	require.Equal(t, KindRejected, e.Kind)

	// Its check refuses it, discarded: nothing left.
	pend("KNvK.mtbm")
	_, err = d.Accept(Candidate{Name: "KNvK.mtbm", Version: probe.Version, Discard: true, Check: func(string) (error, error) { return os.ErrInvalid, nil }})
	require.ErrorIs(t, err, os.ErrInvalid)
	require.NoFileExists(t, filepath.Join(dir, "KNvK.mtbm"))
	require.NoFileExists(t, filepath.Join(dir, "KNvK.mtbm.rejected"))

	// A check that cannot finish removes the pending file.
	pend("KRvK.mtbm")
	_, err = d.Accept(Candidate{Name: "KRvK.mtbm", Version: probe.Version, Check: func(string) (error, error) { return nil, os.ErrDeadlineExceeded }})
	require.ErrorIs(t, err, os.ErrDeadlineExceeded)
	require.NoFileExists(t, d.PendingPath("KRvK.mtbm"))

	// Another file under a name the directory records: refused unless it
	// replaces the record.
	require.NoError(t, os.WriteFile(d.PendingPath("KMvK.mtbm"), []byte("other"), 0o644))
	d.Reference = References{}
	_, err = d.Accept(Candidate{Name: "KMvK.mtbm", Version: probe.Version})
	require.ErrorContains(t, err, "delete that line to accept the new table")
	require.True(t, d.Has(kmvk), "the accepted file stays")
	require.NoError(t, os.WriteFile(d.PendingPath("KMvK.mtbm"), []byte("other"), 0o644))
	sum, err = d.Accept(Candidate{Name: "KMvK.mtbm", Version: probe.Version, Replace: true})
	require.NoError(t, err)
	sums, err = ReadChecksums(dir)
	require.NoError(t, err)
	require.Equal(t, sum, sums["KMvK.mtbm"])
	require.False(t, d.Has(kmvk), "not a table")
}

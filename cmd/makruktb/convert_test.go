package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/store"
)

// convert writes the WDL files of a directory generated without them,
// names those it cannot write for want of a DTB table, keeps them on a
// rerun, and refuses bad flags.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--dtb", "none", "KRvKN")
	require.NoError(t, err)
	matches, err := filepath.Glob(filepath.Join(dir, "*.mtbw"))
	require.NoError(t, err)
	require.Empty(t, matches, "gen --dtb none writes no WDL file")

	out, err := run(t, "convert", "--tables", dir)
	require.NoError(t, err, out)
	require.Contains(t, out, "KRvK.thai.mtbw")
	require.Contains(t, out, "KRvK.cambodian.mtbw")
	require.Contains(t, out, "not written: their DTB tables are not in")
	require.Contains(t, out, "KRvKN.thai.mtbw")
	_, err = os.Stat(filepath.Join(dir, "KRvKN.thai.mtbw"))
	require.ErrorIs(t, err, os.ErrNotExist)

	_, err = run(t, "convert", "--tables", dir, "KRvKN")
	require.ErrorContains(t, err, "needs KRvKN.thai.mtbb")

	_, err = run(t, "gen", "--tables", dir, "--dtb", "thai", "--no-wdl", "KRvKN")
	require.NoError(t, err)
	out, err = run(t, "convert", "--tables", dir, "--wdl", "thai", "KRvKN")
	require.NoError(t, err, out)
	require.Contains(t, out, "KRvKN.thai.mtbw")
	out, err = run(t, "convert", "--tables", dir, "--wdl", "thai", "KRvKN")
	require.NoError(t, err, out)
	require.Contains(t, out, "0 WDL files written, 1 file kept")
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	require.NoError(t, err)
	require.True(t, strings.Contains(string(sums), "KRvKN.thai.mtbw"))

	// gen writes them itself, for the --dtb profiles.
	fresh := t.TempDir()
	out, err = run(t, "gen", "--tables", fresh, "--dtb", "cambodian", "KRvKN")
	require.NoError(t, err, out)
	require.Contains(t, out, "KRvKN.cambodian.mtbw")
	require.NotContains(t, out, "thai.mtbw")

	// Within a --memory too small for format 3's writer, format 2, its
	// reference's bytes.
	wdl := filepath.Join(fresh, "KRvKN.cambodian.mtbw")
	require.NoError(t, os.Remove(wdl))
	out, err = run(t, "convert", "--tables", fresh, "--wdl", "cambodian", "--memory", "20MiB", "KRvKN")
	require.NoError(t, err, out)
	require.Regexp(t, `KRvKN.cambodian.mtbw +format 3 would take about .*, more than --memory \(20.0 MiB\): written in format 2`, out)
	sum, err := store.FileSHA256(wdl)
	require.NoError(t, err)
	require.Equal(t, data.ChecksumsV2()["KRvKN.cambodian.mtbw"], sum)
	_, err = run(t, "convert", "--tables", fresh, "--memory", "lots")
	require.ErrorContains(t, err, "--memory")

	for _, c := range []struct{ args, msg string }{
		{"--wdl none", "nothing to do"},
		{"--wdl nosuch", "--wdl"},
		{"--wdl ,", "not a profile"},
		{"KQvK", "unknown piece"},
		{"--format 3", "the formats are 1"},
		{"--format 0", "the formats are 1"},
	} {
		t.Run(c.args, func(t *testing.T) {
			_, err := run(t, append([]string{"convert", "--tables", dir}, strings.Fields(c.args)...)...)
			require.ErrorContains(t, err, c.msg)
		})
	}
	_, err = run(t, "convert", "--tables", filepath.Join(dir, "nothing"))
	require.ErrorContains(t, err, "--tables DIR")
}

// convert --format 2 rewrites the tables as version-2 files, one line each,
// and their WDL files; the probes answer as before; a second run keeps it
// all.
func TestConvertToVersion2(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--format", "1", "--dtb", "thai", "KRvKN")
	require.NoError(t, err)
	const fen = "n7/8/7R/8/8/8/8/K3k3 b - - 0 1" // the side to move a file may not store
	before, err := run(t, "check", "--tables", dir, fen)
	require.NoError(t, err)
	out, err := run(t, "convert", "--tables", dir, "--format", "2", "--wdl", "thai", "KRvKN")
	require.NoError(t, err, out)
	require.Regexp(t, `KRvKN.mtbm +\S+ \S+ → +\S+ \S+ +\d+\.\ds`, out)
	require.Contains(t, out, "KRvKN.thai.mtbb")
	require.Contains(t, out, "KRvKN.thai.mtbw")
	require.Contains(t, out, "1 WDL file written, 0 files kept")
	after, err := run(t, "check", "--tables", dir, fen)
	require.NoError(t, err)
	require.Equal(t, before, after)
	out, err = run(t, "convert", "--tables", dir, "--format", "2", "--wdl", "thai", "KRvKN")
	require.NoError(t, err, out)
	require.Contains(t, out, "version 2 already: kept")
	require.Contains(t, out, "0 WDL files written, 1 file kept")
	out, err = run(t, "verify", "--tables", dir, "KRvKN")
	require.NoError(t, err, out)
}

// convert --format 2 --wdl none rewrites the tables alone: it needs no
// sub-table (no side is derived for a WDL file), and the file is its
// version-2 reference.
func TestConvertTablesOnly(t *testing.T) {
	src := t.TempDir()
	_, err := run(t, "gen", "--tables", src, "--format", "1", "--dtb", "none", "KRvKN")
	require.NoError(t, err)
	dir := t.TempDir()
	v1, err := os.ReadFile(filepath.Join(src, "KRvKN.mtbm"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "KRvKN.mtbm"), v1, 0o644))
	out, err := run(t, "convert", "--tables", dir, "--format", "2", "--wdl", "none")
	require.NoError(t, err, out)
	require.Contains(t, out, "tables in version 2:")
	require.NotContains(t, out, "WDL")
	sum, err := store.FileSHA256(filepath.Join(dir, "KRvKN.mtbm"))
	require.NoError(t, err)
	require.Equal(t, data.ChecksumsV2()["KRvKN.mtbm"], sum)
}

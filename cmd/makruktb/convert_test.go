package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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

	for _, c := range []struct{ args, msg string }{
		{"--wdl none", "name the profiles"},
		{"--wdl nosuch", "--wdl"},
		{"--wdl ,", "not a profile"},
		{"KQvK", "unknown piece"},
	} {
		t.Run(c.args, func(t *testing.T) {
			_, err := run(t, append([]string{"convert", "--tables", dir}, strings.Fields(c.args)...)...)
			require.ErrorContains(t, err, c.msg)
		})
	}
	_, err = run(t, "convert", "--tables", filepath.Join(dir, "nothing"))
	require.ErrorContains(t, err, "--tables DIR")
}

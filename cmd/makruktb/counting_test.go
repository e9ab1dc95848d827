package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A profile whose counting side's mates are draws (the texts' reading):
// gen makes a one-piece-each material's files for a count either side
// runs beside its own, verify checks them all when given the profile
// file, and says which file it needs when not; check says who counts.
func TestCounterMateProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece tables")
	}
	dir := t.TempDir()
	profile := filepath.Join(dir, "texts.json")
	require.NoError(t, os.WriteFile(profile, []byte(`{"name":"texts","pieces":[{"piece":"R","at_least":1,"plies":32},{"plies":128}],"start":"all","board_plies":128,"board_count_by":"fewer","counter_mate":"draw"}`), 0o644))
	out, err := run(t, "gen", "--tables", dir, "--dtb", profile, "KRvKN")
	require.NoError(t, err, out)
	require.Regexp(t, `KRvKN\.texts +[\d.]+s .* count-draws`, out)
	require.Regexp(t, `KRvKN\.texts@white +[\d.]+s .*bits/position\n`, out, "no count-draws for a file no fresh count reads")
	require.Contains(t, out, "KRvKN.texts@black")
	for _, name := range []string{"KRvKN.texts.mtbb", "KRvKN.texts@white.mtbb", "KRvKN.texts@black.mtbb", "KRvKN.texts.mtbw"} {
		require.FileExists(t, filepath.Join(dir, name))
	}

	out, err = run(t, "verify", "--tables", dir, "--rules", profile, "KRvKN")
	require.NoError(t, err, out)
	for _, name := range []string{"KRvKN.texts ", "KRvKN.texts@white ", "KRvKN.texts@black ", "KRvKN.texts.mtbw "} {
		require.Regexp(t, name+` *ok`, out)
	}
	// The directory records the profile its files were made under: plain
	// verify checks them all, its DTB files too (issue 58.4).
	require.FileExists(t, filepath.Join(dir, "texts.rules.json"))
	for _, args := range [][]string{{"KRvKN"}, {}} {
		out, err = run(t, append([]string{"verify", "--tables", dir}, args...)...)
		require.NoError(t, err, out)
		for _, name := range []string{"KRvKN.texts ", "KRvKN.texts@white ", "KRvKN.texts@black ", "KRvKN.texts.mtbw "} {
			require.Regexp(t, name+` *ok`, out)
		}
	}
	require.Regexp(t, `KNvK.texts.mtbw +ok`, out)
	// Without the record (a directory made before it), every file of the
	// profile fails, named, and verify exits non-zero; --pending lists them.
	require.NoError(t, os.Remove(filepath.Join(dir, "texts.rules.json")))
	out, err = run(t, "verify", "--tables", dir)
	require.Error(t, err)
	require.Contains(t, out, `KRvK.texts.mtbw             FAILED: cannot tell its rules: rules "texts": not a built-in profile`)
	require.Contains(t, out, "give its profile file (verify --rules FILE.json)")
	for _, name := range []string{"KRvKN.texts", "KRvKN.texts@white", "KRvKN.texts@black"} {
		require.Regexp(t, name+` +FAILED: .*rule profile "texts" is needed`, out)
	}
	require.Contains(t, out, "KRvKN.texts.mtbw            not checked: made from KRvKN.texts.mtbb, which failed")
	require.EqualError(t, err, "5 of 9 files failed verification; 1 not checked, as a file they are made from failed", out)
	_, err = run(t, "verify", "--tables", dir, "--rules", "thai", "KRvKN")
	require.ErrorContains(t, err, "--rules: thai: a built-in profile")

	out, err = run(t, "check", "--tables", dir, "--rules", profile, "n7/8/7R/8/8/8/8/K3k3 w - - 0 1")
	require.NoError(t, err, out)
	require.Contains(t, out, "no count runs while both sides have as many pieces")
}

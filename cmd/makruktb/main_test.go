package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/internal/sysinfo"
	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/report"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb/honour"
)

// run executes the command line and returns its standard output.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd, finish := newRootCommand()
	defer finish()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

// TestGoldenChecksums generates the 3-piece tables in both formats and
// compares them with the checksums recorded in data/checksums-v2.txt (the
// default) and data/checksums.txt (--format 1): generation is
// deterministic, so any difference is a change in the generator's output.
func TestGoldenChecksums(t *testing.T) {
	for _, c := range []struct {
		name          string
		flags         []string
		tables, files map[string]string // the references of the tables and of the WDL files
	}{
		{"default: version 2, version-3 WDL files", nil, data.ChecksumsV2(), data.ChecksumsV3()},
		{"version-2 WDL files", []string{"--wdl-format", "2"}, data.ChecksumsV2(), data.ChecksumsV2()},
		{"version 1", []string{"--format", "1", "--wdl-format", "2"}, data.Checksums(), data.Checksums()},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := run(t, append([]string{"gen", "--tables", dir, "--max-pieces", "3"}, c.flags...)...)
			require.NoError(t, err)
			for _, m := range []string{"KRvK", "KSvK", "KNvK", "KMvK"} {
				for _, f := range []struct {
					name   string
					golden map[string]string
				}{{m + ".mtbm", c.tables}, {m + ".thai.mtbw", c.files}, {m + ".cambodian.mtbw", c.files}} {
					want, ok := f.golden[f.name]
					require.True(t, ok, "the reference lacks %s", f.name)
					got, err := store.FileSHA256(filepath.Join(dir, f.name))
					require.NoError(t, err)
					require.Equal(t, want, got, f.name)
				}
			}
			out, err := run(t, "verify", "--tables", dir)
			require.NoError(t, err, out)
			require.Equal(t, 12, strings.Count(out, " ok "), "four tables and their thai and cambodian WDL files")
		})
	}
}

// A version-3 WDL file records the checksums of the tables it is made
// from, so one made from version-1 tables is not the one of
// data/checksums-v3.txt (made from version 2): no list holds it, and gen
// and verify record and check it as their own.
func TestVersion3WDLOfVersion1Tables(t *testing.T) {
	dir := t.TempDir()
	out, err := run(t, "gen", "--tables", dir, "--format", "1", "--wdl-format", "3", "KRvK")
	require.NoError(t, err, out)
	got, err := store.FileSHA256(filepath.Join(dir, "KRvK.thai.mtbw"))
	require.NoError(t, err)
	require.NotEqual(t, data.ChecksumsV3()["KRvK.thai.mtbw"], got, "made from other tables")
	out, err = run(t, "verify", "--tables", dir)
	require.NoError(t, err, out)
	require.Equal(t, 3, strings.Count(out, " ok "), out)
}

func TestVerifyDetectsTampering(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	path := filepath.Join(dir, "KRvK.mtbm")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data[len(data)-5] ^= 1
	require.NoError(t, os.WriteFile(path, data, 0o644))
	out, err := run(t, "verify", "--tables", dir, "KRvK")
	require.Error(t, err)
	require.Contains(t, out, "KRvK                        FAILED: ")
	require.Contains(t, out, "SHA-256")
	require.EqualError(t, err, "1 of 3 files failed verification; 2 not checked, as a file they are made from failed")
}

// A truncated DTM table is the file named; the WDL files made from it are
// intact and not blamed, but not checked either (issue 58.3), and the
// summary counts files (58.2).
func TestVerifyNamesTheDamagedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece tables")
	}
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "KRvKN")
	require.NoError(t, err)
	path := filepath.Join(dir, "KRvKN.mtbm")
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(path, info.Size()/2))
	out, err := run(t, "verify", "--tables", dir, "KRvKN")
	require.Regexp(t, `KRvKN +FAILED: .*KRvKN.mtbm`, out)
	for _, name := range []string{"KRvKN.thai.mtbw", "KRvKN.cambodian.mtbw"} {
		require.Regexp(t, name+` +not checked: made from KRvKN.mtbm, which failed`, out)
	}
	require.NotRegexp(t, `mtbw +FAILED`, out)
	require.EqualError(t, err, "1 of 5 files failed verification; 2 not checked, as a file they are made from failed", out)
}

// A run stopped after writing a table but before recording its checksum
// leaves a complete file without one: the next run records it, so verify
// passes; a recorded checksum the file does not match is never replaced.
func TestGenRecordsMissingChecksum(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	sums := filepath.Join(dir, store.ChecksumFile)
	full, err := os.ReadFile(sums)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(sums, nil, 0o644))
	out, err := run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	require.Contains(t, out, "KRvK                        present but not in SHA256SUMS (a run stopped before recording it, or the directory predates it): recorded it")
	again, err := os.ReadFile(sums)
	require.NoError(t, err)
	require.Equal(t, string(full), string(again))
	_, err = run(t, "verify", "--tables", dir, "KRvK")
	require.NoError(t, err)

	sum, err := store.FileSHA256(filepath.Join(dir, "KRvK.mtbm"))
	require.NoError(t, err)
	wrong := strings.Replace(string(full), sum, strings.Repeat("0", 8)+sum[8:], 1)
	require.NoError(t, os.WriteFile(sums, []byte(wrong), 0o644))
	table := filepath.Join(dir, "KRvK.mtbm")
	before, err := os.Stat(table)
	require.NoError(t, err)
	out, err = run(t, "gen", "--tables", dir, "--force", "KRvK")
	require.ErrorContains(t, err, "1 table failed: KRvK")
	require.Contains(t, out, "delete that line to accept the new table")
	kept, err := os.ReadFile(sums)
	require.NoError(t, err)
	require.Equal(t, wrong, string(kept))
	after, err := os.Stat(table)
	require.NoError(t, err)
	require.True(t, os.SameFile(before, after), "the file the record names stays")
	require.FileExists(t, table+store.RejectedSuffix)
}

// gen --force in the other format version replaces the file and its line
// in SHA256SUMS (which names the file replaced, not a check of the new one).
func TestGenForceChangesFormat(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--format", "1", "KRvK")
	require.NoError(t, err)
	for _, format := range []string{"2", "1"} {
		_, err = run(t, "gen", "--tables", dir, "--force", "--format", format, "KRvK")
		require.NoError(t, err, "to version %s", format)
		f, err := probe.OpenFile(filepath.Join(dir, "KRvK.mtbm"))
		require.NoError(t, err)
		require.Equal(t, format, strconv.Itoa(f.Header.Version))
		f.Close()
		_, err = run(t, "verify", "--tables", dir, "KRvK")
		require.NoError(t, err, "SHA256SUMS names the new file")
	}
}

// verify records the day and the file's checksum in the verified column of
// the catalogue; regenerating the same file keeps the mark, a mark naming
// another file is dropped.
func TestVerifiedColumn(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	row := func() *store.Row {
		rows, err := store.ReadCatalogue(dir)
		require.NoError(t, err)
		require.Contains(t, rows, "KRvK")
		return rows["KRvK"]
	}
	markdown := func() string {
		md, err := os.ReadFile(filepath.Join(dir, store.CatalogueMarkdown))
		require.NoError(t, err)
		return string(md)
	}
	require.Empty(t, row().Verified)
	_, err = run(t, "verify", "--tables", dir, "KRvK")
	require.NoError(t, err)
	sums, err := store.ReadChecksums(dir)
	require.NoError(t, err)
	today := time.Now().Format("2006-01-02")
	require.Equal(t, today, row().Verified)
	require.Equal(t, sums["KRvK.mtbm"], row().SHA256)
	require.Contains(t, markdown(), "| "+today+" ("+sums["KRvK.mtbm"][:8]+") |", "catalogue.md is rendered from the rows")

	_, err = run(t, "gen", "--tables", dir, "--force", "KRvK")
	require.NoError(t, err)
	require.Equal(t, today, row().Verified, "the same file stays verified")
	out, err := run(t, "verify", "--pending", "--tables", dir)
	require.NoError(t, err)
	require.Contains(t, out, "0 tables not yet verified")
	require.NotContains(t, out, " ok ", "nothing is left to verify")

	require.NoError(t, store.EditCatalogue(dir, func(rows map[string]*store.Row) {
		rows["KRvK"].SHA256 = "00000000" // a mark for another file
	}))
	_, err = run(t, "gen", "--tables", dir, "--force", "KRvK")
	require.NoError(t, err)
	require.Empty(t, row().Verified, "a mark for another file is dropped")
	out, err = run(t, "verify", "--pending", "--tables", dir)
	require.NoError(t, err)
	require.Contains(t, out, "1 tables not yet verified")
	require.Contains(t, out, "KRvK                        ok ")
}

func TestStatsJSON(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	out, err := run(t, "stats", "--json", "--tables", dir, "KvKR")
	require.NoError(t, err)
	require.Contains(t, out, `"material": "KRvK"`)
	require.Contains(t, out, `"legal": 175168`) // white to move, as in chess
	require.Contains(t, out, `"legal": 223944`) // black to move
	require.Contains(t, out, `"31": 916`)       // the mates in 16
	// How much the reading of the count matters (issue 40): the share of
	// KRvK's wins and losses each profile's fresh count draws, as the
	// README's table gives it.
	var st struct {
		CountDraws map[string]struct {
			Decided, Drawn uint64
			Share          float64
		} `json:"count_draws"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	for name, share := range map[string]string{"thai": "16.7", "thai-strong": "0.8", "thai-plain": "0.0", "thai-halfmove": "72.3", "cambodian": "29.9", "asean": "0.0"} {
		d := st.CountDraws[name]
		require.Equal(t, uint64(175168+201700), d.Decided, name)
		require.Equal(t, share, fmt.Sprintf("%.1f", 100*d.Share), name)
	}
	text, err := run(t, "stats", "--tables", dir, "KRvK")
	require.NoError(t, err)
	require.Regexp(t, `thai-halfmove +72\.3%  \(\d+ of 376868\)`, text)

	// --svg writes the histogram the explorer shows: 916 + 3056 positions
	// (white to move, black to move) are 16 moves from mate.
	plot := filepath.Join(dir, "krvk.svg")
	_, err = run(t, "stats", "--svg", plot, "--tables", dir, "KRvK")
	require.NoError(t, err)
	svg, err := os.ReadFile(plot)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(svg), "<svg "))
	require.Contains(t, string(svg), "side to move mates in 16: 916<")
	require.Contains(t, string(svg), "side to move is mated in 16: 3056<")
}

func TestGenErrors(t *testing.T) {
	_, err := run(t, "gen", "--tables", t.TempDir())
	require.ErrorContains(t, err, "give --max-pieces N or materials")
	_, err = run(t, "gen", "--tables", t.TempDir(), "KRPvK")
	require.ErrorContains(t, err, "pawns")
	_, err = run(t, "gen", "--tables", t.TempDir(), "KQvK")
	require.ErrorContains(t, err, "unknown piece")
	_, err = run(t, "stats", "--tables", t.TempDir(), "KRvK")
	require.ErrorContains(t, err, "table KRvK not found")
	_, err = run(t, "stats", "--tables", t.TempDir(), "KRvKN.thai")
	require.ErrorContains(t, err, `"KRvKN.thai": a material is expected, such as KRvKN, not the name of its thai table: the statistics of a material count its positions under every rule profile whose DTB table is present (thai included)`)
	for _, command := range []string{"probe", "check", "line", "perft"} {
		_, err = run(t, command)
		require.ErrorContains(t, err, "give a position as a FEN, e.g. makruktb "+command+" ")
	}
	// A refused run makes no directory.
	missing := filepath.Join(t.TempDir(), "new", "tables")
	_, err = run(t, "gen", "--tables", missing, "--checkpoint", "-5m", "KRvK")
	require.ErrorContains(t, err, "--checkpoint")
	_, err = run(t, "gen", "--tables", missing, "--memory", "1KiB", "KRvK")
	require.ErrorContains(t, err, "--memory allows")
	require.NoDirExists(t, filepath.Dir(missing))
}

func TestProbeAndLine(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	fen := "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
	out, err := run(t, "probe", "--tables", dir, fen)
	require.NoError(t, err)
	require.Contains(t, out, "White mates in 16 (31 plies)")
	require.Contains(t, out, "b2c2   draw")
	out, err = run(t, "probe", "--json", "--tables", dir, "k7/8/8/8/8/8/8/KR6 b")
	require.NoError(t, err)
	require.Contains(t, out, `"wdl": "loss"`)
	require.Contains(t, out, `"material": "KRvK"`)
	out, err = run(t, "line", "--ascii", "--tables", dir, fen)
	require.NoError(t, err)
	require.Contains(t, out, "checkmate")
	require.Equal(t, 31, strings.Count(out, "DTM ")+strings.Count(out, "checkmate "))
	require.Regexp(t, `(?m)^\d+\. +[a-h][1-8][a-h][1-8] +R[a-h][1-8]# +checkmate `, out, "the mating move in both notations")
	require.Contains(t, out, "DTM 1 ply ")
	_, err = run(t, "probe", "--tables", dir, "k7/8/8/8/8/8/8/KNN5 w")
	require.ErrorContains(t, err, "table KNNvK not found")
	_, err = run(t, "probe", "--tables", dir, "k7/8/8/8/4P3/8/8/KR6 w")
	require.ErrorContains(t, err, "pawns")
}

func TestTableListCountDraws(t *testing.T) {
	dir := t.TempDir()
	out, err := run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	require.Contains(t, out, "thai count-draws 16.7%")
	list, err := os.ReadFile(filepath.Join(dir, store.CatalogueMarkdown))
	require.NoError(t, err)
	require.Contains(t, string(list), "| KRvK | 3 | 29568 | 50015 | 16/- |")
	require.Contains(t, string(list), "| 16.7% |")
	out, err = run(t, "stats", "--update-list", "--tables", dir, "KRvK")
	require.NoError(t, err)
	require.Equal(t, "KRvK     thai count-draws 16.7%\n", out)
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "KRvK")
	require.NoError(t, err)
	// The longest KRvK mate (16 moves) does not fit the thai rook count
	// once the offset of 2N is taken: 16 moves from ply 5.
	out, err := run(t, "check", "--tables", dir, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	require.NoError(t, err)
	require.Equal(t, "White wins: mate in 16 moves (31 plies); pieces' honour, limit 16 moves, count at ply 5 → 27 plies left (thai rules) → DRAW by the count (cursed-win)\n", out)
	out, err = run(t, "check", "--rules", "none", "--tables", dir, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	require.NoError(t, err)
	require.Contains(t, out, "no count runs (rules none) → WIN")
	out, err = run(t, "check", "--rules", "asean", "--tables", dir, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	require.NoError(t, err)
	require.Contains(t, out, "White WINS within the count")
	_, err = run(t, "check", "--rules", "chess", "--tables", dir, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	require.ErrorContains(t, err, "not a profile")

	// The count as players call it aloud, in moves (issue 40, item 7).
	out, err = run(t, "check", "--announce", "up", "--tables", dir, "8/8/8/3k4/8/8/2R5/K7 b - 32 10 1")
	require.NoError(t, err)
	require.Contains(t, out, "\nThe count called aloud, counting up: 5 of 16.\n")
	out, err = run(t, "check", "--announce", "down", "--tables", dir, "8/8/8/3k4/8/8/2R5/K7 b - 32 10 1")
	require.NoError(t, err)
	require.Contains(t, out, "\nThe count called aloud, counting down: 11 left.\n")
	out, err = run(t, "line", "--announce", "up", "--tables", dir, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	require.NoError(t, err)
	require.Contains(t, out, "count 7/32 (pieces, called 4 of 16)")
	_, err = run(t, "check", "--announce", "aloud", "--tables", dir, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	require.ErrorContains(t, err, `--announce "aloud": plies, up`)
}

// TestBoardHonour generates KRvKN with its DTB tables and follows them
// through verify, check, stats and the table list. The position
// n7/8/7R/8/8/8/8/K3k3 w mates in 41 plies (DTM), but the quickest mate
// takes the knight where the fresh one-rook count is too short: the thai
// goal is 51 plies away. So it wins from a fresh board count (129 plies
// for the goal) and draws from count ply 100 (29).
func TestBoardHonour(t *testing.T) {
	dir := t.TempDir()
	out, err := run(t, "gen", "--tables", dir, "--dtb", "thai", "KRvKN")
	require.NoError(t, err)
	require.Contains(t, out, "KRvKN.thai")
	require.NotContains(t, out, "cambodian")
	list, err := os.ReadFile(filepath.Join(dir, store.CatalogueMarkdown))
	require.NoError(t, err)
	require.Contains(t, string(list), "| KRvKN.thai | 4 |")
	require.NotContains(t, string(list), "DTB |", "the thai DTB table completes the KRvKN row")

	out, err = run(t, "verify", "--tables", dir, "KRvKN")
	require.NoError(t, err)
	require.Contains(t, out, "KRvKN.thai                  ok")
	out, err = run(t, "verify", "--tables", dir, "KRvKN.thai")
	require.NoError(t, err)
	require.Contains(t, out, "KRvKN.thai                  ok")
	require.NotContains(t, out, "KRvKN                       ok", "MATERIAL.PROFILE names the DTB table alone")
	// DTB generation is deterministic too: the golden checksums hold it.
	golden := data.ChecksumsV2()
	for _, name := range []string{"KRvKN.mtbm", "KRvKN.thai.mtbb"} {
		got, err := store.FileSHA256(filepath.Join(dir, name))
		require.NoError(t, err)
		require.Equal(t, golden[name], got, name)
	}

	const fen = "n7/8/7R/8/8/8/8/K3k3 w - "
	out, err = run(t, "check", "--tables", dir, fen+"- 0 1")
	require.NoError(t, err)
	require.Contains(t, out, "winning capture of the last piece in 51 plies (thai rules) → White WINS within the count")
	out, err = run(t, "check", "--tables", dir, fen+"128 100 1")
	require.NoError(t, err)
	require.Contains(t, out, "→ DRAW by the count (cursed-win)")
	// No cambodian DTB table: the verdict says what is missing.
	out, err = run(t, "check", "--rules", "cambodian", "--tables", dir, fen+"- 0 1")
	var status *exitStatus
	require.ErrorAs(t, err, &status)
	require.Equal(t, exitCannotTell, status.code, "cannot tell has its own exit status")
	require.Contains(t, out, "cannot tell without the board's-honour table KRvKN.cambodian.mtbb")
	out, err = run(t, "check", "--json", "--rules", "cambodian", "--tables", dir, fen+"- 0 1")
	require.ErrorAs(t, err, &status)
	var verdict report.Check
	require.NoError(t, json.Unmarshal([]byte(out), &verdict))
	require.Equal(t, report.ResultUnknown, verdict.Result)
	require.False(t, verdict.Exact)
	out, err = run(t, "probe", "--rules", "cambodian", "--tables", dir, fen+"- 0 1")
	require.NoError(t, err)
	require.Contains(t, out, "Cannot tell the result under the cambodian count without the board's-honour table KRvKN.cambodian.mtbb")

	out, err = run(t, "stats", "--json", "--tables", dir, "KRvKN")
	require.NoError(t, err)
	var st struct {
		Count map[string]map[string]map[string]uint64
	}
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	thai := st.Count["thai"]["w"]
	for _, c := range []honour.Category{honour.Win, honour.CursedWin, honour.Draw, honour.BlessedLoss, honour.Loss} {
		require.Contains(t, thai, c.String(), "stats --json spells the categories as probe does")
	}
	require.Zero(t, thai["unknown"])
	require.Positive(t, thai["cursed-win"])
	require.Equal(t, st.Count["none"]["w"]["win"], thai["win"]+thai["cursed-win"])
	require.Positive(t, st.Count["cambodian"]["w"]["unknown"], "no cambodian DTB table")

	// A damaged DTB table fails verify, naming it.
	path := filepath.Join(dir, "KRvKN.thai.mtbb")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data[len(data)-100] ^= 0x40
	require.NoError(t, os.WriteFile(path, data, 0o644))
	out, err = run(t, "verify", "--tables", dir, "KRvKN")
	require.Error(t, err)
	require.Contains(t, out, "KRvKN.thai                  FAILED: ")
}

// verify names what is wrong with a table argument before reading any file.
func TestVerifyArguments(t *testing.T) {
	dir := t.TempDir()
	for arg, want := range map[string]string{
		"KRvK.thai":    "KRvK has a bare king, so no DTB table",
		"KRvKN.asean":  "the asean rules have no board's honour",
		"KRvKN.chess":  `KRvKN.chess: rules "chess": not a profile`,
		"KRPvKN.thai":  "has pawns",
		"KRvKN.thai.x": "KRvKN.thai.x",
	} {
		_, err := run(t, "verify", "--tables", dir, arg)
		require.ErrorContains(t, err, want, arg)
	}
}

// A user's generation records its checksums and catalogue next to its
// tables, never in the repository's reference files, and a fresh gen
// followed by verify --pending verifies every table it generated.
func TestOwnRecordsNextToTables(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--max-pieces", "3")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(dir, store.ChecksumFile))
	require.FileExists(t, filepath.Join(dir, store.CatalogueFile))
	require.FileExists(t, filepath.Join(dir, store.CatalogueMarkdown))
	require.NoFileExists(t, filepath.Join(dir, "checksums.txt"))
	require.NoFileExists(t, filepath.Join(dir, "tables.md"))
	out, err := run(t, "verify", "--tables", dir, "--pending")
	require.NoError(t, err, out)
	require.Contains(t, out, "4 tables not yet verified")
	require.Equal(t, 12, strings.Count(out, " ok "), "with their WDL files")
	out, err = run(t, "verify", "--tables", dir, "--pending")
	require.NoError(t, err, out)
	require.Contains(t, out, "0 tables not yet verified")
}

// A table that differs from its reference checksum is refused, wherever
// it is generated: the generator's output changed.
func TestReferenceChecksumGuards(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "KRvK.mtbm")
	require.NoError(t, os.WriteFile(path, []byte("not the KRvK table"), 0o644))
	_, err := store.RecordChecksum(dir, path, data.Checksums())
	require.ErrorContains(t, err, "differs from "+data.Checksums()["KRvK.mtbm"]+" in the reference data/checksums.txt")
	sums, err := store.ReadChecksums(dir)
	require.NoError(t, err)
	require.Empty(t, sums, "a refused table is not recorded")
}

// withReference runs the test with the reference checksums changed by
// edit (a copy of the real ones).
func withReference(t *testing.T, edit func(sums map[string]string)) {
	saved := referenceChecksums
	t.Cleanup(func() { referenceChecksums = saved })
	refs := store.RepositoryReferences()
	edit(refs.V1)
	edit(refs.V2)
	referenceChecksums = func() store.References { return refs }
}

// A table that differs from its reference is never left under its name:
// gen keeps it as NAME.rejected, which no reader opens, and fails.
func TestGenRejectsAMismatch(t *testing.T) {
	withReference(t, func(sums map[string]string) { sums["KSvK.mtbm"] = strings.Repeat("0", 64) })
	dir := t.TempDir()
	out, err := run(t, "gen", "--tables", dir, "KSvK", "KRvK")
	require.ErrorContains(t, err, "1 table failed: KSvK")
	require.Contains(t, out, "KSvK.mtbm: SHA-256 "+data.ChecksumsV2()["KSvK.mtbm"]+" differs from "+strings.Repeat("0", 64)+" in the reference data/checksums-v2.txt")
	require.Contains(t, out, "the file is kept as "+filepath.Join(dir, "KSvK.mtbm.rejected")+", which no reader opens")
	require.NoFileExists(t, filepath.Join(dir, "KSvK.mtbm"))
	require.FileExists(t, filepath.Join(dir, "KSvK.mtbm.rejected"))
	require.NoFileExists(t, filepath.Join(dir, "KSvK.mtbm.unaccepted"))
	require.FileExists(t, filepath.Join(dir, "KRvK.mtbm"), "the other table is made")
	sums, err := store.ReadChecksums(dir)
	require.NoError(t, err)
	require.NotContains(t, sums, "KSvK.mtbm")
	_, err = run(t, "probe", "--tables", dir, "K7/8/8/8/8/8/8/S6k w")
	require.ErrorContains(t, err, "table KSvK not found in "+dir, "nobody reads a rejected table")
}

// A table without a reference checksum (a user's own six-piece table) is
// checked value by value before gen accepts it, and recorded as verified
// in the catalogue; --no-verify records it unchecked. (The pipeline's
// tests spoil a table as a faulty generator would.)
func TestGenVerifiesATableWithoutReference(t *testing.T) {
	withReference(t, func(sums map[string]string) { delete(sums, "KRvK.mtbm") })
	dir := t.TempDir()
	out, err := run(t, "gen", "--tables", dir, "--timings", "KRvK")
	require.NoError(t, err, out)
	require.Contains(t, out, "verify ")
	rows, err := store.ReadCatalogue(dir)
	require.NoError(t, err)
	sum, err := store.FileSHA256(filepath.Join(dir, "KRvK.mtbm"))
	require.NoError(t, err)
	require.True(t, rows["KRvK"].VerifiedAs(sum), "gen's check is recorded as a verification")
	require.Equal(t, data.ChecksumsV2()["KRvK.mtbm"], sum)

	require.NoError(t, os.Remove(filepath.Join(dir, "KRvK.mtbm")))
	require.NoError(t, os.Remove(filepath.Join(dir, store.ChecksumFile)))
	out, err = run(t, "gen", "--tables", dir, "--no-verify", "--timings", "KRvK")
	require.NoError(t, err, out)
	require.NotContains(t, out, "verify ")
	require.FileExists(t, filepath.Join(dir, "KRvK.mtbm"))
}

// What set-up and tests write into data/ is ignored by git, so a clone
// stays clean after make tables, make verify and make test.
func TestGeneratedFilesIgnored(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if err := exec.Command("git", "rev-parse", "--show-toplevel").Run(); err != nil {
		t.Skip("not in a git work tree")
	}
	for _, f := range []string{"KRvK.mtbm", "KRvKN.thai.mtbb", "KRvKN.thai.mtbw", "KRvK.mtbm.tmp123", "KRvK.mtbm.tmp123-456", "KRvK.mtbm.unaccepted", "KRvK.mtbm.rejected", store.ChecksumFile, store.CatalogueFile, store.CatalogueMarkdown, ".makruktb.lock", ".KRvKN.mtbm.lock"} {
		out, err := exec.Command("git", "check-ignore", "-q", "../../data/"+f).CombinedOutput()
		require.NoError(t, err, "data/%s is not ignored by git: %s", f, out)
	}
	for _, f := range []string{"checksums.txt", "tables.md"} {
		err := exec.Command("git", "check-ignore", "-q", "../../data/"+f).Run()
		require.Error(t, err, "data/%s is the reference and must stay in git", f)
	}
}

// Every command explains itself, and its usage line shows what is
// optional as optional.
func TestHelp(t *testing.T) {
	root, finish := newRootCommand()
	defer finish()
	var check func(cmds []*cobra.Command)
	check = func(cmds []*cobra.Command) {
		for _, c := range cmds {
			if c.Name() == "help" || c.Name() == "completion" {
				continue
			}
			require.NotEmpty(t, c.Long, "%s has no long description", c.CommandPath())
			require.NotEmpty(t, c.Example, "%s has no example", c.CommandPath())
			if f := c.Flags().Lookup("threads"); f != nil {
				require.Equal(t, "0", f.DefValue, "%s: --threads defaults to every core", c.CommandPath())
			}
			check(c.Commands())
		}
	}
	check(root.Commands())
	usage := func(name string) string {
		c, _, err := root.Find([]string{name})
		require.NoError(t, err)
		return c.Use
	}
	require.Contains(t, usage("perft"), "[--depth D]")
	require.Contains(t, usage("stats"), "(MATERIAL | --update-list [MATERIAL...])")
	out, err := run(t, "perft", "--help")
	require.NoError(t, err)
	require.Contains(t, out, "(default 4)")
}

// --memory (units.ParseSize) defaults to the machine's RAM less a margin.
func TestMemoryFlag(t *testing.T) {
	cmd := newGenCommand()
	f := cmd.Flags().Lookup("memory")
	require.NotNil(t, f)
	if ram := sysinfo.Memory(); ram > memoryMargin {
		require.Equal(t, units.Bytes(ram-memoryMargin), f.Value.String())
		require.Contains(t, f.Usage, "default: the machine's RAM less 2 GiB, here "+units.Bytes(ram-memoryMargin))
		require.Empty(t, f.DefValue, "the default is said once, in the usage")
	}
}

// verify reads out of core the version-1 tables that would pass --memory
// held whole, checks every value as it would in memory, and leaves no
// scratch file; a version-2 table, whose other side is derived in memory,
// fails with the reason.
func TestVerifyOutOfCore(t *testing.T) {
	dir, scratch := t.TempDir(), t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--format", "1", "--dtb", "thai", "KRvKN")
	require.NoError(t, err)
	out, err := run(t, "verify", "--tables", dir, "--memory", "1MiB", "--scratch", scratch, "KRvKN")
	require.NoError(t, err, out)
	require.Contains(t, out, "KRvKN                       out of core: the values in scratch files in "+scratch+", one pass")
	require.Equal(t, 3, strings.Count(out, " ok "), out) // KRvKN, KRvKN.thai and KRvKN.thai.mtbw
	entries, err := os.ReadDir(scratch)
	require.NoError(t, err)
	require.Empty(t, entries)
	out, err = run(t, "verify", "--tables", dir, "KRvKN")
	require.NoError(t, err, out)
	require.NotContains(t, out, "out of core")

	v2 := t.TempDir()
	_, err = run(t, "gen", "--tables", v2, "--dtb", "none", "KRvKN")
	require.NoError(t, err)
	out, err = run(t, "verify", "--tables", v2, "--memory", "1MiB", "--scratch", scratch, "KRvKN")
	require.ErrorContains(t, err, "1 of 1 file failed verification")
	require.Contains(t, out, "KRvKN.mtbm: a version-2 file (one side to move stored) is verified in memory only")
}

func TestGenTimings(t *testing.T) {
	dir := t.TempDir()
	out, err := run(t, "gen", "--tables", dir, "--timings", "KRvK")
	require.NoError(t, err)
	line := regexp.MustCompile(`(?m)^KRvK +load [0-9.]+s, seed [0-9.]+s, iterate [0-9.]+s, finish [0-9.]+s, write [0-9.]+s, checksum [0-9.]+s, summary [0-9.]+s$`)
	require.Regexp(t, line, out)
	out, err = run(t, "gen", "--tables", dir, "--force", "KRvK")
	require.NoError(t, err)
	require.NotContains(t, out, "seed ", "no timings unless asked")
}

// The hint a damaged table's error gives is a command that repairs it:
// gen makes a named table anew whose file no longer has the checksum the
// directory records (issue 58.6).
func TestRepairHintRepairs(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece tables")
	}
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--dtb", "thai", "KRvKN")
	require.NoError(t, err)
	path := filepath.Join(dir, "KRvKN.thai.mtbb")
	good, err := store.FileSHA256(path)
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for i := len(data) / 2; i < len(data)/2+8; i++ {
		data[i] ^= 0xff
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))
	out, err := run(t, "study", "--tables", dir, "--rules", "thai", "KRvKN")
	require.ErrorContains(t, err, "(makruktb gen --dtb thai KRvKN makes it anew)", out)

	out, err = run(t, "gen", "--tables", dir, "--dtb", "thai", "KRvKN")
	require.NoError(t, err, out)
	require.Regexp(t, `KRvKN.thai +damaged \(SHA-256 .*\): generating it anew`, out)
	sum, err := store.FileSHA256(path)
	require.NoError(t, err)
	require.Equal(t, good, sum)
	out, err = run(t, "study", "--tables", dir, "--rules", "thai", "KRvKN")
	require.NoError(t, err, out)
}

// probe --wdl reads the file an engine probes (issue 58.17): its answer
// beside the tables', and says when the directory has no such file.
func TestProbeWDLFile(t *testing.T) {
	if testing.Short() {
		t.Skip("4-piece tables")
	}
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--dtb", "thai", "KRvKN")
	require.NoError(t, err)
	const fen = "n7/8/7R/8/8/8/8/K3k3 w - - 0 1"
	out, err := run(t, "probe", "--tables", dir, "--wdl", fen)
	require.NoError(t, err, out)
	require.Contains(t, out, "White's goal in 26 (51 plies) (win)")
	require.Contains(t, out, "\nWDL file KRvKN.thai.mtbw (the count starting now): win\n")
	out, err = run(t, "probe", "--tables", dir, "--wdl", "--rules", "cambodian", fen)
	require.NoError(t, err, out)
	require.Contains(t, out, "WDL file KRvKN.cambodian.mtbw: not in "+dir+" (makruktb convert --wdl cambodian makes it)")
	out, err = run(t, "probe", "--tables", dir, "--wdl", "--json", "n7/8/2R5/8/8/8/8/K3k3 b - - 0 1")
	require.NoError(t, err, out)
	var doc report.Probe
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, &report.WDLFile{File: "KRvKN.thai.mtbw", Category: doc.Category}, doc.WDLFile)
	out, err = run(t, "probe", "--tables", dir, "--json", fen)
	require.NoError(t, err, out)
	require.NotContains(t, out, "wdl_file", "only with --wdl")
}

// gen records each table's statistics beside it; stats reads them back,
// the same document it computes without them (and records it again), and
// counts again once a file is made anew.
func TestStatsRecorded(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "KRvKN")
	require.NoError(t, err)
	for _, name := range []string{"KRvKN.mtbm", "KRvKN.thai.mtbb", "KRvKN.cambodian.mtbb", "KRvK.mtbm"} {
		require.FileExists(t, filepath.Join(dir, store.StatsDir, name+".json"))
	}
	recorded, err := run(t, "stats", "--json", "--tables", dir, "KRvKN")
	require.NoError(t, err)
	require.NoError(t, os.RemoveAll(filepath.Join(dir, store.StatsDir)))
	counted, err := run(t, "stats", "--json", "--tables", dir, "KRvKN")
	require.NoError(t, err)
	require.JSONEq(t, counted, recorded)
	require.Contains(t, counted, `"thai"`)
	for _, name := range []string{"KRvKN.mtbm", "KRvKN.thai.mtbb", "KRvKN.cambodian.mtbb"} {
		require.FileExists(t, filepath.Join(dir, store.StatsDir, name+".json"), "stats records what it counted")
	}
	again, err := run(t, "stats", "--json", "--tables", dir, "KRvKN")
	require.NoError(t, err)
	require.JSONEq(t, counted, again)

	// A DTM file made again in version 1 (other bytes): its record no
	// longer holds, and the statistics are the same.
	_, err = run(t, "gen", "--tables", dir, "--force", "--format", "1", "--dtb", "none", "KRvKN")
	require.NoError(t, err)
	v1, err := run(t, "stats", "--json", "--tables", dir, "KRvKN")
	require.NoError(t, err)
	require.JSONEq(t, counted, v1)

	// A game without a count has its statistics recorded too, and none
	// of Makruk's board's-honour counts.
	_, err = run(t, "gen", "--tables", dir, "--game", "shatranj", "KRvKN")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(dir, store.StatsDir, "KRvKN.shatranj.mtbm.json"))
	recorded, err = run(t, "stats", "--json", "--tables", dir, "--game", "shatranj", "KRvKN")
	require.NoError(t, err)
	require.NoError(t, os.RemoveAll(filepath.Join(dir, store.StatsDir)))
	counted, err = run(t, "stats", "--json", "--tables", dir, "--game", "shatranj", "KRvKN")
	require.NoError(t, err)
	require.JSONEq(t, counted, recorded)
	require.Contains(t, counted, `"game": "shatranj"`)
	// No count in Shatranj: Makruk's KRvKN.thai beside it is not read.
	require.NotContains(t, counted, "cursed-win")
}

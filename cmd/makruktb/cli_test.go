//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
)

// These tests run the built binary, as a user would: exit statuses,
// signals, file modes and messages are what the process shows.

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// TestMain removes the binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binaryPath != "" {
		os.RemoveAll(filepath.Dir(binaryPath))
	}
	os.Exit(code)
}

// binary builds the command once per test run and returns its path.
func binary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "makruktb-cli")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "makruktb")
		out, err := exec.Command("go", "build", "-o", binaryPath, ".").CombinedOutput()
		if err != nil {
			binaryErr = errors.New(string(out))
		}
	})
	require.NoError(t, binaryErr, "go build")
	return binaryPath
}

// result is what a finished run of the binary showed.
type result struct {
	stdout, stderr string
	code           int
}

// runBinary runs the binary with args and returns its output and exit
// status; it fails the test if the run outlasts its patience.
func runBinary(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(testenv.Patience(t)):
		cmd.Process.Kill()
		t.Fatalf("makruktb %s: still running near the test's deadline", strings.Join(args, " "))
	}
	return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

// --threads is checked for every command before any work, with the range
// in the message; 0 means every core.
func TestCLIThreads(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range [][]string{{"gen", "--tables", dir, "KRvK"}, {"verify", "--tables", dir, "KRvK"}, {"index", "KRvK"}} {
		for _, bad := range []string{"99999999999", "100000", "257", "-1", "-5", "two"} {
			args := append(append([]string{}, cmd...), "--threads", bad)
			r := runBinary(t, args...)
			require.Equal(t, 1, r.code, "%v", args)
			require.Contains(t, r.stderr, `invalid argument "`+bad+`" for "--threads" flag: want 1 to 256 threads, or 0 for every core`, "%v", args)
			require.Empty(t, r.stdout, "%v did work", args)
		}
	}
	r := runBinary(t, "gen", "--tables", dir, "--threads", "0", "KRvK")
	require.Zero(t, r.code, r.stderr)
	r = runBinary(t, "verify", "--tables", dir, "--threads", "0", "KRvK")
	require.Zero(t, r.code, r.stderr)
	r = runBinary(t, "index", "--threads", "0", "KRvK")
	require.Zero(t, r.code, r.stderr)
}

// KvK has an index (the kings alone) but no table.
func TestCLIIndexKvK(t *testing.T) {
	for _, name := range []string{"KvK", "kvk"} {
		r := runBinary(t, "index", name)
		require.Zero(t, r.code, r.stderr)
		require.Contains(t, r.stdout, "| KvK | 462 | 462 | 462 | 462 | 0.0% |")
	}
}

// What the generator cannot make is refused before any work, with the
// reason once; nothing is silently skipped.
func TestCLIRefusesBeforeWork(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"KRPvK"}, "makruktb: material KRPvK has pawns: the tables are pawnless\n"},
		{[]string{"KvK"}, "makruktb: cannot generate: KvK is a draw and has no table: every table has at least 3 pieces\n"},
		{[]string{"--max-pieces", "2"}, "makruktb: --max-pieces 2: the smallest tables have 3 pieces (KvK is a draw and has none)\n"},
		{[]string{"--max-pieces", "7"}, "makruktb: --max-pieces 7: tables have 3 to 6 pieces\n"},
		{[]string{"--memory", "100MiB", "KRSvKN"}, "makruktb: cannot generate KRSvKN: it needs about 1.04 GiB of memory (473432064 indices per side), or 166.4 MiB out of core; --memory allows 100.0 MiB (see makruktb plan)\n"},
		{[]string{"--memory", "2GiB", "KSNvKSN"}, "makruktb: cannot generate KSNvKSN: it needs about 66.14 GiB of memory (30299652096 indices per side), or 4.27 GiB out of core; --memory allows 2.00 GiB (see makruktb plan)\n"},
		{[]string{"--memory", "20GiB", "--scratch", "/proc/version/x", "KSNvKSN"}, "makruktb: --scratch /proc/version/x: /proc/version is not a directory\n"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := runBinary(t, append([]string{"gen", "--tables", dir}, c.args...)...)
			require.Equal(t, 1, r.code, "%v", c.args)
			require.Equal(t, c.msg, r.stderr, "%v", c.args)
			require.Empty(t, r.stdout, "%v: refused only after work", c.args)
		})
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries, "a refused generation wrote nothing")

	// The table directory is named when it cannot take files, before the
	// room for checkpoints is estimated (issue 58.15).
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	r := runBinary(t, "gen", "--tables", file+"/sub", "KRvK")
	require.Equal(t, 1, r.code)
	require.Equal(t, "makruktb: --tables "+file+"/sub: "+file+" is not a directory\n", r.stderr)
	r = runBinary(t, "gen", "--tables", t.TempDir(), "--scratch", file+"/sub", "KRvK")
	require.Equal(t, "makruktb: --scratch "+file+"/sub: "+file+" is not a directory\n", r.stderr)
	for _, cmd := range []string{"study", "stats"} {
		r = runBinary(t, cmd, "--tables", t.TempDir(), "KRRRvKRRR")
		require.Equal(t, "makruktb: material KRRRvKRRR has 8 pieces: the tables have at most 6\n", r.stderr, cmd)
	}
}

// gen with every table present says so.
func TestCLINothingToDo(t *testing.T) {
	dir := t.TempDir()
	r := runBinary(t, "gen", "--tables", dir, "KRvK")
	require.Zero(t, r.code, r.stderr)
	r = runBinary(t, "gen", "--tables", dir, "KRvK")
	require.Zero(t, r.code, r.stderr)
	require.Equal(t, "1 table already in "+dir+": nothing to do (--force regenerates the named ones)\n", r.stdout)
}

// Files are created as os.Create creates them: 0666 less the umask.
func TestCLIFileModes(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	svg := filepath.Join(dir, "plot.svg")
	r := runBinary(t, "gen", "--tables", dir, "KRvK")
	require.Zero(t, r.code, r.stderr)
	r = runBinary(t, "stats", "--tables", dir, "--svg", svg, "KRvK")
	require.Zero(t, r.code, r.stderr)
	for _, name := range []string{"KRvK.mtbm", store.ChecksumFile, store.CatalogueFile, store.CatalogueMarkdown, "plot.svg"} {
		info, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o644), info.Mode().Perm(), name)
	}
}

// The messages a user meets for bad input.
func TestCLIMessages(t *testing.T) {
	dir := t.TempDir()
	r := runBinary(t, "gen", "--tables", dir, "KRvK")
	require.Zero(t, r.code, r.stderr)
	broken := filepath.Join(dir, "mine.json")
	require.NoError(t, os.WriteFile(broken, []byte(`{"name":`), 0o644))
	outside := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"check", "--tables", dir, "9/8/8/8/8/2k5/1R6/K7 w"}, "'9' on rank 8: a run of empty squares is 1 to 8"},
		{[]string{"check", "--tables", dir, "8/8/8/8/8/2k5/1R6/K7 w - 99999 0 1"}, "count limit: 99999 plies: at most 10000"},
		{[]string{"check", "--tables", dir, "--rules", broken, "8/8/8/8/8/2k5/1R6/K7 w"}, broken + ": rules: unexpected EOF"},
		{[]string{"check", "--tables", dir, "8/8/8/8/3P4/2k5/1R6/K7 w - - 0 1"}, `makruktb: position "8/8/8/8/3P4/2k5/1R6/K7 w - - 0 1": pawns on the board`},
		{[]string{"check", "--tables", filepath.Join(outside, "data"), "8/8/8/8/8/2k5/1R6/K7 w"}, "give the table directory with --tables DIR or $MAKRUKTB_PATH"},
		{[]string{"verify", "--tables", dir, "KRvKR"}, "not found: no file " + filepath.Join(dir, "KRvKR.mtbm")},
		{[]string{"verify", "--tables", outside}, "no tables in " + outside + "; give the table directory with --tables DIR"},
		{[]string{"gen", "--tables", dir, "--wdl-format", "4", "KRvK"}, "--wdl-format 4: the WDL formats are 2 and 3"},
		{[]string{"convert", "--tables", dir, "--wdl-format", "1"}, "--wdl-format 1: the WDL formats are 2 and 3"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := runBinary(t, c.args...)
			require.Equal(t, 1, r.code, "%v", c.args)
			require.Contains(t, r.stdout+r.stderr, c.msg, "%v", c.args)
			require.NotContains(t, r.stderr, "goroutine", "%v: a stack trace", c.args)
		})
	}
	r = runBinary(t, "check", "--tables", dir, "--rules", "THAI", "8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	require.Zero(t, r.code, r.stderr)
	require.Contains(t, r.stdout, "(thai rules)")
}

// --version names the module version and the Go version.
func TestCLIVersion(t *testing.T) {
	r := runBinary(t, "--version")
	require.Zero(t, r.code, r.stderr)
	require.Regexp(t, `^makruktb \S+.* go1\.\d+`, r.stdout)
}

// stopsCleanly starts the binary, sends sig once it has printed a line
// containing ready (on stdout or stderr; "" for at once after a second),
// and checks that it stops within five seconds with code and a one-line
// message naming the signal.
func stopsCleanly(t *testing.T, sig syscall.Signal, code int, ready string, args ...string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	if ready != "" {
		deadline := time.After(testenv.Patience(t)) // a loaded machine is slow to get there
	wait:
		for {
			select {
			case l, open := <-lines:
				if !open {
					cmd.Wait()
					t.Fatalf("%v: ended before printing %q: %s", args, ready, stderr.String())
				}
				if strings.Contains(l, ready) {
					break wait
				}
			case <-deadline:
				cmd.Process.Kill()
				t.Fatalf("%v: never printed %q", args, ready)
			}
		}
	} else {
		time.Sleep(time.Second)
	}
	sent := time.Now()
	require.NoError(t, cmd.Process.Signal(sig))
	done := make(chan error, 1)
	go func() {
		for range lines {
		}
		done <- cmd.Wait()
	}()
	select {
	case <-done:
	case <-time.After(testenv.Patience(t)):
		cmd.Process.Kill()
		t.Fatalf("%v: still running near the test's deadline after %v", args, sig)
	}
	t.Logf("%v stopped %v after %v", args, time.Since(sent).Round(time.Millisecond), sig)
	require.Equal(t, code, cmd.ProcessState.ExitCode(), "%v: %s", args, stderr.String())
	name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[sig]
	msg := strings.TrimSuffix(stderr.String(), "\n")
	require.NotContains(t, msg, "\n", "%v: one line", args)
	require.Contains(t, msg, "makruktb: stopped by "+name, args)
}

// noPartialFiles checks that every file under a table's final name is a
// whole table and that no temporary file is left.
func noPartialFiles(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.NotContains(t, e.Name(), ".tmp", "a temporary file was left")
		if strings.HasSuffix(e.Name(), ".mtbm") || strings.HasSuffix(e.Name(), ".mtbb") || strings.HasSuffix(e.Name(), ".mtbw") {
			f, err := probe.OpenFile(filepath.Join(dir, e.Name()))
			require.NoError(t, err, e.Name())
			require.NoError(t, f.CheckData(), e.Name())
			f.Close()
		}
	}
}

// SIGTERM and SIGINT stop the long commands within seconds, with one line
// naming the signal, and leave no file that looks complete but is not.
func TestCLISignals(t *testing.T) {
	dir := t.TempDir()
	// Stopped in the middle of the 4-piece DTM tables.
	stopsCleanly(t, syscall.SIGTERM, 128+int(syscall.SIGTERM), "KRRvK", "gen", "--tables", dir, "--threads", "2", "--max-pieces", "4")
	noPartialFiles(t, dir)
	r := runBinary(t, "gen", "--tables", dir, "--threads", "2", "--dtb", "none", "KRRvK", "KSSvK")
	require.Zero(t, r.code, r.stderr)
	// Each signal goes out once the command has printed a line that
	// leaves it seconds of work: a fixed wait raced a fast machine (index
	// KRRNvK, 0.9 s in all, once finished before its signal). verify's
	// KSSvK takes 2 s after KRvK; index KRRNvKM about a minute after its
	// header.
	stopsCleanly(t, syscall.SIGINT, 128+int(syscall.SIGINT), "KRvK ", "verify", "--tables", dir, "--threads", "1")
	stopsCleanly(t, syscall.SIGTERM, 128+int(syscall.SIGTERM), "| material", "index", "--threads", "1", "KRRNvKM")
	stopsCleanly(t, syscall.SIGTERM, 0, "serving http://", "serve", "--tables", dir, "--addr", "127.0.0.1:0")
	stopsCleanly(t, syscall.SIGINT, 0, "serving http://", "serve", "--tables", dir, "--addr", "127.0.0.1:0")
	noPartialFiles(t, dir)
	// A deep perft runs for hours (issue 37: it once ignored both).
	stopsCleanly(t, syscall.SIGINT, 128+int(syscall.SIGINT), "", "perft", "--depth", "12", "2R5/8/5K2/2S5/8/8/8/k7 w - - 0 1")
	stopsCleanly(t, syscall.SIGTERM, 128+int(syscall.SIGTERM), "", "perft", "--depth", "12", "--divide", "2R5/8/5K2/2S5/8/8/8/k7 w - - 0 1")
}

// check's exit status says whether it could tell.
func TestCLICheckExitStatus(t *testing.T) {
	dir := t.TempDir()
	r := runBinary(t, "gen", "--tables", dir, "--dtb", "thai", "KRvKN")
	require.Zero(t, r.code, r.stderr)
	const fen = "n7/8/7R/8/8/8/8/K3k3 w - - 0 1"
	r = runBinary(t, "check", "--tables", dir, fen)
	require.Zero(t, r.code, r.stderr)
	r = runBinary(t, "check", "--tables", dir, "--rules", "cambodian", fen)
	require.Equal(t, exitCannotTell, r.code, r.stderr)
	require.Empty(t, r.stderr)
	require.Contains(t, r.stdout, "cannot tell without the board's-honour table KRvKN.cambodian.mtbb")
}

// plan lists the tables gen would make with the estimates it checks, and
// generates nothing.
func TestCLIPlan(t *testing.T) {
	r := runBinary(t, "plan", "--dtb", "thai", "--memory", "1GiB", "KRSvKN")
	require.Zero(t, r.code, r.stderr)
	require.Contains(t, r.stdout, "| KRSvKN | 5 | 473432064 | 1.04 GiB | 316.0 MiB | 3m9s | 166.4 MiB | 1015.9 MiB | 111.99 GiB, 34.39 GiB | 8m19s | out of core |")
	require.Contains(t, r.stdout, "| KRSvKN.thai | 5 | 473432064 | 1.04 GiB | 316.0 MiB | 3m9s | 166.4 MiB |", "DTB peaks where DTM does")
	// The WDL files: KRSvKN's format-3 writer would take 8.5 GiB.
	require.Regexp(t, `\n10 tables: [0-9.]+ CPU-hours .* peak memory 16.4 MiB \(136.3 MiB writing format-3 WDL files\), .* of files; 1 material's WDL files in format 2, within --memory; 2 out of core, within 166.4 MiB .*\n$`, r.stdout)
	r = runBinary(t, "plan", "--dtb", "thai", "--memory", "100MiB", "KRSvKN")
	require.Zero(t, r.code, r.stderr)
	require.Contains(t, r.stdout, "exceeds --memory 100.0 MiB even out of core")
	require.Regexp(t, `; 2 cannot be generated here\n$`, r.stdout)
	r = runBinary(t, "plan", "KRRRRvK")
	require.Zero(t, r.code, r.stderr)
	require.Contains(t, r.stdout, "| KRRRRvK | 6 | 293543712 | 675.3 MiB |", "no limit on a position's moves")
}

// A generation stopped by SIGINT after a checkpoint resumes from it on
// the next run, says so, comes out byte for byte the reference and leaves
// no checkpoint; a damaged checkpoint is refused, naming it, until --force
// starts the table afresh.
func TestCLIResume(t *testing.T) {
	dir := t.TempDir()
	r := runBinary(t, "gen", "--tables", dir, "--dtb", "none", "KRvK", "KSvK")
	require.Zero(t, r.code, r.stderr)
	resume := filepath.Join(dir, "KRSvK.resume")
	args := []string{"gen", "--tables", dir, "--dtb", "none", "--threads", "1", "--checkpoint", "1ns", "KRSvK"}
	cmd := exec.Command(binary(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	require.Eventually(t, func() bool { _, err := os.Stat(resume); return err == nil }, testenv.Patience(t), 2*time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	require.Error(t, cmd.Wait())
	require.Equal(t, 128+int(syscall.SIGINT), cmd.ProcessState.ExitCode(), stderr.String())
	require.Regexp(t, `KRSvK +saved after pass \d+ to `+regexp.QuoteMeta(resume)+` \(\d`, stderr.String())
	require.FileExists(t, resume)
	require.NoFileExists(t, filepath.Join(dir, "KRSvK.mtbm"))

	r = runBinary(t, args...)
	require.Zero(t, r.code, r.stderr)
	require.Regexp(t, `KRSvK +resuming after pass \d+ from `+regexp.QuoteMeta(resume), r.stdout)
	require.NoFileExists(t, resume)
	got, err := store.FileSHA256(filepath.Join(dir, "KRSvK.mtbm"))
	require.NoError(t, err)
	require.Equal(t, data.ChecksumsV2()["KRSvK.mtbm"], got)

	require.NoError(t, os.WriteFile(resume, []byte("MTBRESUM damaged"), 0o666))
	require.NoError(t, os.Remove(filepath.Join(dir, "KRSvK.mtbm")))
	r = runBinary(t, args...)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "checkpoint "+resume+": ")
	require.Contains(t, r.stderr, "remove it to start the table afresh")
	r = runBinary(t, append(args, "--force")...)
	require.Zero(t, r.code, r.stderr)
	require.NotContains(t, r.stdout, "resuming")
	require.NoFileExists(t, resume)
}

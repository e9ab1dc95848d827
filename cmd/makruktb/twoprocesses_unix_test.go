//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
)

// Two runs on one table directory: a second gen making a table the first
// is making waits for it, saying so, and keeps it; gen and verify side by
// side take turns on the directory's records. No catalogue row or checksum
// is lost or doubled, and the tables are their reference (issue 37).
//
// The meeting does not depend on the machine's speed: the first run is
// stopped (SIGSTOP) while it holds a table's lock, and let go on only once
// the second has said that it waits for it.
func TestTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary twice at once")
	}
	dir := t.TempDir()
	r := runBinary(t, "gen", "--tables", dir, "--dtb", "none", "KMvK", "KSvK")
	require.Zero(t, r.code, r.stderr)
	first := startWatched(t, "gen", "--tables", dir, "--threads", "1", "KSvKM", "KRvKN")
	held := first.stopHoldingATable(t, dir)
	t.Logf("the first run stopped holding %s", held)
	second := startWatched(t, "gen", "--tables", dir, "--threads", "1", "KRvKN", "KSvKM")
	waiting := fmt.Sprintf("another run is making it (process %d (", first.cmd.Process.Pid)
	require.Eventually(t, func() bool { return strings.Contains(second.stderr(), waiting) },
		testenv.Patience(t), 5*time.Millisecond, "the second run never said it waits for the first's %s; it said:\n%s", held, second.stderr())
	require.NoError(t, first.cmd.Process.Signal(syscall.SIGCONT))
	a, b := first.wait(), second.wait()
	require.Zero(t, a.code, a.stderr)
	require.Zero(t, b.code, b.stderr)
	require.Regexp(t, `K\w+vK\w+(\.\w+)? +another run is making it \(process \d+ \(.*gen --tables `, b.stderr)
	finishedLikeReference(t, dir)
	rows, err := store.ReadCatalogue(dir)
	require.NoError(t, err)
	tables := tablesOfDir(t, dir)
	require.Len(t, rows, len(tables))
	for _, name := range tables {
		require.Contains(t, rows, name)
	}
	consistentAfterKill(t, dir)

	// gen of new tables beside verify of the old: both go through.
	gen := startBinary(t, "gen", "--tables", dir, "--threads", "1", "KRvKS")
	verify := startBinary(t, "verify", "--tables", dir, "--threads", "1", "KRvKN", "KSvKM")
	g, v := gen(), verify()
	require.Zero(t, g.code, g.stderr)
	require.Zero(t, v.code, v.stderr)
	rows, err = store.ReadCatalogue(dir)
	require.NoError(t, err)
	tables = tablesOfDir(t, dir)
	require.Len(t, rows, len(tables))
	sums, err := store.ReadChecksums(dir)
	require.NoError(t, err)
	for _, name := range tables {
		require.Contains(t, rows, name)
		if strings.HasPrefix(name, "KRvKN") || strings.HasPrefix(name, "KSvKM") {
			require.NotEmpty(t, rows[name].Verified, "%s: verify's mark was lost", name)
		}
	}
	ids, err := probe.Scan(dir)
	require.NoError(t, err)
	for _, id := range ids {
		require.Contains(t, sums, id.FileName())
	}
	finishedLikeReference(t, dir)
	consistentAfterKill(t, dir)
}

// watched is a running binary whose standard error can be read while it
// runs.
type watched struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	out    strings.Builder
	errOut strings.Builder
	exited chan struct{}
	result result
}

func (w *watched) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.errOut.Write(p)
}

func (w *watched) stderr() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.errOut.String()
}

// startWatched starts the binary with args. The test's cleanup lets a
// stopped process go on and kills it if the test ended before it did.
func startWatched(t *testing.T, args ...string) *watched {
	t.Helper()
	w := &watched{cmd: exec.Command(binary(t), args...), exited: make(chan struct{})}
	w.cmd.Stdout, w.cmd.Stderr = &w.out, w
	require.NoError(t, w.cmd.Start())
	go func() {
		err := w.cmd.Wait()
		w.result = result{stdout: w.out.String(), stderr: w.stderr()}
		if err != nil {
			w.result.code = w.cmd.ProcessState.ExitCode()
		}
		close(w.exited)
	}()
	t.Cleanup(func() {
		w.cmd.Process.Signal(syscall.SIGCONT)
		w.cmd.Process.Kill()
		<-w.exited
	})
	return w
}

// wait waits for the process to end and returns its result.
func (w *watched) wait() result {
	<-w.exited
	return w.result
}

// stopHoldingATable stops the process (SIGSTOP) at a moment it holds the
// lock of a table in dir and not the directory's own lock, and returns
// the table's lock file. It polls the lock files, which name their
// holder: the holder writes its line once it has the lock and removes
// the file before it lets the lock go, so a file still naming the
// process after the stop is a lock it holds.
func (w *watched) stopHoldingATable(t *testing.T, dir string) string {
	t.Helper()
	mine := fmt.Sprintf("process %d (", w.cmd.Process.Pid)
	heldLock := func() string {
		locks, _ := filepath.Glob(filepath.Join(dir, ".K*.lock"))
		for _, path := range locks {
			if line, err := os.ReadFile(path); err == nil && strings.HasPrefix(string(line), mine) {
				return path
			}
		}
		return ""
	}
	deadline := time.Now().Add(testenv.Patience(t))
	for time.Now().Before(deadline) {
		select {
		case <-w.exited:
			t.Fatalf("the first run ended before it was caught holding a table's lock:\n%s", w.result.stderr)
		default:
		}
		if heldLock() == "" {
			time.Sleep(200 * time.Microsecond)
			continue
		}
		require.NoError(t, w.cmd.Process.Signal(syscall.SIGSTOP))
		w.untilStopped(t)
		if path := heldLock(); path != "" && !directoryLocked(t, dir) {
			return filepath.Base(path)
		}
		require.NoError(t, w.cmd.Process.Signal(syscall.SIGCONT))
	}
	t.Fatal("the first run was never caught holding a table's lock")
	return ""
}

// untilStopped waits until every thread of the process has stopped: a
// signal is delivered asynchronously, and a thread still running could
// yet let a lock go.
func (w *watched) untilStopped(t *testing.T) {
	t.Helper()
	task := fmt.Sprintf("/proc/%d/task", w.cmd.Process.Pid)
	if _, err := os.Stat(task); err != nil {
		t.Skip("needs /proc to see that the process has stopped")
	}
	require.Eventually(t, func() bool {
		stats, _ := filepath.Glob(filepath.Join(task, "*", "stat"))
		for _, path := range stats {
			stat, err := os.ReadFile(path)
			if err != nil {
				continue // a thread that ended
			}
			// pid (comm) state ...: the state follows the last ')'.
			fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
			if len(fields) == 0 || (fields[0] != "T" && fields[0] != "t") {
				return false
			}
		}
		return len(stats) > 0
	}, testenv.Patience(t), time.Millisecond, "the first run did not stop after SIGSTOP")
}

// directoryLocked reports whether some process holds dir's own lock (the
// one guarding its lists), which the second run would wait on silently.
func directoryLocked(t *testing.T, dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, ".makruktb.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

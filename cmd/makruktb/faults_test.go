package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/longtest"
	"github.com/makruktb/makruktb/internal/testenv"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
)

// killPoints is how many times each command is killed: twice in make
// test-long, 20 with MAKRUKTB_FAULTS=long (make faults).
func killPoints() int {
	if os.Getenv("MAKRUKTB_FAULTS") == "long" {
		return 20
	}
	return 2
}

// runUntilKilled starts the binary with args and kills it (SIGKILL) after
// d, or lets it finish first; it reports whether the kill came first.
func runUntilKilled(t *testing.T, d time.Duration, args ...string) bool {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "%v finished before its kill, and failed", args)
		return false
	case <-time.After(d):
		err := cmd.Process.Kill()
		if errors.Is(err, os.ErrProcessDone) {
			// It finished as the kill was due: Wait had reaped it.
			require.NoError(t, <-done, "%v finished before its kill, and failed", args)
			return false
		}
		require.NoError(t, err)
		<-done
		return true
	}
}

// timed runs the binary to the end and returns how long it took.
func timed(t *testing.T, args ...string) time.Duration {
	t.Helper()
	start := time.Now()
	r := runBinary(t, args...)
	require.Zero(t, r.code, "%v: %s", args, r.stderr)
	return time.Since(start)
}

// consistentAfterKill checks what a killed run may leave in dir: every
// file under a table's final name is whole (its checksums hold), every
// checksum recorded in SHA256SUMS is the file's, and the catalogue
// reads. Temporary files (".tmp"), written but unaccepted tables and
// checkpoints are allowed: the next run removes or resumes them.
func consistentAfterKill(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		name := e.Name()
		if strings.Contains(name, ".tmp") || strings.HasSuffix(name, ".unaccepted") || strings.HasSuffix(name, ".resume") {
			continue
		}
		require.NotContains(t, name, ".rejected", "a table failed its check")
		if strings.HasSuffix(name, ".mtbm") || strings.HasSuffix(name, ".mtbb") || strings.HasSuffix(name, ".mtbw") {
			f, err := probe.OpenFile(filepath.Join(dir, name))
			require.NoError(t, err, name)
			require.NoError(t, f.CheckData(), name)
			f.Close()
		}
	}
	sums, err := store.ReadChecksums(dir)
	require.NoError(t, err)
	for name, sum := range sums {
		got, err := store.FileSHA256(filepath.Join(dir, name))
		require.NoError(t, err, "%s is recorded in SHA256SUMS but not there", name)
		require.Equal(t, sum, got, "%s: SHA256SUMS records another checksum", name)
	}
	_, err = store.ReadCatalogue(dir)
	require.NoError(t, err)
}

// finishedLikeReference checks a directory after a run that finished:
// no temporary file is left, and every table and WDL file is its
// reference checksum: of version 2, gen's default, unless the
// directory's KRvK table is a version-1 file; a WDL file of version 3
// beside version-2 tables, of data/checksums-v3.txt.
func finishedLikeReference(t *testing.T, dir string) {
	t.Helper()
	reference, wdl := data.ChecksumsV2(), data.ChecksumsV3()
	if f, err := probe.OpenFile(filepath.Join(dir, "KRvK.mtbm")); err == nil {
		if f.Header.Version == probe.Version {
			reference, wdl = data.Checksums(), nil
		}
		f.Close()
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	files := 0
	for _, e := range entries {
		name := e.Name()
		require.NotContains(t, name, ".tmp", "a temporary file was left")
		require.False(t, strings.HasSuffix(name, ".unaccepted") || strings.HasSuffix(name, ".resume"), name)
		list := reference
		if strings.HasSuffix(name, ".mtbw") {
			if f, err := probe.OpenFile(filepath.Join(dir, name)); err == nil {
				if f.Header.Version == probe.Version3 {
					list = wdl
				}
				f.Close()
			}
		}
		if want, ok := list[name]; ok {
			got, err := store.FileSHA256(filepath.Join(dir, name))
			require.NoError(t, err)
			require.Equal(t, want, got, name)
			files++
		}
	}
	require.NotZero(t, files)
}

// SIGKILL at random moments of gen (in memory and out of core), verify
// and convert leaves nothing partial under a final name and a consistent
// record, and a rerun finishes with the reference checksums (issue 37).
// The moments are drawn over the length of an uninterrupted run.
func TestKill9(t *testing.T) {
	longtest.Skip(t, "kills runs of the binary at random moments")
	points := killPoints()
	seed := uint64(time.Now().UnixNano())
	t.Logf("kill moments seeded with %d", seed)
	rng := rand.New(rand.NewPCG(seed, 37))
	moment := func(full time.Duration) time.Duration {
		return time.Duration(rng.Int64N(int64(full))) + 5*time.Millisecond
	}
	materials := []string{"KRvKN", "KSvKM"}
	for _, mode := range []struct {
		name  string
		flags []string
	}{
		{"gen", nil},
		{"gen out of core", []string{"--out-of-core", "--checkpoint", "200ms"}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			gen := func(dir string) []string {
				return append(append([]string{"gen", "--tables", dir, "--threads", "2"}, mode.flags...), materials...)
			}
			full := timed(t, gen(t.TempDir())...)
			killed := 0
			for range points {
				// Each kill in a fresh directory, then the run that
				// resumes after it: every moment of a whole run is tried.
				dir := t.TempDir()
				if runUntilKilled(t, moment(full), gen(dir)...) {
					killed++
				}
				consistentAfterKill(t, dir)
				r := runBinary(t, gen(dir)...)
				require.Zero(t, r.code, r.stderr)
				finishedLikeReference(t, dir)
			}
			t.Logf("%d of %d runs killed before they finished (an uninterrupted run takes %v)", killed, points, full.Round(time.Millisecond))
		})
	}

	dir := t.TempDir()
	r := runBinary(t, append([]string{"gen", "--tables", dir, "--threads", "2", "--no-wdl"}, materials...)...)
	require.Zero(t, r.code, r.stderr)
	t.Run("verify", func(t *testing.T) {
		full := timed(t, "verify", "--tables", dir, "--threads", "2")
		for range points {
			runUntilKilled(t, moment(full), "verify", "--tables", dir, "--threads", "2")
			consistentAfterKill(t, dir)
		}
		r := runBinary(t, "verify", "--tables", dir, "--threads", "2", "--pending")
		require.Zero(t, r.code, r.stderr)
		r = runBinary(t, "verify", "--tables", dir, "--pending")
		require.Contains(t, r.stderr, "0 tables not yet verified")
	})
	t.Run("convert", func(t *testing.T) {
		copyOf := func() string {
			copyDir := t.TempDir()
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			for _, e := range entries {
				if e.IsDir() {
					continue // .stats: the statistics gen recorded, which convert does not read
				}
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(copyDir, e.Name()), b, 0o644))
			}
			return copyDir
		}
		full := timed(t, "convert", "--tables", copyOf())
		for range points {
			copyDir := copyOf()
			runUntilKilled(t, moment(full), "convert", "--tables", copyDir)
			consistentAfterKill(t, copyDir)
			r := runBinary(t, "convert", "--tables", copyDir)
			require.Zero(t, r.code, r.stderr)
			finishedLikeReference(t, copyDir)
		}
	})
}

// smallDisk mounts a tmpfs of size bytes on a new directory for the test
// (root only: without it the test is skipped, or fails under
// MAKRUKTB_E2E=1); grow remounts it larger.
func smallDisk(t *testing.T, size string) (dir string, grow func(size string)) {
	t.Helper()
	dir = t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		if os.Getenv("MAKRUKTB_E2E") == "1" {
			t.Fatalf("MAKRUKTB_E2E=1 but no tmpfs could be mounted: %v: %s", err, out)
		}
		t.Skipf("cannot mount a tmpfs (needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir, func(size string) {
		out, err := exec.Command("mount", "-o", "remount,size="+size, dir).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
}

// A disk that fills up during gen: a clear error naming the file, nothing
// partial under a final name and no temporary file left; once there is
// room, the rerun finishes with the reference checksums. A checkpoint
// the disk cannot hold is refused before any work (issue 37).
func TestFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a small file system")
	}
	// KRvKN's version-2 tables and those of its sub-materials fill about
	// 430 KiB, the WDL files (version 3) 300 KiB more: the disk fills in
	// the DTM table, in a DTB table and in a WDL file.
	for _, size := range []string{"150k", "420k", "600k"} {
		t.Run(size, func(t *testing.T) {
			dir, grow := smallDisk(t, size)
			r := runBinary(t, "gen", "--tables", dir, "--threads", "2", "--checkpoint", "0", "KRvKN")
			require.Equal(t, 1, r.code, r.stdout)
			require.Regexp(t, `makruktb: write `+dir+`/\S+: no space left on device`, r.stderr)
			require.NotContains(t, r.stderr, ".tmp", "the error names the file, not its temporary name")
			consistentAfterKill(t, dir)
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			for _, e := range entries {
				require.NotContains(t, e.Name(), ".tmp", "a temporary file was left")
			}
			grow("8m")
			r = runBinary(t, "gen", "--tables", dir, "--threads", "2", "--checkpoint", "0", "KRvKN")
			require.Zero(t, r.code, r.stderr)
			finishedLikeReference(t, dir)
		})
	}
	dir, _ := smallDisk(t, "1m")
	r := runBinary(t, "gen", "--tables", dir, "KRvKN")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "its checkpoint takes")
}

// serve under load receiving SIGTERM: the requests in flight finish (a
// slow statistics request among them), new connections are refused once
// it has stopped, and it exits 0 (issue 37).
func TestServeSIGTERMUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("runs serve under load")
	}
	dir := t.TempDir()
	// Version 1: its statistics, the slow request below, take a second or
	// two; a version-2 table's derive its side not stored first, which on
	// a busy machine can outlast the grace of the shutdown.
	r := runBinary(t, "gen", "--tables", dir, "--format", "1", "--threads", "2", "--no-wdl", "KRvKN", "KSvKN")
	require.Zero(t, r.code, r.stderr)
	cmd := exec.Command(binary(t), "serve", "--tables", dir, "--addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(stdout)
	base := ""
	for sc.Scan() {
		if _, url, ok := strings.Cut(sc.Text(), "serving "); ok {
			base = strings.Fields(url)[0]
			break
		}
	}
	require.NotEmpty(t, base, stderr.String())
	go func() {
		for sc.Scan() {
		}
	}()

	var mu sync.Mutex
	var ok, refused int
	var bad []string
	stop := make(chan struct{})
	var clients sync.WaitGroup
	// Each client keeps its connection (the default keeps two idle per
	// host), so a request racing the shutdown on a kept connection is
	// retried by the transport and finds the port closed.
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 32}}
	// Once the signal is sent, a fresh connection still in the listen
	// backlog when serve closes its listener is reset by the kernel: for a
	// request begun after the signal that is a refusal too.
	var signalled atomic.Bool
	for c := range 16 {
		clients.Add(1)
		go func() {
			defer clients.Done()
			fens := []string{"n7/8/7R/8/8/8/8/K3k3 w - - 0 1", "8/8/8/3k4/8/8/2R5/K7 b - - 0 1"}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				path := "/api/v1/line?fen=" + url.QueryEscape(fens[(c+i)%2])
				late := signalled.Load()
				resp, err := client.Get(base + path)
				mu.Lock()
				switch {
				case err != nil && (errors.Is(err, syscall.ECONNREFUSED) || strings.Contains(err.Error(), "connection refused")):
					refused++
				case err != nil && late && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || strings.Contains(err.Error(), "connection reset")):
					refused++
				case err != nil:
					bad = append(bad, err.Error())
				default:
					body, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil || resp.StatusCode != 200 || !json.Valid(body) {
						bad = append(bad, fmt.Sprintf("status %d, %d bytes, %v", resp.StatusCode, len(body), err))
					} else {
						ok++
					}
				}
				mu.Unlock()
			}
		}()
	}
	// A slow request in flight when the signal comes: KSvKN's statistics.
	slow := make(chan error, 1)
	go func() {
		resp, err := client.Get(base + "/api/v1/stats/KSvKN")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !json.Valid(body) {
				err = fmt.Errorf("status %d: %s", resp.StatusCode, body)
			}
		}
		slow <- err
	}()
	time.Sleep(300 * time.Millisecond)
	signalled.Store(true)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		require.NoError(t, err, "serve exits 0 after SIGTERM: %s", stderr.String())
	case <-time.After(testenv.Patience(t)):
		cmd.Process.Kill()
		t.Fatal("serve still running near the test's deadline after SIGTERM")
	}
	require.NoError(t, <-slow, "the request in flight finishes")
	_, err = client.Get(base + "/api/v1/probe?fen=" + url.QueryEscape("8/8/8/3k4/8/8/2R5/K7 b - - 0 1"))
	require.Error(t, err, "a new request after the shutdown is refused")
	close(stop)
	clients.Wait()
	require.Empty(t, bad)
	require.NotZero(t, ok)
	t.Logf("%d answers in full, %d refused after the shutdown", ok, refused)
}

// startBinary starts the binary with args; wait returns its result.
func startBinary(t *testing.T, args ...string) (wait func() result) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	return func() result {
		err := cmd.Wait()
		code := 0
		if err != nil {
			code = cmd.ProcessState.ExitCode()
		}
		return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
	}
}

// tablesOfDir lists the table files (DTM and DTB) in dir by their
// catalogue names ("KRvKN", "KRvKN.thai").
func tablesOfDir(t *testing.T, dir string) []string {
	t.Helper()
	ids, err := probe.Scan(dir)
	require.NoError(t, err)
	var names []string
	for _, id := range ids {
		names = append(names, id.String())
	}
	return names
}

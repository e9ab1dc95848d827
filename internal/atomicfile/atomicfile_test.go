//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Files get os.Create's mode, 0666 less the umask, whatever the umask.
func TestWriteHonoursUmask(t *testing.T) {
	for _, umask := range []int{0o022, 0o002, 0o077} {
		old := syscall.Umask(umask)
		path := filepath.Join(t.TempDir(), "table")
		err := WriteBytes(path, []byte("data"))
		syscall.Umask(old)
		require.NoError(t, err)
		info, err := os.Stat(path)
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o666&^umask), info.Mode().Perm(), "umask %03o", umask)
	}
}

// A failed write leaves the old file and no temporary file.
func TestWriteFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "list")
	require.NoError(t, WriteBytes(path, []byte("old")))
	boom := errors.New("boom")
	err := Write(path, func(f *os.File) error {
		_, _ = f.Write([]byte("half of the new"))
		return boom
	})
	require.ErrorIs(t, err, boom)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "old", string(data))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "a temporary file was left behind")
}

func TestWriteReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "list")
	require.NoError(t, WriteBytes(path, []byte("one")))
	require.NoError(t, WriteBytes(path, []byte("two")))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "two", string(data))
}

// A file that cannot be created is named as the caller gave it, not by
// its temporary name.
func TestErrorNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "x.svg")
	err := WriteBytes(path, []byte("x"))
	require.EqualError(t, err, "create "+path+": no such file or directory")
	require.ErrorIs(t, err, fs.ErrNotExist)
}

// RemoveStale removes the temporary files of writers that are gone and
// keeps those of a writer that runs, and every other file.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	// A process id that ran and is gone: a child that has exited.
	child := exec.Command("true")
	require.NoError(t, child.Run())
	gone := child.Process.Pid
	names := map[string]bool{ // name: stale
		fmt.Sprintf("KRvK.mtbm.tmp%d-12345", gone):      true,
		fmt.Sprintf("KRvK.mtbm.tmp%d-999", os.Getpid()): false,
		"KRvK.mtbm":                              false,
		"notes.tmp":                              false,
		fmt.Sprintf("KRvK.mtbm.tmp%d-x", gone):   false,
		fmt.Sprintf("SHA256SUMS.tmp%d-77", gone): true,
	}
	for name := range names {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	removed, err := RemoveStale(dir)
	require.NoError(t, err)
	var want []string
	for name, stale := range names {
		if stale {
			want = append(want, name)
		}
		_, err := os.Stat(filepath.Join(dir, name))
		require.Equal(t, stale, errors.Is(err, fs.ErrNotExist), name)
	}
	require.ElementsMatch(t, want, removed)
	// A temporary file carries its writer's process id.
	require.NoError(t, WriteBytes(filepath.Join(dir, "x"), []byte("x")))
	f, err := createTemp(filepath.Join(dir, "y"))
	require.NoError(t, err)
	defer f.Close()
	pid, ok := writerOf(filepath.Base(f.Name()))
	require.True(t, ok)
	require.Equal(t, os.Getpid(), pid)
}

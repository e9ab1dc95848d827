//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
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

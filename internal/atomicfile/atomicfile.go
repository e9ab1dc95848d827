// Package atomicfile writes files that appear whole or not at all: the
// data goes to a temporary file in the same directory, which is synced,
// renamed over the final name, and the directory synced. A crash leaves at
// worst a temporary file (".tmp" in its name, which RemoveStale clears
// once its writer is gone), never a partial file under the final name. Files get the mode os.Create gives them: 0666 less the
// umask (os.CreateTemp's 0600 would hide tables from other users).
package atomicfile

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Write creates or replaces the file at path with what write puts into
// the open temporary file (write may seek and write at offsets). On any
// error the temporary file is removed and path is left as it was.
func Write(path string, write func(f *os.File) error) (err error) {
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			// Name the file the caller asked for, not our temporary name.
			var pe *fs.PathError
			if errors.As(err, &pe) && pe.Path == f.Name() {
				err = &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
			}
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// Rename renames the file oldpath to newpath, replacing any file there,
// and makes the rename durable: a file written whole under one name is
// given another, as a table is once it has been checked.
func Rename(oldpath, newpath string) error {
	if err := os.Rename(oldpath, newpath); err != nil {
		return err
	}
	return syncDir(filepath.Dir(newpath))
}

// WriteBytes writes data to path atomically.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// createTemp opens a new file named path + ".tmp" + the process's id +
// "-" + a random number, with mode 0666 less the umask. The process id
// lets RemoveStale tell a temporary file whose writer is gone.
func createTemp(path string) (*os.File, error) {
	for range 100 {
		name := path + ".tmp" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(rand.Uint64()>>16, 10)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if pe, ok := err.(*fs.PathError); ok {
			// Name the file the caller asked for: the temporary name is
			// ours (stats --svg /no/dir/x.svg named x.svg.tmp8256327889068).
			return nil, &fs.PathError{Op: "create", Path: path, Err: pe.Err}
		}
		return f, err
	}
	return nil, &fs.PathError{Op: "create temporary file for", Path: path, Err: fs.ErrExist}
}

// syncDir makes a rename in dir durable. Some file systems cannot sync a
// directory; the file itself is synced already, so that is not an error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	d.Sync()
	return d.Close()
}

// RemoveStale removes the temporary files in dir that Write left when its
// process died before renaming them (killed with SIGKILL, a crash, a lost
// node): those whose writer's process id no longer runs. It returns the
// names it removed. Files of writers still running are left alone.
func RemoveStale(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		pid, ok := writerOf(e.Name())
		if !ok || e.IsDir() || processRuns(pid) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, err
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}

// writerOf reads the process id from a temporary file's name
// (NAME.tmpPID-RANDOM).
func writerOf(name string) (int, bool) {
	i := strings.LastIndex(name, ".tmp")
	if i < 0 {
		return 0, false
	}
	pid, random, ok := strings.Cut(name[i+len(".tmp"):], "-")
	n, err := strconv.Atoi(pid)
	if !ok || err != nil || n <= 0 {
		return 0, false
	}
	if _, err := strconv.ParseUint(random, 10, 64); err != nil {
		return 0, false
	}
	return n, true
}

//go:build unix

package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// lockFile is the lock that guards the read-modify-write of the lists in a
// table directory (checksums.txt, tables.md): gen and verify may run at the
// same time on one directory, and each rewrites a list from what it read.
const lockFile = ".makruktb.lock"

// Lock takes the directory's lock, waiting for other processes to
// release it, and returns the function that releases it. The lock is an
// advisory flock(2) on lockFile, released by the kernel if the process dies.
func Lock(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, lockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := flock(f, syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil // closing the descriptor releases the lock
}

// flock applies flock(2) operation how to f, again when a signal
// interrupts it.
func flock(f *os.File, how int) error {
	for {
		if err := syscall.Flock(int(f.Fd()), how); err != syscall.EINTR {
			return err
		}
	}
}

// LockTable takes the lock of one table file (name, e.g. "KRvKN.mtbm") in
// dir for a run about to make it: two runs would make the same table and
// write the same checkpoints side by side, while runs making different
// tables (a cluster's jobs) go on together. When another process holds
// it, waiting is called once with what that process wrote in the lock
// file (its process id and command), then LockTable waits for it. The
// returned function removes the lock file and releases the lock; the
// kernel releases it if the process dies.
func LockTable(ctx context.Context, dir, name string, waiting func(holder string)) (unlock func(), err error) {
	path := filepath.Join(dir, "."+name+".lock")
	told := false
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", name, err)
		}
		// Polled, not blocking: a signal must be able to stop the wait.
		for err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err == syscall.EWOULDBLOCK; err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB) {
			if !told {
				holder, _ := os.ReadFile(path)
				waiting(strings.TrimSpace(string(holder)))
				told = true
			}
			select {
			case <-ctx.Done():
				f.Close()
				return nil, ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		// The holder before us removed the file it locked: ours is
		// the lock only if the name still leads to it.
		if same(f, path) {
			if err := f.Truncate(0); err == nil {
				fmt.Fprintf(f, "process %d (%s)\n", os.Getpid(), strings.Join(os.Args, " "))
			}
			return func() { os.Remove(path); f.Close() }, nil
		}
		f.Close()
	}
}

// same reports whether path names the open file f.
func same(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

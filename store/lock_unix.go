//go:build unix

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// generationLockFile is held by the gen (or convert) writing tables into a
// directory for as long as it runs: two runs would make the same tables
// and write the same checkpoints side by side.
const generationLockFile = ".makruktb.gen.lock"

// LockGeneration takes the directory's generation lock for a run that
// writes tables. When another process holds it, waiting is called once
// with what that process wrote in the lock file (its process id and
// command), then LockGeneration waits for it to finish. The returned
// function releases the lock; the kernel releases it if the process dies.
func LockGeneration(dir string, waiting func(holder string)) (unlock func(), err error) {
	path := filepath.Join(dir, generationLockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err == syscall.EWOULDBLOCK {
		holder, _ := os.ReadFile(path)
		waiting(strings.TrimSpace(string(holder)))
		err = flock(f, syscall.LOCK_EX)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// Say who holds it, for the next one to wait.
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "process %d (%s)\n", os.Getpid(), strings.Join(os.Args, " "))
	}
	return func() { f.Close() }, nil
}

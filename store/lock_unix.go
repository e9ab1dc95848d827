//go:build unix

package store

import (
	"fmt"
	"os"
	"path/filepath"
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
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil // closing the descriptor releases the lock
}

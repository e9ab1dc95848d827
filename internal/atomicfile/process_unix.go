//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// processRuns reports whether a process of that id runs (signal 0 checks
// without sending; EPERM means it runs as another user).
func processRuns(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

package retro

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// reserve gives f its n bytes, allocated on the disk now (fallocate), so
// that a full disk fails here rather than as a fault in a mapping; a file
// system without fallocate gets a sparse file.
func reserve(f *os.File, n int64) error {
	err := unix.Fallocate(int(f.Fd()), 0, 0, n)
	if errors.Is(err, unix.EOPNOTSUPP) {
		return f.Truncate(n)
	}
	return err
}

// startWriteBack starts writing the n bytes of f at off to the disk,
// without waiting for them.
func startWriteBack(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}

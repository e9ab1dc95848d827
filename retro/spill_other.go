//go:build !linux

package retro

import "os"

// reserve gives f its n bytes (sparse: only Linux reserves them up front).
func reserve(f *os.File, n int64) error { return f.Truncate(n) }

// startWriteBack is left to the kernel outside Linux.
func startWriteBack(*os.File, int64, int64) {}

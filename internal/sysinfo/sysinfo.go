// Package sysinfo reads what the kernel tells of the machine and of this
// process (Linux's /proc; elsewhere nothing).
package sysinfo

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Memory returns the machine's RAM from /proc/meminfo, 0 if it
// cannot tell.
func Memory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// DiskIO returns the bytes this process has read from and written to
// storage so far (/proc/self/io), or ok false where the kernel does not
// tell.
func DiskIO() (read, written int64, ok bool) {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, 0, false
	}
	var found int
	for _, line := range strings.Split(string(data), "\n") {
		name, v, _ := strings.Cut(line, ": ")
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		switch {
		case err != nil:
		case name == "read_bytes":
			read, found = n, found+1
		case name == "write_bytes":
			written, found = n, found+1
		}
	}
	return read, written, found == 2
}

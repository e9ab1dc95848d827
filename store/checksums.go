package store

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/probe"
)

// ChecksumFile is the table directory's own record of the checksums of
// the tables generated there, in sha256sum's format (sha256sum -c
// SHA256SUMS checks the files). The repository's reference checksums,
// data/checksums.txt, are compiled in (package data): a user's generation
// never rewrites them.
const ChecksumFile = "SHA256SUMS"

// FileSHA256 returns the hex SHA-256 of a file.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ReadChecksums reads "sha256  file" lines; a missing file is empty.
func ReadChecksums(dir string) (map[string]string, error) {
	sums := map[string]string{}
	f, err := os.Open(filepath.Join(dir, ChecksumFile))
	if errors.Is(err, fs.ErrNotExist) {
		return sums, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 2 {
			sums[fields[1]] = fields[0]
		}
	}
	return sums, sc.Err()
}

// writeChecksums writes the list atomically, sorted by file name.
func writeChecksums(dir string, sums map[string]string) error {
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[n], n)
	}
	return atomicfile.WriteBytes(filepath.Join(dir, ChecksumFile), []byte(b.String()))
}

// RecordChecksum adds the SHA-256 of the table file at path to the
// directory's checksum list. Generation is deterministic: a checksum that
// differs from the reference or from the directory's record means the
// generator's output changed. Keep the record (verify will fail on the
// file) until someone accepts the new table: in the reference by changing
// data/checksums.txt and rebuilding, in the directory by deleting the line.
// reference holds the checksums every generation must reproduce, by file
// name: the caller's (data.Checksums() for the repository's).
func RecordChecksum(dir, path string, reference map[string]string) (string, error) {
	sum, err := FileSHA256(path)
	if err != nil {
		return "", err
	}
	return sum, RecordChecksumOf(dir, path, sum, reference)
}

// RecordChecksumOf is RecordChecksum for a file whose SHA-256 the caller
// has just computed.
func RecordChecksumOf(dir, path, sum string, reference map[string]string) error {
	return recordChecksum(dir, filepath.Base(path), sum, reference, false)
}

// ReplaceChecksum is RecordChecksumOf for a file derived from tables (a
// WDL file), which is made anew when they change, or for a table written
// over a file of the other format version: a different checksum in the
// directory's record is replaced, not refused. The reference still holds.
func ReplaceChecksum(dir, name, sum string, reference map[string]string) error {
	return recordChecksum(dir, name, sum, reference, true)
}

func recordChecksum(dir, name, sum string, reference map[string]string, replace bool) error {
	if ref, ok := reference[name]; ok && ref != sum {
		return fmt.Errorf("%s: SHA-256 %s differs from %s in %s: the generator's output changed (to accept it, change that line and rebuild)", name, sum, ref, data.ReferenceName)
	}
	unlock, err := Lock(dir)
	if err != nil {
		return err
	}
	defer unlock()
	sums, err := ReadChecksums(dir)
	if err != nil {
		return err
	}
	if err := RecordMismatch(dir, sums, name, sum); err != nil && !replace {
		return err
	}
	sums[name] = sum
	return writeChecksums(dir, sums)
}

// RecordMismatch returns an error when sums (dir's SHA256SUMS) records a
// checksum other than sum for the file name: a table made again must
// give the bytes it gave before.
func RecordMismatch(dir string, sums map[string]string, name, sum string) error {
	if old, ok := sums[name]; ok && old != sum {
		return fmt.Errorf("%s: SHA-256 %s differs from %s in %s (delete that line to accept the new table)", name, sum, old, filepath.Join(dir, ChecksumFile))
	}
	return nil
}

// EnsureChecksum records the checksum of a present table that has none in
// the directory's SHA256SUMS (a run stopped between writing the table and
// recording it, or the directory predates the file) and reports whether it
// had to.
func EnsureChecksum(dir string, id probe.ID, reference map[string]string) (bool, error) {
	return EnsureChecksumOf(dir, id.FileName(), reference)
}

// EnsureChecksumOf is EnsureChecksum for the file of that name in dir.
func EnsureChecksumOf(dir, name string, reference map[string]string) (bool, error) {
	sums, err := ReadChecksums(dir)
	if err != nil {
		return false, err
	}
	if _, ok := sums[name]; ok {
		return false, nil
	}
	if _, err := RecordChecksum(dir, filepath.Join(dir, name), reference); err != nil {
		return false, err
	}
	return true, nil
}

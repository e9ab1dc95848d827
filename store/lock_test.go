//go:build unix

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// gen and verify may share a table directory; each rewrites SHA256SUMS
// and the catalogue from what it read, so without the directory lock edits
// made at the same time get lost.
func TestListEditsDoNotGetLost(t *testing.T) {
	dir := t.TempDir()
	const n = 24
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() {
			name := fmt.Sprintf("KR%02dvK", i)
			errs <- EditCatalogue(dir, func(rows map[string]*Row) {
				rows[name] = &Row{Table: name, Pieces: 3}
			})
		})
		wg.Go(func() {
			path := filepath.Join(dir, fmt.Sprintf("T%02d.mtbm", i))
			if err := os.WriteFile(path, []byte{byte(i)}, 0o644); err != nil {
				errs <- err
				return
			}
			_, err := RecordChecksum(dir, path, nil)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	rows, err := ReadCatalogue(dir)
	require.NoError(t, err)
	require.Len(t, rows, n, "every row written at the same time is kept")
	sums, err := ReadChecksums(dir)
	require.NoError(t, err)
	require.Len(t, sums, n, "every checksum recorded at the same time is kept")
}

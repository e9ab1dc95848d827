package retro

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"testing"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/longtest"
)

// The generator's output must not depend on how its workers interleave.
// Two workers once wrote wrong values in KSNvKR and KSSvKR from time to
// time (a frontier scan paired a counter's old byte with the settled bit
// of the win that replaced it). This test generates the four-piece
// Khon-against-rook table, and Khon against Khon, with 2, 4 and 8 workers
// (more workers than cores, more interleavings), in memory and out of
// core, and requires the reference checksum every time: the short version
// of make stress, which does the same for the five-piece tables where the
// race showed.
func TestKhonTablesEveryTime(t *testing.T) {
	longtest.Skip(t, "generates KRvKS and KSvKS twelve times")
	reference := data.Checksums()
	for _, name := range []string{"KRvKS", "KSvKS"} {
		m := tb.MustParseMaterial(name)
		for _, threads := range []int{2, 4, 8} {
			for _, outOfCore := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/threads=%d/outOfCore=%v", name, threads, outOfCore), func(t *testing.T) {
					opts := Options{Threads: threads}
					if outOfCore {
						opts.Scratch = t.TempDir()
					}
					table, err := Generate(context.Background(), m, shared.get, opts)
					require.NoError(t, err)
					defer table.Close()
					require.Equal(t, reference[name+".mtbm"], fileSHA256(t, table), "the table differs from data/checksums.txt")
				})
			}
		}
	}
}

// fileSHA256 returns the SHA-256 of the DTM table file of table.
func fileSHA256(t *testing.T, table *Table) string {
	f, err := os.CreateTemp(t.TempDir(), "table")
	require.NoError(t, err)
	defer f.Close()
	_, err = probe.Write(f, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM})
	require.NoError(t, err)
	_, err = f.Seek(0, 0)
	require.NoError(t, err)
	h := sha256.New()
	_, err = f.WriteTo(h)
	require.NoError(t, err)
	return hex.EncodeToString(h.Sum(nil))
}

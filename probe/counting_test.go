package probe_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// Under a profile whose counting side's mates are draws, the prober reads
// the DTB file of the side that runs the count (honour.Variant), in the
// colours of the file's material, from version-1 files and from
// version-2 files whose other side it derives: every KRvKN position,
// either side to move, on either colour side, under a count either side
// runs and under none.
func TestBoardFilesOfCountingSide(t *testing.T) {
	r := honour.ThaiRules
	r.Name, r.BoardCountBy, r.CounterMate = "mates-draw", honour.CountByFewer, honour.CounterMateDraws
	require.NoError(t, r.Validate())
	m := tb.MustParseMaterial("KRvKN")
	shared := testenv.Tables(t, "KRvKN")
	dtm := func(x tb.Material) (*retro.Table, error) { return testenv.Generated(t, x.String()), nil }
	files := map[honour.Variant]*retro.Table{}
	boards := func(x tb.Material, v honour.Variant) (*retro.Table, error) { return files[v], nil }
	for _, v := range r.Variants(m) {
		table, err := retro.GenerateDTBFile(context.Background(), m, v, &r, dtm, boards, retro.Options{})
		require.NoError(t, err)
		files[v] = table
	}
	dirs := map[string]string{"version 1": t.TempDir(), "version 2": t.TempDir()}
	for format, dir := range dirs {
		for _, name := range []string{"KRvKN.mtbm", "KRvK.mtbm", "KNvK.mtbm"} {
			data, err := os.ReadFile(filepath.Join(shared, name))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
		}
		for v, table := range files {
			id := probe.BoardID(m, r.Name, v)
			o := probe.Options{Version: probe.Version, Metric: probe.DTB, Rules: id.Rules}
			if format == "version 2" {
				o.Version = probe.Version2
			}
			require.NoError(t, probe.WriteFile(id.Path(dir), table.Space, table.Values, o))
		}
	}
	for format, dir := range dirs {
		tables, err := probe.Open(dir)
		require.NoError(t, err)
		differ := 0
		space := files[honour.OwnFile].Space
		for side := tb.White; side <= tb.Black; side++ {
			for k := range space.KingPairs() {
				space.Walk(k, side, func(i uint64, p *tb.Position) {
					own, white, black := files[honour.OwnFile].Values[side].At(i), files[honour.WhiteCounting].Values[side].At(i), files[honour.BlackCounting].Values[side].At(i)
					if own == white && own == black && i%29 != 0 {
						return // a sample of the positions all files agree on
					}
					if own != white || own != black {
						differ++
					}
					for _, c := range []struct {
						counter honour.Counter
						file    honour.Variant
					}{
						{honour.NoCounter, honour.OwnFile},
						{honour.MoverCounts, map[tb.Color]honour.Variant{tb.White: honour.WhiteCounting, tb.Black: honour.BlackCounting}[side]},
						{honour.OtherCounts, map[tb.Color]honour.Variant{tb.White: honour.BlackCounting, tb.Black: honour.WhiteCounting}[side]},
					} {
						count := honour.Count{Kind: honour.BoardCount, Limit: 128, Ply: 10, Counter: c.counter}
						want := files[c.file].Values[side].At(i)
						for _, q := range []tb.Position{*p, p.ColorFlipped()} {
							got, ok, err := tables.BoardValueUnder(&q, count, &r)
							require.NoError(t, err)
							require.True(t, ok)
							if got != want {
								t.Fatalf("%s, %s, %v: %v, want %v (file %s)", format, q.FEN(), c.counter, got, want, c.file.Suffix())
							}
						}
					}
				})
			}
		}
		require.Positive(t, differ, "positions where who counts changes the value")
		require.NoError(t, tables.Close())
	}
}

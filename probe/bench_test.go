package probe_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// positions returns n random legal positions of a table.
func positions(t testing.TB, name string, n int) ([]tb.Position, string) {
	table, dir := buildTables(t, name)
	rng := rand.New(rand.NewPCG(1, 1))
	var out []tb.Position
	for len(out) < n {
		p, ok := table.Space.Position(rng.Uint64N(table.Space.Size()), tb.Color(rng.IntN(2)))
		if ok {
			out = append(out, p)
		}
	}
	return out, dir
}

// BenchmarkValueWarm: DTM probes of random KRvKN positions with every block
// already cached.
func BenchmarkValueWarm(b *testing.B) {
	ps, dir := positions(b, "KRvKN", 4096)
	tables, err := probe.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	for i := range ps {
		if _, err := tables.Value(&ps[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, _ = tables.Value(&ps[i&4095])
		i++
	}
	b.ReportMetric(float64(tables.CacheBytes())/(1<<20), "cacheMiB")
}

// BenchmarkValueCold: no cache, so every probe reads and decompresses its
// block.
func BenchmarkValueCold(b *testing.B) {
	ps, dir := positions(b, "KRvKN", 4096)
	tables, err := probe.Open(dir, probe.WithCacheBytes(0))
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		_, _ = tables.Value(&ps[i&4095])
		i++
	}
}

// BenchmarkJudgeWarm: the result under the thai count, as the C library's
// mtb_probe_wdl computes it (so the difference is the cost of cgo).
func BenchmarkJudgeWarm(b *testing.B) {
	ps, dir := positions(b, "KRvKN", 4096)
	tables, err := probe.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	for i := range ps {
		_, _ = tables.Judge(&ps[i], &honour.ThaiRules)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, _ = tables.Judge(&ps[i&4095], &honour.ThaiRules)
		i++
	}
}

// BenchmarkWDLWarm: the result under the thai count read from KRvKN's WDL
// file, as the C library's mtb_probe_wdl reads it for a fresh count.
func BenchmarkWDLWarm(b *testing.B) {
	ps, _ := positions(b, "KRvKN", 4096)
	b.StopTimer()
	tables, err := probe.Open(wdlDirOf(b, tb.MustParseMaterial("KRvKN"), &honour.ThaiRules))
	if err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	for i := range ps {
		_, _ = tables.WDL(&ps[i], &honour.ThaiRules)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, _ = tables.WDL(&ps[i&4095], &honour.ThaiRules)
		i++
	}
}

// BenchmarkWDLRandom: WDL probes of 65 536 random KRvKN positions (thai)
// from a version-2 file (zstd blocks of 256 Ki values) with the default
// cache, which soon holds the whole decompressed table, and with a cache
// of one block, where most probes decompress one; and from a version-3
// file (pairs streams), which keeps no cache at all, and from a Khon
// table's version-3 file (random KSMvK positions).
func BenchmarkWDLRandom(b *testing.B) {
	ps, _ := positions(b, "KRvKN", 1<<16)
	m := tb.MustParseMaterial("KRvKN")
	for _, c := range []struct {
		name     string
		material string
		version  int
		opts     []probe.Option
	}{
		{"v2-cache-64MiB", "KRvKN", probe.Version2, nil},
		{"v2-cache-one-block", "KRvKN", probe.Version2, []probe.Option{probe.WithCacheBytes(probe.WDLBlockSize)}},
		{"v3-no-cache", "KRvKN", probe.Version3, nil},
		// A Khon table's (its kings two digits of the stored order).
		{"v3-no-cache-KSMvK", "KSMvK", probe.Version3, nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			ps := ps
			if c.material != "KRvKN" {
				ps, _ = positions(b, c.material, 1<<16)
			}
			tables, err := probe.Open(wdlDirVersion(b, tb.MustParseMaterial(c.material), &honour.ThaiRules, c.version), c.opts...)
			if err != nil {
				b.Fatal(err)
			}
			defer tables.Close()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := tables.WDL(&ps[i&(1<<16-1)], &honour.ThaiRules); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
	// Every thread probing the one version-3 file: nothing is shared
	// but the file's bytes, read only.
	b.Run("v3-no-cache-parallel", func(b *testing.B) {
		tables, err := probe.Open(wdlDirVersion(b, m, &honour.ThaiRules, probe.Version3))
		if err != nil {
			b.Fatal(err)
		}
		defer tables.Close()
		var next atomic.Int64
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			i := int(next.Add(1)) << 12
			for pb.Next() {
				if _, err := tables.WDL(&ps[i&(1<<16-1)], &honour.ThaiRules); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
	})
}

// BenchmarkWDLMix: thai WDL probes of random legal positions of the ten
// five-piece materials of kings, rooks and knights, mixed as an engine's
// search mixes them (fathom_bench's materials, from Go: no C call), from
// the directory MAKRUKTB_WDL_MIX names (made by gen --wdl-format 3 or
// convert; skipped without it).
func BenchmarkWDLMix(b *testing.B) {
	dir := os.Getenv("MAKRUKTB_WDL_MIX")
	if dir == "" {
		b.Skip("MAKRUKTB_WDL_MIX=DIR probes the thai WDL files of KRRRvK … KNNvKN in DIR")
	}
	var spaces []*index.Space
	for _, name := range []string{"KRRRvK", "KRRNvK", "KRNNvK", "KNNNvK", "KRRvKR", "KRRvKN", "KRNvKR", "KRNvKN", "KNNvKR", "KNNvKN"} {
		s, err := index.New(tb.MustParseMaterial(name))
		if err != nil {
			b.Fatal(err)
		}
		spaces = append(spaces, s)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 1 << 18
	ps := make([]tb.Position, 0, n)
	for len(ps) < n {
		s := spaces[rng.IntN(len(spaces))]
		if p, ok := s.Position(rng.Uint64N(s.Size()), tb.Color(rng.IntN(2))); ok {
			ps = append(ps, p)
		}
	}
	tables, err := probe.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer tables.Close()
	for i := range ps { // every file opened, every answer from a file
		if _, ok, err := tables.WDLFromFile(&ps[i], &honour.ThaiRules); err != nil || !ok {
			b.Fatalf("%s: %v, from a file %t", ps[i].FEN(), err, ok)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := tables.WDL(&ps[i&(n-1)], &honour.ThaiRules); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkWDLCaptures: BenchmarkWDLWarm on KRvKS, whose WDL file stores
// bounds where captures decide for Black (its captures of the rook draw):
// a Black probe stored below a cursed win searches its captures, each a
// probe of KRvK's or KSvK's WDL file.
func BenchmarkWDLCaptures(b *testing.B) {
	ps, _ := positions(b, "KRvKS", 4096)
	b.StopTimer()
	dir := wdlDirOf(b, tb.MustParseMaterial("KRvKS"), &honour.ThaiRules)
	for _, name := range []string{"KRvK", "KSvK"} {
		m := tb.MustParseMaterial(name)
		dtm, err := probe.OpenFile(probe.DTMID(m).Path(dir))
		if err != nil {
			b.Fatal(err)
		}
		if err := probe.WriteWDL(filepath.Join(dir, probe.WDLFileName(m, "thai")), dtm, nil, &honour.ThaiRules, nil, 0); err != nil {
			b.Fatal(err)
		}
		dtm.Close()
	}
	tables, err := probe.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	for i := range ps {
		if _, err := tables.WDL(&ps[i], &honour.ThaiRules); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, _ = tables.WDL(&ps[i&4095], &honour.ThaiRules)
		i++
	}
}

// BenchmarkWriteFile compresses and writes KRvKS (2 × 6.4 M values), one
// block per core at a time; reports values per second.
func BenchmarkWriteFile(b *testing.B) {
	table, _ := buildTables(b, "KRvKS")
	path := filepath.Join(b.TempDir(), "KRvKS.mtbm")
	for b.Loop() {
		if err := probe.WriteFile(path, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(2*table.Space.Size())*float64(b.N)/b.Elapsed().Seconds(), "values/s")
}

// BenchmarkLoadAll decompresses the whole of KRvKS, as verify, stats and
// gen's sub-table loads do; reports values per second.
func BenchmarkLoadAll(b *testing.B) {
	table, dir := buildTables(b, "KRvKS")
	f, err := probe.OpenFile(filepath.Join(dir, "KRvKS.mtbm"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for b.Loop() {
		if _, err := f.LoadAll(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(2*table.Space.Size())*float64(b.N)/b.Elapsed().Seconds(), "values/s")
}

// benchmarkVersion2 probes random KRvKN positions through the version-2
// files of every table up to four pieces, every block cached: side picks
// the positions whose side to move the DTM file stores (true) or does
// not (false: the one-ply search).
func benchmarkVersion2(b *testing.B, stored bool) {
	ps, _ := positions(b, "KRvKN", 1<<14)
	b.StopTimer()
	dir := v2TablesFor(b)
	tables, err := probe.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer tables.Close()
	f, err := probe.OpenFile(probe.DTMID(tb.MustParseMaterial("KRvKN")).Path(dir))
	if err != nil {
		b.Fatal(err)
	}
	keep := f.Header.StoredSide()
	f.Close()
	var picked []tb.Position
	for _, p := range ps {
		if (p.Side == keep) == stored {
			picked = append(picked, p)
		}
	}
	picked = picked[:4096]
	for i := range picked {
		if _, err := tables.Value(&picked[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.StartTimer()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, _ = tables.Value(&picked[i&4095])
		i++
	}
}

// BenchmarkV2ValueStored: DTM probes of the side a version-2 file stores.
func BenchmarkV2ValueStored(b *testing.B) { benchmarkVersion2(b, true) }

// BenchmarkV2ValueSearched: DTM probes of the side it does not store: a
// one-ply search over the stored side and the sub-tables.
func BenchmarkV2ValueSearched(b *testing.B) { benchmarkVersion2(b, false) }

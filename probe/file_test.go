package probe_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// solvedKRvK generates KRvK in memory (its only sub-table is KvK).
func solvedKRvK(t testing.TB) *retro.Table {
	table, err := retro.Generate(context.Background(), tb.MustParseMaterial("KRvK"), nil, retro.Options{})
	require.NoError(t, err)
	return table
}

func writeKRvK(t testing.TB, dir string) (string, *retro.Table) {
	table := solvedKRvK(t)
	path := filepath.Join(dir, probe.FileName(table.Material(), probe.DTM))
	require.NoError(t, probe.WriteFile(path, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM}))
	return path, table
}

func TestWriteReadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path, table := writeKRvK(t, dir)
	f, err := probe.OpenFile(path)
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, f.CheckData())
	require.Equal(t, "KRvK", f.Header.Material.String())
	require.Equal(t, 1, f.Header.Width)
	vals, err := f.LoadAll()
	require.NoError(t, err)
	for side := range vals {
		for i, v := range table.Values[side].All() {
			if v != value.Illegal {
				require.Equal(t, v, vals[side].At(uint64(i)), "side %d index %d", side, i)
			}
		}
	}
	// No temporary files are left behind.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
}

// The same values give the same bytes, however many cores compress them.
// Write streams the same bytes into any io.WriterAt as WriteFile puts in
// its file.
func TestWriteToWriterAt(t *testing.T) {
	path, table := writeKRvK(t, t.TempDir())
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := os.Create(filepath.Join(t.TempDir(), "stream"))
	require.NoError(t, err)
	defer f.Close()
	n, err := probe.Write(f, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM})
	require.NoError(t, err)
	require.Equal(t, int64(len(want)), n)
	got, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got))
}

func TestWriteIsDeterministic(t *testing.T) {
	a, _ := writeKRvK(t, t.TempDir())
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b, _ := writeKRvK(t, t.TempDir())
	da, err := os.ReadFile(a)
	require.NoError(t, err)
	db, err := os.ReadFile(b)
	require.NoError(t, err)
	require.True(t, bytes.Equal(da, db))
}

// One value over 255, on either side, makes the whole file two bytes wide.
func TestWideValues(t *testing.T) {
	for _, side := range []tb.Color{tb.White, tb.Black} {
		table := solvedKRvK(t)
		vals := table.Values[side].All()
		vals[5] = value.Mate(301) // needs two bytes
		table.Values[side] = value.ArrayOf(vals)
		path := filepath.Join(t.TempDir(), "KRvK.mtbm")
		require.NoError(t, probe.WriteFile(path, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM}))
		f, err := probe.OpenFile(path)
		require.NoError(t, err)
		require.Equal(t, 2, f.Header.Width)
		loaded, err := f.LoadAll()
		require.NoError(t, err)
		require.Equal(t, value.Mate(301), loaded[side].At(5))
		require.NoError(t, f.Close())
	}
}

// openBytes opens a table held in memory.
func openBytes(data []byte) (*probe.File, error) {
	f, err := probe.NewFile(bytes.NewReader(data), int64(len(data)), "mem.mtbm")
	if err == nil {
		_, err = f.LoadAll()
		f.Close()
	}
	return f, err
}

func TestCorruptFiles(t *testing.T) {
	path, _ := writeKRvK(t, t.TempDir())
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	mutate := func(f func(b []byte) []byte) []byte {
		return f(append([]byte(nil), good...))
	}
	cases := map[string][]byte{
		"empty":          {},
		"wrong magic":    mutate(func(b []byte) []byte { b[0] = 'X'; return b }),
		"truncated head": good[:20],
		"truncated data": good[:len(good)-10],
		"flipped header": mutate(func(b []byte) []byte { b[30] ^= 0x40; return b }),
		"flipped block":  mutate(func(b []byte) []byte { b[len(b)-20] ^= 0x01; return b }),
		"extra bytes":    append(append([]byte(nil), good...), 0, 0),
	}
	for name, data := range cases {
		_, err := openBytes(data)
		require.Error(t, err, name)
		var ce *probe.CorruptError
		require.True(t, errors.As(err, &ce), "%s: %v", name, err)
		require.Equal(t, "mem.mtbm", ce.File, name)
		require.ErrorIs(t, err, probe.ErrCorrupt, name)
	}
	// A newer format version is unsupported, not corrupt.
	newer := mutate(func(b []byte) []byte { b[8] = 3; return b })
	_, err = openBytes(newer)
	require.ErrorIs(t, err, probe.ErrUnsupported)
}

// A damaged version-2 file gives a *CorruptError naming it, never a value:
// truncated, a flipped bit in a block or in the header, a header whose
// sides stored or block count lie (its checksum recomputed, as a writer
// with a bug would), bytes appended.
func TestCorruptVersion2Files(t *testing.T) {
	good, err := os.ReadFile("testdata/KMvK.v2.mtbm")
	require.NoError(t, err)
	f, err := openBytes(good)
	require.NoError(t, err)
	require.True(t, f.Header.OneSided())
	// The sides field follows the codec, after the block count: find it
	// from the end of the fixed part (the header is checksummed, so a
	// lie needs its checksum recomputed).
	headerLen := len(good) - int(f.Header.Offsets[f.Header.Blocks])
	sidesAt := headerLen - 8 - 8*(f.Header.Blocks+1) - 1
	require.Equal(t, byte(f.Header.Sides), good[sidesAt])
	lie := func(at int, v byte) []byte {
		b := append([]byte(nil), good...)
		b[at] = v
		binary.LittleEndian.PutUint32(b[headerLen-4:], crc32.Checksum(b[:headerLen-4], crc32.MakeTable(crc32.Castagnoli)))
		return b
	}
	cases := map[string][]byte{
		"truncated data": good[:len(good)-10],
		"truncated head": good[:headerLen-3],
		"flipped block":  func() []byte { b := append([]byte(nil), good...); b[len(b)-20] ^= 0x01; return b }(),
		"flipped header": func() []byte { b := append([]byte(nil), good...); b[30] ^= 0x40; return b }(),
		"both sides":     lie(sidesAt, 3),
		"no side":        lie(sidesAt, 0),
		"more blocks":    lie(sidesAt-2-4, byte(f.Header.Blocks+1)),
		"extra bytes":    append(append([]byte(nil), good...), 0, 0),
	}
	for name, data := range cases {
		_, err := openBytes(data)
		var ce *probe.CorruptError
		require.ErrorAs(t, err, &ce, name)
		require.Equal(t, "mem.mtbm", ce.File, name)
	}
	_, err = openBytes(lie(sidesAt-1, 2)) // a WDL file's codec in a DTM file
	require.ErrorIs(t, err, probe.ErrUnsupported)
	_, err = openBytes(lie(sidesAt-1, 9)) // a codec this reader does not know
	require.ErrorIs(t, err, probe.ErrUnsupported)
}

// A WDL file's sides byte carries the sides where captures decide (codec
// 2); one that names sides beyond both, or says so in a file of codec 1,
// is corrupt.
func TestCorruptWDLCaptureSides(t *testing.T) {
	good, err := os.ReadFile("testdata/KRvK.thai.mtbw")
	require.NoError(t, err)
	f, err := probe.NewFile(bytes.NewReader(good), int64(len(good)), "KRvK.thai.mtbw")
	require.NoError(t, err)
	require.Equal(t, 2, f.Header.Captures)
	headerLen := len(good) - int(f.Header.Offsets[f.Header.Blocks])
	// After the sides byte: the two checksums of the files it was made
	// from, the offsets, the data and header checksums.
	sidesAt := headerLen - 8 - 8*(f.Header.Blocks+1) - 8 - 1
	require.Equal(t, byte(3|2<<2), good[sidesAt])
	lie := func(at int, v byte) []byte {
		b := append([]byte(nil), good...)
		b[at] = v
		binary.LittleEndian.PutUint32(b[headerLen-4:], crc32.Checksum(b[:headerLen-4], crc32.MakeTable(crc32.Castagnoli)))
		return b
	}
	for name, data := range map[string][]byte{
		"captures beyond both sides": lie(sidesAt, 3|4<<2),
		"captures in codec 1":        lie(sidesAt-1, 1),
		"one side stored":            lie(sidesAt, 1|2<<2),
	} {
		_, err := probe.NewFile(bytes.NewReader(data), int64(len(data)), "KRvK.thai.mtbw")
		var ce *probe.CorruptError
		require.ErrorAs(t, err, &ce, name)
		require.Equal(t, "KRvK.thai.mtbw", ce.File, name)
	}
}

// The version-3 file of the first writer (pairs streams of version 2, the
// kings one digit) reads as today's and as version 2's: the same
// category at every index, both sides to move.
func TestVersion3FirstLayout(t *testing.T) {
	var files []*probe.File
	for _, name := range []string{"KMvK.thai.mtbw", "KMvK.thai.v3.mtbw", "KMvK.thai.v3-first.mtbw"} {
		f, err := probe.OpenFile(filepath.Join("testdata", name))
		require.NoError(t, err, name)
		defer f.Close()
		files = append(files, f)
	}
	require.Equal(t, probe.Version3, files[2].Header.Version)
	for side := tb.White; side <= tb.Black; side++ {
		want, err := files[0].Range(side, 0, files[0].Header.Size, nil)
		require.NoError(t, err)
		for _, f := range files[1:] {
			got, err := f.Range(side, 0, f.Header.Size, nil)
			require.NoError(t, err)
			require.Equal(t, want, got, "%s, %s to move", f.Name(), side.Name())
		}
	}
}

// A version-3 WDL file cut anywhere, or with a byte of its streams
// changed, is refused on open with an error naming the file, or, where the
// damage is in a block's bits, reads as one: never a wrong panic.
func TestVersion3Corrupt(t *testing.T) {
	good, err := os.ReadFile("testdata/KMvK.thai.v3.mtbw")
	require.NoError(t, err)
	for cut := 0; cut < len(good); cut += 1 + cut/4 {
		_, err := probe.NewFile(bytes.NewReader(good[:cut]), int64(cut), "KMvK.thai.mtbw")
		require.ErrorContains(t, err, "KMvK.thai.mtbw", "cut at %d", cut)
		var ce *probe.CorruptError
		if cut > 16 { // past the magic and the version: the file is damaged
			require.ErrorAs(t, err, &ce, "cut at %d", cut)
		}
	}
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 0x5a
		_, _ = openBytes(bad)
	}
}

// FuzzReader: arbitrary and mutated file bytes never panic; they open and
// read completely or fail with an error.
func FuzzReader(f *testing.F) {
	seed, err := os.ReadFile("testdata/KMvK.mtbm")
	require.NoError(f, err)
	f.Add(seed)
	f.Add(seed[:100])
	for _, name := range []string{"KMvK.thai.mtbw", "KMvK.thai.codec1.mtbw", "KRvK.thai.mtbw", "KMvK.thai.v3.mtbw", "KMvK.thai.v3-first.mtbw"} {
		wdl, err := os.ReadFile("testdata/" + name)
		require.NoError(f, err)
		f.Add(wdl)
		f.Add(wdl[:90])
	}
	v2, err := os.ReadFile("testdata/KMvK.v2.mtbm")
	require.NoError(f, err)
	f.Add(v2)
	f.Add(v2[:len(v2)/2])
	f.Add([]byte("MAKRUKTB"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = openBytes(data)
	})
}

// TestFuzzSeedIsCurrent keeps the fuzz seed in the current format: it must
// equal what the writer produces for KMvK today.
func TestFuzzSeedIsCurrent(t *testing.T) {
	table, err := retro.Generate(context.Background(), tb.MustParseMaterial("KMvK"), nil, retro.Options{})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "KMvK.mtbm")
	require.NoError(t, probe.WriteFile(path, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM}))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/KMvK.mtbm")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "regenerate probe/testdata/KMvK.mtbm")

	dtm, err := probe.OpenFile(path)
	require.NoError(t, err)
	defer dtm.Close()
	wdlPath := filepath.Join(t.TempDir(), "KMvK.thai.mtbw")
	require.NoError(t, probe.WriteWDL(wdlPath, dtm, nil, &honour.ThaiRules, nil, 0))
	got, err = os.ReadFile(wdlPath)
	require.NoError(t, err)
	want, err = os.ReadFile("testdata/KMvK.thai.mtbw")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "regenerate probe/testdata/KMvK.thai.mtbw")
	// The layout of the WDL files made before captures decided, which
	// RecodeWDL reads: the file the writer of that time made.
	oldPath := filepath.Join(t.TempDir(), "KMvK.thai.mtbw")
	require.NoError(t, probe.WriteCodec1WDL(oldPath, dtm, nil, &honour.ThaiRules))
	got, err = os.ReadFile(oldPath)
	require.NoError(t, err)
	want, err = os.ReadFile("testdata/KMvK.thai.codec1.mtbw")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "probe/testdata/KMvK.thai.codec1.mtbw is the file of the first WDL writer")
	// A WDL file where captures decide for Black: KRvK's positions after
	// a capture are KvK, which needs no table.
	krvk := writeKRvKWDL(t)
	got, err = os.ReadFile(krvk)
	require.NoError(t, err)
	want, err = os.ReadFile("testdata/KRvK.thai.mtbw")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "regenerate probe/testdata/KRvK.thai.mtbw")

	// A version-3 WDL file (pairs streams in the order of digits that
	// compresses best).
	v3Path := filepath.Join(t.TempDir(), "KMvK.thai.mtbw")
	require.NoError(t, probe.WriteWDL(v3Path, dtm, nil, &honour.ThaiRules, nil, probe.Version3))
	got, err = os.ReadFile(v3Path)
	require.NoError(t, err)
	if os.Getenv("MAKRUKTB_REGENERATE_SEEDS") == "1" {
		require.NoError(t, os.WriteFile("testdata/KMvK.thai.v3.mtbw", got, 0o644))
	}
	want, err = os.ReadFile("testdata/KMvK.thai.v3.mtbw")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "regenerate probe/testdata/KMvK.thai.v3.mtbw (MAKRUKTB_REGENERATE_SEEDS=1)")

	v2Path := filepath.Join(t.TempDir(), "KMvK.v2.mtbm")
	require.NoError(t, probe.WriteFile(v2Path, table.Space, table.Values, probe.Options{Version: probe.Version2, Metric: probe.DTM}))
	got, err = os.ReadFile(v2Path)
	require.NoError(t, err)
	want, err = os.ReadFile("testdata/KMvK.v2.mtbm")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "regenerate probe/testdata/KMvK.v2.mtbm")
}

// A DTB table carries its rule profile; a DTB header without one, or a
// DTM header with one, is corrupt. In a directory, Tables finds DTB files
// by their names and refuses one whose header says otherwise.
func TestBoardTableFiles(t *testing.T) {
	dir := t.TempDir()
	table := solvedKRvK(t) // any values do for the format
	require.Equal(t, "KRvK.thai.mtbb", probe.BoardFileName(table.Material(), "thai"))

	bad := filepath.Join(dir, "bad.mtbb")
	require.NoError(t, probe.WriteFile(bad, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTB}))
	_, err := probe.OpenFile(bad)
	require.ErrorIs(t, err, probe.ErrCorrupt)
	require.NoError(t, probe.WriteFile(bad, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM, Rules: "thai"}))
	_, err = probe.OpenFile(bad)
	require.ErrorIs(t, err, probe.ErrCorrupt)

	good := filepath.Join(dir, probe.BoardFileName(table.Material(), "thai"))
	require.NoError(t, probe.WriteFile(good, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTB, Rules: "thai"}))
	f, err := probe.OpenFile(good)
	require.NoError(t, err)
	require.Equal(t, probe.DTB, f.Header.Metric)
	require.Equal(t, "thai", f.Header.Rules)
	f.Close()

	// Tables reads it as the thai DTB table of KRvK (no DTM table here).
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	p, err := tb.ParseFEN("8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	require.NoError(t, err)
	v, ok, err := tables.BoardValue(&p, &honour.ThaiRules)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, value.Mate(31), v)
	_, ok, err = tables.BoardValue(&p, &honour.CambodianRules)
	require.NoError(t, err)
	require.False(t, ok)
	_, err = tables.Value(&p)
	var missing *probe.MissingError
	require.ErrorAs(t, err, &missing)

	// A DTM file renamed as a DTB table is caught on first use.
	require.NoError(t, probe.WriteFile(filepath.Join(dir, "KRvK.cambodian.mtbb"), table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM}))
	tables2, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables2.Close()
	_, _, err = tables2.BoardValue(&p, &honour.CambodianRules)
	require.ErrorIs(t, err, probe.ErrCorrupt)
}

// LoadAll decodes blocks in parallel, yet with several bad blocks its
// error is always that of the first.
func TestLoadAllNamesFirstBadBlock(t *testing.T) {
	path, _ := writeKRvK(t, t.TempDir())
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := openBytes(good)
	require.NoError(t, err)
	h := f.Header
	require.GreaterOrEqual(t, h.Blocks, 2)
	dataStart := uint64(len(good)) - h.Offsets[h.Blocks]
	bad := append([]byte(nil), good...)
	for k := range h.Blocks {
		bad[dataStart+h.Offsets[k+1]-5] ^= 0x10 // inside each block's checksum
	}
	for range 20 {
		_, err = openBytes(bad)
		require.ErrorContains(t, err, "block 0:")
	}
}

// Range decodes any range of either side as LoadAll does, across block
// boundaries, and refuses a range outside the table.
func TestRange(t *testing.T) {
	_, dir := buildTables(t, "KRvKM") // 58 blocks a side
	f, err := probe.OpenFile(filepath.Join(dir, "KRvKM.mtbm"))
	require.NoError(t, err)
	defer f.Close()
	require.Greater(t, f.Header.Blocks, 4)
	all, err := f.LoadAll()
	require.NoError(t, err)
	size := f.Header.Size
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		side := tb.Color(rng.IntN(2))
		lo := rng.Uint64N(size + 1)
		hi := lo + rng.Uint64N(size+1-lo)
		got, err := f.Range(side, lo, hi, nil)
		require.NoError(t, err)
		require.Equal(t, all[side].Slice(lo, hi, nil), got, "side %d [%d, %d)", side, lo, hi)
	}
	_, err = f.Range(tb.White, 5, size+1, nil)
	require.ErrorContains(t, err, "outside")

	// A pass over the table in ranges, into a buffer it reuses, makes no
	// garbage: it decodes into recycled block buffers. (Made anew per call,
	// they took 198 MB to read KSSvKM's 466 MB by king pairs, and the heap
	// of gen's summary grew by a fifth of a 6-piece table.)
	if testenv.RaceEnabled {
		return
	}
	buf := make([]value.Value, 0, size)
	allocs := testing.AllocsPerRun(20, func() {
		if buf, err = f.Range(tb.Black, 0, size, buf); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "allocations per pass")
}

// writeKRvKWDL writes KRvK's DTM table and its thai WDL file, whose
// positions after a capture (KvK) need no table, into a directory, and
// returns the WDL file's path.
func writeKRvKWDL(t *testing.T) string {
	t.Helper()
	m := tb.MustParseMaterial("KRvK")
	table, err := retro.Generate(context.Background(), m, nil, retro.Options{})
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, probe.WriteFile(probe.DTMID(m).Path(dir), table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTM}))
	dtm, err := probe.OpenFile(probe.DTMID(m).Path(dir))
	require.NoError(t, err)
	defer dtm.Close()
	subs, err := probe.Open(t.TempDir())
	require.NoError(t, err)
	defer subs.Close()
	path := filepath.Join(dir, probe.WDLFileName(m, "thai"))
	require.NoError(t, probe.WriteWDL(path, dtm, nil, &honour.ThaiRules, subs, 0))
	return path
}

package pairs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// samples are sequences like a WDL file's: few values, long runs, and
// patterns that repeat with the index's digits.
func samples() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	out := map[string][]byte{
		"empty":  nil,
		"one":    {3},
		"single": bytes.Repeat([]byte{2}, 200_000),
	}
	random := make([]byte, 50_000)
	for i := range random {
		random[i] = byte(rng.IntN(5))
	}
	out["random"] = random
	runs := make([]byte, 0, 300_000)
	for len(runs) < 300_000 {
		v, n := byte(rng.IntN(5)), 1+rng.IntN(2000)
		runs = append(runs, bytes.Repeat([]byte{v}, n)...)
	}
	out["runs"] = runs
	periodic := make([]byte, 400_000)
	for i := range periodic {
		switch {
		case i%64 < 3, i%8 == 7:
			periodic[i] = 4
		case (i/64)%7 == 0:
			periodic[i] = 0
		default:
			periodic[i] = 2
		}
		if rng.IntN(100) == 0 {
			periodic[i] = byte(rng.IntN(5))
		}
	}
	out["periodic"] = periodic
	bytesAll := make([]byte, 70_000)
	for i := range bytesAll {
		bytesAll[i] = byte(i * 7)
	}
	out["every byte"] = bytesAll
	return out
}

// withParts runs f with parts of 2^shift values.
func withParts(shift byte, f func()) {
	defer func(one int, old byte) { onePartShift, partShift = one, old }(onePartShift, partShift)
	onePartShift, partShift = int(shift), shift
	f()
}

// Every value reads back as it was, from any index, and the same values
// always give the same bytes; in one part, and in parts of 64 Ki values
// (a read across their ends included).
func TestRoundTrip(t *testing.T) {
	testRoundTrip(t)
	withParts(minPartShift, func() { testRoundTrip(t) })
}

func testRoundTrip(t *testing.T) {
	for name, values := range samples() {
		enc, err := Encode(values)
		require.NoError(t, err, name)
		again, err := Encode(values)
		require.NoError(t, err)
		require.Equal(t, enc, again, "%s: deterministic", name)
		s, err := Parse(enc)
		require.NoError(t, err, name)
		require.Equal(t, uint64(len(values)), s.Len())
		for i, v := range values {
			got, err := s.At(uint64(i))
			require.NoError(t, err, "%s value %d", name, i)
			if got != v {
				require.Equal(t, v, got, "%s value %d", name, i)
			}
		}
		_, err = s.At(uint64(len(values)))
		require.Error(t, err)
		all, err := s.AppendRange(nil, 0, s.Len())
		require.NoError(t, err, name)
		require.Equal(t, len(values), len(all))
		require.True(t, bytes.Equal(values, all), name)
		for _, r := range [][2]int{{0, 1}, {len(values) / 3, len(values)/3 + 7777}, {len(values) - 5, len(values)}, {1<<16 - 3, 3<<16 + 5}} {
			lo, hi := max(r[0], 0), min(r[1], len(values))
			if lo > hi {
				continue
			}
			part, err := s.AppendRange([]byte{9}, uint64(lo), uint64(hi))
			require.NoError(t, err)
			require.Equal(t, append([]byte{9}, values[lo:hi]...), part, "%s [%d, %d)", name, lo, hi)
		}
		t.Logf("%-10s %7d values → %6d bytes (%d parts)", name, len(values), len(enc), len(s.parts))
	}
}

// Runs and repeating patterns compress to a small fraction of a bit per
// value; noise of five values (2.32 bits of entropy) to within the cost
// of the tables (block counts, sparse index, grammar) on 50 000 values.
func TestCompresses(t *testing.T) {
	s := samples()
	for name, bitsPerValue := range map[string]float64{"single": 0.02, "runs": 0.05, "periodic": 0.5, "random": 3.5} {
		enc, err := Encode(s[name])
		require.NoError(t, err)
		got := float64(8*len(enc)) / float64(len(s[name]))
		require.Less(t, got, bitsPerValue, name)
	}
}

// Streams of the earlier layouts read as they did: version 1 (one part,
// no part size) and version 2 (parts), both with two-byte counts and
// offsets and no byte saying so.
func TestEarlierVersions(t *testing.T) {
	values := samples()["periodic"]
	enc, err := Encode(values)
	require.NoError(t, err)
	r := reader{b: enc}
	require.Equal(t, byte(version), r.u8())
	n := r.uvarint()
	shift := r.u8()
	size := r.uvarint()
	part := withoutWidth(t, r.bytes(int(size)))
	v1 := binary.AppendUvarint([]byte{1}, n)
	v1 = append(v1, part...)
	v2 := binary.AppendUvarint([]byte{2}, n)
	v2 = append(v2, shift)
	v2 = binary.AppendUvarint(v2, uint64(len(part)))
	v2 = append(v2, part...)
	for name, old := range map[string][]byte{"version 1": v1, "version 2": v2} {
		s, err := Parse(old)
		require.NoError(t, err, name)
		all, err := s.AppendRange(nil, 0, s.Len())
		require.NoError(t, err, name)
		require.Equal(t, values, all, name)
		got, err := s.At(12345)
		require.NoError(t, err, name)
		require.Equal(t, values[12345], got, name)
		_, err = Parse(old[:len(old)-1])
		require.ErrorIs(t, err, ErrCorrupt, name)
	}
}

// withoutWidth returns a version-3 part with two-byte counts in the
// layout of versions 1 and 2: without the byte that gives their width.
func withoutWidth(t *testing.T, part []byte) []byte {
	r := reader{b: part}
	leaves := r.uvarint()
	r.bytes(int(leaves))
	pairs := r.uvarint()
	r.bytes(3*int(pairs) + int(leaves+pairs))
	r.u8() // the block size
	require.False(t, r.bad)
	require.Equal(t, byte(2), part[r.off], "the counts' width")
	return append(slices.Clone(part[:r.off]), part[r.off+1:]...)
}

// A damaged stream is refused by Parse or reads as an error, never a
// panic; flipping any byte of the tables is noticed by Parse. In one part
// and in several.
func TestCorrupt(t *testing.T) {
	testCorrupt(t)
	withParts(minPartShift, func() { testCorrupt(t) })
}

func testCorrupt(t *testing.T) {
	enc, err := Encode(samples()["periodic"])
	require.NoError(t, err)
	for cut := 0; cut < len(enc); cut += 1 + cut/3 {
		_, err := Parse(enc[:cut])
		require.True(t, errors.Is(err, ErrCorrupt), "cut at %d: %v", cut, err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		bad := bytes.Clone(enc)
		bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
		readAll(t, bad)
	}
}

// readAll parses b and reads every value, failing the test on a panic only.
func readAll(t *testing.T, b []byte) {
	s, err := Parse(b)
	if err != nil {
		require.ErrorIs(t, err, ErrCorrupt)
		return
	}
	for i := uint64(0); i < s.Len(); i += 1 + s.Len()/5000 {
		if _, err := s.At(i); err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
		}
	}
	all, err := s.AppendRange(nil, 0, s.Len())
	if err != nil {
		require.ErrorIs(t, err, ErrCorrupt)
	} else {
		require.Len(t, all, int(s.Len()))
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"one", "periodic", "every byte"} {
		values := samples()[name]
		if len(values) > 20_000 {
			values = values[:20_000]
		}
		enc, err := Encode(values)
		require.NoError(f, err)
		f.Add(enc)
	}
	withParts(minPartShift, func() {
		enc, err := Encode(samples()["every byte"]) // two parts
		require.NoError(f, err)
		f.Add(enc)
	})
	enc, err := Encode(samples()["single"]) // four-byte counts
	require.NoError(f, err)
	f.Add(enc)
	f.Fuzz(func(t *testing.T, b []byte) { readAll(t, b) })
}

func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{0, 0, 1, 1, 0, 0, 1, 1, 4, 4, 4})
	f.Fuzz(func(t *testing.T, values []byte) {
		enc, err := Encode(values)
		require.NoError(t, err)
		s, err := Parse(enc)
		require.NoError(t, err)
		for i, v := range values {
			got, err := s.At(uint64(i))
			require.NoError(t, err)
			require.Equal(t, v, got)
		}
	})
}

func BenchmarkAt(b *testing.B) {
	values := samples()["periodic"]
	enc, err := Encode(values)
	require.NoError(b, err)
	s, err := Parse(enc)
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(5, 6))
	idx := make([]uint64, 4096)
	for i := range idx {
		idx[i] = rng.Uint64N(uint64(len(values)))
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := s.At(idx[i&4095]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendRange reads a whole stream, as the WDL files' check and
// conversions do.
func BenchmarkAppendRange(b *testing.B) {
	values := samples()["periodic"]
	enc, err := Encode(values)
	require.NoError(b, err)
	s, err := Parse(enc)
	require.NoError(b, err)
	b.SetBytes(int64(len(values)))
	dst := make([]byte, 0, len(values))
	for b.Loop() {
		if dst, err = s.AppendRange(dst[:0], 0, s.Len()); err != nil {
			b.Fatal(err)
		}
	}
}

// A side drawn almost everywhere — 64 Mi values, all one but for three
// clusters of noise — takes a few hundred bytes: a symbol stands for up
// to MaxRun values and a block's count is four bytes wide when it needs
// to be (two-byte counts cost a 64-byte block per 65 536 values: 64 KiB
// here). Every value still reads back, and no read walks over more than
// maxWalk blocks from its sparse entry, the dense clusters beside the
// long runs included.
func TestLongRuns(t *testing.T) {
	const n = 1 << 26
	values := bytes.Repeat([]byte{2}, n)
	rng := rand.New(rand.NewPCG(3, 4))
	clusters := []int{0, n / 3, n - 5000}
	for _, c := range clusters {
		for i := c; i < c+5000; i++ {
			values[i] = byte(rng.IntN(5))
		}
	}
	enc, err := Encode(values)
	require.NoError(t, err)
	require.Less(t, len(enc), 8000)
	s, err := Parse(enc)
	require.NoError(t, err)
	require.Len(t, s.parts, 1)
	p := s.parts[0]
	require.Equal(t, 4, p.width)
	counts := make([]uint64, p.numBlocks)
	for b := range counts {
		counts[b] = p.count(b)
	}
	require.LessOrEqual(t, longestWalk(n, counts, p.sparseShift), maxWalk)
	check := func(i int) {
		got, err := s.At(uint64(i))
		require.NoError(t, err)
		if got != values[i] {
			require.Equal(t, values[i], got, "value %d", i)
		}
	}
	for _, c := range clusters {
		for i := max(c-100, 0); i < min(c+5100, n); i++ {
			check(i)
		}
	}
	for range 100_000 {
		check(rng.IntN(n))
	}
	all, err := s.AppendRange(nil, 0, n)
	require.NoError(t, err)
	require.True(t, bytes.Equal(values, all))
}

// A pair tree whose runs add up past MaxRun (2^32 values, which a u32
// would wrap to 0) is refused.
func TestRunBound(t *testing.T) {
	part := []byte{1, 2, 32} // one leaf (value 2), 32 pairs
	for k := 1; k <= 32; k++ {
		x := uint32(k-1) | uint32(k-1)<<12 // symbol k pairs symbol k-1 with itself
		part = append(part, byte(x), byte(x>>8), byte(x>>16))
	}
	part = append(part, make([]byte, 64)...) // what would follow
	stream := binary.AppendUvarint([]byte{version}, 1<<20)
	stream = append(stream, 20)
	stream = binary.AppendUvarint(stream, uint64(len(part)))
	stream = append(stream, part...)
	_, err := Parse(stream)
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "symbol 32 stands for 4294967296 values")
}

// Every window decodes, by its first fastBits bits' lookup or by the
// canonical limits past it, to the code word a plain bit-by-bit match
// finds: for codes whose lengths run from 1 to MaxCodeLen, both sides
// of fastBits, and for a code of one symbol.
func TestCodeDecodesEveryWindow(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	freqs := [][]uint64{{5}, {1, 1}}
	skewed := make([]uint64, 40) // lengths 1, 2, …: each symbol twice the next
	for s := range skewed {
		skewed[s] = 1 << (len(skewed) - s)
	}
	freqs = append(freqs, skewed)
	for range 20 {
		f := make([]uint64, 2+rng.IntN(3000))
		for s := range f {
			if rng.IntN(4) > 0 {
				f[s] = 1 + rng.Uint64N(1<<uint(rng.IntN(30)))
			}
		}
		freqs = append(freqs, f)
	}
	for _, f := range freqs {
		c, ok := newCode(codeLengths(f))
		require.True(t, ok)
		for range 20_000 {
			w := rng.Uint32()
			if rng.IntN(2) == 0 { // a window that begins with a code word
				s := c.sorted[rng.IntN(len(c.sorted))]
				l := c.lengths[s]
				w = c.words[s]<<(32-l) | w>>l
			}
			want, wantLen, wantOK := matchBitByBit(c, w)
			k, l, ok := c.rank(w)
			require.Equal(t, wantOK, ok, "window %032b", w)
			if ok {
				require.Equal(t, want, c.sorted[k], "window %032b", w)
				require.Equal(t, wantLen, l, "window %032b", w)
			}
		}
	}
}

// matchBitByBit finds the symbol whose code word begins w by comparing
// each symbol's word: the slowest decoder, independent of the tables.
func matchBitByBit(c *code, w uint32) (uint16, uint8, bool) {
	for s, l := range c.lengths {
		if l > 0 && w>>(32-l) == c.words[s] {
			return uint16(s), l, true
		}
	}
	return 0, 0, false
}

// BenchmarkEncode compresses a WDL-like stream — rows of 64 values, each
// the row before with a few values changed, the change rate drifting —
// of a sample's size (the writer encodes dozens: one per layout it
// guesses) and of a small table's side.
func BenchmarkEncode(b *testing.B) {
	for _, n := range []int{1 << 18, 1 << 22} {
		rng := rand.New(rand.NewPCG(7, 8))
		values := make([]byte, n)
		for i := range 64 {
			values[i] = byte(rng.IntN(5))
		}
		for i := 64; i < n; i++ {
			values[i] = values[i-64]
			if rng.IntN(1000) < 5+i/64%40 {
				values[i] = byte(rng.IntN(5))
			}
		}
		b.Run(fmt.Sprintf("%dKi", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				if _, err := Encode(values); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

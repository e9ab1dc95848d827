package pairs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
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

// A stream of the first layout (version 1: one part, no part size) reads
// as it did.
func TestVersion1(t *testing.T) {
	values := samples()["periodic"]
	enc, err := Encode(values)
	require.NoError(t, err)
	r := reader{b: enc}
	require.Equal(t, byte(version), r.u8())
	n := r.uvarint()
	r.u8() // the part size
	size := r.uvarint()
	old := binary.AppendUvarint([]byte{1}, n)
	old = append(old, r.bytes(int(size))...)
	s, err := Parse(old)
	require.NoError(t, err)
	all, err := s.AppendRange(nil, 0, s.Len())
	require.NoError(t, err)
	require.Equal(t, values, all)
	got, err := s.At(12345)
	require.NoError(t, err)
	require.Equal(t, values[12345], got)
	_, err = Parse(old[:len(old)-1])
	require.ErrorIs(t, err, ErrCorrupt)
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

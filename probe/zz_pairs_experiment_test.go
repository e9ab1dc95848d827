package probe

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/makruktb/makruktb/pairs"
)

func TestPairsExperiment(t *testing.T) {
	files, _ := filepath.Glob(os.Getenv("PAIRS_FILES"))
	for _, path := range files {
		f, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		per := f.Header.blocksPerSide()
		for side := 0; side < 2; side++ {
			var codes []byte
			for k := side * per; k < (side+1)*per; k++ {
				raw, _, err := f.rawBlockInto(k, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				codes = append(codes, raw...)
			}
			codes = codes[:f.Header.Size]
			start := time.Now()
			enc, err := pairs.Encode(codes)
			if err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			s, err := pairs.Parse(enc)
			if err != nil {
				t.Fatal(err)
			}
			for i := uint64(0); i < uint64(len(codes)); i += 997 {
				v, err := s.At(i)
				if err != nil || v != codes[i] {
					t.Fatalf("%s side %d index %d: %d %v want %d", path, side, i, v, err, codes[i])
				}
			}
			t.Logf("%s side %d: %d values → %d bytes (%.1fs)", filepath.Base(path), side, len(codes), len(enc), took.Seconds())
			total += len(enc)
		}
		st, _ := os.Stat(path)
		t.Logf("%s: zstd file %d bytes, pairs %d bytes (%.2f)", filepath.Base(path), st.Size(), total, float64(total)/float64(st.Size()))
	}
}

func TestDumpRaw(t *testing.T) {
	path := os.Getenv("PAIRS_DUMP")
	if path == "" {
		t.Skip()
	}
	f, _ := OpenFile(path)
	per := f.Header.blocksPerSide()
	var codes []byte
	for k := 0; k < per; k++ {
		raw, _, _ := f.rawBlockInto(k, nil, nil)
		codes = append(codes, raw...)
	}
	os.WriteFile("/tmp/side0.raw", codes[:f.Header.Size], 0o644)
}

func TestPairsAtSpeed(t *testing.T) {
	path := os.Getenv("PAIRS_SPEED")
	if path == "" {
		t.Skip()
	}
	f, _ := OpenFile(path)
	per := f.Header.blocksPerSide()
	var codes []byte
	for k := 0; k < per; k++ {
		raw, _, _ := f.rawBlockInto(k, nil, nil)
		codes = append(codes, raw...)
	}
	codes = codes[:f.Header.Size]
	enc, _ := pairs.Encode(codes)
	s, _ := pairs.Parse(enc)
	n := uint64(len(codes))
	x := uint64(12345)
	start := time.Now()
	const probes = 2_000_000
	for i := 0; i < probes; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		if _, err := s.At((x >> 20) % n); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%s side 0: %d bytes, %.0f ns per random At", filepath.Base(path), len(enc), float64(time.Since(start).Nanoseconds())/probes)
}

func TestZstdPerSide(t *testing.T) {
	path := os.Getenv("PAIRS_ZSTD")
	if path == "" {
		t.Skip()
	}
	f, _ := OpenFile(path)
	per := f.Header.blocksPerSide()
	h := f.Header
	for side := 0; side < 2; side++ {
		t.Logf("side %d: zstd %d bytes", side, h.Offsets[(side+1)*per]-h.Offsets[side*per])
	}
}

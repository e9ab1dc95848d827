package probe_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/longtest"
	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// wdlDir links the shared test tables m needs (its own and those of the
// positions after a capture) into a new directory, writes m's WDL file
// there and returns the directory.
func wdlDir(t *testing.T, m tb.Material, r *honour.Rules) string { return wdlDirOf(t, m, r) }

func wdlDirOf(t testing.TB, m tb.Material, r *honour.Rules) string {
	t.Helper()
	return wdlDirVersion(t, m, r, 0)
}

// wdlDirVersion is wdlDirOf writing the WDL file in format version.
func wdlDirVersion(t testing.TB, m tb.Material, r *honour.Rules, version int) string {
	t.Helper()
	src := testenv.BoardTables(t, m.String())
	dir := t.TempDir()
	// Every table of src, so that the positions after a capture can be
	// probed in dir as the writer probes them in src.
	ids, err := probe.Scan(src)
	require.NoError(t, err)
	for _, id := range ids {
		require.NoError(t, os.Symlink(id.Path(src), id.Path(dir)))
	}
	dtm, err := probe.OpenFile(probe.DTMID(m).Path(src))
	require.NoError(t, err)
	defer dtm.Close()
	var dtb *probe.File
	if probe.NeedsBoardTable(m, r) {
		dtb, err = probe.OpenFile(probe.ID{Material: m, Rules: r.Name}.Path(src))
		require.NoError(t, err)
		defer dtb.Close()
	}
	subs, err := probe.Open(src)
	require.NoError(t, err)
	defer subs.Close()
	require.NoError(t, probe.WriteWDL(filepath.Join(dir, probe.WDLFileName(m, r.Name)), dtm, dtb, r, subs, version))
	return dir
}

// A version-3 WDL file (pairs streams, read with no cache) answers at
// every legal position, both sides to move, as the version-2 file of the
// same tables does, and survives CheckData and a whole read (KSvKM: the
// Khon's tables have the left-right symmetry only); under thai and
// cambodian rules, and with no count at all (every capture's worth exact).
func TestWDLVersion3AnswersAsVersion2(t *testing.T) {
	names := []string{"KRvK", "KRvKN", "KSvKM"}
	names = names[:longtest.Runs(2, 3)] // the Khon table in make test-long
	for _, name := range names {
		m := tb.MustParseMaterial(name)
		for _, r := range []*honour.Rules{&honour.ThaiRules, &honour.CambodianRules, &honour.NoRules} {
			v2, v3 := wdlDirVersion(t, m, r, probe.Version2), wdlDirVersion(t, m, r, probe.Version3)
			path := filepath.Join(v3, probe.WDLFileName(m, r.Name))
			f, err := probe.OpenFile(path)
			require.NoError(t, err)
			require.Equal(t, probe.Version3, f.Header.Version)
			require.NoError(t, f.CheckData())
			_, err = f.LoadAll()
			require.NoError(t, err)
			f.Close()
			old, err := probe.Open(v2)
			require.NoError(t, err)
			tables, err := probe.Open(v3)
			require.NoError(t, err)
			decoded, err := probe.Open(v3, probe.WithDecodedWDL(1<<40)) // each side decoded whole
			require.NoError(t, err)
			space, err := index.New(m)
			require.NoError(t, err)
			positions := 0
			for side := tb.White; side <= tb.Black; side++ {
				for i := range space.Size() {
					p, legal := space.Position(i, side)
					if !legal {
						continue
					}
					want, ok, err := old.WDLFromFile(&p, r)
					require.NoError(t, err)
					require.True(t, ok)
					got, ok, err := tables.WDLFromFile(&p, r)
					require.NoError(t, err)
					require.True(t, ok)
					if got != want {
						require.Equal(t, want, got, "%s %s", r.Name, p.FEN())
					}
					if got, _, err = decoded.WDLFromFile(&p, r); got != want {
						require.NoError(t, err)
						require.Equal(t, want, got, "%s %s, the file decoded whole", r.Name, p.FEN())
					}
					positions++
				}
			}
			old.Close()
			tables.Close()
			decoded.Close()
			t.Logf("%s.%s: %d positions agree", name, r.Name, positions)
		}
	}
}

// Every WDL file up to four pieces, under both profiles with DTB tables:
// each index holds the category the rules give its DTM and DTB values
// under the fresh count of its side to move, and probing positions (the
// colours as given and swapped) through the WDL file answers as Judge does
// from DTM and DTB.
func TestWDLFilesUpToFourPieces(t *testing.T) {
	longtest.Skip(t, "every WDL file up to four pieces against its tables")
	rng := rand.New(rand.NewPCG(4, 2))
	reference := data.Checksums()
	for _, m := range tb.Pawnless(4) {
		if m.Pieces() < 3 {
			continue
		}
		for _, r := range []*honour.Rules{&honour.ThaiRules, &honour.CambodianRules} {
			t.Run(m.String()+"."+r.Name, func(t *testing.T) {
				dir := wdlDir(t, m, r)
				path := filepath.Join(dir, probe.WDLFileName(m, r.Name))
				wdl, err := probe.OpenFile(path)
				require.NoError(t, err)
				defer wdl.Close()
				require.NoError(t, wdl.CheckData())
				require.Equal(t, probe.WDL, wdl.Header.Metric)
				require.Equal(t, r.Name, wdl.Header.Rules)
				cats, err := wdl.LoadAll()
				require.NoError(t, err)
				dtm, err := probe.OpenFile(probe.DTMID(m).Path(dir))
				require.NoError(t, err)
				defer dtm.Close()
				require.Equal(t, dtm.Header.DataCRC, wdl.Header.DTMCRC)
				values, err := dtm.LoadAll()
				require.NoError(t, err)
				var boards [2]*value.Array
				if honour.HasBoardHonour(m) {
					dtb, err := probe.OpenFile(probe.ID{Material: m, Rules: r.Name}.Path(dir))
					require.NoError(t, err)
					defer dtb.Close()
					require.Equal(t, dtb.Header.DataCRC, wdl.Header.DTBCRC)
					boards, err = dtb.LoadAll()
					require.NoError(t, err)
				}
				tables, err := probe.Open(dir)
				require.NoError(t, err)
				defer tables.Close()
				// Where captures decide, the file stores a category no better
				// than the position's and the reader finds the position's at
				// every legal index; elsewhere every index holds it.
				for side := range 2 {
					c := r.FreshCountFor(m, tb.Color(side))
					captures := wdl.Header.CapturesDecide(tb.Color(side))
					for i := range values[side].Len() {
						v := values[side].At(i)
						want := r.Judge(v, c)
						if !want.Exact {
							want = r.JudgeBoard(v, boards[side].At(i), c)
						}
						stored := honour.Category(cats[side].At(i)) + honour.Loss
						if !captures {
							if stored != want.Category {
								t.Fatalf("side %d index %d: WDL file says %s, DTM %v and DTB give %s", side, i, stored, v, want.Category)
							}
							continue
						}
						p, legal := dtm.Space.Position(i, tb.Color(side))
						if !legal {
							continue
						}
						require.LessOrEqual(t, stored, want.Category, p.FEN())
						got, err := tables.WDL(&p, r)
						require.NoError(t, err)
						require.Equal(t, want.Category, got, "%s: %s stored", p.FEN(), stored)
					}
				}

				for checked := 0; checked < 500; {
					side := tb.Color(rng.IntN(2))
					p, ok := dtm.Space.Position(rng.Uint64N(dtm.Header.Size), side)
					if !ok || p.Validate() != nil {
						continue
					}
					if rng.IntN(2) == 1 {
						p = p.ColorFlipped()
					}
					want, err := tables.Judge(&p, r)
					require.NoError(t, err)
					got, err := tables.WDL(&p, r)
					require.NoError(t, err)
					require.Equal(t, want.Category, got, p.FEN())
					checked++
				}
				require.Equal(t, reference[filepath.Base(path)], fileSHA256(t, path), "the reference in data/checksums.txt")
			})
		}
	}
}

// A running count is not what a WDL file answers: WDL then judges from
// DTM and DTB, as Judge does.
func TestWDLUnderRunningCount(t *testing.T) {
	m := tb.MustParseMaterial("KRvK")
	tables, err := probe.Open(wdlDir(t, m, &honour.ThaiRules))
	require.NoError(t, err)
	defer tables.Close()
	for _, fen := range []string{"8/8/8/8/8/2k5/1R6/K7 w - - 0 1", "8/8/8/8/8/2k5/1R6/K7 w - 32 5 1", "8/8/8/8/8/2k5/1R6/K7 w - 32 31 1"} {
		p, err := tb.ParseFEN(fen)
		require.NoError(t, err)
		want, err := tables.Judge(&p, &honour.ThaiRules)
		require.NoError(t, err)
		got, err := tables.WDL(&p, &honour.ThaiRules)
		require.NoError(t, err)
		require.Equal(t, want.Category, got, fen)
	}
}

// Damaged WDL files and WDL files beside other tables than those they
// were made from give typed errors naming the file, never a category.
func TestWDLFileErrors(t *testing.T) {
	m := tb.MustParseMaterial("KRvKN")
	dir := wdlDir(t, m, &honour.ThaiRules)
	path := filepath.Join(dir, probe.WDLFileName(m, "thai"))
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	pos, err := tb.ParseFEN("n7/8/7R/8/8/8/8/K3k3 w - - 0 1")
	require.NoError(t, err)
	// probeWith probes pos through the WDL file data, then reads the file
	// whole, and returns the first error.
	probeWith := func(data []byte) error {
		require.NoError(t, os.WriteFile(path, data, 0o644))
		tables, err := probe.Open(dir)
		require.NoError(t, err)
		defer tables.Close()
		if _, err = tables.WDL(&pos, &honour.ThaiRules); err != nil {
			return err
		}
		f, err := probe.OpenFile(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.LoadAll()
		return err
	}
	require.NoError(t, probeWith(good))
	mutate := func(f func(b []byte)) []byte {
		b := append([]byte(nil), good...)
		f(b)
		return b
	}
	for name, data := range map[string][]byte{
		"truncated":      good[:len(good)-7],
		"flipped block":  mutate(func(b []byte) { b[len(b)-30] ^= 0x10 }),
		"lying size":     mutate(func(b []byte) { b[40] ^= 0x01 }),
		"flipped header": mutate(func(b []byte) { b[60] ^= 0x80 }),
	} {
		err := probeWith(data)
		var ce *probe.CorruptError
		require.True(t, errors.As(err, &ce), "%s: %v", name, err)
		require.Equal(t, path, ce.File, name)
	}

	// Beside a DTB table of other values than it was made from (here
	// KRvKN's DTM values written as its thai DTB table), the WDL file is
	// refused: its recorded checksum differs.
	require.NoError(t, os.WriteFile(path, good, 0o644))
	dtbPath := probe.ID{Material: m, Rules: "thai"}.Path(dir)
	require.NoError(t, os.Remove(dtbPath))
	table := testenv.Generated(t, "KRvKN")
	require.NoError(t, probe.WriteFile(dtbPath, table.Space, table.Values, probe.Options{Version: probe.Version, Metric: probe.DTB, Rules: "thai"}))
	tables, err := probe.Open(dir)
	require.NoError(t, err)
	defer tables.Close()
	_, err = tables.WDL(&pos, &honour.ThaiRules)
	var ce *probe.CorruptError
	require.True(t, errors.As(err, &ce), "%v", err)
	require.Equal(t, path, ce.File)
	require.Contains(t, ce.Reason, "made from another KRvKN.thai.mtbb")

	// Without the DTB table, no WDL file is made.
	dtm, err := probe.OpenFile(probe.DTMID(m).Path(dir))
	require.NoError(t, err)
	defer dtm.Close()
	err = probe.WriteWDL(filepath.Join(t.TempDir(), "x.mtbw"), dtm, nil, &honour.ThaiRules, nil, 0)
	require.ErrorIs(t, err, probe.ErrNeedsBoardTable)
}

// CheckWDL finds a WDL file whose categories are not those its tables
// give: here KRvK's under a thai profile whose count starts at nought,
// checked under the real thai rules.
func TestCheckWDLFindsWrongCategories(t *testing.T) {
	m := tb.MustParseMaterial("KRvK")
	src := testenv.BoardTables(t, "KRvK")
	dtm, err := probe.OpenFile(probe.DTMID(m).Path(src))
	require.NoError(t, err)
	defer dtm.Close()
	other := honour.ThaiRules
	other.Start = honour.StartNone
	path := filepath.Join(t.TempDir(), probe.WDLFileName(m, "thai"))
	subs, err := probe.Open(src)
	require.NoError(t, err)
	defer subs.Close()
	require.NoError(t, probe.WriteWDL(path, dtm, nil, &other, subs, 0))
	wdl, err := probe.OpenFile(path)
	require.NoError(t, err)
	defer wdl.Close()
	require.NoError(t, probe.CheckWDL(context.Background(), wdl, dtm, nil, &other, subs))
	err = probe.CheckWDL(context.Background(), wdl, dtm, nil, &honour.ThaiRules, subs)
	var ce *probe.CorruptError
	require.True(t, errors.As(err, &ce), "%v", err)
	require.Equal(t, path, ce.File)
	require.Contains(t, ce.Reason, "computed from the DTM and DTB values")

	cambodian, err := probe.OpenFile(path)
	require.NoError(t, err)
	defer cambodian.Close()
	err = probe.CheckWDL(context.Background(), cambodian, dtm, nil, &honour.CambodianRules, subs)
	require.ErrorContains(t, err, `rules "thai"`)
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// A WDL file made before captures decided (codec 1) is written anew by
// RecodeWDL from its own categories, byte for byte the file WriteWDL makes
// from the tables: KRvK's, where captures decide for Black (its capture
// of the rook draws), and KRvKS's under both profiles.
func TestRecodeWDLMakesWhatWriteWDLMakes(t *testing.T) {
	for _, c := range []struct {
		material string
		rules    *honour.Rules
	}{{"KRvK", &honour.ThaiRules}, {"KRvKS", &honour.ThaiRules}, {"KRvKS", &honour.CambodianRules}} {
		m := tb.MustParseMaterial(c.material)
		dir := wdlDir(t, m, c.rules)
		name := probe.WDLFileName(m, c.rules.Name)
		made, err := probe.OpenFile(filepath.Join(dir, name))
		require.NoError(t, err)
		defer made.Close()
		require.True(t, made.Header.CapturesDecided())
		require.True(t, made.Header.CapturesDecide(tb.Black), "%s: captures decide for Black", name)
		require.False(t, made.Header.CapturesDecide(tb.White), name)

		dtm, err := probe.OpenFile(probe.DTMID(m).Path(dir))
		require.NoError(t, err)
		defer dtm.Close()
		var dtb *probe.File
		if honour.HasBoardHonour(m) {
			dtb, err = probe.OpenFile(probe.ID{Material: m, Rules: c.rules.Name}.Path(dir))
			require.NoError(t, err)
			defer dtb.Close()
		}
		oldPath := filepath.Join(t.TempDir(), name)
		require.NoError(t, probe.WriteCodec1WDL(oldPath, dtm, dtb, c.rules))
		old, err := probe.OpenFile(oldPath)
		require.NoError(t, err)
		defer old.Close()
		require.False(t, old.Header.CapturesDecided())
		subs, err := probe.Open(dir)
		require.NoError(t, err)
		defer subs.Close()
		recoded := filepath.Join(t.TempDir(), name)
		require.NoError(t, probe.RecodeWDL(recoded, old, c.rules, subs))
		require.Equal(t, fileSHA256(t, filepath.Join(dir, name)), fileSHA256(t, recoded), name)
		require.NoError(t, probe.CheckWDL(context.Background(), made, dtm, dtb, c.rules, subs))
		require.ErrorContains(t, probe.CheckWDL(context.Background(), made, dtm, dtb, c.rules, nil), "needs the tables of the positions after a capture")
	}
}

// Where captures decide, a WDL probe needs the tables of the positions
// after a capture: without them it fails with a *MissingError, never a
// wrong category. KRvKS with its own files only: Black's captures lead to
// KRvK and KSvK.
func TestWDLCapturesNeedSubTables(t *testing.T) {
	m := tb.MustParseMaterial("KRvKS")
	full := wdlDir(t, m, &honour.ThaiRules)
	alone := t.TempDir()
	for _, name := range []string{"KRvKS.mtbm", "KRvKS.thai.mtbb", "KRvKS.thai.mtbw"} {
		require.NoError(t, os.Symlink(filepath.Join(full, name), filepath.Join(alone, name)))
	}
	complete, err := probe.Open(full)
	require.NoError(t, err)
	defer complete.Close()
	partial, err := probe.Open(alone)
	require.NoError(t, err)
	defer partial.Close()
	space, err := index.New(m)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(36, 1))
	missing, answered := 0, 0
	for missing < 20 || answered < 20 {
		p, ok := space.Position(rng.Uint64N(space.Size()), tb.Black)
		if !ok || p.Validate() != nil {
			continue
		}
		want, err := complete.WDL(&p, &honour.ThaiRules)
		require.NoError(t, err)
		got, err := partial.WDL(&p, &honour.ThaiRules)
		if err != nil {
			var me *probe.MissingError
			require.ErrorAs(t, err, &me, p.FEN())
			missing++
			continue
		}
		require.Equal(t, want, got, p.FEN())
		answered++
	}
}

// With MAKRUKTB_WDL_COMPARE=DIR1:DIR2, every WDL file of DIR2 that DIR1
// has too (each directory with the tables its captures need) answers at
// every legal position, both sides to move, as DIR1's: a version-3 set
// against the version-2 set it was converted from.
func TestWDLDirectoriesAnswerAlike(t *testing.T) {
	dirs := os.Getenv("MAKRUKTB_WDL_COMPARE")
	if dirs == "" {
		t.Skip("MAKRUKTB_WDL_COMPARE=DIR1:DIR2 compares two directories' WDL files")
	}
	d1, d2, ok := strings.Cut(dirs, ":")
	require.True(t, ok, "MAKRUKTB_WDL_COMPARE=DIR1:DIR2, not %q", dirs)
	t1, err := probe.Open(d1)
	require.NoError(t, err)
	defer t1.Close()
	t2, err := probe.Open(d2)
	require.NoError(t, err)
	defer t2.Close()
	entries, err := os.ReadDir(d2)
	require.NoError(t, err)
	compared := 0
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), probe.WDL.Extension())
		if !ok {
			continue
		}
		if _, err := os.Stat(filepath.Join(d1, e.Name())); err != nil {
			continue
		}
		name, profile, _ := strings.Cut(base, ".")
		r, ok := honour.Builtin(profile)
		require.True(t, ok, "%s: profile %q", e.Name(), profile)
		space, err := index.New(tb.MustParseMaterial(name))
		require.NoError(t, err)
		positions := 0
		for side := tb.White; side <= tb.Black; side++ {
			for k := range space.KingPairs() {
				space.Walk(k, side, func(_ uint64, p *tb.Position) {
					want, ok1, err1 := t1.WDLFromFile(p, &r)
					got, ok2, err2 := t2.WDLFromFile(p, &r)
					if err1 != nil || err2 != nil || !ok1 || !ok2 || got != want {
						t.Fatalf("%s: %s: %v %v %v in %s, %v %v %v in %s", e.Name(), p.FEN(), want, ok1, err1, d1, got, ok2, err2, d2)
					}
					positions++
				})
			}
		}
		t.Logf("%s: %d positions agree", e.Name(), positions)
		compared++
	}
	require.NotZero(t, compared, "no WDL file of %s is in %s", d2, d1)
}

// CheckWDL finds a wrong category where captures decide too: KRvKS's thai
// file, both versions, with the first Black-to-move loss of its first
// block stored as a draw (a capture cannot explain it: the position has
// no capture that draws).
func TestCheckWDLFindsWrongCategoryWhereCapturesDecide(t *testing.T) {
	m := tb.MustParseMaterial("KRvKS")
	src := testenv.BoardTables(t, m.String())
	space, err := index.New(m)
	require.NoError(t, err)
	dtm, err := probe.OpenFile(probe.DTMID(m).Path(src))
	require.NoError(t, err)
	defer dtm.Close()
	dtb, err := probe.OpenFile(probe.ID{Material: m, Rules: "thai"}.Path(src))
	require.NoError(t, err)
	defer dtb.Close()
	subs, err := probe.Open(src)
	require.NoError(t, err)
	defer subs.Close()
	for _, version := range []int{probe.Version2, probe.Version3} {
		var edited atomic.Int64
		edited.Store(-1)
		edit := func(side tb.Color, lo uint64, codes []byte) {
			if side != tb.Black || lo != 0 {
				return
			}
			for i, c := range codes {
				if _, legal := space.Position(lo+uint64(i), side); legal && c == 0 { // a loss
					codes[i] = 2 // a draw
					edited.Store(int64(lo) + int64(i))
					return
				}
			}
		}
		path := filepath.Join(t.TempDir(), probe.WDLFileName(m, "thai"))
		require.NoError(t, probe.WriteEditedWDL(path, dtm, dtb, &honour.ThaiRules, subs, version, edit))
		require.GreaterOrEqual(t, edited.Load(), int64(0), "no loss in Black's first block")
		wdl, err := probe.OpenFile(path)
		require.NoError(t, err)
		defer wdl.Close()
		require.True(t, wdl.Header.CapturesDecide(tb.Black), "version %d", version)
		err = probe.CheckWDL(context.Background(), wdl, dtm, dtb, &honour.ThaiRules, subs)
		var ce *probe.CorruptError
		require.True(t, errors.As(err, &ce), "version %d: %v", version, err)
		require.Contains(t, ce.Reason, fmt.Sprintf("index %d: category draw found (draw stored), loss computed", edited.Load()), "version %d", version)
	}
}

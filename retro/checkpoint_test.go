package retro

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/stretchr/testify/require"
)

// stopAt returns options whose generation is cancelled when the iteration
// reaches depth stop, and a record of the stages and depths it ran.
func stopAt(opts Options, stop int, cancel context.CancelFunc) (Options, *[]Progress) {
	var seen []Progress
	opts.Threads = 1 // one worker: the record needs no lock
	opts.Progress = func(p Progress) {
		if len(seen) == 0 || seen[len(seen)-1].Stage != p.Stage || seen[len(seen)-1].Depth != p.Depth {
			seen = append(seen, p)
		}
		if cancel != nil && p.Stage == StageIterate && p.Depth == stop {
			cancel()
		}
	}
	return opts, &seen
}

// A generation stopped in the middle of its iteration resumes from its
// last checkpoint, skipping the seed and the passes saved, and comes out
// byte for byte the same: in memory and out of core, DTM (with values
// beyond a byte) and DTB (its draws taken from the checkpoint, not the
// DTM table). The checkpoint fits the compressed size budgeted for it.
func TestCheckpointResumes(t *testing.T) {
	m := tb.MustParseMaterial("KRvKN")
	want := solve(t, "KRvKN")
	for _, scratch := range []string{"", t.TempDir()} {
		path := filepath.Join(t.TempDir(), "KRvKN.resume")
		base := Options{Scratch: scratch, Checkpoint: &Checkpoint{Path: path, Key: "KRvKN"}}
		ctx, cancel := context.WithCancel(context.Background())
		opts, _ := stopAt(base, 9, cancel)
		_, err := Generate(ctx, m, shared.get, opts)
		require.ErrorIs(t, err, context.Canceled)
		depth, ok, err := ResumeDepth(path, "KRvKN", want.Space.Size())
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, 8, depth)
		saved, err := os.Stat(path)
		require.NoError(t, err)
		require.LessOrEqual(t, saved.Size(), CheckpointEstimate(want.Space.Size()), "within the budget checkResources plans")
		require.Less(t, CheckpointEstimate(want.Space.Size()), checkpointSize(want.Space.Size()))

		opts, seen := stopAt(base, -1, nil)
		got, err := Generate(context.Background(), m, shared.get, opts)
		require.NoError(t, err)
		first := (*seen)[0]
		require.Equal(t, []any{StageIterate, 9}, []any{first.Stage, first.Depth}, "resumed at the pass after the last saved")
		for side := range got.Values {
			require.Equal(t, want.Values[side].All(), got.Values[side].All(), "scratch %q", scratch)
		}
		require.NoError(t, got.Close())
	}

	wantDTB := solveDTB(t, "KMvKM", &honour.ThaiRules)
	dtb := func(m tb.Material) (*Table, error) { return solveDTB(t, m.String(), &honour.ThaiRules), nil }
	path := filepath.Join(t.TempDir(), "KMvKM.thai.resume")
	base := Options{Checkpoint: &Checkpoint{Path: path, Key: "KMvKM.thai"}, Draws: solve(t, "KMvKM")}
	ctx, cancel := context.WithCancel(context.Background())
	opts, _ := stopAt(base, 1, cancel)
	_, err := GenerateDTB(ctx, tb.MustParseMaterial("KMvKM"), &honour.ThaiRules, shared.get, dtb, opts)
	require.ErrorIs(t, err, context.Canceled)
	opts, _ = stopAt(base, -1, nil)
	got, err := GenerateDTB(context.Background(), tb.MustParseMaterial("KMvKM"), &honour.ThaiRules, shared.get, dtb, opts)
	require.NoError(t, err)
	for side := range got.Values {
		require.Equal(t, wantDTB.Values[side].All(), got.Values[side].All(), "KMvKM.thai")
	}
}

// checkpointOf returns the bytes of a checkpoint of KRvK saved after its
// pass of depth 2.
func checkpointOf(t testing.TB) []byte {
	path := filepath.Join(t.TempDir(), "KRvK.resume")
	ctx, cancel := context.WithCancel(context.Background())
	opts, _ := stopAt(Options{Checkpoint: &Checkpoint{Path: path, Key: "KRvK"}}, 3, cancel)
	_, err := Generate(ctx, tb.MustParseMaterial("KRvK"), shared.get, opts)
	require.ErrorIs(t, err, context.Canceled)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// A checkpoint that is another table's, another version's, truncated or
// damaged is refused with a *CheckpointError naming the file, before or
// while it is read; never resumed into wrong values.
func TestCheckpointRefused(t *testing.T) {
	good := checkpointOf(t)
	m := tb.MustParseMaterial("KRvK")
	for name, c := range map[string]struct {
		data []byte
		key  string
		want string
	}{
		"another table":    {good, "KRvK.thai", "it is KRvK's, not KRvK.thai's"},
		"not a checkpoint": {[]byte("makruk tablebase, not a checkpoint"), "KRvK", "not a makruktb checkpoint"},
		"another version":  {append(append([]byte("MTBRESUM"), 9, 0, 0, 0), good[12:]...), "KRvK", "version 9"},
		"truncated":        {good[:len(good)-100], "KRvK", "truncated"},
		"header only":      {good[:20], "KRvK", "reading its header"},
		"damaged":          {flip(good, len(good)/2), "KRvK", "damaged"},
		"longer":           {append(append([]byte{}, good...), 0), "KRvK", "bytes after its end"},
	} {
		path := filepath.Join(t.TempDir(), "KRvK.resume")
		require.NoError(t, os.WriteFile(path, c.data, 0o666))
		_, err := Generate(context.Background(), m, shared.get, Options{Checkpoint: &Checkpoint{Path: path, Key: c.key}})
		var ce *CheckpointError
		require.True(t, errors.As(err, &ce), "%s: %v", name, err)
		require.Equal(t, path, ce.Path, name)
		require.ErrorContains(t, err, c.want, name)
		require.ErrorContains(t, err, path, name)
	}
}

func flip(data []byte, at int) []byte {
	out := append([]byte{}, data...)
	out[at] ^= 0x10
	return out
}

// Whatever a checkpoint file holds, resuming from it gives the right
// values or a *CheckpointError.
func FuzzResume(f *testing.F) {
	good := checkpointOf(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(flip(good, 30))
	f.Add([]byte("MTBRESUM"))
	want := solve(f, "KRvK")
	m := tb.MustParseMaterial("KRvK")
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "KRvK.resume")
		require.NoError(t, os.WriteFile(path, data, 0o666))
		got, err := Generate(context.Background(), m, shared.get, Options{Threads: 1, Checkpoint: &Checkpoint{Path: path, Key: "KRvK"}})
		if err != nil {
			var ce *CheckpointError
			require.True(t, errors.As(err, &ce), "%v", err)
			return
		}
		for side := range got.Values {
			require.Equal(t, want.Values[side].All(), got.Values[side].All())
		}
	})
}

// A save that finds the disk full while the previous checkpoint is still
// there removes that one and saves again; with no previous checkpoint the
// error stops the generation.
func TestCheckpointDiskFull(t *testing.T) {
	m := tb.MustParseMaterial("KRvK")
	want := solve(t, "KRvK")
	full := func(fail func(path string) bool) (retries *int) {
		retries = new(int)
		old := writeAtomically
		t.Cleanup(func() { writeAtomically = old })
		writeAtomically = func(path string, write func(f *os.File) error) error {
			if fail(path) {
				*retries++
				return &os.PathError{Op: "write", Path: path + ".tmp1", Err: syscall.ENOSPC}
			}
			return old(path, write)
		}
		return retries
	}

	path := filepath.Join(t.TempDir(), "KRvK.resume")
	retries := full(func(path string) bool { _, err := os.Stat(path); return err == nil }) // full beside a previous one
	got, err := Generate(context.Background(), m, shared.get, Options{Threads: 1, Checkpoint: &Checkpoint{Path: path, Key: "KRvK"}})
	require.NoError(t, err)
	require.Greater(t, *retries, 1, "every save after the first found the disk full")
	for side := range got.Values {
		require.Equal(t, want.Values[side].All(), got.Values[side].All())
	}
	_, err = os.Stat(path)
	require.NoError(t, err, "the last checkpoint is there (the caller removes it)")

	path = filepath.Join(t.TempDir(), "KRvK.resume")
	full(func(string) bool { return true })
	_, err = Generate(context.Background(), m, shared.get, Options{Threads: 1, Checkpoint: &Checkpoint{Path: path, Key: "KRvK"}})
	require.ErrorIs(t, err, syscall.ENOSPC)
	require.ErrorContains(t, err, path)
}

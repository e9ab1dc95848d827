package store

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// Reading a version-2 table whole derives the side its file does not
// store, minutes for a large table: a load stops with its context's error
// when the context is done (issue 58.10), and gives the table otherwise.
func TestLoadStopsWithItsContext(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"KRvK", "KNvK", "KRvKN"} {
		table := testenv.Generated(t, name)
		id := probe.DTMID(tb.MustParseMaterial(name))
		o := probe.Options{Version: probe.Version, Metric: probe.DTM}
		if name == "KRvKN" {
			o.Version = probe.Version2
		}
		require.NoError(t, probe.WriteFile(id.Path(dir), table.Space, table.Values, o))
	}
	id := probe.DTMID(tb.MustParseMaterial("KRvKN"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := LoadContext(ctx, dir, id)
	require.True(t, errors.Is(err, context.Canceled), "%v", err)

	got, err := LoadContext(context.Background(), dir, id)
	require.NoError(t, err)
	want := testenv.Generated(t, "KRvKN")
	for side := range want.Values {
		for i := range want.Space.Size() {
			if _, legal := want.Space.Position(i, tb.Color(side)); !legal {
				continue
			}
			if w, g := want.Values[side].At(i), got.Values[side].At(i); w != g {
				t.Fatalf("side %d index %d: loaded %v, generated %v", side, i, g, w)
			}
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}

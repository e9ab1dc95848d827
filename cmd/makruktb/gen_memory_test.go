package main

import (
	"context"
	"runtime"
	"testing"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/probe/store"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/stretchr/testify/require"
)

// A DTB table that takes its draws from a wider profile's table lets that
// table go once the draws are marked, as one that reads them from the DTM
// table does: the heap while the passes run is the same in both, not a
// byte per index and side more.
func TestBoardLetsGoOfDraws(t *testing.T) {
	dir := t.TempDir()
	_, err := run(t, "gen", "--tables", dir, "--dtb", "thai", "KRvKR")
	require.NoError(t, err)
	m := tb.MustParseMaterial("KRvKR")
	gn := &generation{dir: dir, threads: 1, cache: store.NewCache(dir, 0)} // the cache keeps nothing

	heapWhileIterating := func(rules *honour.Rules) uint64 {
		var heap uint64
		opts := retro.Options{Threads: 1, Progress: func(p retro.Progress) {
			if p.Stage == retro.StageIterate && heap == 0 {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				heap = ms.HeapAlloc
			}
		}}
		j := job{id: probe.ID{Material: m, Rules: rules.Name}, rules: rules}
		table, err := gn.generateBoard(context.Background(), j, opts, false)
		require.NoError(t, err)
		table.Close()
		require.NotZero(t, heap, "no iterate pass was reported")
		return heap
	}
	fromDTM := heapWhileIterating(&honour.ThaiRules) // no wider profile: the DTM table's draws
	_, wider := widerBoardID(dir, m, &honour.CambodianRules)
	require.True(t, wider, "the thai table gives the cambodian one its draws")
	fromThai := heapWhileIterating(&honour.CambodianRules)

	e, err := job{id: probe.DTMID(m)}.estimate()
	require.NoError(t, err)
	tableBytes := 2 * e.Indices // the thai table held whole: a byte per index and side
	require.Less(t, fromThai, fromDTM+tableBytes/2, "heap %d B reading the thai draws, %d B reading the DTM ones", fromThai, fromDTM)
}

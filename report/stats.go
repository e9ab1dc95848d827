package report

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb/honour"
)

// Stats computes the statistics of the DTM table id (a material and its
// game) in dir (stats --json's
// document and /api/v1/stats'); where a DTB table of a profile is in dir,
// the board's-honour counts of that profile come from it.
// A game without a count (Shatranj) has no categories under one: the
// document's count is empty.
func Stats(ctx context.Context, dir string, id probe.ID) (*retro.Stats, error) {
	m := id.Material
	// The DTM table and the DTB tables present are read together: the
	// sides their files do not store are derived in one pass (KRRvKN: 28 s
	// to 17 s here).
	cache := store.NewCacheContext(ctx, dir, 5)
	ids := []probe.ID{id}
	var boards []honour.Rules
	// Board's honour is Makruk's: a Shatranj material's statistics take
	// no DTB table, though Makruk's of the same pieces lie beside it.
	if id.Game.HasCount() && honour.HasBoardHonour(m) {
		present, err := store.OpenDir(dir)
		if err != nil {
			return nil, err
		}
		for _, r := range honour.BuiltinRules() {
			board := probe.ID{Material: m, Rules: r.Name}
			if r.BoardPlies > 0 && present.Has(board) {
				ids, boards = append(ids, board), append(boards, r)
			}
		}
	}
	if st, err := recordedStats(dir, ids); st != nil || err != nil {
		return st, err
	}
	tables, err := cache.LoadTogether(ids)
	if err != nil {
		return nil, err
	}
	table := tables[0]
	st, err := retro.ComputeStats(ctx, table, retro.Options{})
	if err != nil {
		return st, err
	}
	// Recorded for the next time where the directory can be written (a
	// directory read-only to this user is counted each time).
	_ = store.SaveStats(dir, id, st)
	for x := range boards {
		counts, err := retro.BoardCounts(ctx, table, tables[1+x], &boards[x], retro.Options{})
		if err != nil {
			return nil, err
		}
		_ = store.SaveBoardCounts(dir, ids[1+x], counts)
		st.SetCount(boards[x].Name, counts)
	}
	return st, nil
}

// recordedStats returns the statistics of the DTM table ids[0] and the
// board's-honour counts of the DTB tables ids[1:] as the directory records
// them (store.StatsDir), or nil when one is missing or no longer holds.
func recordedStats(dir string, ids []probe.ID) (*retro.Stats, error) {
	st, err := store.LoadStats(dir, ids[0])
	if st == nil {
		return nil, err
	}
	for _, board := range ids[1:] {
		counts, err := store.LoadBoardCounts(dir, board)
		if counts == nil {
			return nil, err
		}
		st.SetCount(board.Rules, counts)
	}
	return st, nil
}

// WriteStatsText writes what the stats command prints: the positions of
// each side by result, the mates by length, the categories under each
// built-in count and the longest wins.
func WriteStatsText(w io.Writer, st *retro.Stats) {
	name := st.Material
	if st.Game != "" {
		name = strings.ToUpper(st.Game[:1]) + st.Game[1:] + " " + name
	}
	fmt.Fprintf(w, "%s (full board, every legal placement counted once)\n\n", name)
	fmt.Fprintf(w, "%-14s %15s %15s\n", "", "white to move", "black to move")
	wt, bl := st.Sides["w"], st.Sides["b"]
	row := func(name string, a, b uint64) { fmt.Fprintf(w, "%-14s %15s %15s\n", name, num(a), num(b)) }
	row("legal", wt.Legal, bl.Legal)
	row("wins", wt.Wins(), bl.Wins())
	row("draws", wt.Draw, bl.Draw)
	row("losses", wt.Losses(), bl.Losses())
	fmt.Fprintln(w, "\neach position once up to symmetry (as the catalogue counts)")
	wc, bc := wt.Canonical, bl.Canonical
	row("legal", wc.Legal, bc.Legal)
	row("wins", wc.Win, bc.Win)
	row("draws", wc.Draw, bc.Draw)
	row("losses", wc.Loss, bc.Loss)
	fmt.Fprintf(w, "\nmate in N moves  %15s %15s %15s %15s\n", "w wins", "w loses", "b wins", "b loses")
	byMoves := func(h map[int]uint64) map[int]uint64 {
		out := map[int]uint64{}
		for plies, n := range h {
			out[(plies+1)/2] += n
		}
		return out
	}
	hs := []map[int]uint64{byMoves(wt.Win), byMoves(wt.Loss), byMoves(bl.Win), byMoves(bl.Loss)}
	var moves []int
	seen := map[int]bool{}
	for _, h := range hs {
		for n := range h {
			if !seen[n] {
				seen[n] = true
				moves = append(moves, n)
			}
		}
	}
	sort.Ints(moves)
	for _, n := range moves {
		fmt.Fprintf(w, "%15d  %15s %15s %15s %15s\n", n, num(hs[0][n]), num(hs[1][n]), num(hs[2][n]), num(hs[3][n]))
	}
	if len(st.Count) == 0 { // a game without a count
		writeLongest(w, st)
		return
	}
	fmt.Fprintf(w, "\nunder a fresh honour count      %12s %12s %12s %12s %12s %12s\n", "win", "cursed-win", "draw", "blessed-loss", "loss", "needs DTB")
	for _, r := range honour.BuiltinRules() {
		for _, side := range []string{"w", "b"} {
			c := st.Count[r.Name][side]
			fmt.Fprintf(w, "  %-13s %s to move      %12s %12s %12s %12s %12s %12s\n", r.Name, side, num(c.Win), num(c.CursedWin), num(c.Draw), num(c.BlessedLoss), num(c.Loss), num(c.Unknown))
		}
	}
	fmt.Fprintln(w, "\nwins and losses a fresh count turns into draws:")
	for _, r := range honour.BuiltinRules() {
		if d, ok := st.CountDraws[r.Name]; ok && r.Name != honour.NoRules.Name {
			fmt.Fprintf(w, "  %-13s %s\n", r.Name, countDrawText(d))
		}
	}
	writeLongest(w, st)
}

// writeLongest lists the table's longest wins.
func writeLongest(w io.Writer, st *retro.Stats) {
	if len(st.Longest) > 0 {
		fmt.Fprintln(w, "\nlongest wins:")
		for _, l := range st.Longest {
			fmt.Fprintf(w, "  %-40s mate in %s (%s)\n", l.FEN, countMoves((l.DTM+1)/2), countPlies(l.DTM))
		}
	}
}

// countDrawText is a CountDraw in words: "12.3% (1,234 of 10,000)", with
// the share only a DTB table could judge.
func countDrawText(d retro.CountDraw) string {
	if d.Decided == 0 {
		return "no wins"
	}
	text := fmt.Sprintf("%5.1f%%  (%d of %d)", 100*d.Share, d.Drawn, d.Decided)
	if d.Unknown > 0 {
		text += fmt.Sprintf(", and %d more only a DTB table of it can judge", d.Unknown)
	}
	return text
}

package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/makruktb/makruktb/internal/parallel"
	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Summary is one generated table's line in gen's output and its row in
// the catalogue.
type Summary struct {
	Table        string // "KRvKN", or "KRvKN.thai" for a DTB table
	DTB          bool
	Pieces       int
	PerSide      uint64
	Positions    uint64 // legal canonical positions, both sides
	LongestWhite int    // plies, -1 if none
	LongestBlack int
	Bytes        int64
	Took         time.Duration // generation and writing
	CountDraws   string        // share of wins drawn by a fresh count
	SHA256       string        // the file's, hex
}

func summarise(id probe.ID, t *retro.Table, bytes int64, took time.Duration) Summary {
	var legal [2]uint64
	var longest [2]int
	_ = parallel.For(context.Background(), 2, 2, func(u int64) error {
		legal[u], longest[u] = t.Census(tb.Color(u))
		return nil
	}, nil)
	return Summary{
		Table: id.String(), DTB: id.Rules != "", Pieces: t.Material().Pieces(),
		PerSide: t.Space.Size(), Positions: legal[tb.White] + legal[tb.Black],
		LongestWhite: longest[tb.White], LongestBlack: longest[tb.Black],
		Bytes: bytes, Took: took,
	}
}

// Row is the summary's row in the catalogue.
func (s Summary) Row() store.Row {
	return store.Row{
		Table: s.Table, Pieces: s.Pieces, PerSide: s.PerSide, Positions: s.Positions,
		LongestWhite: movesOf(s.LongestWhite), LongestBlack: movesOf(s.LongestBlack),
		Bytes: s.Bytes, BitsPerPosition: s.BitsPerPosition(), Seconds: s.Took.Seconds(),
		CountDraws: s.CountDraws, SHA256: s.SHA256,
	}
}

// BitsPerPosition is the file's size over the legal positions.
func (s Summary) BitsPerPosition() float64 { return float64(8*s.Bytes) / float64(max(s.Positions, 1)) }

// movesOf turns a longest win in plies into moves, -1 (none) staying -1.
func movesOf(plies int) int {
	if plies < 0 {
		return -1
	}
	return value.Mate(plies).Moves()
}

// countDraws returns the count-draw cell of a freshly generated table:
// for DTM, the share of wins a fresh thai count draws (pieces' honour, or
// board's honour as far as DTM tells); for DTB, the share under its own
// profile, which for thai also completes the DTM row of the material.
// What it counts is kept in the directory for stats (store.SaveStats,
// store.SaveBoardCounts).
func countDraws(ctx context.Context, dir string, cache *store.Cache, j Job, table *retro.Table, threads int) (string, error) {
	opts := retro.Options{Threads: threads}
	if j.Variant != honour.OwnFile {
		return "", nil // a file for a count a capture carries in, which no fresh count reads
	}
	if j.Rules == nil {
		st, err := retro.ComputeStats(ctx, table, opts)
		if err != nil {
			return "", err
		}
		// Kept for stats, which would otherwise read the file whole again.
		if err := store.SaveStats(dir, j.ID, st); err != nil {
			return "", err
		}
		if !j.ID.Game.HasCount() {
			return "", nil
		}
		return CountDrawShare(st.Count[honour.ThaiRules.Name]), nil
	}
	dtm, done, err := dtmRanges(dir, cache, j.ID.Material)
	if err != nil {
		return "", err
	}
	defer done()
	counts, err := retro.BoardCountsFrom(ctx, dtm, table, j.Rules, opts)
	if err != nil {
		return "", err
	}
	if err := store.SaveBoardCounts(dir, j.ID, counts); err != nil {
		return "", err
	}
	share := CountDrawShare(counts)
	if j.Rules.Name == honour.ThaiRules.Name {
		name := j.ID.Material.String()
		err = store.EditCatalogue(dir, func(rows map[string]*store.Row) {
			if row, ok := rows[name]; ok {
				row.CountDraws = share
			}
		})
	}
	return share, err
}

// CountDrawShare describes the share of decided positions (wins and
// losses, both sides to move) that a fresh count draws; "+N% DTB" is the
// share of board's-honour results only a DTB table can judge.
func CountDrawShare(counts map[string]retro.CountStats) string {
	d := retro.CountDrawOf(counts)
	if d.Decided == 0 {
		return "no wins"
	}
	text := fmt.Sprintf("%.1f%%", 100*d.Share)
	if d.Unknown > 0 {
		text += fmt.Sprintf(" +%.1f%% DTB", 100*float64(d.Unknown)/float64(d.Decided))
	}
	return text
}

// Line is gen's line for a table made.
func (s Summary) Line() string {
	longest, draws := "mate", "thai count-draws"
	if s.DTB {
		longest, draws = "goal", "count-draws"
	}
	line := fmt.Sprintf("%-27s %7.1fs  %13d positions  longest %s %3s moves (white to move) %3s (black)  %10s  %.3f bits/position",
		s.Table, s.Took.Seconds(), s.Positions, longest, movesText(s.LongestWhite), movesText(s.LongestBlack), units.Bytes(s.Bytes), s.BitsPerPosition())
	if s.CountDraws == "" { // a game without a count (Shatranj), or a DTB file no fresh count reads
		return line
	}
	return line + "  " + draws + " " + s.CountDraws
}

// movesText writes a longest win in plies as moves, "-" for none.
func movesText(plies int) string {
	if plies < 0 {
		return "-"
	}
	return fmt.Sprint(value.Mate(plies).Moves())
}

// dtmRanges returns the DTM values of m for a DTB table's summary: the
// table the runner holds (Runner.keep), or else its file read a king pair
// at a time (held whole beside the DTB table, a large table would double
// its memory), which decompresses every block of its stored side again
// (KRRvKN.thai's summary: 0.5-0.8 s from the file, 0.4-0.5 s held). done
// closes what it opened.
func dtmRanges(dir string, cache *store.Cache, m tb.Material) (dtm retro.Ranger, done func(), err error) {
	id := probe.DTMID(m)
	if t, ok := cache.Held(id); ok {
		return t, func() {}, nil
	}
	f, err := probe.OpenFile(id.Path(dir))
	if err != nil {
		return nil, nil, err
	}
	if err := (otherSides{cache: cache}).give(f); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

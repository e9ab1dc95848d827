package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newGenCommand() *cobra.Command {
	var dir string
	var threads, maxPieces int
	var force bool
	cmd := &cobra.Command{
		Use:   "gen [--tables DIR] [--threads N] (--max-pieces N | MATERIAL...)",
		Short: "Generate DTM tables (and every sub-table they need)",
		Long: `Generate distance-to-mate tables by retrograde analysis. Every sub-table a
material needs is generated first. Tables already present are kept, so a run
that was interrupted continues with what is missing. Files are written
atomically: an interrupted run never leaves a file that looks complete.`,
		Example: `  makruktb gen --max-pieces 4
  makruktb gen KRRvKN
  makruktb gen --tables /tmp/tb --threads 2 KRSvKN`,
		RunE: func(cmd *cobra.Command, args []string) error {
			targets, err := selectMaterials(maxPieces, args)
			if err != nil {
				return err
			}
			if threads < 0 {
				return fmt.Errorf("--threads %d: must be positive", threads)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return generateAll(ctx, cmd.OutOrStdout(), tableDir(dir), targets, threads, force)
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().IntVar(&threads, "threads", 0, "worker threads (default: all cores)")
	cmd.Flags().IntVar(&maxPieces, "max-pieces", 0, "generate every pawnless table with up to N pieces")
	cmd.Flags().BoolVar(&force, "force", false, "regenerate the named tables even if present")
	return cmd
}

// plan lists the tables to solve for targets, sub-tables first, without
// repeats.
func plan(targets []tb.Material) []tb.Material {
	var out []tb.Material
	seen := map[tb.Material]bool{}
	for _, t := range targets {
		for _, m := range retro.Dependencies(t) {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// present reports whether a complete table file for m is in dir.
func present(dir string, m tb.Material) bool {
	f, err := probe.OpenFile(tablePath(dir, m))
	if err != nil {
		return false
	}
	f.Close()
	return true
}

func generateAll(ctx context.Context, out io.Writer, dir string, targets []tb.Material, threads int, force bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	forced := map[tb.Material]bool{}
	if force {
		for _, t := range targets {
			forced[t] = true
		}
	}
	// The value arrays are most of the heap and hold no pointers: collect
	// garbage early rather than let the heap double past them.
	debug.SetGCPercent(20)
	cache := newTableCache(dir, 5)
	var failed []string
	for _, m := range plan(targets) {
		if !forced[m] && present(dir, m) {
			continue
		}
		if err := generateOne(ctx, out, dir, m, threads, cache); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("interrupted during %s; a rerun continues from there", m)
			}
			// Keep going: tables that do not need this one can still be made.
			fmt.Fprintf(os.Stderr, "makruktb: %v\n", err)
			failed = append(failed, m.String())
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d tables failed: %s", len(failed), strings.Join(failed, " "))
	}
	return nil
}

func generateOne(ctx context.Context, out io.Writer, dir string, m tb.Material, threads int, cache *tableCache) error {
	start := time.Now()
	bar := newBar(m.String())
	table, err := retro.Generate(ctx, m, cache.get, retro.Options{Threads: threads, Progress: bar.update})
	bar.finish()
	if err != nil {
		return fmt.Errorf("generate %s: %w", m, err)
	}
	path := tablePath(dir, m)
	if err := probe.WriteFile(path, table.Space, probe.DTM, "", table.Values); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	cache.put(table)
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return err
	}
	row := summarise(table, info.Size(), time.Since(start))
	st, err := retro.ComputeStats(ctx, table, retro.Options{Threads: threads})
	if err != nil {
		return err
	}
	row.countDraws = countDrawShare(st)
	fmt.Fprintln(out, row.line())
	if err := updateTableList(dir, row); err != nil {
		return err
	}
	// Generation is deterministic: a recorded checksum that differs means
	// the generator's output changed. Keep the record (verify will fail on
	// the file) until someone deletes the line to accept the new table.
	sums, err := readChecksums(dir)
	if err != nil {
		return err
	}
	name := filepath.Base(path)
	if old, ok := sums[name]; ok && old != sum {
		return fmt.Errorf("%s: SHA-256 %s differs from %s in %s (delete that line to accept the new table)", name, sum, old, checksumFile)
	}
	sums[name] = sum
	return writeChecksums(dir, sums)
}

// summary is one table's line in the gen output and in tables.md.
type summary struct {
	material          string
	pieces            int
	perSide           uint64
	legal             uint64 // legal canonical positions, both sides
	longestW, longstB int    // plies, -1 if none
	bytes             int64
	total             time.Duration // generation and writing
	countDraws        string        // share of wins drawn by a fresh thai count
}

func summarise(t *retro.Table, bytes int64, total time.Duration) summary {
	var legal uint64
	for side := range t.Values {
		for _, v := range t.Values[side] {
			if v != probe.Illegal {
				legal++
			}
		}
	}
	return summary{
		material: t.Material().String(), pieces: t.Material().Pieces(),
		perSide: t.Space.Size(), legal: legal,
		longestW: t.Longest(tb.White), longstB: t.Longest(tb.Black),
		bytes: bytes, total: total,
	}
}

func (s summary) bitsPerPosition() float64 { return float64(8*s.bytes) / float64(max(s.legal, 1)) }

func movesText(plies int) string {
	if plies < 0 {
		return "-"
	}
	return fmt.Sprint((plies + 1) / 2)
}

func (s summary) line() string {
	return fmt.Sprintf("%-8s %8.1fs  %13d positions  longest mate %3s moves (white to move) %3s (black)  %10s  %.3f bits/position  thai count-draws %s",
		s.material, s.total.Seconds(), s.legal, movesText(s.longestW), movesText(s.longstB), humanBytes(s.bytes), s.bitsPerPosition(), s.countDraws)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// tableListFile is the table of tables, one row per generated table.
const tableListFile = "tables.md"

const tableListHeader = `# Tables

Written by ` + "`makruktb gen`" + `, one row per table as last generated (2-core machine).
Positions: legal canonical positions, both sides to move. Longest: longest
mate in moves for the side to move that wins, White (first-named side) / Black.
Thai count-draws: of all wins (full board, both sides to move), the share
that a fresh thai count turns into draws (cursed wins); "+N% DTB" is the
share of board's-honour wins whose mate does not fit the count, which only
the board's-honour (DTB) tables can decide.

| material | pieces | index per side | positions | longest w/b | file bytes | bits/position | time (s) | thai count-draws |
|---|---|---|---|---|---|---|---|---|
`

func (s summary) row() string {
	return fmt.Sprintf("| %s | %d | %d | %d | %s/%s | %d | %.3f | %.1f | %s |",
		s.material, s.pieces, s.perSide, s.legal, movesText(s.longestW), movesText(s.longstB), s.bytes, s.bitsPerPosition(), s.total.Seconds(), s.countDraws)
}

// countDrawShare describes the share of wins that a fresh thai count
// draws, from a table's statistics.
func countDrawShare(st *retro.Stats) string {
	var wins, cursed, unknown uint64
	for _, side := range []string{"w", "b"} {
		c := st.Count[tb.ThaiRules.Name][side]
		wins += c.Win + c.CursedWin + c.Loss + c.BlessedLoss + c.Unknown
		cursed += c.CursedWin + c.BlessedLoss
		unknown += c.Unknown
	}
	if wins == 0 {
		return "no wins"
	}
	text := fmt.Sprintf("%.1f%%", 100*float64(cursed)/float64(wins))
	if unknown > 0 {
		text += fmt.Sprintf(" +%.1f%% DTB", 100*float64(unknown)/float64(wins))
	}
	return text
}

// setCountDraws puts the count-draw cell into an existing row of tables.md.
func setCountDraws(row, text string) string {
	cells := strings.Split(strings.Trim(row, "|"), "|")
	if len(cells) < 9 {
		cells = append(cells, "")
	}
	cells[8] = " " + text + " "
	return "|" + strings.Join(cells[:9], "|") + "|"
}

// updateTableList replaces or adds the row of s in tables.md.
func updateTableList(dir string, s summary) error {
	return editTableList(dir, func(rows map[string]string) { rows[s.material] = s.row() })
}

// editTableList rewrites tables.md after edit has changed its rows (keyed
// by material), sorted by piece count and name.
func editTableList(dir string, edit func(rows map[string]string)) error {
	path := filepath.Join(dir, tableListFile)
	rows := map[string]string{}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, line := range strings.Split(string(old), "\n") {
		if strings.HasPrefix(line, "| K") {
			cells := strings.Split(line, "|")
			rows[strings.TrimSpace(cells[1])] = line
		}
	}
	edit(rows)
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		mi, _ := tb.ParseMaterial(names[i])
		mj, _ := tb.ParseMaterial(names[j])
		if mi.Pieces() != mj.Pieces() {
			return mi.Pieces() < mj.Pieces()
		}
		return names[i] < names[j]
	})
	var b strings.Builder
	b.WriteString(tableListHeader)
	for _, n := range names {
		b.WriteString(rows[n] + "\n")
	}
	return writeFileAtomically(path, []byte(b.String()))
}

// bar shows the progress of one table's passes on stderr when it is a
// terminal.
type bar struct {
	mu    sync.Mutex
	name  string
	pb    *progressbar.ProgressBar
	stage string
	depth int
}

func newBar(name string) *bar {
	b := &bar{name: name}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		b.pb = progressbar.NewOptions64(1,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(),
		)
	}
	return b
}

func (b *bar) update(p retro.Progress) {
	if b.pb == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if p.Stage != b.stage || p.Depth != b.depth {
		b.stage, b.depth = p.Stage, p.Depth
		b.pb.Reset()
		b.pb.ChangeMax64(p.Total)
		desc := fmt.Sprintf("%s %s", b.name, p.Stage)
		if p.Stage == "iterate" {
			desc = fmt.Sprintf("%s mates in %d plies", b.name, p.Depth)
		}
		b.pb.Describe(desc)
	}
	_ = b.pb.Set64(p.Done)
}

func (b *bar) finish() {
	if b.pb != nil {
		_ = b.pb.Finish()
		_ = b.pb.Clear()
	}
}

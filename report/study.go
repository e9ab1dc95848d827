package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb/honour"
)

// Study reads the DTM table id (a material and its game) in dir whole
// (and the sub-tables its captures lead to) and counts its mutual
// zugzwangs and single winning moves, with what so adds
// (retro.ComputeStudy). A game without a count (Shatranj) takes no rules.
func Study(ctx context.Context, dir string, id probe.ID, so retro.StudyOptions) (*retro.Study, error) {
	g, m := id.Game, id.Material
	if so.Rules != nil && !g.HasCount() {
		return nil, fmt.Errorf("%s rules: %s has no counting rule", so.Rules.Name, g)
	}
	cache := store.NewCacheContext(ctx, dir, 5)
	board := so.Rules != nil && honour.HasBoardHonour(m) && so.Rules.BoardPlies > 0
	var table *retro.Table
	if board {
		// The DTM and DTB tables read together: their unstored sides
		// derived in one pass (the DTB table's errors are told below).
		cache.AddRules(so.Rules)
		dtbID := probe.ID{Material: m, Rules: so.Rules.Name}
		if _, err := os.Stat(dtbID.Path(dir)); err == nil {
			if both, err := cache.LoadTogether([]probe.ID{id, dtbID}); err == nil {
				table, so.DTB = both[0], both[1]
			}
		}
	}
	var err error
	if table == nil {
		if table, err = cache.Load(id); err != nil {
			return nil, err
		}
	}
	if board {
		// Board's honour: judged by the material's DTB table.
		r := so.Rules
		if so.DTB == nil {
			so.DTB, err = cache.Load(probe.ID{Material: m, Rules: r.Name})
		}
		if err != nil {
			how := "makes it"
			if !errors.Is(err, fs.ErrNotExist) {
				how = "makes it anew" // gen regenerates a named table whose checksum is off
			}
			return nil, fmt.Errorf("%s under %s rules: board's honour judges by its DTB table (makruktb gen --dtb %s %s %s): %w", m, r.Name, r.Name, m, how, err)
		}
		so.DTBFiles = cache.Boards(r.Name)
	}
	return retro.ComputeStudy(ctx, table, cache.DTMOf(g), retro.Options{}, so)
}

// DefaultClose is how many plies too late a cursed win's mate may come
// and still be close, unless the caller says otherwise.
const DefaultClose = 4

// WriteStudyText writes what the study command prints.
func WriteStudyText(w io.Writer, st *retro.Study) {
	judged := "plain mate results"
	if st.WinsInsideCount != nil {
		judged += ", then under a fresh " + st.Rules + " count"
	}
	name := st.Material
	if st.Game != "" {
		name = strings.ToUpper(st.Game[:1]) + st.Game[1:] + " " + name
	}
	fmt.Fprintf(w, "%s (full board, every legal placement counted once; %s)\n\n", name, judged)
	z := st.MutualZugzwangs
	fmt.Fprintln(w, "mutual zugzwangs (legal with either side to move)")
	fmt.Fprintf(w, "  %-42s %12s\n", "whoever moves loses", num(z.WhoeverMovesLoses))
	fmt.Fprintf(w, "  %-42s %12s\n", "White to move loses, Black to move draws", num(z.WhiteToMoveLosesBlackToMoveDraws))
	fmt.Fprintf(w, "  %-42s %12s\n", "White to move draws, Black to move loses", num(z.WhiteToMoveDrawsBlackToMoveLoses))
	fmt.Fprintf(w, "\n%-44s %15s %15s\n", "", "white to move", "black to move")
	fmt.Fprintf(w, "%-44s %15s %15s\n", "wins", num(st.Wins["w"]), num(st.Wins["b"]))
	fmt.Fprintf(w, "%-44s %15s %15s\n", "wins with a single winning move", num(st.SingleWinningMove["w"]), num(st.SingleWinningMove["b"]))
	if st.WinsInsideCount != nil {
		fmt.Fprintf(w, "\nunder a fresh %s count\n", st.Rules)
		row := func(name string, h map[string]uint64) {
			fmt.Fprintf(w, "%-44s %15s %15s\n", name, num(h["w"]), num(h["b"]))
		}
		row("wins inside the count", st.WinsInsideCount)
		row("count-critical (one move keeps it)", st.CountCritical)
		row("cursed wins", st.CursedWins)
		row("cursed wins short by fewer than "+countPlies(st.Close), st.CloseCursedWins)
	}
	kind := ""
	for _, e := range st.Examples {
		if e.Kind != kind {
			kind = e.Kind
			fmt.Fprintf(w, "\n%s:\n", exampleTitles[kind])
		}
		fmt.Fprintf(w, "  %-40s %s\n", e.FEN, exampleAnswer(e))
	}
}

var exampleTitles = map[string]string{
	retro.KindWhoeverMovesLoses:   "mutual zugzwangs, whoever moves loses (White to move)",
	retro.KindWhiteLosesBlackDraw: "mutual zugzwangs, White to move loses, Black to move draws",
	retro.KindWhiteDrawsBlackLoss: "mutual zugzwangs, White to move draws, Black to move loses (Black to move)",
	retro.KindSingleWhite:         "White to move wins with a single winning move",
	retro.KindSingleBlack:         "Black to move wins with a single winning move",
	retro.KindCountCritical + "w": "White to move wins inside the count with one move only",
	retro.KindCountCritical + "b": "Black to move wins inside the count with one move only",
}

// exampleAnswer says what an example's side to move faces.
func exampleAnswer(e retro.StudyExample) string {
	moves := (e.DTM + 1) / 2
	if e.Move != "" {
		return fmt.Sprintf("%s, mate in %d (%s)", e.Move, moves, units.Plural(e.DTM, "ply", "plies"))
	}
	return fmt.Sprintf("mated in %d (%s)", e.DTM/2, units.Plural(e.DTM, "ply", "plies"))
}

// WriteStudyEPD writes the examples as EPD records for training sets:
// the single winning moves with dm (mate in moves) and bm (the move);
// every record names its kind in c0.
func WriteStudyEPD(w io.Writer, st *retro.Study) error {
	for _, e := range st.Examples {
		fields := strings.Fields(e.FEN) // a FEN the tables wrote: six fields
		if len(fields) < 4 {
			return fmt.Errorf("example %q: not a FEN", e.FEN)
		}
		ops := ""
		if e.Move != "" {
			ops = fmt.Sprintf(" dm %d; bm %s;", (e.DTM+1)/2, e.Move)
		}
		if _, err := fmt.Fprintf(w, "%s%s c0 \"%s %s\";\n", strings.Join(fields[:4], " "), ops, st.Material, e.Kind); err != nil {
			return err
		}
	}
	return nil
}

// num writes n with thousands separators: 10,780,728.
func num(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

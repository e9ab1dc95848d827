package api

import (
	"context"
	"fmt"
	"io"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
)

// Study reads the DTM table of m in dir whole (and the sub-tables its
// captures lead to) and counts its mutual zugzwangs and single winning
// moves (retro.ComputeStudy).
func Study(ctx context.Context, dir string, m tb.Material) (*retro.Study, error) {
	cache := store.NewCache(dir, 5)
	table, err := cache.Load(probe.DTMID(m))
	if err != nil {
		return nil, err
	}
	return retro.ComputeStudy(ctx, table, cache.DTM, retro.Options{})
}

// WriteStudyText writes what the study command prints.
func WriteStudyText(w io.Writer, st *retro.Study) {
	fmt.Fprintf(w, "%s (full board, every legal placement counted once; plain mate results, no count)\n\n", st.Material)
	z := st.MutualZugzwangs
	fmt.Fprintln(w, "mutual zugzwangs (legal with either side to move)")
	fmt.Fprintf(w, "  %-42s %12s\n", "whoever moves loses", num(z.WhoeverMovesLoses))
	fmt.Fprintf(w, "  %-42s %12s\n", "White to move loses, Black to move draws", num(z.WhiteToMoveLosesBlackToMoveDraws))
	fmt.Fprintf(w, "  %-42s %12s\n", "White to move draws, Black to move loses", num(z.WhiteToMoveDrawsBlackToMoveLoses))
	fmt.Fprintf(w, "\n%-44s %15s %15s\n", "", "white to move", "black to move")
	fmt.Fprintf(w, "%-44s %15s %15s\n", "wins", num(st.Wins["w"]), num(st.Wins["b"]))
	fmt.Fprintf(w, "%-44s %15s %15s\n", "wins with a single winning move", num(st.SingleWinningMove["w"]), num(st.SingleWinningMove["b"]))
}

// num writes n with thousands separators: 10,780,728.
func num(n uint64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

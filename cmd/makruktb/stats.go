package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/api"
	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

func newStatsCommand() *cobra.Command {
	var dir, svgPath string
	var asJSON, updateList bool
	cmd := &cobra.Command{
		Use:   "stats [--json] [--svg FILE] [--tables DIR] (MATERIAL | --update-list [MATERIAL...])",
		Short: "Count a table's wins, draws and losses over the full board",
		Long: `Count the positions of a table over the full board — every legal placement
once, as if no symmetry were used — per side to move, with the histogram of
mate distances, the positions by category under a fresh count of every
rule profile and the longest wins. White is the first-named side.
--update-list writes the share of wins a fresh thai count draws into the
catalogue of the table directory, for the materials named (default:
every DTM table there).`,
		Example: "  makruktb stats KRvK\n  makruktb stats --json KRvKN\n  makruktb stats --svg krvkn.svg KRvKN\n  makruktb stats --update-list",
		RunE: func(cmd *cobra.Command, args []string) error {
			if updateList {
				return updateCountDraws(cmd, probe.Dir(dir), args)
			}
			if len(args) != 1 {
				return fmt.Errorf("give one material, e.g. KRvK")
			}
			m, err := api.ParseMaterial(args[0])
			if _, profile, ok := strings.Cut(args[0], "."); ok {
				return fmt.Errorf("%w: the statistics of a material count its positions under every rule profile whose DTB table is present (%s included)", err, profile)
			}
			if err != nil {
				return err
			}
			st, err := api.Stats(cmd.Context(), probe.Dir(dir), m)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if svgPath != "" {
				var plot bytes.Buffer
				api.WriteHistogramSVG(&plot, st)
				if err := atomicfile.WriteBytes(svgPath, plot.Bytes()); err != nil {
					return err
				}
			}
			if asJSON {
				return api.WriteJSON(out, st)
			}
			printStats(out, st)
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&svgPath, "svg", "", "also write the mate-distance histogram as an SVG plot to this file")
	cmd.Flags().BoolVar(&updateList, "update-list", false, "fill the thai count-draw share in the directory's catalogue for the given tables (default: all)")
	return cmd
}

// updateCountDraws computes the count-draw share of tables and writes it
// into the directory's catalogue.
func updateCountDraws(cmd *cobra.Command, dir string, args []string) error {
	var materials []tb.Material
	var err error
	if len(args) == 0 {
		materials, err = tablesIn(dir)
	} else {
		materials, err = selectMaterials(0, args)
	}
	if err != nil {
		return err
	}
	for _, m := range materials {
		st, err := api.Stats(cmd.Context(), dir, m)
		if err != nil {
			return err
		}
		share := pipeline.CountDrawShare(st.Count[honour.ThaiRules.Name])
		err = store.EditCatalogue(dir, func(rows map[string]*store.Row) {
			if row, ok := rows[m.String()]; ok {
				row.CountDraws = share
			}
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "%-8s thai count-draws %s\n", m, share)
	}
	return nil
}

func printStats(w io.Writer, st *retro.Stats) {
	fmt.Fprintf(w, "%s (full board, every legal placement counted once)\n\n", st.Material)
	fmt.Fprintf(w, "%-14s %15s %15s\n", "", "white to move", "black to move")
	wt, bl := st.Sides["w"], st.Sides["b"]
	row := func(name string, a, b uint64) { fmt.Fprintf(w, "%-14s %15d %15d\n", name, a, b) }
	row("legal", wt.Legal, bl.Legal)
	row("wins", wt.Wins(), bl.Wins())
	row("draws", wt.Draw, bl.Draw)
	row("losses", wt.Losses(), bl.Losses())
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
		fmt.Fprintf(w, "%15d  %15d %15d %15d %15d\n", n, hs[0][n], hs[1][n], hs[2][n], hs[3][n])
	}
	fmt.Fprintf(w, "\nunder a fresh honour count   %12s %12s %12s %12s %12s %12s\n", "win", "cursed-win", "draw", "blessed-loss", "loss", "needs DTB")
	for _, r := range []string{"thai", "cambodian", "asean", "none"} {
		for _, side := range []string{"w", "b"} {
			c := st.Count[r][side]
			fmt.Fprintf(w, "  %-10s %s to move      %12d %12d %12d %12d %12d %12d\n", r, side, c.Win, c.CursedWin, c.Draw, c.BlessedLoss, c.Loss, c.Unknown)
		}
	}
	if len(st.Longest) > 0 {
		fmt.Fprintln(w, "\nlongest wins:")
		for _, l := range st.Longest {
			fmt.Fprintf(w, "  %-40s mate in %d moves (%d plies)\n", l.FEN, (l.DTM+1)/2, l.DTM)
		}
	}
}

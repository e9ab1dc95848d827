package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/report"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

func newStatsCommand() *cobra.Command {
	var dir, svgPath, heatmap, figure, game string
	var asJSON, updateList bool
	cmd := &cobra.Command{
		Use:   "stats [--json] [--svg FILE] [--heatmap PIECE] [--tables DIR] (MATERIAL | --update-list [MATERIAL...])",
		Short: "Count a table's wins, draws and losses over the full board",
		Long: `Count the positions of a table over the full board — every legal placement
once, as if no symmetry were used — per side to move, with the histogram of
mate distances, the positions by category under a fresh count of every
rule profile and the longest wins. White is the first-named side.
--update-list writes the share of wins a fresh thai count draws into the
catalogue of the table directory, for the materials named (default:
every DTM table there). --heatmap PIECE (a FEN letter: k for the
defending king) maps instead, square by square with White to move, the
share of White's wins with the piece there, the longest and the median
mate, and the checkmates by the mated king's square; --svg then draws the
share of wins as a board.`,
		Example: "  makruktb stats KRvK\n  makruktb stats --json KRvKN\n  makruktb stats --svg krvkn.svg KRvKN\n  makruktb stats --heatmap k KRvK\n  makruktb stats --heatmap R --svg rook.svg KRvK\n  makruktb stats --update-list",
		RunE: func(cmd *cobra.Command, args []string) error {
			if updateList {
				return updateCountDraws(cmd, probe.Dir(dir), args)
			}
			if len(args) != 1 {
				return fmt.Errorf("give one material, e.g. KRvK")
			}
			g, err := gameFlag(cmd, game, nil)
			if err != nil {
				return err
			}
			if g != tb.Makruk && heatmap != "" {
				return fmt.Errorf("--heatmap: Makruk tables only for now")
			}
			m, err := g.ParseTableMaterial(args[0])
			if _, profile, ok := strings.Cut(args[0], "."); ok {
				return fmt.Errorf("%w: the statistics of a material count its positions under every rule profile whose DTB table is present (%s included)", err, profile)
			}
			if err != nil {
				return err
			}
			if heatmap != "" {
				h, err := report.Heatmap(cmd.Context(), probe.Dir(dir), m, heatmap)
				if err != nil {
					return err
				}
				if svgPath != "" {
					var plot bytes.Buffer
					if err := report.WriteHeatmapSVG(&plot, h, figure); err != nil {
						return fmt.Errorf("--%v", err)
					}
					if err := atomicfile.WriteBytes(svgPath, plot.Bytes()); err != nil {
						return err
					}
				}
				if asJSON {
					return report.WriteJSON(cmd.OutOrStdout(), h)
				}
				report.WriteHeatmapText(cmd.OutOrStdout(), h)
				return nil
			}
			st, err := report.Stats(cmd.Context(), probe.Dir(dir), probe.ID{Material: m, Game: g})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if svgPath != "" {
				var plot bytes.Buffer
				report.WriteHistogramSVG(&plot, st)
				if err := atomicfile.WriteBytes(svgPath, plot.Bytes()); err != nil {
					return err
				}
			}
			if asJSON {
				return report.WriteJSON(out, st)
			}
			report.WriteStatsText(out, st)
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&svgPath, "svg", "", "also write the mate-distance histogram as an SVG plot to this file")
	cmd.Flags().StringVar(&figure, "figure", "wins", "with --heatmap and --svg, the figure the board shows: wins (share), longest, median (mate in moves) or mates")
	cmd.Flags().StringVar(&heatmap, "heatmap", "", "map White's wins square by square by the square of this piece (a FEN letter: k for the defending king)")
	cmd.Flags().BoolVar(&updateList, "update-list", false, "fill the thai count-draw share in the directory's catalogue for the given tables (default: all)")
	addGameFlag(cmd, &game)
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
		materials, err = pipeline.Materials(tb.Makruk, 0, args)
	}
	if err != nil {
		return err
	}
	for _, m := range materials {
		st, err := report.Stats(cmd.Context(), dir, probe.DTMID(m))
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

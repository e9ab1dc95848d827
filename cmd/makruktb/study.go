package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/api"
	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/probe"
)

func newStudyCommand() *cobra.Command {
	var dir, rulesName, epdPath string
	var asJSON bool
	var list int
	cmd := &cobra.Command{
		Use:   "study [--json] [--tables DIR] MATERIAL",
		Short: "Count the positions people study: mutual zugzwangs and single winning moves",
		Long: `Count, over the full board (every legal placement once, as stats counts),
the positions that teach technique: mutual zugzwangs — placements legal with
either side to move where the side to move would rather the other side
moved — by kind (whoever moves loses; White to move loses and Black to move
draws; White to move draws and Black to move loses), and the won positions
in which exactly one legal move (captures included) keeps the win. White is
the first-named side. The table is read whole, with the sub-tables its
captures lead to. --list N adds up to N example positions of each kind,
hardest (longest mate) first, with the single winning move; --epd FILE
writes them as EPD records (dm and bm for the single winning moves, the
kind in c0), a training set.`,
		Example: "  makruktb study KRvKN\n  makruktb study --json KSvKN\n  makruktb study --list 5 --epd ksvkn.epd KSvKN",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("give one material, e.g. makruktb study KRvKN")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if list < 0 || list > 10000 {
				return fmt.Errorf("--list %d: give 0 to 10000", list)
			}
			if epdPath != "" && list == 0 {
				return fmt.Errorf("--epd %s: give --list N, the number of examples of each kind", epdPath)
			}
			if rulesName != "none" {
				return fmt.Errorf("--rules %s: study counts plain mate results only so far (--rules none); under a count, check and line judge single positions", rulesName)
			}
			m, err := api.ParseMaterial(args[0])
			if err != nil {
				return err
			}
			st, err := api.Study(cmd.Context(), probe.Dir(dir), m, list)
			if err != nil {
				return err
			}
			if epdPath != "" {
				err := atomicfile.Write(epdPath, func(f *os.File) error { return api.WriteStudyEPD(f, st) })
				if err != nil {
					return err
				}
			}
			if asJSON {
				return api.WriteJSON(cmd.OutOrStdout(), st)
			}
			api.WriteStudyText(cmd.OutOrStdout(), st)
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().StringVar(&rulesName, "rules", "none", "the count the results are judged under: none (plain mate results; the only one so far)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().IntVar(&list, "list", 0, "add up to N example positions of each kind, hardest first")
	cmd.Flags().StringVar(&epdPath, "epd", "", "write the examples (--list) to this file as EPD")
	return cmd
}

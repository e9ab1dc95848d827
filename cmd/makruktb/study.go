package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/api"
	"github.com/makruktb/makruktb/probe"
)

func newStudyCommand() *cobra.Command {
	var dir, rulesName string
	var asJSON bool
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
captures lead to.`,
		Example: "  makruktb study KRvKN\n  makruktb study --json KSvKN",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("give one material, e.g. makruktb study KRvKN")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if rulesName != "none" {
				return fmt.Errorf("--rules %s: study counts plain mate results only so far (--rules none); under a count, check and line judge single positions", rulesName)
			}
			m, err := api.ParseMaterial(args[0])
			if err != nil {
				return err
			}
			st, err := api.Study(cmd.Context(), probe.Dir(dir), m)
			if err != nil {
				return err
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
	return cmd
}

package main

import (
	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/pipeline"
)

func newPlanCommand() *cobra.Command {
	var dtbProfiles, game string
	var maxPieces int
	var memory int64
	cmd := &cobra.Command{
		Use:   "plan [--dtb PROFILES] [--memory SIZE] (--max-pieces N | MATERIAL...)",
		Short: "List the tables gen would make, in order, with their estimated memory, disk and time",
		Long: `List every table gen would generate for the materials (sub-tables first, as
gen orders them) with its index size and the estimates gen checks before
any work: peak memory (the table's state and the sub-tables it reads),
the file's size and the wall time on a 2-core machine; then the totals, in
CPU-hours for the time, with the peak while the WDL files of the --dtb
profiles are written where that is higher (format 3's writer; gen writes
format 2 where it would exceed --memory, and the plan counts those). A table whose memory exceeds --memory is
generated out of core, its state in scratch files: the plan gives the
memory, scratch disk, disk traffic and time it then takes (the traffic
and time at worst, when the page cache holds next to nothing). Materials the generator cannot make
(pawns, more than six pieces) are refused with the reason, before any
output; tables that exceed --memory even out of core are marked. Nothing is
generated.`,
		Example: "  makruktb plan KRSvKN\n  makruktb plan --max-pieces 6 --dtb none",
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := gameFlag(cmd, game, &dtbProfiles)
			if err != nil {
				return err
			}
			p, err := planFlags(g, maxPieces, args, dtbProfiles)
			if err != nil {
				return err
			}
			return pipeline.WritePlan(cmd.OutOrStdout(), p.jobs, memory, len(p.profiles) > 0)
		},
	}
	cmd.Flags().IntVar(&maxPieces, "max-pieces", 0, "every pawnless table with up to N pieces")
	cmd.Flags().StringVar(&dtbProfiles, "dtb", "thai,cambodian", "rule profiles of the DTB tables (comma-separated; \"none\" for none)")
	addGameFlag(cmd, &game)
	addMemoryFlag(cmd, &memory)
	return cmd
}

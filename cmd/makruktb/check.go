package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/report"
	"github.com/makruktb/makruktb/tb/honour"
)

// exitCannotTell is check's exit status when the verdict needs a table
// that is not there.
const exitCannotTell = 3

func newCheckCommand() *cobra.Command {
	var dir, rulesName, announce, game string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check [--rules R] [--tables DIR] [--json] FEN",
		Short: "Does the position win within its honour count? A verdict for players and arbiters",
		Long: `Give a short verdict on a position under Makruk's honour counts. The FEN's
count fields (countLimit countPly, in plies) give the running count; "-"
means the count starts now.

Exit status: 0 with a verdict, 3 when the verdict needs a board's-honour
(DTB) table that is not in the table directory (the verdict says which;
"makruktb gen" makes it), 1 on an error.`,
		Example: `  makruktb check "k7/8/8/8/8/2R5/8/1R2K3 b - 16 8 1"
  makruktb check --rules cambodian "k7/8/8/8/8/2R5/8/1R2K3 b - - 0 1"
  makruktb check --json "n7/8/7R/8/8/8/8/K3k3 w - - 0 1"`,
		Args: needFEN,
		RunE: func(cmd *cobra.Command, args []string) error {
			announcement, err := honour.ParseAnnouncement(announce)
			if err != nil {
				return fmt.Errorf("--%v", err)
			}
			pr, err := probePosition(cmd, dir, rulesName, game, args)
			if err != nil {
				return err
			}
			defer pr.tables.Close()
			j, err := pr.tables.Judge(&pr.pos, &pr.rules)
			var doc report.Check
			switch {
			case errors.Is(err, probe.ErrGameOver):
				doc = report.NewGameOverCheck(&pr.pos, &pr.rules)
			case err != nil:
				return err
			default:
				doc = report.NewCheck(&pr.pos, j, &pr.rules)
			}
			if asJSON {
				if err := report.WriteJSON(cmd.OutOrStdout(), doc); err != nil {
					return err
				}
			} else {
				fmt.Fprintln(cmd.OutOrStdout(), doc.Verdict)
				if called := j.Count.Called(announcement, pr.rules.Unit); called != "" {
					fmt.Fprintf(cmd.OutOrStdout(), "The count called aloud, counting %s: %s.\n", announcement, called)
				}
			}
			if doc.Result == report.ResultUnknown {
				return &exitStatus{code: exitCannotTell}
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addRulesFlag(cmd, &rulesName)
	addGameFlag(cmd, &game)
	addAnnounceFlag(cmd, &announce)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the verdict as JSON: probe's fields for the position, result and verdict")
	return cmd
}

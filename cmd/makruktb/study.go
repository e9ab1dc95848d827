package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/report"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb/honour"
)

func newStudyCommand() *cobra.Command {
	var dir, rulesName, epdPath, game string
	var asJSON bool
	var list, close int
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
captures lead to. With --rules, under a fresh count of those rules: the
wins inside the count, the count-critical ones — where exactly one move
keeps the win inside the count — and the cursed wins, with those whose mate
comes fewer than --close plies too late (where both sides have pieces,
board's honour judges by the material's DTB table of those rules: its
goal, not the mate, must come inside the count). --list N adds up to N
example positions of each kind,
hardest (longest mate) first, with the single winning move; --epd FILE
writes them as EPD records (dm and bm for the single winning moves, the
kind in c0), a training set. --game shatranj studies a Shatranj table
(no count: --rules stays none).`,
		Example: "  makruktb study KRvKN\n  makruktb study --json KSvKN\n  makruktb study --rules thai --list 3 KRRvK\n  makruktb study --list 5 --epd ksvkn.epd KSvKN",
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
			if close < 1 || close > 10000 {
				return fmt.Errorf("--close %d: give 1 to 10000 plies", close)
			}
			g, err := gameFlag(cmd, game, nil)
			if err != nil {
				return err
			}
			so := retro.StudyOptions{Examples: list, Close: close}
			rules, err := honour.ForGame(g, namedRules(cmd, rulesName), honour.NoRules.Name, honour.LookupRules)
			if err != nil {
				return fmt.Errorf("--%w", err)
			}
			if rules.Name != honour.NoRules.Name {
				so.Rules = &rules
			}
			m, err := g.ParseTableMaterial(args[0])
			if err != nil {
				return err
			}
			st, err := report.Study(cmd.Context(), probe.Dir(dir), probe.ID{Material: m, Game: g}, so)
			if err != nil {
				return err
			}
			if epdPath != "" {
				err := atomicfile.Write(epdPath, func(f *os.File) error { return report.WriteStudyEPD(f, st) })
				if err != nil {
					return err
				}
			}
			if asJSON {
				return report.WriteJSON(cmd.OutOrStdout(), st)
			}
			report.WriteStudyText(cmd.OutOrStdout(), st)
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addGameFlag(cmd, &game)
	cmd.Flags().StringVar(&rulesName, "rules", "none", "also judge under this count, fresh (a profile or a profile file): count-critical positions and cursed wins; where both sides have pieces, by the material's DTB table of the profile")
	cmd.Flags().IntVar(&close, "close", report.DefaultClose, "with --rules: a cursed win whose mate comes fewer than this many plies too late is close")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().IntVar(&list, "list", 0, "add up to N example positions of each kind, hardest first")
	cmd.Flags().StringVar(&epdPath, "epd", "", "write the examples (--list) to this file as EPD")
	return cmd
}

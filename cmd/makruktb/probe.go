package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/report"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// probed is a position given on the command line, with its tables and
// the chosen rules. The caller closes tables.
type probed struct {
	pos    tb.Position
	tables *probe.Tables
	rules  honour.Rules
}

// namedRules is --rules as the user gave it, "" when not given.
func namedRules(cmd *cobra.Command, rulesName string) string {
	if !cmd.Flags().Changed("rules") {
		return ""
	}
	return rulesName
}

// probePosition looks up the game and the rules, parses the FEN given as
// arguments and opens the tables. A game without a count (Shatranj) is
// judged under the rules "none"; --rules naming a count is refused there.
func probePosition(cmd *cobra.Command, dir, rulesName, gameName string, args []string) (*probed, error) {
	game, err := tb.ParseGame(gameName)
	if err != nil {
		return nil, fmt.Errorf("--game: %w", err)
	}
	rules, err := honour.ForGame(game, namedRules(cmd, rulesName), "thai", honour.LookupRules)
	if err != nil {
		return nil, fmt.Errorf("--%w", err)
	}
	pos, err := game.ParseFEN(strings.Join(args, " "))
	if err != nil {
		return nil, err
	}
	tables, err := openTables(dir)
	if err != nil {
		return nil, err
	}
	return &probed{pos: pos, tables: tables, rules: rules}, nil
}

func newProbeCommand() *cobra.Command {
	var dir, rulesName, game, announce string
	var asJSON, fromFile bool
	cmd := &cobra.Command{
		Use:   "probe [--rules R] [--tables DIR] [--json] [--wdl] FEN",
		Short: "Show a position's result and the result of every legal move",
		Long: `Show a position's mate distance and its category under the honour count
of the rules (win, cursed-win, draw, blessed-loss, loss: cursed and blessed
where the count turns the mate into a draw), then every legal move, best
first for the side to move under the count (wins inside the count by
their quickest goal, then cursed wins, draws, blessed losses, losses by
the longest resistance), with the same for the position after it. The
FEN's count fields give the running count ("-": it starts now). --json
prints a document in the conventions of the lichess tablebase API.
Exit status: 0 with an answer, 1 on an error (a bad FEN, an illegal
position, a table the directory does not hold).`,
		Example: `  makruktb probe "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
  makruktb probe --json "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"`,
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
			judged, err := pr.tables.Root(&pr.pos, &pr.rules)
			if errors.Is(err, probe.ErrGameOver) {
				if asJSON {
					return report.WriteJSON(cmd.OutOrStdout(), report.NewGameOverProbe(&pr.pos, &pr.rules))
				}
				report.WriteGameOverText(cmd.OutOrStdout(), &pr.pos)
				return nil
			}
			if err != nil {
				return err
			}
			doc := report.NewProbe(&pr.pos, judged, &pr.rules)
			if fromFile {
				c, ok, err := pr.tables.WDLFromFile(&pr.pos, &pr.rules)
				if err != nil {
					return err
				}
				canon, _ := tb.MaterialOf(&pr.pos).Canonical()
				doc.WDLFile = &report.WDLFile{File: probe.WDLFileName(canon, pr.rules.Name)}
				if ok {
					doc.WDLFile.Category = c.String()
				}
			}
			if asJSON {
				return report.WriteJSON(cmd.OutOrStdout(), doc)
			}
			report.WriteProbeText(cmd.OutOrStdout(), &pr.pos, judged, &pr.rules, announcement)
			if f := doc.WDLFile; f != nil && f.Category != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "\nWDL file %s (the count starting now): %s\n", f.File, f.Category)
			} else if f != nil {
				fmt.Fprintf(cmd.OutOrStdout(), "\nWDL file %s: not in %s (makruktb convert --wdl %s makes it)\n", f.File, pr.tables.Dir(), pr.rules.Name)
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addRulesFlag(cmd, &rulesName)
	addGameFlag(cmd, &game)
	addAnnounceFlag(cmd, &announce)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (lichess tablebase API conventions)")
	cmd.Flags().BoolVar(&fromFile, "wdl", false, "also read the position from the rules' WDL file, the file an engine probes (with the count starting now; wdl_file in --json)")
	return cmd
}

func newLineCommand() *cobra.Command {
	var dir, rulesName, game string
	var ascii, asJSON bool
	var every int
	var announce string
	cmd := &cobra.Command{
		Use:   "line [--rules R] [--tables DIR] [--ascii] [--every N] [--json] FEN",
		Short: "Print an optimal line to mate, with boards along the way",
		Long: `Print the count-aware optimal line from a position: both sides play their
best move under the running honour count of the rules (the quickest win
inside the count, else the quickest cursed win, a draw, or the longest
resistance) until mate. Each move shows the mate distance and the count
after it; a board is drawn every --every plies and at the end. A drawn
position has no line. --json prints the document of /api/v1/line instead.`,
		Example: `  makruktb line "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
  makruktb line --ascii --every 4 "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
  makruktb line --json --rules cambodian "n7/8/7R/8/8/8/8/K3k3 w - - 0 1"`,
		Args: needFEN,
		RunE: func(cmd *cobra.Command, args []string) error {
			if every < 1 {
				return fmt.Errorf("--every %d: must be at least 1", every)
			}
			announcement, err := honour.ParseAnnouncement(announce)
			if err != nil {
				return fmt.Errorf("--%v", err)
			}
			pr, err := probePosition(cmd, dir, rulesName, game, args)
			if err != nil {
				return err
			}
			defer pr.tables.Close()
			if asJSON {
				doc, err := report.JudgeLine(pr.tables, &pr.pos, &pr.rules)
				if err != nil {
					return err
				}
				return report.WriteJSON(cmd.OutOrStdout(), doc)
			}
			return report.WriteLineText(cmd.OutOrStdout(), pr.tables, &pr.pos, &pr.rules, every, ascii, announcement)
		},
	}
	addTablesFlag(cmd, &dir)
	addRulesFlag(cmd, &rulesName)
	addGameFlag(cmd, &game)
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw boards with letters instead of Unicode pieces")
	cmd.Flags().IntVar(&every, "every", 10, "draw the board every N plies")
	addAnnounceFlag(cmd, &announce)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the line as JSON (the document of /api/v1/line)")
	return cmd
}

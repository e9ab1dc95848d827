package main

import (
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/match"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/uci"
)

func newUCICommand() *cobra.Command {
	var dir, engine string
	cmd := &cobra.Command{
		Use:   "uci --engine PROGRAM [--tables DIR] [-- ENGINE ARGUMENTS]",
		Short: "A UCI engine that plays the tables' count-aware moves in front of another engine",
		Long: `Speak UCI on standard input and output in Fairy-Stockfish's dialect, in
front of the engine PROGRAM (e.g. /usr/games/fairy-stockfish; its own
arguments, if any, after --).
Every command goes to the engine and every line it prints comes back,
except "go" in a position the tables hold: with UCI_Variant makruk or
cambodian, no pawns, a table for the material and (cambodian) no king's or
Met's first move left, the answer comes at once from the tables — the best
move under the honour count and "info depth 1 score mate N" (the side to
move mates in N moves inside the count), "score mate -N", or "score cp 0"
for a draw, a win the count turns into a draw included — then "bestmove".

The count is kept through "position fen … moves …" and "position startpos
moves …" as Fairy-Stockfish keeps it: a FEN's count fields (limit and ply,
in plies) are read as it reads them, and a count starts, runs and restarts
after each move by its rules. If the engine exits, so does the adapter,
with the engine's status as an error.`,
		Example: `  makruktb uci --engine /usr/games/fairy-stockfish --tables data
  printf 'uci\nisready\nquit\n' | makruktb uci --engine fairy-stockfish`,
		Args: engineArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			argv, err := engineCommand(engine, args, "wrap")
			if err != nil {
				return err
			}
			t, err := openTables(dir)
			if err != nil {
				return err
			}
			defer t.Close()
			e, err := uci.StartEngine(argv, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			a := &uci.Adapter{Engine: e, Oracle: &uci.Oracle{Tables: t}, Out: cmd.OutOrStdout(), Log: cmd.ErrOrStderr()}
			return a.Run(cmd.Context(), cmd.InOrStdin())
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().StringVar(&engine, "engine", "", "the engine program to wrap (required; its arguments after --)")
	return cmd
}

// engineArgs accepts arguments only after --: the engine's own.
func engineArgs(cmd *cobra.Command, args []string) error {
	if dash := cmd.ArgsLenAtDash(); (dash < 0 && len(args) > 0) || dash > 0 {
		return fmt.Errorf("unexpected argument %q: the engine's own arguments go after --", args[0])
	}
	return nil
}

// engineCommand returns the engine's command line: the program --engine
// names (a path with spaces in it included), then the arguments given
// after --. A --engine with spaces that names no program is refused
// with the way to give arguments.
func engineCommand(engine string, args []string, what string) ([]string, error) {
	if engine == "" {
		return nil, fmt.Errorf("--engine: name the engine to %s, e.g. --engine /usr/games/fairy-stockfish", what)
	}
	if strings.ContainsAny(engine, " \t") {
		if _, err := exec.LookPath(engine); err != nil {
			return nil, fmt.Errorf("--engine %q: no such program; give the engine's own arguments after --, e.g. --engine %s -- %s", engine, strings.Fields(engine)[0], strings.Join(strings.Fields(engine)[1:], " "))
		}
	}
	return append([]string{engine}, args...), nil
}

// requireTables says which table of m a match under rules r needs that
// dir does not hold: its DTM table, and its DTB tables where the count is
// board's honour.
func requireTables(dir *store.Dir, m tb.Material, r *honour.Rules) error {
	need := []probe.ID{probe.DTMID(m)}
	if honour.HasBoardHonour(m) && r.BoardPlies > 0 {
		for _, v := range r.Variants(m) {
			need = append(need, probe.BoardID(m, r.Name, v))
		}
	}
	for _, id := range need {
		if !dir.Has(id) {
			how := "makruktb gen " + m.String()
			if id.Rules != "" {
				how = "makruktb gen --dtb " + r.Name + " " + m.String()
			}
			return fmt.Errorf("--materials: table %s not found in %s (%s makes it)", id.FileName(), dir.Path(), how)
		}
	}
	return nil
}

// defaultMatchMaterials are the materials of the engine issue's
// measurement: rook, Khon and board's-honour endings.
const defaultMatchMaterials = "KRvK,KRvKN,KRvKM,KSSvK,KSMvK,KRRvKN,KRSvKN"

func newMatchCommand() *cobra.Command {
	var dir, engine, variant, materials, mode string
	var options []string
	var positions int
	var seed uint64
	var movetime time.Duration
	cmd := &cobra.Command{
		Use:   "match --engine PROGRAM [--tables DIR] [flags] [-- ENGINE ARGUMENTS]",
		Short: "Play an engine against the tables: does it win inside the count, and hold when the count saves it?",
		Long: `Play the UCI engine PROGRAM (its own arguments, if any, after --) from
positions sampled at random
(seeded) from the tables, with the honour count running as Fairy-Stockfish
keeps it, and the tables playing the other side:

  convert  the engine has a position won inside a fresh count and must mate
           before the count runs out, against the tables' longest defence;
  hold     the engine's king would be mated, but a fresh count runs out
           first (a blessed loss); it must not be mated, against the
           tables' quickest mate.

It prints a table of the share converted and held per material, and each
failed game: how it ended and the engine's first move after which the
tables no longer gave it its goal. Progress goes to standard error.

Exit status: 0 when every game was converted or held, 2 when some were not,
1 on an error (the engine died, a table is missing).`,
		Example: `  makruktb match --engine /usr/games/fairy-stockfish --movetime 100ms
  makruktb match --engine makruktb --positions 20 --movetime 50ms -- uci --engine /usr/games/fairy-stockfish`,
		Args: engineArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			argv, err := engineCommand(engine, args, "play")
			if err != nil {
				return err
			}
			d, ok := uci.DialectOf(variant)
			if !ok {
				return fmt.Errorf("--variant %q: want one of %s", variant, strings.Join(uci.Variants(), ", "))
			}
			var modes []match.Mode
			switch mode {
			case "convert":
				modes = []match.Mode{match.Convert}
			case "hold":
				modes = []match.Mode{match.Hold}
			case "both":
				modes = []match.Mode{match.Convert, match.Hold}
			default:
				return fmt.Errorf("--mode %q: want convert, hold or both", mode)
			}
			if positions < 1 {
				return fmt.Errorf("--positions %d: want at least 1", positions)
			}
			if movetime < time.Millisecond {
				return fmt.Errorf("--movetime %v: want at least 1ms", movetime)
			}
			opts := map[string]string{}
			for _, o := range options {
				name, v, ok := strings.Cut(o, "=")
				if !ok || name == "" {
					return fmt.Errorf("--option %q: want NAME=VALUE", o)
				}
				opts[name] = v
			}
			var mats []tb.Material
			for _, name := range strings.Split(materials, ",") {
				m, err := tb.Makruk.ParseTableMaterial(strings.TrimSpace(name))
				if err != nil {
					return fmt.Errorf("--materials: %w", err)
				}
				mats = append(mats, m)
			}
			t, err := openTables(dir)
			if err != nil {
				return err
			}
			defer t.Close()
			present, err := store.OpenDir(t.Dir())
			if err != nil {
				return err
			}
			for _, m := range mats {
				if err := requireTables(present, m, &d.Rules); err != nil {
					return err
				}
			}
			cfg := match.Config{Engine: argv, Options: opts, Oracle: &uci.Oracle{Tables: t}, Dialect: d, MoveTime: movetime, Seed: seed}
			tallies, err := match.Run(cmd.Context(), cfg, mats, modes, positions, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			failed := match.WriteReport(cmd.OutOrStdout(), tallies, modes)
			if failed > 0 {
				return &exitStatus{code: 2, text: fmt.Sprintf("%d games not converted or held", failed)}
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().StringVar(&engine, "engine", "", "the engine program to play (required; its arguments after --)")
	cmd.Flags().StringVar(&variant, "variant", "makruk", "UCI_Variant and counting rules: "+strings.Join(uci.Variants(), " or "))
	cmd.Flags().StringVar(&materials, "materials", defaultMatchMaterials, "materials to play, comma-separated (the stronger side White)")
	cmd.Flags().StringVar(&mode, "mode", "both", "convert, hold or both")
	cmd.Flags().IntVar(&positions, "positions", 50, "positions per material and mode")
	cmd.Flags().DurationVar(&movetime, "movetime", 100*time.Millisecond, "the engine's time per move")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed of the position sample")
	cmd.Flags().StringArrayVar(&options, "option", nil, "an engine option NAME=VALUE (repeatable), e.g. Threads=1")
	return cmd
}

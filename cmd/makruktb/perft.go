package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/makruktb/makruktb/tb"
)

func newPerftCommand() *cobra.Command {
	var depth int
	var divide bool
	var game string
	cmd := &cobra.Command{
		Use:   "perft [--depth D] [--divide] FEN",
		Short: "Count the leaf nodes of the legal move tree (move generator check)",
		Long: `Count the positions at the leaves of the tree of legal moves from a
position, --depth plies deep (default 4): the standard check of a move
generator against another program's counts (the tests compare every line
of Fairy-Stockfish's). --divide prints the count below each legal move, to
find where two generators differ. SIGINT or SIGTERM stops a deep count
within moments; on a terminal, standard error shows the root move being
counted. --game shatranj counts Shatranj's moves (its FEN: board, side,
"- -", halfmove clock, move number).`,
		Example: `  makruktb perft --depth 4 "8/1K5R/8/8/8/8/8/k7 b - - 0 1"
  makruktb perft --depth 3 --divide "2R5/8/5K2/2S5/8/8/8/k7 w - - 0 1"
  makruktb perft --game shatranj --depth 3 "8/8/4k3/8/8/8/8/R3K2q w - - 0 1"`,
		Args: needFEN,
		RunE: func(cmd *cobra.Command, args []string) error {
			if depth < 0 || depth > 12 {
				return fmt.Errorf("--depth %d: expected 0 to 12", depth)
			}
			g, err := gameFlag(cmd, game, nil)
			if err != nil {
				return err
			}
			pos, err := g.ParseFEN(strings.Join(args, " "))
			if err != nil {
				return err
			}
			ctx, out := cmd.Context(), cmd.OutOrStdout()
			var l tb.MoveList
			pos.LegalMoves(&l)
			if depth == 0 || depth == 1 && !divide {
				fmt.Fprintln(out, pos.Perft(depth))
				return nil
			}
			// One root move at a time: --divide prints each count as it
			// comes, and a terminal shows how far the count has gone.
			progress := term.IsTerminal(int(os.Stderr.Fd()))
			var total uint64
			for i, m := range l.Slice() {
				if progress {
					fmt.Fprintf(os.Stderr, "\rperft: root move %d of %d (%s)\x1b[K", i+1, l.N, m)
				}
				next := pos.Play(m)
				n, err := next.PerftContext(ctx, depth-1)
				if err != nil {
					if progress {
						fmt.Fprint(os.Stderr, "\r\x1b[K")
					}
					return err
				}
				total += n
				if divide {
					fmt.Fprintf(out, "%s: %d\n", m, n)
				}
			}
			if progress {
				fmt.Fprint(os.Stderr, "\r\x1b[K")
			}
			if divide {
				fmt.Fprintf(out, "\nmoves: %d\n", l.N)
			}
			fmt.Fprintln(out, total)
			return nil
		},
	}
	cmd.Flags().IntVarP(&depth, "depth", "d", 4, "depth in plies")
	cmd.Flags().BoolVar(&divide, "divide", false, "print the node count below each legal move")
	addGameFlag(cmd, &game)
	return cmd
}

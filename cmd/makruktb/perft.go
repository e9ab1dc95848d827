package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/tb"
)

func newPerftCommand() *cobra.Command {
	var depth int
	var divide bool
	cmd := &cobra.Command{
		Use:   "perft [--depth D] [--divide] FEN",
		Short: "Count the leaf nodes of the legal move tree (move generator check)",
		Long: `Count the positions at the leaves of the tree of legal moves from a
position, --depth plies deep (default 4): the standard check of a move
generator against another program's counts (the tests compare every line
of Fairy-Stockfish's). --divide prints the count below each legal move, to
find where two generators differ.`,
		Example: `  makruktb perft --depth 4 "8/1K5R/8/8/8/8/8/k7 b - - 0 1"
  makruktb perft --depth 3 --divide "2R5/8/5K2/2S5/8/8/8/k7 w - - 0 1"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if depth < 0 || depth > 12 {
				return fmt.Errorf("--depth %d: expected 0 to 12", depth)
			}
			pos, err := tb.ParseFEN(strings.Join(args, " "))
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if !divide || depth == 0 {
				fmt.Fprintln(out, pos.Perft(depth))
				return nil
			}
			var l tb.MoveList
			pos.LegalMoves(&l)
			var total uint64
			for _, m := range l.Slice() {
				next := pos.Play(m)
				n := next.Perft(depth - 1)
				total += n
				fmt.Fprintf(out, "%s: %d\n", m, n)
			}
			fmt.Fprintf(out, "\nmoves: %d\n%d\n", l.N, total)
			return nil
		},
	}
	cmd.Flags().IntVarP(&depth, "depth", "d", 4, "depth in plies")
	cmd.Flags().BoolVar(&divide, "divide", false, "print the node count below each legal move")
	return cmd
}

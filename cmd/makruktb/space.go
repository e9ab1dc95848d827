package main

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/internal/parallel"
	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/tb"
)

func newIndexCommand() *cobra.Command {
	var maxPieces, threads int
	cmd := &cobra.Command{
		Use:   "index (--max-pieces N | MATERIAL...)",
		Short: "Show the index space of materials: size, legal positions and holes",
		Long: `For each material: the king pairs and indices per side to move, the number
of indices that decode to a legal position for each side to move, and the
fraction of holes (indices that are not legal positions).`,
		Example: "  makruktb index KRSvKN\n  makruktb index --max-pieces 4",
		RunE: func(cmd *cobra.Command, args []string) error {
			materials, err := pipeline.Materials(tb.Makruk, maxPieces, args)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "| material | king pairs | size per side | legal, white to move | legal, black to move | holes |\n|---|---|---|---|---|---|\n")
			for _, m := range materials {
				s, err := index.New(m)
				if err != nil {
					return err
				}
				legal, err := countLegal(cmd.Context(), s, threads)
				if err != nil {
					return err
				}
				holes := 1 - float64(legal[0]+legal[1])/float64(2*s.Size())
				fmt.Fprintf(out, "| %s | %d | %d | %d | %d | %.1f%% |\n", m, s.KingPairs(), s.Size(), legal[0], legal[1], 100*holes)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&maxPieces, "max-pieces", 0, "every pawnless material with up to N pieces")
	addThreadsFlag(cmd, &threads)
	return cmd
}

// countLegal returns the number of indices that decode, per side to move,
// on threads workers (0: every core).
func countLegal(ctx context.Context, s *index.Space, threads int) ([2]uint64, error) {
	var legal [2]atomic.Uint64
	err := parallel.For(ctx, int64(2*s.KingPairs()), threads, func(u int64) error {
		side := tb.Color(u & 1)
		n := uint64(0)
		s.Walk(int(u>>1), side, func(uint64, *tb.Position) { n++ })
		legal[side].Add(n)
		return nil
	}, nil)
	return [2]uint64{legal[0].Load(), legal[1].Load()}, err
}

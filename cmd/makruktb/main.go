// Command makruktb generates, checks and reads Makruk endgame tablebases.
//
// Subcommands: gen, stats, verify and perft (see makruktb help).
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	if err := newRootCommand().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "makruktb:", err)
		os.Exit(1)
	}
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "makruktb",
		Short:         "Makruk (Thai chess) endgame tablebases",
		Long:          "makruktb generates, verifies and reads distance-to-mate tablebases for pawnless Makruk endgames.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newGenCommand(), newStatsCommand(), newVerifyCommand(), newPerftCommand())
	return root
}

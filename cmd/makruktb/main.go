// Command makruktb generates, checks and reads Makruk endgame tablebases.
//
// Subcommands: gen, stats, verify and perft (see makruktb help).
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

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
	var cpuProfile string
	var stopProfile func()
	root.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile to this file (for go tool pprof)")
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if cpuProfile == "" {
			return nil
		}
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return err
		}
		stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
		return nil
	}
	root.PersistentPostRun = func(cmd *cobra.Command, args []string) {
		if stopProfile != nil {
			stopProfile()
		}
	}
	root.AddCommand(newGenCommand(), newStatsCommand(), newVerifyCommand(), newProbeCommand(), newLineCommand(), newIndexCommand(), newPerftCommand())
	return root
}

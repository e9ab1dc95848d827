// Command makruktb generates, checks and reads Makruk endgame tablebases.
//
// Subcommands: gen, verify, probe, line, check, stats, serve, index and
// perft (see makruktb help).
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

func main() {
	root, finish := newRootCommand()
	err := root.Execute()
	finish()
	if err != nil {
		fmt.Fprintln(os.Stderr, "makruktb:", err)
		os.Exit(1)
	}
}

// newRootCommand returns the command tree and a function to call when it
// has run (it stops a CPU profile, if one was asked for).
func newRootCommand() (*cobra.Command, func()) {
	root := &cobra.Command{
		Use:           "makruktb",
		Short:         "Makruk (Thai chess) endgame tablebases",
		Long:          "makruktb generates, verifies and reads distance-to-mate tablebases for pawnless Makruk endgames.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	var cpuProfile string
	stopProfile := func() {}
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
	root.AddCommand(newGenCommand(), newStatsCommand(), newVerifyCommand(), newProbeCommand(), newCheckCommand(), newLineCommand(), newIndexCommand(), newPerftCommand(), newServeCommand())
	return root, func() { stopProfile() }
}

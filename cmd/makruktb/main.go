// Command makruktb generates, checks and reads Makruk endgame tablebases.
//
// Subcommands: gen, plan, verify, probe, line, check, stats, serve, uci,
// match, index and perft (see makruktb help).
//
// Exit status: 0 on success, 1 on an error, 3 when check cannot tell the
// result without a missing table, and 128 + the signal's number when
// SIGINT or SIGTERM stopped the work (serve stops with 0).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx := signalContext()
	root, finish := newRootCommand()
	err := root.ExecuteContext(ctx)
	finish()
	os.Exit(exitCode(ctx, err, os.Stderr))
}

// signalError is the cause of a context that SIGINT or SIGTERM cancelled.
type signalError struct{ sig syscall.Signal }

func (e *signalError) Error() string { return "stopped by " + signalName(e.sig) }

func signalName(s syscall.Signal) string {
	if s == syscall.SIGINT {
		return "SIGINT"
	}
	return "SIGTERM"
}

// signalContext returns a context that the first SIGINT or SIGTERM
// cancels, with a *signalError as its cause. A second signal then has its
// default effect and ends the process at once.
func signalContext() context.Context {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		signal.Stop(sigs)
		cancel(&signalError{s.(syscall.Signal)})
	}()
	return ctx
}

// exitStatus is an error that ends the command with its own exit code;
// its text, if any, is printed as an error's would be.
type exitStatus struct {
	code int
	text string
}

func (e *exitStatus) Error() string { return e.text }

// exitCode prints err (one line) and returns the process's exit status.
func exitCode(ctx context.Context, err error, stderr io.Writer) int {
	var sig *signalError
	if errors.As(context.Cause(ctx), &sig) {
		switch {
		case err == nil:
			fmt.Fprintf(stderr, "makruktb: %v\n", sig)
			return 0
		case errors.Is(err, context.Canceled):
			fmt.Fprintf(stderr, "makruktb: %v\n", sig)
		default:
			fmt.Fprintf(stderr, "makruktb: %v: %v\n", sig, err)
		}
		return 128 + int(sig.sig)
	}
	var st *exitStatus
	switch {
	case err == nil:
		return 0
	case errors.As(err, &st):
		if st.text != "" {
			fmt.Fprintln(stderr, "makruktb:", st.text)
		}
		return st.code
	}
	fmt.Fprintln(stderr, "makruktb:", err)
	return 1
}

// version describes the build: the module's version, the VCS revision and
// time it was built from (with "+modified" for a dirty tree) and the Go
// version.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information) " + runtime.Version()
	}
	v := info.Main.Version
	var rev, at, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if rev != "" {
		v += fmt.Sprintf(" revision %.12s%s", rev, modified)
		if at != "" {
			v += " (" + at + ")"
		}
	}
	return v + " " + info.GoVersion
}

// newRootCommand returns the command tree and a function to call when it
// has run (it stops a CPU profile, if one was asked for).
func newRootCommand() (*cobra.Command, func()) {
	root := &cobra.Command{
		Use:           "makruktb",
		Short:         "Makruk (Thai chess) endgame tablebases",
		Long:          "makruktb generates, verifies and reads distance-to-mate tablebases for pawnless Makruk endgames.",
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("makruktb {{.Version}}\n")
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
	root.AddCommand(newGenCommand(), newPlanCommand(), newStatsCommand(), newStudyCommand(), newVerifyCommand(), newProbeCommand(), newCheckCommand(), newLineCommand(), newIndexCommand(), newPerftCommand(), newServeCommand(), newUCICommand(), newMatchCommand(), newClusterCommand(), newConvertCommand())
	return root, func() { stopProfile() }
}

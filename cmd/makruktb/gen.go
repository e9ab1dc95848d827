package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/internal/console"
	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

func newGenCommand() *cobra.Command {
	var dir, scratch, dtbProfiles, game string
	var threads, maxPieces, format, wdlFormat int
	var memory int64
	var force, timings, noVerify, noWDL, allOutOfCore bool
	var every time.Duration
	cmd := &cobra.Command{
		Use:   "gen [--tables DIR] [--threads N] [--dtb PROFILES] (--max-pieces N | MATERIAL...)",
		Short: "Generate DTM tables and the board's-honour DTB tables (and every sub-table they need)",
		Long: `Generate distance-to-mate (DTM) tables by retrograde analysis, and for
every material with pieces on both sides its board's-honour (DTB) tables for
the rule profiles named by --dtb. Every sub-table a material needs is
generated first. Tables already present are kept, so a run that was
interrupted continues with what is missing. Files are written atomically:
an interrupted run never leaves a file that looks complete.

A table that takes long saves its state between passes, at most every
--checkpoint, in TABLE.resume under the scratch directory (compressed, at
most 1.14 bytes per index and side); a rerun after an interruption (SIGINT,
SIGTERM, a crash, a lost node) resumes from there, and the file goes once
the table is written. --force starts the named tables afresh.

Tables are written in format version 2 (--format): one side to move stored,
the other computed from it by a one-ply search when asked, about a third of
the size of version 1. A table made out of core is written in version 1 (both
sides), which its readers out of core need; convert --format 2 rewrites it
where memory allows. --format 1 writes every table in version 1.

A table is written under its final name only when it is right: byte for
byte its reference checksum (data/checksums.txt for version 1,
data/checksums-v2.txt for version 2) when it has one, and
otherwise every value checked against its successors, as verify does
(--no-verify skips that check, for those who run verify separately). A
table that fails is kept as NAME.rejected, which no reader opens, and gen
says so and fails.

As soon as a material's tables are made, gen writes its WDL file under
each --dtb profile (as convert does): every position's category when the
count starts now, what an engine probes in its search (--no-wdl skips it).`,
		Example: `  makruktb gen --max-pieces 4
  makruktb gen KRRvKN
  makruktb gen --format 1 KRRvKN
  makruktb gen --dtb none --tables /tmp/tb --threads 2 KRSvKN`,
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := gameFlag(cmd, game, &dtbProfiles)
			if err != nil {
				return err
			}
			p, err := planFlags(g, maxPieces, args, dtbProfiles)
			if err != nil {
				return err
			}
			targets, jobs := p.targets, p.jobs
			if err := pipeline.CheckSupported(g, targets); err != nil {
				return err
			}
			dir = probe.Dir(dir)
			scratchFlag := "--scratch"
			if scratch == "" {
				scratch, scratchFlag = dir, "--tables"
			}
			if err := checkWDLFormat(wdlFormat); err != nil {
				return err
			}
			if format != 1 && format != 2 {
				return fmt.Errorf("--format %d: the formats are 1 and 2", format)
			}
			if every < 0 {
				return fmt.Errorf("--checkpoint %s: want a duration of 0 (never) or more", every)
			}
			if err := pipeline.CheckWritable(dir, "--tables"); err != nil {
				return err
			}
			if err := pipeline.CheckResources(jobs, memory, scratch, scratchFlag, every > 0); err != nil {
				return err
			}
			// Only a run that goes ahead makes its directories.
			for _, d := range []string{dir, scratch} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			r := &pipeline.Runner{Dir: dir, Scratch: scratch, Memory: memory, Threads: threads, Force: force, Verify: !noVerify,
				CheckpointEvery: every, Reference: referenceChecksums(), WDL: !noWDL, WDLVersion: wdlFormat, Profiles: p.profiles, AllOutOfCore: allOutOfCore, Format: format,
				Report: &console.Printer{Out: cmd.OutOrStdout(), ErrOut: cmd.ErrOrStderr(), Timings: timings}}
			return r.Run(cmd.Context(), jobs)
		},
	}
	addTablesFlag(cmd, &dir)
	addThreadsFlag(cmd, &threads)
	addMemoryFlag(cmd, &memory)
	cmd.Flags().IntVar(&maxPieces, "max-pieces", 0, "generate every pawnless table with up to N pieces")
	cmd.Flags().BoolVar(&force, "force", false, "regenerate the named tables even if present")
	cmd.Flags().StringVar(&scratch, "scratch", "", "directory for the state of a table generated out of core (default: the table directory); its files are unlinked as soon as made, so nothing is left there however a run ends, but the checkpoints (--checkpoint) meant to outlive a run")
	cmd.Flags().DurationVar(&every, "checkpoint", 30*time.Minute, "save a table's state at most this often, to resume it after an interruption (0: never)")
	cmd.Flags().BoolVar(&timings, "timings", false, "print how long each stage of each table took (on stderr)")
	cmd.Flags().BoolVar(&noVerify, "no-verify", false, "record a table without a reference checksum without checking its values against their successors first")
	cmd.Flags().BoolVar(&allOutOfCore, "out-of-core", false, "generate every table out of core, whatever --memory allows (for a machine whose memory other work needs, and for tests of the out-of-core path)")
	cmd.Flags().BoolVar(&noWDL, "no-wdl", false, "do not write the WDL files of the --dtb profiles")
	addWDLFormatFlag(cmd, &wdlFormat)
	cmd.Flags().IntVar(&format, "format", pipeline.DefaultFormat, "format version of the tables written: 2 (one side to move stored, about a third of the size of version 1; a table made out of core is written in version 1), or 1 (both sides, byte for byte data/checksums.txt)")
	cmd.Flags().StringVar(&dtbProfiles, "dtb", "thai,cambodian", "rule profiles to generate DTB tables for (comma-separated; \"none\" for no DTB)")
	addGameFlag(cmd, &game)
	return cmd
}

// planFlags plans the tables of game g that --max-pieces or the materials
// and the --dtb list name (the targets, canonical, and every table in
// order).
func planFlags(g tb.Game, maxPieces int, args []string, dtbProfiles string) (plan, error) {
	targets, err := pipeline.Materials(g, maxPieces, args)
	if err != nil {
		return plan{}, err
	}
	profiles, err := pipeline.BoardProfiles(dtbProfiles)
	if err != nil {
		return plan{}, fmt.Errorf("--dtb: %w", err)
	}
	jobs, err := pipeline.Plan(g, targets, profiles)
	if err != nil {
		return plan{}, fmt.Errorf("--dtb: %w", err)
	}
	return plan{targets, profiles, jobs}, nil
}

// plan is what the flags of gen, plan and cluster plan: the targets
// (canonical), the --dtb profiles and every table in order.
type plan struct {
	targets  []tb.Material
	profiles []honour.Rules
	jobs     []pipeline.Job
}

// referenceChecksums are the checksums gen and verify hold the tables to:
// the repository's (tests change them).
var referenceChecksums = store.RepositoryReferences

// addWDLFormatFlag adds --wdl-format, the format of the WDL files written.
func addWDLFormatFlag(cmd *cobra.Command, version *int) {
	cmd.Flags().IntVar(version, "wdl-format", 0, "format of the WDL files written: 2 (zstd blocks, byte for byte data/checksums-v2.txt) or 3 (Re-Pair streams in 64-byte blocks, probed straight from the file with no cache; smaller for five pieces; byte for byte data/checksums-v3.txt). Default: 3 up to five pieces where it fits --memory (the version-3 writer takes about 17 bytes per index of a side), else 2, a file of either version made from the tables beside it kept")
}

// checkWDLFormat refuses a --wdl-format that is not a WDL file's format.
func checkWDLFormat(version int) error {
	if version != 0 && version != probe.Version2 && version != probe.Version3 {
		return fmt.Errorf("--wdl-format %d: the WDL formats are %d and %d", version, probe.Version2, probe.Version3)
	}
	return nil
}

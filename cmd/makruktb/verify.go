package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/internal/console"
	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb/honour"
)

func newVerifyCommand() *cobra.Command {
	var dir, scratch, game, profileFiles string
	var threads int
	var pending bool
	var memory int64
	cmd := &cobra.Command{
		Use:   "verify [--tables DIR] [--pending] [--memory SIZE] [--rules FILES] [MATERIAL | MATERIAL.PROFILE ...]",
		Short: "Check tables: checksums, then every value against its successors",
		Long: `Check tables: the file's SHA-256 against the directory's SHA256SUMS and
the reference checksums, and its internal checksums; then every stored
value against a one-ply search over the table and its sub-tables (the
tables of one material in one pass). A material names its DTM table and
the board's-honour (DTB) tables of it in the directory; MATERIAL.PROFILE
(e.g. KRvKN.thai) names one DTB table (with, under a profile whose
counting side's mates are draws, its files for a count either side runs).
The tables of a custom profile are checked when --rules gives its file. Without arguments, every table in
the directory is checked. A table that passes gets the day in the
directory's catalogue; --pending skips the tables whose mark there names
their current checksum, so a long verification can be resumed. Tables
that would take more than --memory held whole are read out of core: their
values go to scratch files (--scratch, default the table directory) and
memory holds only what the pass is reading; when the scratch disk cannot
hold the values of all the tables of a material, they are checked in
several passes.
Exits non-zero on any mismatch, naming the position.`,
		Example: "  makruktb verify\n  makruktb verify KRvKN KSSSvK\n  makruktb verify KRSvKN.thai\n  makruktb verify --pending",
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := probe.Dir(dir)
			if scratch == "" {
				scratch = dir
			}
			g, err := gameFlag(cmd, game, nil)
			if err != nil {
				return err
			}
			custom, err := honour.ParseCustomList(profileFiles)
			if err != nil {
				return fmt.Errorf("--rules: %w", err)
			}
			d, err := store.OpenDir(dir)
			if err != nil {
				return err
			}
			ids, err := pipeline.VerifyTargets(g, d, args, custom)
			if errors.Is(err, store.ErrNoTables) {
				return fmt.Errorf("%w; %s", err, tablesHint)
			}
			if err != nil {
				return err
			}
			if pending {
				sums, err := store.ReadChecksums(dir)
				if err != nil {
					return err
				}
				if ids, err = pipeline.Unverified(dir, ids, sums); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "%d tables not yet verified\n", len(ids))
			}
			v := &pipeline.Verifier{Dir: dir, Scratch: scratch, Memory: memory, Threads: threads, Reference: referenceChecksums(),
				Report: &console.Printer{Out: cmd.OutOrStdout(), ErrOut: cmd.ErrOrStderr()}, Profiles: custom}
			tally, err := v.Verify(cmd.Context(), ids)
			if err != nil {
				return err
			}
			return tallyError(tally)
		},
	}
	addTablesFlag(cmd, &dir)
	addThreadsFlag(cmd, &threads)
	addMemoryFlagUsage(cmd, &memory, "read out of core the tables of a material that would take more than SIZE held whole")
	cmd.Flags().StringVar(&scratch, "scratch", "", "directory for the values of tables read out of core (default: the table directory); its files are unlinked as soon as made")
	cmd.Flags().BoolVar(&pending, "pending", false, "only the tables that the directory's catalogue does not list as verified with their current checksum")
	cmd.Flags().StringVar(&profileFiles, "rules", "", "profile files (comma-separated) whose DTB and WDL files to check besides the built-in profiles'")
	addGameFlag(cmd, &game)
	return cmd
}

// tallyError says how many of the files verify looked at failed, and how
// many it could not check; nil when every one passed.
func tallyError(t pipeline.Tally) error {
	if t.Failed == 0 && t.Unchecked == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d of %s failed verification", t.Failed, units.Plural(t.Files, "file", "files"))
	if t.Unchecked > 0 {
		msg += fmt.Sprintf("; %d not checked, as a file they are made from failed", t.Unchecked)
	}
	return errors.New(msg)
}

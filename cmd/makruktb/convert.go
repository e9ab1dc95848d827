package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/internal/console"
	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

func newConvertCommand() *cobra.Command {
	var dir, profiles string
	var format, wdlFormat int
	var memory int64
	cmd := &cobra.Command{
		Use:   "convert [--tables DIR] [--format 2] [--wdl PROFILES] [MATERIAL...]",
		Short: "Convert a directory of tables to format version 2 and write their WDL files, without regenerating",
		Long: `With --format 2, first rewrite each DTM and DTB table of the materials as
a version-2 file, which stores one side to move (the other follows by a
one-ply search) and is about a third of the size; a verified table stays
verified. Then write, beside the DTM and DTB tables of a directory, the WDL file of each
material under each rule profile named by --wdl (any profile: "none"
alone means none, which with --format 2 converts the tables only; "thai,none" gives the plain results beside thai's): every position's category
(win, cursed-win, draw, blessed-loss, loss) when the count starts now, the
file an engine probes in its search. It is computed from the DTM table and,
for materials with pieces on both sides, the profile's DTB table, whose
checksums it records. Without materials, every DTM table of the directory
is converted. A WDL file already made from the tables beside it is kept, so
a run that was interrupted continues with what is missing; gen makes the
WDL files of the tables it generates itself.`,
		Example: `  makruktb convert
  makruktb convert --format 2
  makruktb convert --tables /tmp/tb --wdl thai KRRvKN`,
		RunE: func(cmd *cobra.Command, args []string) error {
			rules, err := honour.ParseList(profiles)
			if err != nil {
				return fmt.Errorf("--wdl: %w", err)
			}
			if err := checkWDLFormat(wdlFormat); err != nil {
				return err
			}
			if format != 1 && format != 2 {
				return fmt.Errorf("--format %d: the formats are 1 (leave the tables as they are) and 2", format)
			}
			if len(rules) == 0 && format == 1 {
				return fmt.Errorf("--wdl %q: nothing to do: name the profiles to write WDL files for, or give --format 2", profiles)
			}
			dir = probe.Dir(dir)
			var materials []tb.Material
			if len(args) > 0 {
				materials, err = pipeline.Materials(tb.Makruk, 0, args)
			} else {
				materials, err = tablesIn(dir)
			}
			if err != nil {
				return err
			}
			report := &console.Printer{Out: cmd.OutOrStdout(), ErrOut: cmd.ErrOrStderr()}
			if err := pipeline.RemoveStale(report, dir); err != nil {
				return err
			}
			d, err := store.OpenDir(dir)
			if err != nil {
				return err
			}
			d.Reference = referenceChecksums()
			return pipeline.Convert(cmd.Context(), report, d, pipeline.Conversion{Materials: materials, Profiles: rules, Format: format, Named: len(args) > 0, WDL: pipeline.WDLFormat{Version: wdlFormat, Memory: memory}})
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().StringVar(&profiles, "wdl", "thai,cambodian", "rule profiles to write WDL files for (comma-separated)")
	addWDLFormatFlag(cmd, &wdlFormat)
	addMemoryFlagUsage(cmd, &memory, "the memory a WDL file's writer may take: without --wdl-format, one that would take more in format 3 is written in format 2")
	cmd.Flags().IntVar(&format, "format", 1, "2: rewrite the DTM and DTB tables as version-2 files first (gen writes version 2 already); 1 leaves the tables as they are and writes the WDL files only")
	return cmd
}

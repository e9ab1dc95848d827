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
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

func newConvertCommand() *cobra.Command {
	var dir, profiles string
	var format int
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
			out := cmd.OutOrStdout()
			report := &console.Printer{Out: out, ErrOut: cmd.ErrOrStderr()}
			if err := pipeline.RemoveStale(report, dir); err != nil {
				return err
			}
			d, err := store.OpenDir(dir)
			if err != nil {
				return err
			}
			d.Reference = referenceChecksums()
			var converted map[string]bool
			if format == 2 {
				if converted, err = convertTables(cmd, report, d, materials, rules); err != nil {
					return err
				}
			}
			wrote, kept := 0, 0
			var bytes int64
			var missing []string
			writer := pipeline.NewWDLWriter(d)
			for _, m := range materials {
				writer.Done() // the previous material's tables
				for i := range rules {
					if err := cmd.Context().Err(); err != nil {
						return fmt.Errorf("interrupted before %s; a rerun continues from there", probe.WDLFileName(m, rules[i].Name))
					}
					res, err := writer.Write(cmd.Context(), report, m, &rules[i])
					switch {
					case errors.Is(err, probe.ErrNeedsBoardTable) && len(args) == 0:
						missing = append(missing, res.Name)
						continue
					case err != nil:
						return err
					case converted[res.Name]:
						wrote++ // and reported as it was written
					case res.Kept:
						kept++
					default:
						wrote++
						fmt.Fprintln(out, res)
					}
					bytes += res.Size
				}
			}
			if len(rules) == 0 {
				return nil // --format 2 --wdl none: the tables only
			}
			fmt.Fprintf(out, "%s written, %s kept: %s of WDL files in %s\n", units.Plural(wrote, "WDL file", "WDL files"), units.Plural(kept, "file", "files"), units.Bytes(bytes), dir)
			if len(missing) > 0 {
				fmt.Fprintf(out, "%s not written: their DTB tables are not in %s (makruktb gen --dtb PROFILE MATERIAL makes them): %v\n", units.Plural(len(missing), "WDL file", "WDL files"), dir, missing)
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().StringVar(&profiles, "wdl", "thai,cambodian", "rule profiles to write WDL files for (comma-separated)")
	cmd.Flags().IntVar(&format, "format", 1, "2: rewrite the DTM and DTB tables as version-2 files first (gen writes version 2 already); 1 leaves the tables as they are and writes the WDL files only")
	return cmd
}

// convertTables rewrites the DTM and DTB tables of materials in dir as
// version-2 files and writes their WDL files under rules
// (pipeline.ConvertMaterial, which reports each file), and returns the
// names of the WDL files written.
func convertTables(cmd *cobra.Command, report *console.Printer, dir *store.Dir, materials []tb.Material, rules []honour.Rules) (map[string]bool, error) {
	var before, after int64
	written := map[string]bool{}
	for _, m := range materials {
		tables, wdl, err := pipeline.ConvertMaterial(cmd.Context(), report, dir, m, rules)
		for _, res := range tables {
			before, after = before+res.Before, after+res.After
		}
		for _, res := range wdl {
			written[res.Name] = !res.Kept
		}
		if err != nil {
			return written, err
		}
	}
	fmt.Fprintf(report.Out, "tables in version 2: %s, %s before\n", units.Bytes(after), units.Bytes(before))
	return written, nil
}

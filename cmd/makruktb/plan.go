package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/internal/units"
	"github.com/makruktb/makruktb/retro"
)

func newPlanCommand() *cobra.Command {
	var dtbProfiles, game string
	var maxPieces int
	var memory int64
	cmd := &cobra.Command{
		Use:   "plan [--dtb PROFILES] [--memory SIZE] (--max-pieces N | MATERIAL...)",
		Short: "List the tables gen would make, in order, with their estimated memory, disk and time",
		Long: `List every table gen would generate for the materials (sub-tables first, as
gen orders them) with its index size and the estimates gen checks before
any work: peak memory (the table's state and the sub-tables it reads),
the file's size and the wall time on a 2-core machine; then the totals, in
CPU-hours for the time. A table whose memory exceeds --memory is
generated out of core, its state in scratch files: the plan gives the
memory, scratch disk, disk traffic and time it then takes (the traffic
and time at worst, when the page cache holds next to nothing). Materials the generator cannot make
(pawns, more than six pieces) are refused with the reason, before any
output; tables that exceed --memory even out of core are marked. Nothing is
generated.`,
		Example: "  makruktb plan KRSvKN\n  makruktb plan --max-pieces 6 --dtb none",
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := gameFlag(cmd, game, &dtbProfiles)
			if err != nil {
				return err
			}
			p, err := planFlags(g, maxPieces, args, dtbProfiles)
			if err != nil {
				return err
			}
			jobs := p.jobs
			out := cmd.OutOrStdout()
			fmt.Fprintln(out, "| table | pieces | index per side | memory | file | time (2 cores) | out of core: memory | scratch | disk read, written | time | note |\n|---|---|---|---|---|---|---|---|---|---|---|")
			var total retro.Estimate
			var peak, peakOutOfCore int64
			var tables, refused, outOfCore int
			for _, j := range jobs {
				tables++
				e, err := j.Estimate()
				if err != nil {
					refused++
					fmt.Fprintf(out, "| %s | %d | | | | | | | | | cannot: %v |\n", j.ID, j.ID.Material.Pieces(), err)
					continue
				}
				note := ""
				spill, err := j.OutOfCore(e, memory)
				switch {
				case err != nil:
					refused++
					note = "exceeds --memory " + units.Bytes(memory) + " even out of core"
				case spill:
					outOfCore++
					note = "out of core"
					peakOutOfCore = max(peakOutOfCore, e.OutOfCoreMemory)
				default:
					peak = max(peak, e.Memory)
				}
				fmt.Fprintf(out, "| %s | %d | %d | %s | %s | %s | %s | %s | %s, %s | %s | %s |\n", j.ID, j.ID.Material.Pieces(), e.Indices,
					units.Bytes(e.Memory), units.Bytes(e.Disk), e.Time.Round(time.Second),
					units.Bytes(e.OutOfCoreMemory), units.Bytes(e.Scratch), units.Bytes(e.OutOfCoreRead), units.Bytes(e.OutOfCoreWritten), e.OutOfCoreTime.Round(time.Second), note)
				total.Disk += e.Disk
				total.Time += e.Time
				if spill {
					total.Time += e.OutOfCoreTime - e.Time
				}
			}
			fmt.Fprintf(out, "\n%d tables: %.1f CPU-hours (%s wall on 2 cores), peak memory %s, %s of files", tables, 2*total.Time.Hours(), total.Time.Round(time.Second), units.Bytes(peak), units.Bytes(total.Disk))
			if outOfCore > 0 {
				fmt.Fprintf(out, "; %d out of core, within %s (their time with their disk traffic at worst)", outOfCore, units.Bytes(peakOutOfCore))
			}
			if refused > 0 {
				fmt.Fprintf(out, "; %d cannot be generated here", refused)
			}
			fmt.Fprintln(out)
			return nil
		},
	}
	cmd.Flags().IntVar(&maxPieces, "max-pieces", 0, "every pawnless table with up to N pieces")
	cmd.Flags().StringVar(&dtbProfiles, "dtb", "thai,cambodian", "rule profiles of the DTB tables (comma-separated; \"none\" for none)")
	addGameFlag(cmd, &game)
	addMemoryFlag(cmd, &memory)
	return cmd
}

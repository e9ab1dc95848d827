package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/cluster"
	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

func newClusterCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Generate tables on a Slurm cluster: a job per material, in dependency order",
		Long: `Generate tables on a Slurm cluster. "cluster submit" submits one batch job
per material (its DTM and DTB tables) with sbatch, each waiting (afterok)
for the jobs of the materials it needs, with --mem, --time and
--cpus-per-task from the generator's estimates (makruktb plan); every job
runs "makruktb gen" on the table directory, which every node must share.
Materials already done are skipped and jobs still queued are kept, so a
second submit resumes after a failure. "cluster status" says what is done,
queued, running and failed. The record of the jobs, their scripts and their
logs are in DIR/.cluster.`,
		Example: `  makruktb cluster submit --tables /shared/tb --max-pieces 6
  makruktb cluster status --tables /shared/tb --max-pieces 6`,
	}
	cmd.AddCommand(newClusterSubmitCommand(), newClusterStatusCommand())
	return cmd
}

// clusterPlan plans the jobs of --max-pieces or the materials.
// nodeMemory (0: none) is the most memory a job may ask for: tables that
// need more are made out of core.
func clusterPlan(g tb.Game, maxPieces int, args []string, dtb string, cpus int, nodeMemory int64) ([]cluster.Job, error) {
	p, err := planFlags(g, maxPieces, args, dtb)
	if err != nil {
		return nil, err
	}
	targets, jobs := p.targets, p.jobs
	if err := pipeline.CheckSupported(g, targets); err != nil {
		return nil, err
	}
	var tables []cluster.Table
	for _, j := range jobs {
		e, err := j.Estimate()
		if err != nil {
			return nil, err
		}
		t := cluster.Table{ID: j.ID, Estimate: e}
		if len(p.profiles) > 0 { // gen writes the material's WDL files
			m := j.ID.Material
			if t.WDL, err = pipeline.WDLMemory(g, m, pipeline.DefaultWDLVersion(m)); err != nil {
				return nil, err
			}
		}
		tables = append(tables, t)
	}
	return cluster.Jobs(tables, cpus, nodeMemory, func(m tb.Material) []tb.Material { return pipeline.Needs(g, m) })
}

// absTableDir is the table directory as an absolute path: the jobs run
// elsewhere.
func absTableDir(dir string) (string, error) {
	return filepath.Abs(probe.Dir(dir))
}

func newClusterSubmitCommand() *cobra.Command {
	var dir, dtb, partition, account, binary, scratch, game string
	var maxPieces, cpus, format int
	var dryRun bool
	var nodeMemory sizeFlag
	cmd := &cobra.Command{
		Use:   "submit [--tables DIR] [--game G] [--dtb PROFILES] [--partition P] [--account A] [--dry-run] (--max-pieces N | MATERIAL...)",
		Short: "Submit a Slurm job per material whose tables are missing, in dependency order",
		Long: `Plan the tables as gen does (sub-tables first), and submit with sbatch one
job per material whose tables are not all in DIR: its DTM and DTB tables,
made by "makruktb gen" with --threads and --memory set to the job's CPUs
and memory; with --node-memory, a table that needs more memory than that
asks for what it takes out of core (gen then makes it so, its state on
the disk of --scratch, by default the shared table directory; a disk
local to the node spares the shared file system). Each job waits (afterok) for the jobs of the materials it needs
that are not done; a job whose dependency fails is cancelled. A material
whose job is still queued or running keeps it. A present table whose
SHA-256 (as DIR/SHA256SUMS recorded it, or read when it has no record)
differs from the reference stops the submit before anything is submitted
("makruktb verify" checks the bytes themselves). Each job is recorded in DIR/.cluster/jobs.json
as soon as it is submitted; its script is in DIR/.cluster/scripts, its
output in DIR/.cluster/logs.`,
		Example: `  makruktb cluster submit --tables /shared/tb --max-pieces 5
  makruktb cluster submit --tables /shared/tb --dry-run --partition long KRNvKRN
  makruktb cluster submit --tables /shared/tb --game shatranj --max-pieces 5
  makruktb cluster submit --tables /shared/tb --node-memory 16GiB --scratch '$TMPDIR' --max-pieces 6`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cpus < 1 || cpus > 256 {
				return fmt.Errorf("--cpus %d: want 1 to 256", cpus)
			}
			if err := cluster.CheckScratch(scratch); err != nil {
				return err
			}
			if format != 1 && format != 2 {
				return fmt.Errorf("--format %d: the formats are 1 and 2", format)
			}
			g, err := gameFlag(cmd, game, &dtb)
			if err != nil {
				return err
			}
			jobs, err := clusterPlan(g, maxPieces, args, dtb, cpus, int64(nodeMemory))
			if err != nil {
				return err
			}
			abs, err := absTableDir(dir)
			if err != nil {
				return err
			}
			if binary == "" {
				if binary, err = os.Executable(); err != nil {
					return err
				}
			}
			if !dryRun {
				if err := os.MkdirAll(abs, 0o777); err != nil {
					return err
				}
			}
			s := &cluster.Submitter{
				Slurm: &cluster.Slurm{}, Dir: abs, DryRun: dryRun, Out: cmd.OutOrStdout(),
				Options: cluster.ScriptOptions{Binary: binary, Dir: abs, DTB: dtb, Format: format, Partition: partition, Account: account, LogDir: cluster.LogDir(abs), Scratch: scratch},
			}
			return s.Submit(cmd.Context(), jobs)
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().IntVar(&maxPieces, "max-pieces", 0, "every pawnless table with up to N pieces")
	cmd.Flags().StringVar(&dtb, "dtb", "thai,cambodian", "rule profiles of the DTB tables (comma-separated; \"none\" for none)")
	cmd.Flags().IntVar(&cpus, "cpus", 2, "CPUs per job (--cpus-per-task; gen's --threads)")
	cmd.Flags().IntVar(&format, "format", pipeline.DefaultFormat, "gen's --format in every job: 2 (one side to move stored) or 1 (both sides)")
	cmd.Flags().StringVar(&partition, "partition", "", "Slurm partition (default: the cluster's)")
	cmd.Flags().StringVar(&account, "account", "", "Slurm account (default: the user's)")
	cmd.Flags().StringVar(&binary, "binary", "", "the makruktb the jobs run, on the shared file system (default: this one)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the job scripts instead of submitting them")
	cmd.Flags().StringVar(&scratch, "scratch", "", "gen's --scratch in every job: a directory on each node for the state of tables made out of core; \"$NAME\" is the job's variable, such as '$TMPDIR' (default: the table directory)")
	addGameFlag(cmd, &game)
	cmd.Flags().Var(&nodeMemory, "node-memory", "the most memory a job may ask for: a table that needs more in memory is generated out of core within it (0: no limit)")
	return cmd
}

func newClusterStatusCommand() *cobra.Command {
	var dir, dtb, game string
	var maxPieces int
	var wait time.Duration
	cmd := &cobra.Command{
		Use:   "status [--tables DIR] [--game G] [--dtb PROFILES] [--wait TIMEOUT] (--max-pieces N | MATERIAL...)",
		Short: "Which materials are done, queued, running or failed",
		Long: `Say for each material of the plan whether its tables are done, its job
queued or running (squeue), failed (it ended without its tables: sacct or
scontrol say how) or not submitted. With --wait it first waits, up to
TIMEOUT, until no job is queued or running.

Exit status: 0 when every material is done, 2 when some are not, 1 on an
error.`,
		Example: "  makruktb cluster status --tables /shared/tb --max-pieces 5\n  makruktb cluster status --tables /shared/tb --wait 2h KRRvKN",
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := gameFlag(cmd, game, &dtb)
			if err != nil {
				return err
			}
			jobs, err := clusterPlan(g, maxPieces, args, dtb, 1, 0)
			if err != nil {
				return err
			}
			abs, err := absTableDir(dir)
			if err != nil {
				return err
			}
			sl := &cluster.Slurm{}
			statuses, err := cluster.WaitStatuses(cmd.Context(), sl, abs, jobs, wait)
			if err != nil {
				return err
			}
			if notDone := cluster.PrintStatuses(cmd.OutOrStdout(), statuses); notDone > 0 {
				return &exitStatus{code: 2}
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().IntVar(&maxPieces, "max-pieces", 0, "every pawnless table with up to N pieces")
	cmd.Flags().StringVar(&dtb, "dtb", "thai,cambodian", "rule profiles of the DTB tables (comma-separated; \"none\" for none)")
	cmd.Flags().DurationVar(&wait, "wait", 0, "wait up to this long until no job is queued or running")
	addGameFlag(cmd, &game)
	return cmd
}

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/spf13/cobra"
)

func newVerifyCommand() *cobra.Command {
	var dir string
	var threads int
	cmd := &cobra.Command{
		Use:   "verify [--tables DIR] [MATERIAL...]",
		Short: "Check tables: checksums, then every value against its successors",
		Long: `Check tables: the file's SHA-256 against checksums.txt and its internal
checksums, then every stored value against a one-ply search over the table
and its sub-tables. Without materials, every table in the directory is
checked. Exits non-zero on any mismatch, naming the position.`,
		Example: "  makruktb verify\n  makruktb verify KRvKN KSSSvK",
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := tableDir(dir)
			var materials []tb.Material
			for _, a := range args {
				m, err := parseMaterialArg(a)
				if err != nil {
					return err
				}
				materials = append(materials, m)
			}
			if len(args) == 0 {
				found, err := tablesInDir(dir)
				if err != nil {
					return err
				}
				materials = found
			}
			sums, err := readChecksums(dir)
			if err != nil {
				return err
			}
			cache := newTableCache(dir, 5)
			failed := 0
			for _, m := range materials {
				if err := verifyOne(cmd, dir, m, sums, cache, threads); err != nil {
					fmt.Fprintf(cmd.OutOrStdout(), "%-8s FAILED: %v\n", m, err)
					failed++
				}
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d tables failed verification", failed, len(materials))
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().IntVar(&threads, "threads", 0, "worker threads (default: all cores)")
	return cmd
}

func verifyOne(cmd *cobra.Command, dir string, m tb.Material, sums map[string]string, cache *tableCache, threads int) error {
	start := time.Now()
	path := tablePath(dir, m)
	want, ok := sums[filepath.Base(path)]
	if !ok {
		return fmt.Errorf("%s has no entry in %s", path, checksumFile)
	}
	got, err := fileSHA256(path)
	if errors.Is(err, os.ErrNotExist) {
		return &probe.MissingError{Material: m.String(), Dir: dir}
	}
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("%s: SHA-256 %s, %s records %s", path, got, checksumFile, want)
	}
	f, err := probe.OpenFile(path)
	if err != nil {
		return err
	}
	err = f.CheckData()
	f.Close()
	if err != nil {
		return err
	}
	table, err := cache.get(m)
	if err != nil {
		return err
	}
	bar := newBar(m.String())
	err = retro.Verify(cmd.Context(), table, cache.get, retro.Options{Threads: threads, Progress: bar.update})
	bar.finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%-8s ok  checksum and every value  %.1fs\n", m, time.Since(start).Seconds())
	return nil
}

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
and its sub-tables. A material's board's-honour (DTB) tables in the
directory are checked with its DTM table. Without materials, every table in
the directory is checked. Exits non-zero on any mismatch, naming the
position.`,
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
			var ids []tableID
			for _, m := range materials {
				ids = append(ids, dtmID(m))
				for _, r := range tb.BuiltinRules() {
					if id := (tableID{m, r.Name}); r.BoardPlies > 0 && fileExists(id.path(dir)) {
						ids = append(ids, id)
					}
				}
			}
			cache := newTableCache(dir, 5)
			failed := 0
			for _, id := range ids {
				if err := verifyOne(cmd, dir, id, sums, cache, threads); err != nil {
					fmt.Fprintf(cmd.OutOrStdout(), "%-15s FAILED: %v\n", id, err)
					failed++
				}
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d tables failed verification", failed, len(ids))
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().IntVar(&threads, "threads", 0, "worker threads (default: all cores)")
	return cmd
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func verifyOne(cmd *cobra.Command, dir string, id tableID, sums map[string]string, cache *tableCache, threads int) error {
	start := time.Now()
	path := id.path(dir)
	want, ok := sums[filepath.Base(path)]
	if !ok {
		return fmt.Errorf("%s has no entry in %s", path, checksumFile)
	}
	got, err := fileSHA256(path)
	if errors.Is(err, os.ErrNotExist) {
		return &probe.MissingError{Material: id.String(), Dir: dir}
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
	table, err := cache.load(id)
	if err != nil {
		return err
	}
	bar := newBar(id.String())
	opts := retro.Options{Threads: threads, Progress: bar.update}
	if id.rules == "" {
		err = retro.Verify(cmd.Context(), table, cache.get, opts)
	} else {
		var r tb.Rules
		if r, err = tb.LookupRules(id.rules); err == nil {
			err = retro.VerifyDTB(cmd.Context(), table, &r, cache.get, cache.board(id.rules), opts)
		}
	}
	bar.finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%-15s ok  checksum and every value  %.1fs\n", id, time.Since(start).Seconds())
	return nil
}

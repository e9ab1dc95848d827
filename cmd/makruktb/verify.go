package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
		Use:   "verify [--tables DIR] [MATERIAL | MATERIAL.PROFILE ...]",
		Short: "Check tables: checksums, then every value against its successors",
		Long: `Check tables: the file's SHA-256 against checksums.txt and its internal
checksums, then every stored value against a one-ply search over the table
and its sub-tables. A material names its DTM table and the board's-honour
(DTB) tables of it in the directory; MATERIAL.PROFILE (e.g. KRvKN.thai)
names one DTB table. Without arguments, every table in the directory is
checked. Exits non-zero on any mismatch, naming the position.`,
		Example: "  makruktb verify\n  makruktb verify KRvKN KSSSvK\n  makruktb verify KRSvKN.thai",
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := tableDir(dir)
			ids, err := verifyTargets(dir, args)
			if err != nil {
				return err
			}
			sums, err := readChecksums(dir)
			if err != nil {
				return err
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

// verifyTargets returns the tables the arguments name (see verify's help),
// or every table in dir when there are none.
func verifyTargets(dir string, args []string) ([]tableID, error) {
	var ids []tableID
	if len(args) == 0 {
		materials, err := tablesInDir(dir)
		if err != nil {
			return nil, err
		}
		for _, m := range materials {
			args = append(args, m.String())
		}
	}
	for _, a := range args {
		name, profile, one := strings.Cut(a, ".")
		m, err := parseMaterialArg(name)
		if err != nil {
			return nil, err
		}
		if one {
			r, err := tb.LookupRules(profile)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", a, err)
			}
			if r.BoardPlies == 0 {
				return nil, fmt.Errorf("%s: the %s rules have no board's honour, so no DTB table", a, r.Name)
			}
			if !retro.HasBoardHonour(m) {
				return nil, fmt.Errorf("%s: %s has a bare king, so no DTB table", a, m)
			}
			ids = append(ids, tableID{m, r.Name})
			continue
		}
		ids = append(ids, dtmID(m))
		for _, r := range tb.BuiltinRules() {
			if id := (tableID{m, r.Name}); r.BoardPlies > 0 && fileExists(id.path(dir)) {
				ids = append(ids, id)
			}
		}
	}
	return ids, nil
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

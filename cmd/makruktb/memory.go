package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/makruktb/makruktb/retro"
	"github.com/spf13/cobra"
)

// memoryMargin is what the default --memory leaves of the machine's RAM
// to the system and the tables gen keeps cached between tables.
const memoryMargin = 2 << 30

// sizeFlag is a --memory value: a number of bytes with an optional unit,
// B, KiB, MiB, GiB or TiB (K, M, G, T and KB … TB mean the same binary
// units); 0 means no limit.
type sizeFlag int64

func (s *sizeFlag) Set(text string) error {
	n, err := parseSize(text)
	if err != nil {
		return err
	}
	*s = sizeFlag(n)
	return nil
}

func (s *sizeFlag) String() string { return humanBytes(int64(*s)) }
func (s *sizeFlag) Type() string   { return "SIZE" }

// parseSize reads "24GiB", "512M", "1.5G" or "1000000" (bytes).
func parseSize(text string) (int64, error) {
	t := strings.TrimSpace(text)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	number, unit := t, ""
	if i >= 0 {
		number, unit = t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	}
	f, err := strconv.ParseFloat(number, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("%q: want a size such as 20GiB, 512MiB or a number of bytes", text)
	}
	shift := map[string]uint{"": 0, "B": 0, "K": 10, "KB": 10, "KIB": 10, "M": 20, "MB": 20, "MIB": 20, "G": 30, "GB": 30, "GIB": 30, "T": 40, "TB": 40, "TIB": 40}
	s, ok := shift[unit]
	if !ok {
		return 0, fmt.Errorf("%q: unknown unit %q (B, KiB, MiB, GiB or TiB)", text, unit)
	}
	return int64(f * float64(uint64(1)<<s)), nil
}

// machineMemory returns the machine's RAM from /proc/meminfo, 0 if it
// cannot tell.
func machineMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// addMemoryFlag adds --memory, by default the machine's RAM less a margin.
func addMemoryFlag(cmd *cobra.Command, limit *int64) {
	*limit = max(machineMemory()-memoryMargin, 0)
	cmd.Flags().Var((*sizeFlag)(limit), "memory", "refuse, before any work, a table whose estimated peak memory exceeds SIZE (0: no limit; default: the machine's RAM less 2 GiB)")
}

// estimate returns a planned job's estimate.
func (j job) estimate() (retro.Estimate, error) {
	return retro.EstimateTable(j.id.Material, j.rules != nil)
}

// checkMemory refuses, before any work, a plan with a table whose
// estimated peak memory exceeds limit (0: no limit).
func checkMemory(jobs []job, limit int64) error {
	if limit <= 0 {
		return nil
	}
	for _, j := range jobs {
		e, err := j.estimate()
		if err != nil {
			return err
		}
		if e.Memory > limit {
			return fmt.Errorf("cannot generate %s: it needs about %s of memory (%d indices per side), --memory allows %s (see makruktb plan)",
				j.id, humanBytes(e.Memory), e.Indices, humanBytes(limit))
		}
	}
	return nil
}

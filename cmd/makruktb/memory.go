package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/makruktb/makruktb/probe"
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
	cmd.Flags().Var((*sizeFlag)(limit), "memory", "the memory a table may take: one that needs more in memory is generated out of core (its state on disk, see --scratch), one that needs more even then is refused before any work (0: no limit; default: the machine's RAM less 2 GiB)")
}

// estimate returns a planned job's estimate.
func (j job) estimate() (retro.Estimate, error) {
	return retro.EstimateTable(j.id.Material, j.rules != nil)
}

// outOfCore says whether a table of estimate e is generated out of core
// within limit (0: no limit), or why it cannot be generated within it.
func (j job) outOfCore(e retro.Estimate, limit int64) (bool, error) {
	switch {
	case limit <= 0 || e.Memory <= limit:
		return false, nil
	case e.OutOfCoreMemory <= limit:
		return true, nil
	}
	return false, fmt.Errorf("cannot generate %s: it needs about %s of memory (%d indices per side), or %s out of core; --memory allows %s (see makruktb plan)",
		j.id, humanBytes(e.Memory), e.Indices, humanBytes(e.OutOfCoreMemory), humanBytes(limit))
}

// checkResources refuses, before any work, a plan with a table that does
// not fit limit even out of core, or whose scratch files and checkpoint
// (with checkpoints on, at its budgeted compressed size) would not fit in
// the free space of the scratch directory.
func checkResources(jobs []job, limit int64, scratch string, checkpoints bool) error {
	var need, scratchFiles, checkpoint int64
	var needing probe.ID
	for _, j := range jobs {
		e, err := j.estimate()
		if err != nil {
			return err
		}
		spill, err := j.outOfCore(e, limit)
		if err != nil {
			return err
		}
		var files, saved int64
		if spill {
			files = e.Scratch
		}
		if checkpoints {
			saved = retro.CheckpointEstimate(e.Indices)
		}
		if files+saved > need {
			need, scratchFiles, checkpoint, needing = files+saved, files, saved, j.id
		}
	}
	if need == 0 {
		return nil
	}
	free, err := retro.FreeDisk(scratch)
	if err != nil {
		return fmt.Errorf("--scratch: %w", err)
	}
	if free >= need {
		return nil
	}
	switch {
	case checkpoint == 0:
		return fmt.Errorf("cannot generate %s out of core: its scratch files take %s, %s has %s free (--scratch names another directory)",
			needing, humanBytes(need), scratch, humanBytes(free))
	case scratchFiles == 0:
		return fmt.Errorf("cannot generate %s: its checkpoint takes %s, %s has %s free (--scratch names another directory, --checkpoint 0 saves none)",
			needing, humanBytes(need), scratch, humanBytes(free))
	}
	return fmt.Errorf("cannot generate %s out of core: its scratch files and checkpoint take %s and %s, %s has %s free (--scratch names another directory, --checkpoint 0 saves none)",
		needing, humanBytes(scratchFiles), humanBytes(checkpoint), scratch, humanBytes(free))
}

// diskIO returns the bytes this process has read from and written to
// storage so far (/proc/self/io), or ok false where the kernel does not
// tell.
func diskIO() (read, written int64, ok bool) {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, 0, false
	}
	var found int
	for _, line := range strings.Split(string(data), "\n") {
		name, value, _ := strings.Cut(line, ": ")
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		switch {
		case err != nil:
		case name == "read_bytes":
			read, found = n, found+1
		case name == "write_bytes":
			written, found = n, found+1
		}
	}
	return read, written, found == 2
}

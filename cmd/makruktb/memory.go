package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/internal/sysinfo"
	"github.com/makruktb/makruktb/internal/units"
)

// memoryMargin is what the default --memory leaves of the machine's RAM
// to the system and the tables gen keeps cached between tables.
const memoryMargin = 2 << 30

// sizeFlag is a --memory value (units.ParseSize); 0 means no limit.
type sizeFlag int64

func (s *sizeFlag) Set(text string) error {
	n, err := units.ParseSize(text)
	if err != nil {
		return err
	}
	*s = sizeFlag(n)
	return nil
}

func (s *sizeFlag) String() string { return units.Bytes(int64(*s)) }
func (s *sizeFlag) Type() string   { return "SIZE" }

// addMemoryFlag adds --memory, by default the machine's RAM less a margin.
func addMemoryFlag(cmd *cobra.Command, limit *int64) {
	addMemoryFlagUsage(cmd, limit, "the memory a table may take: one that needs more in memory is generated out of core (its state on disk, see --scratch), one that needs more even then is refused before any work")
}

// addMemoryFlagUsage adds --memory with its usage, its default (the
// machine's RAM less 2 GiB) said once, with its size on this machine.
func addMemoryFlagUsage(cmd *cobra.Command, limit *int64, usage string) {
	*limit = max(sysinfo.Memory()-memoryMargin, 0)
	cmd.Flags().Var((*sizeFlag)(limit), "memory", fmt.Sprintf("%s (0: no limit; default: the machine's RAM less 2 GiB, here %s)", usage, units.Bytes(*limit)))
	cmd.Flags().Lookup("memory").DefValue = "" // said in the usage
}

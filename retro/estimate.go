package retro

import (
	"time"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
)

// Estimate is what generating one table is expected to take, worked out
// before any work from the sizes of its index and of its sub-tables'.
type Estimate struct {
	Indices uint64 // per side to move
	// Memory is the peak: the generator's state of the table (a byte and a
	// settled bit per index and side, the presence bits) and every
	// sub-table it reads, held whole at a byte per index and side; the
	// same for DTB.
	Memory int64
	// Disk is the table file, roughly: the files up to five pieces take
	// 0.01–0.35 bytes per index and side; this takes the top of that range.
	Disk int64
	// OutOfCoreMemory is the peak out of core (Options.Scratch): the
	// slices of the state a pass holds at once (the window), the presence
	// bits, the sub-tables and a margin for the runtime.
	OutOfCoreMemory int64
	// Scratch is the disk a generation out of core keeps its state on.
	Scratch int64
	// OutOfCoreRead and OutOfCoreWritten are the disk traffic out of core
	// when the page cache holds next to nothing of the state, and
	// OutOfCoreTime the wall time then: Time plus that traffic at this
	// machine's disk rates. Memory to spare for the page cache lowers both.
	OutOfCoreRead, OutOfCoreWritten int64
	OutOfCoreTime                   time.Duration
	// Time is the wall time on this project's 2-core machine: 0.13–0.28 µs
	// per index and side up to five pieces (KRvKN 0.13, KRSvKN 0.15, KRRvKN
	// 0.17, KSSSvK 0.28); this takes 0.2 µs.
	Time time.Duration
}

// The rates of a generation out of core, measured on the 2-core machine.
// Its traffic grows with the number of passes, which is not known before
// the table is solved: KRSvKN in a 256 MiB memory cgroup (its state takes
// 1.06 GB) read 66.6 GB and wrote 26.5 GB, some 90 passes of a little
// under its state each (70 and 28 bytes per index and side); KSSvKSM with
// 24 GB (its state takes 33.5 GB, the page cache kept a quarter of it)
// had read 3.79 TB and written 1.17 TB by its pass 154 (127 and 39 bytes),
// the figures taken here. The disk reads 670 MB/s and writes 283 MB/s (dd,
// direct I/O).
const (
	estimateReadPerIndex    = 127 // bytes per index and side
	estimateWrittenPerIndex = 39
	estimateReadRate        = 670e6 // bytes per second
	estimateWriteRate       = 283e6
)

// outOfCoreMargin is what a generation out of core takes beside its
// arrays: the runtime, the overflow values, the file writer's buffers.
const outOfCoreMargin = 96 << 20

// The rates behind Estimate, measured on the 2-core machine
// (data/tables.md: time and file size over index size).
const (
	estimateDiskPerIndex = 0.35 // bytes per index and side
	estimateTimePerIndex = 200 * time.Nanosecond
)

// EstimateTable estimates the generation of the DTM table of m in game g
// (dtb false) or of one of its DTB tables (dtb true).
func EstimateTable(g tb.Game, m tb.Material, dtb bool) (Estimate, error) {
	if err := Supported(g, m); err != nil {
		return Estimate{}, err
	}
	space, err := index.NewGame(g, m)
	if err != nil {
		return Estimate{}, err
	}
	size := space.Size()
	whole := func(indices uint64) int64 { return 2 * int64(indices) } // a table held whole (value.Array), both sides
	e := Estimate{
		Indices: size,
		Memory:  whole(size) + 2*int64(newPresenceBytes(size)) + 2*int64((size+63)/64*8),
		Disk:    int64(estimateDiskPerIndex * float64(2*size)),
		Time:    time.Duration(2*size) * estimateTimePerIndex,
	}
	per := space.PerKingPair()
	e.Scratch = ScratchBytes(space)
	window := int64(newWindow(space, true).peak) * int64(per+per/8+2*8)
	ranges := 2 * 2 * int64(per) * 2 // a DTB seed's draws, read a king pair at a time by two workers
	e.OutOfCoreMemory = window + 2*int64(newPresenceBytes(size)) + ranges + outOfCoreMargin
	e.OutOfCoreRead = estimateReadPerIndex * 2 * int64(size)
	e.OutOfCoreWritten = estimateWrittenPerIndex * 2 * int64(size)
	e.OutOfCoreTime = e.Time + time.Duration((float64(e.OutOfCoreRead)/estimateReadRate+float64(e.OutOfCoreWritten)/estimateWriteRate)*float64(time.Second))
	seen := map[tb.Material]bool{}
	for _, sub := range m.Captures() {
		canon, _ := sub.Canonical()
		if canon.Pieces() == 2 || seen[canon] || Supported(g, canon) != nil {
			continue
		}
		seen[canon] = true
		s, err := index.NewGame(g, canon)
		if err != nil {
			return Estimate{}, err
		}
		e.Memory += whole(s.Size())
		e.OutOfCoreMemory += whole(s.Size())
	}
	// For DTB the draws are copied into the settled bits and their table
	// let go before the state bytes are made, and the summary reads the
	// DTM table a king pair at a time: the peak is the same as for DTM.
	return e, nil
}

// newPresenceBytes is the size of one side's presence bits (newPresence).
func newPresenceBytes(size uint64) uint64 {
	return (size + 1<<presenceShift - 1) >> presenceShift * (maxCode + 1) / 64 * 8
}

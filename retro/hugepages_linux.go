package retro

import (
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/makruktb/makruktb/probe"
)

// adviseHugePages asks the kernel to back a large state array with huge
// pages: the generator touches it at random, and 2 MiB pages spare most
// TLB misses. Failure is harmless (the advice is only advice).
func adviseHugePages(states []probe.Value) {
	const huge = 2 << 20
	if len(states)*2 < 4*huge {
		return
	}
	mem := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(states))), len(states)*2)
	skip := (huge - int(uintptr(unsafe.Pointer(&mem[0]))%huge)) % huge
	mem = mem[skip:]
	mem = mem[:len(mem)&^(huge-1)]
	_ = unix.Madvise(mem, unix.MADV_HUGEPAGE)
}

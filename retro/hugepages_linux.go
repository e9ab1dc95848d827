package retro

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHugePages asks the kernel to back a large array the generator
// touches at random (the states, the settled bits, the sub-tables) with
// huge pages: 2 MiB pages spare most TLB misses. The advice only reaches
// pages not yet touched, and Go zeroes a large slice itself when it reuses
// freed memory, so the pages already there are collapsed into huge ones
// too (Linux 6.1 and later). Failure is harmless: the advice is only
// advice.
func adviseHugePages[E any](s []E) {
	const huge = 2 << 20
	size := len(s) * int(unsafe.Sizeof(*new(E)))
	if size < 4*huge {
		return
	}
	mem := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), size)
	skip := (huge - int(uintptr(unsafe.Pointer(&mem[0]))%huge)) % huge
	mem = mem[skip:]
	mem = mem[:len(mem)&^(huge-1)]
	_ = unix.Madvise(mem, unix.MADV_HUGEPAGE)
	_ = unix.Madvise(mem, unix.MADV_COLLAPSE)
}

//go:build !linux

package retro

// adviseHugePages does nothing where the kernel takes no such advice.
func adviseHugePages[E any]([]E) {}

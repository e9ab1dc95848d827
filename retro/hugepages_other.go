//go:build !linux

package retro

import "github.com/makruktb/makruktb/probe"

// adviseHugePages does nothing where the kernel takes no such advice.
func adviseHugePages([]probe.Value) {}

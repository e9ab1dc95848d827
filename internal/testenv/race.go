//go:build race

package testenv

// RaceEnabled says whether the race detector is on: it makes sync.Pool
// drop items at random, so a test of recycling cannot count allocations.
const RaceEnabled = true

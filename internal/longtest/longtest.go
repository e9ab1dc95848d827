// Package longtest gates the tests that take minutes; it imports nothing of
// the project, so that every package's tests can use it.
package longtest

import (
	"os"
	"testing"
)

// Skip skips a test that takes minutes unless $MAKRUKTB_LONG is 1: make
// test stays within ten minutes on two cores, and make test-long (a later
// step of CI) runs these. why says what the test does, for the skip.
func Skip(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("MAKRUKTB_LONG") != "1" {
		t.Skipf("%s: minutes; make test-long (MAKRUKTB_LONG=1) runs it", why)
	}
}

// Runs returns how many times a test repeats what it checks: short in
// make test, long with $MAKRUKTB_LONG set to 1.
func Runs(short, long int) int {
	if os.Getenv("MAKRUKTB_LONG") == "1" {
		return long
	}
	return short
}

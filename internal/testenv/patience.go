package testenv

import (
	"testing"
	"time"
)

// Patience is how long a test waits for an event before it calls it
// lost: most of what is left of go test's -timeout, so that a loaded
// machine is slow, never failed; ten minutes when the test has no
// deadline. No test asserts how long something took.
func Patience(t testing.TB) time.Duration {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, set := d.Deadline(); set {
			return max(time.Until(deadline)*9/10-5*time.Second, time.Second)
		}
	}
	return 10 * time.Minute
}

//go:build !unix

package store

// Lock does nothing where flock(2) is missing: run one gen or verify
// per table directory at a time there.
func Lock(string) (func(), error) { return func() {}, nil }

// LockGeneration does nothing where flock(2) is missing.
func LockGeneration(string, func(string)) (func(), error) { return func() {}, nil }

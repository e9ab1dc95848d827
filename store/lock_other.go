//go:build !unix

package store

import "context"

// Lock does nothing where flock(2) is missing: run one gen or verify
// per table directory at a time there.
func Lock(string) (func(), error) { return func() {}, nil }

// LockTable does nothing where flock(2) is missing.
func LockTable(context.Context, string, string, func(string)) (func(), error) {
	return func() {}, nil
}

// Package data is the reference the repository ships with its code: the
// SHA-256 of every table file as this project generates it
// (checksums.txt, and checksums-v2.txt for the files of format version 2;
// compiled into the binary) and the measured table of
// tables (tables.md, for people). Generation is deterministic, so a table
// that differs from its reference checksum means the generator's output
// changed.
//
// The tables themselves and what a user's own runs record — the
// checksums of the tables generated in a directory and their catalogue
// with verified marks — live in the table directory, outside git.
package data

import (
	_ "embed"
	"strings"
)

// ReferenceName names the reference checksums in messages.
const ReferenceName = "the reference data/checksums.txt"

// ReferenceV2Name names the reference checksums of the files of format
// version 2 (the WDL files) in messages.
const ReferenceV2Name = "the reference data/checksums-v2.txt"

//go:embed checksums.txt
var checksums string

//go:embed checksums-v2.txt
var checksumsV2 string

// Checksums returns the reference SHA-256 (hex) of each table file, by
// file name ("KRvKN.mtbm", "KRvKN.thai.mtbb", and from checksums-v2.txt
// "KRvKN.thai.mtbw").
func Checksums() map[string]string {
	sums := map[string]string{}
	for _, list := range []string{checksums, checksumsV2} {
		for _, line := range strings.Split(list, "\n") {
			if fields := strings.Fields(line); len(fields) == 2 {
				sums[fields[1]] = fields[0]
			}
		}
	}
	return sums
}

// Package data is the reference the repository ships with its code: the
// SHA-256 of every table file as this project generates it
// (checksums.txt for a directory of format version 1, checksums-v2.txt
// for one of version 2, checksums-v3.txt for the WDL files of format
// version 3 written beside version-2 tables; compiled into the binary)
// and the measured table of tables (tables.md, for people). Generation is deterministic, so a table
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

// ReferenceV2Name names the reference checksums of a version-2 directory
// in messages.
const ReferenceV2Name = "the reference data/checksums-v2.txt"

// ReferenceV3Name names the reference checksums of version-3 WDL files
// in messages.
const ReferenceV3Name = "the reference data/checksums-v3.txt"

//go:embed checksums.txt
var checksums string

//go:embed checksums-v2.txt
var checksumsV2 string

// Checksums returns the reference SHA-256 (hex) of each file of a
// version-1 table directory, by file name: the DTM and DTB tables
// ("KRvKN.mtbm", "KRvKN.thai.mtbb") and the WDL files made from them
// ("KRvKN.thai.mtbw"), from checksums.txt.
func Checksums() map[string]string { return parse(checksums) }

// ChecksumsV2 returns the reference SHA-256 of each file of a version-2
// table directory (tables that store one side to move, and the WDL files
// made from them), from checksums-v2.txt. The names are those of
// version 1: a directory holds one file per table.
func ChecksumsV2() map[string]string { return parse(checksumsV2) }

//go:embed checksums-v3.txt
var checksumsV3 string

// ChecksumsV3 returns the reference SHA-256 of each WDL file of format
// version 3 made from the version-2 tables of ChecksumsV2, from
// checksums-v3.txt. The names are those of the version-2 WDL files (a
// directory holds one file per material and profile, of either version).
func ChecksumsV3() map[string]string { return parse(checksumsV3) }

// ReferenceNameOf names the reference list of format version in
// messages.
func ReferenceNameOf(version int) string {
	switch version {
	case 2:
		return ReferenceV2Name
	case 3:
		return ReferenceV3Name
	}
	return ReferenceName
}

func parse(list string) map[string]string {
	sums := map[string]string{}
	for _, line := range strings.Split(list, "\n") {
		if fields := strings.Fields(line); len(fields) == 2 {
			sums[fields[1]] = fields[0]
		}
	}
	return sums
}

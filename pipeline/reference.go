package pipeline

import (
	"github.com/makruktb/makruktb/data"
	"github.com/makruktb/makruktb/probe"
)

// References are the checksums the files of a table directory are held
// to, by the format version of the tables: V1 for version-1 tables and
// the WDL files made from them, V2 for version-2 tables and theirs (the
// two kinds of directory give the same names different bytes). A file
// named in the list of its version must match it.
type References struct{ V1, V2 map[string]string }

// RepositoryReferences returns the repository's lists, data.Checksums and
// data.ChecksumsV2.
func RepositoryReferences() References {
	return References{V1: data.Checksums(), V2: data.ChecksumsV2()}
}

// Of returns the list of format version and its name for messages.
func (r References) Of(version int) (map[string]string, string) {
	if version == probe.Version2 {
		return r.V2, data.ReferenceV2Name
	}
	return r.V1, data.ReferenceName
}

// versionOf returns the format version of the table file at path, and
// version 1 when it cannot be read (the checks that follow say why).
func versionOf(path string) int {
	f, err := probe.OpenFile(path)
	if err != nil {
		return probe.Version
	}
	defer f.Close()
	return f.Header.Version
}

package probe

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// ID names a table: the DTM table of a canonical material (Rules "") or
// its board's-honour (DTB) table under a rule profile. Its file name is
// "KRvKN.mtbm" or "KRvKN.thai.mtbb"; its name in lists "KRvKN" or
// "KRvKN.thai". A Shatranj table (Game Shatranj: DTM only, Shatranj has no
// count) is "KRvKQ.shatranj.mtbm", "KRvKQ.shatranj" in lists, its material
// in Shatranj's letters, so both games' tables share a directory.
type ID struct {
	Material tb.Material
	Rules    string
	Game     tb.Game // the zero value: Makruk
}

// BoardID is the ID of DTB file v of m under a profile: "KRvKN.thai",
// or, for a count one side runs where the profile scores that side's
// mates as draws, "KRvKN.mine@white" (honour.Variant).
func BoardID(m tb.Material, profile string, v honour.Variant) ID {
	return ID{Material: m, Rules: profile + v.Suffix()}
}

// Profile splits a DTB table's Rules into its profile's name and its file
// (BoardID): "mine@white" is mine's file of a count White runs.
func (id ID) Profile() (string, honour.Variant) {
	for _, v := range []honour.Variant{honour.WhiteCounting, honour.BlackCounting} {
		if p, ok := strings.CutSuffix(id.Rules, v.Suffix()); ok {
			return p, v
		}
	}
	return id.Rules, honour.OwnFile
}

// ShatranjID is the ID of the Shatranj DTM table of m.
func ShatranjID(m tb.Material) ID { return ID{Material: m, Game: tb.Shatranj} }

// DTMID is the ID of m's DTM table.
func DTMID(m tb.Material) ID { return ID{Material: m} }

// Metric returns DTM or DTB.
func (id ID) Metric() Metric {
	if id.Rules == "" {
		return DTM
	}
	return DTB
}

// FileName is e.g. "KRvKN.mtbm" or "KRvKN.thai.mtbb" (Shatranj:
// "KRvKQ.shatranj.mtbm").
func (id ID) FileName() string {
	if id.Game != tb.Makruk {
		return id.String() + DTM.Extension()
	}
	if id.Rules == "" {
		return FileName(id.Material, DTM)
	}
	return BoardFileName(id.Material, id.Rules)
}

// WDLFileName is the name of the WDL file that answers for a DTB table's
// ID, e.g. "KRvKN.thai.mtbw".
func (id ID) WDLFileName() string { return WDLFileName(id.Material, id.Rules) }

// FileName returns the DTM table's file name, e.g. "KRvK.mtbm".
func FileName(m tb.Material, metric Metric) string { return m.String() + metric.Extension() }

// BoardFileName returns the name of the DTB table of m under a rule
// profile, e.g. "KRvKN.thai.mtbb".
func BoardFileName(m tb.Material, rules string) string {
	return m.String() + "." + rules + DTB.Extension()
}

// WDLFileName returns the name of m's WDL file under a rule profile, e.g.
// "KRvKN.thai.mtbw".
func WDLFileName(m tb.Material, rules string) string {
	return m.String() + "." + rules + WDL.Extension()
}

// Path returns the table's file in dir.
func (id ID) Path(dir string) string { return filepath.Join(dir, id.FileName()) }

// String is e.g. "KRvKN" or "KRvKN.thai" (Shatranj: "KRvKQ.shatranj").
func (id ID) String() string {
	if id.Game != tb.Makruk {
		return id.Game.MaterialName(id.Material) + "." + id.Game.String()
	}
	if id.Rules == "" {
		return id.Material.String()
	}
	return id.Material.String() + "." + id.Rules
}

// ParseFileName reads a table's file name, "KRvKN.mtbm" (DTM) or
// "KRvKN.thai.mtbb" (DTB); false for any other name.
func ParseFileName(name string) (ID, bool) {
	var id ID
	if base, ok := strings.CutSuffix(name, DTB.Extension()); ok {
		i := strings.LastIndexByte(base, '.')
		if i < 0 || i == len(base)-1 {
			return id, false
		}
		name, id.Rules = base[:i], base[i+1:]
	} else if name, ok = strings.CutSuffix(name, DTM.Extension()); !ok {
		return id, false
	} else if base, ok := strings.CutSuffix(name, "."+tb.Shatranj.String()); ok {
		name, id.Game = base, tb.Shatranj
	}
	m, err := id.Game.ParseMaterial(name)
	if err != nil || !m.IsCanonical() || m.HasPawns() {
		return id, false
	}
	id.Material = m
	return id, true
}

// Dir is the one rule for where the tables are: dir when given, else
// $MAKRUKTB_PATH, else ./data.
func Dir(dir string) string {
	if dir != "" {
		return dir
	}
	if env := os.Getenv("MAKRUKTB_PATH"); env != "" {
		return env
	}
	return "data"
}

// Scan lists the tables in dir, DTM and board's-honour, by their file
// names (files are not opened), in the order of the directory's names.
func Scan(dir string) ([]ID, error) {
	tables, _, err := scan(dir)
	return tables, err
}

// scan is Scan that also lists the WDL files, each by the ID of the
// material and rule profile it answers for (as a DTB table's ID).
func scan(dir string) (tables, wdl []ID, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if id, ok := ParseFileName(e.Name()); ok {
			tables = append(tables, id)
		} else if id, ok := ParseWDLFileName(e.Name()); ok {
			wdl = append(wdl, id)
		}
	}
	return tables, wdl, nil
}

// ParseWDLFileName reads a WDL file's name, "KRvKN.thai.mtbw", into the
// ID of the DTB table it answers for.
func ParseWDLFileName(name string) (ID, bool) {
	base, ok := strings.CutSuffix(name, WDL.Extension())
	if !ok {
		return ID{}, false
	}
	id, ok := ParseFileName(base + DTB.Extension())
	return id, ok && id.Rules != "" && id.Game == tb.Makruk
}

// ParseID reads a table's name in lists (String): "KRvKN", "KRvKN.thai",
// "KRvKQ.shatranj".
func ParseID(name string) (ID, bool) {
	ext := DTM.Extension()
	if strings.Contains(name, ".") && !strings.HasSuffix(name, "."+tb.Shatranj.String()) {
		ext = DTB.Extension()
	}
	return ParseFileName(name + ext)
}

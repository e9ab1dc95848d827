package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/makruktb/makruktb/internal/atomicfile"
	"github.com/makruktb/makruktb/tb/honour"
)

// A table directory records the custom rule profiles (profile files) its
// DTB and WDL files were made under, one file each, PROFILE.rules.json,
// so that verify, the explorer and every other reader can tell the rules
// of KRvKN.PROFILE.mtbb without being told again. The built-in profiles
// are not recorded: their names say all.

// profileSuffix ends the name of a recorded profile's file.
const profileSuffix = ".rules.json"

// ProfileFile returns the path of the file that records profile name in
// dir.
func ProfileFile(dir, name string) string { return filepath.Join(dir, name+profileSuffix) }

// RecordProfile records the custom profile r in dir (nothing for a
// built-in one). A different profile recorded under the same name is
// refused: the directory's files of that name were made under it.
func RecordProfile(dir string, r *honour.Rules) error {
	if _, builtin := honour.Builtin(r.Name); builtin {
		return nil
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	path := ProfileFile(dir, r.Name)
	old, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(old, data):
		return nil
	case err == nil:
		if recorded, err := honour.ParseRules(old); err == nil && SameRules(&recorded, r) {
			return nil
		}
		return fmt.Errorf("rules %s: %s records another profile of that name, under which the directory's %s files were made (give the profile another name)", r.Name, path, r.Name)
	case !os.IsNotExist(err):
		return err
	}
	return atomicfile.WriteBytes(path, data)
}

// SameRules reports whether two profiles are the same rules.
func SameRules(a, b *honour.Rules) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}

// RecordedProfiles returns the custom profiles recorded in dir, by name.
// A recorded file that cannot be read is an error naming it.
func RecordedProfiles(dir string) ([]honour.Rules, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*"+profileSuffix))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []honour.Rules
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		r, err := honour.ParseRules(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if want := strings.TrimSuffix(filepath.Base(path), profileSuffix); r.Name != want {
			return nil, fmt.Errorf("%s: records the profile %q, not %q", path, r.Name, want)
		}
		out = append(out, r)
	}
	return out, nil
}

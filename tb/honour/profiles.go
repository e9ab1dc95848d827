package honour

import (
	"fmt"
	"strings"
)

// The one home of rule-profile lookups: a profile is found by name among
// the custom ones a command was given (profile files, or those a table
// directory records) and the built-in ones; a list of them is read from a
// flag by ParseList.

// Find returns the profile named name: one of custom, else the built-in
// profile of exactly that name; false when there is neither.
func Find(name string, custom []Rules) (*Rules, bool) {
	for i := range custom {
		if custom[i].Name == name {
			return &custom[i], true
		}
	}
	if r, ok := Builtin(name); ok && r.Name == name {
		return &r, true
	}
	return nil, false
}

// ParseList reads a comma-separated list of rule profiles, each a built-in
// name or a profile file (LookupRules); "none" or "" alone is the empty
// list.
func ParseList(list string) ([]Rules, error) {
	if list == NoRules.Name || list == "" {
		return nil, nil
	}
	var out []Rules
	for _, name := range strings.Split(list, ",") {
		r, err := LookupRules(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// ParseCustomList is ParseList for profile files alone: a built-in
// profile's name is refused (its files need no naming).
func ParseCustomList(list string) ([]Rules, error) {
	for _, name := range strings.Split(list, ",") {
		if _, builtin := Builtin(strings.TrimSpace(name)); builtin {
			return nil, fmt.Errorf("%s: a built-in profile, whose files are checked without naming it", strings.TrimSpace(name))
		}
	}
	return ParseList(list)
}

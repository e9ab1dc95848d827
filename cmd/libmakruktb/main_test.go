package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The C API's numbering must be package tb's: positions are copied across
// by these numbers.
func TestHeaderConstantsAgreeWithTB(t *testing.T) {
	if err := constantsAgree(); err != nil {
		t.Fatal(err)
	}
}

// The rules ids that makruktb.h declares (MTB_RULES_THAI = 0, …) name
// the built-in profiles the library registers under those ids.
func TestBuiltinRulesIDs(t *testing.T) {
	header, err := os.ReadFile("makruktb.h")
	if err != nil {
		t.Fatal(err)
	}
	ids := regexp.MustCompile(`MTB_RULES_([A-Z]+) = (\d+)`).FindAllStringSubmatch(string(header), -1)
	list := *rulesList.Load()
	if len(ids) == 0 || len(ids) != len(list) {
		t.Fatalf("makruktb.h declares %d rules ids, the library has %d built-in profiles", len(ids), len(list))
	}
	for _, id := range ids {
		n, _ := strconv.Atoi(id[2])
		if name := strings.ToLower(id[1]); n >= len(list) || list[n].Name != name {
			t.Errorf("MTB_RULES_%s = %d, but the library's profile %d is not %q", id[1], n, n, name)
		}
	}
}

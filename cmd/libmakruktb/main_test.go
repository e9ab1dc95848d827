package main

import "testing"

// The C API's numbering must be package tb's: positions are copied across
// by these numbers.
func TestHeaderConstantsAgreeWithTB(t *testing.T) {
	if err := constantsAgree(); err != nil {
		t.Fatal(err)
	}
}

// The rules ids of makruktb.h name the built-in profiles in this order.
func TestBuiltinRulesIDs(t *testing.T) {
	want := []string{"thai", "cambodian", "asean", "none"}
	list := *rulesList.Load()
	if len(list) != len(want) {
		t.Fatalf("%d built-in profiles, want %d", len(list), len(want))
	}
	for i, name := range want {
		if list[i].Name != name {
			t.Errorf("rules id %d is %q, want %q", i, list[i].Name, name)
		}
	}
}

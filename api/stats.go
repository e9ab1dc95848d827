package api

import (
	"context"
	"fmt"
	"strings"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// Stats computes the statistics of m's DTM table in dir (stats --json's
// document and /api/v1/stats'); where a DTB table of a profile is in dir,
// the board's-honour counts of that profile come from it.
func Stats(ctx context.Context, dir string, m tb.Material) (*retro.Stats, error) {
	table, err := store.Load(dir, probe.DTMID(m))
	if err != nil {
		return nil, err
	}
	st, err := retro.ComputeStats(ctx, table, retro.Options{})
	if err != nil || !honour.HasBoardHonour(m) {
		return st, err
	}
	for _, r := range honour.BuiltinRules() {
		id := probe.ID{Material: m, Rules: r.Name}
		if r.BoardPlies <= 0 || !store.Present(dir, id) {
			continue
		}
		dtb, err := store.Load(dir, id)
		if err != nil {
			return nil, err
		}
		if st.Count[r.Name], err = retro.BoardCounts(ctx, table, dtb, &r, retro.Options{}); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// ParseMaterial reads a material name a user gave and returns its
// canonical form, refusing materials with pawns.
func ParseMaterial(name string) (tb.Material, error) {
	if base, profile, ok := strings.Cut(name, "."); ok {
		return tb.Material{}, fmt.Errorf("%q: a material is expected, such as %s, not the name of its %s table", name, base, profile)
	}
	m, err := tb.ParseMaterial(name)
	if err != nil {
		return m, err
	}
	if m.HasPawns() {
		return m, fmt.Errorf("material %s has pawns: the tables are pawnless", m)
	}
	m, _ = m.Canonical()
	return m, nil
}

package pipeline

import (
	"fmt"
	"strings"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// VerifyTargets returns the tables of game g that names give, or every
// table of g in dir when there are none. A material names its DTM table
// and every DTB file of it in the directory, whatever its profile (one
// whose rules verify cannot tell fails, and says so); MATERIAL.PROFILE
// names the DTB files of that profile, built in or among custom. For a
// game without a count (Shatranj) a name is its DTM table, "KRvKQ" or
// "KRvKQ.shatranj".
func VerifyTargets(g tb.Game, dir *store.Dir, names []string, custom []honour.Rules) ([]probe.ID, error) {
	if g != tb.Makruk {
		return gameTargets(g, dir, names)
	}
	if len(names) == 0 {
		materials := dir.Materials()
		if len(materials) == 0 {
			return nil, fmt.Errorf("%w in %s", store.ErrNoTables, dir.Path())
		}
		for _, m := range materials {
			names = append(names, m.String())
		}
	}
	var ids []probe.ID
	for _, a := range names {
		name, profile, one := strings.Cut(a, ".")
		m, err := tb.Makruk.ParseTableMaterial(name)
		if err != nil {
			return nil, err
		}
		if !one {
			ids = append(ids, probe.DTMID(m))
			for _, id := range dir.Tables() {
				if id.Material == m && id.Rules != "" && id.Game == tb.Makruk {
					ids = append(ids, id)
				}
			}
			continue
		}
		r, err := lookupProfile(profile, custom)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, err)
		}
		if r.BoardPlies == 0 {
			return nil, fmt.Errorf("%s: the %s rules have no board's honour, so no DTB table", a, r.Name)
		}
		if !honour.HasBoardHonour(m) {
			return nil, fmt.Errorf("%s: %s has a bare king, so no DTB table", a, m)
		}
		for _, v := range r.Variants(m) {
			ids = append(ids, probe.BoardID(m, r.Name, v))
		}
	}
	return ids, nil
}

// lookupProfile returns the profile of that name among custom and the
// built-in ones, else reads the profile file it names.
func lookupProfile(name string, custom []honour.Rules) (honour.Rules, error) {
	if r, ok := honour.Find(name, custom); ok {
		return *r, nil
	}
	return honour.LookupRules(name)
}

// gameTargets is VerifyTargets for a game without a count.
func gameTargets(g tb.Game, dir *store.Dir, names []string) ([]probe.ID, error) {
	var ids []probe.ID
	if len(names) == 0 {
		for _, id := range dir.Tables() {
			if id.Game == g {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			return nil, fmt.Errorf("no %s tables in %s (gen --game %s makes them)", g, dir.Path(), g)
		}
		return ids, nil
	}
	for _, a := range names {
		m, err := g.ParseTableMaterial(strings.TrimSuffix(a, "."+g.String()))
		if err != nil {
			return nil, err
		}
		ids = append(ids, probe.ID{Material: m, Game: g})
	}
	return ids, nil
}

package api

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"

	"github.com/makruktb/makruktb/report"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// A training position drawn at random: a legal position of the material
// with White to move that White wins inside the fresh count of the rules,
// its mate distance within the level's range. The draw is a function of
// the seed, so the same request gives the same position (and a link to it
// can be shared).
type level struct {
	name     string
	min, max int // mate in moves, inclusive
	// spare bounds the plies the count leaves to spare after the goal
	// (mate, or under board's honour the winning capture): 0, none.
	spare int
}

var levels = []level{{"easy", 1, 8, 0}, {"medium", 9, 20, 0}, {"hard", 21, 1 << 20, 0}, {"tight", 1, 1 << 20, 4}}

// randomDraws bounds the positions drawn for one request.
const randomDraws = 20000

// randomWin draws positions of m with White to move from a generator
// seeded with seed until one is won by White inside the fresh count of r
// with a mate in min to max moves, and returns its judged root; ok is
// false when none of randomDraws draws was.
func (s *Server) randomWin(g tb.Game, m tb.Material, r *honour.Rules, lv level, seed uint64) (pos tb.Position, ok bool, err error) {
	rng := rand.New(rand.NewPCG(seed, 38))
	for range randomDraws {
		p, legal := tb.RandomPosition(rng, m, tb.White)
		if !legal {
			continue
		}
		p.SetGame(g)
		j, err := s.tables.Judge(&p, r)
		if err != nil {
			return p, false, err
		}
		if moves := j.Value.Moves(); j.Category == honour.Win && j.Value.IsWin() && moves >= lv.min && moves <= lv.max && lv.tightEnough(j, r) {
			return p, true, nil
		}
	}
	return tb.Position{}, false, nil
}

// random answers /api/v1/random?material=KRvKN&level=easy&rules=thai&seed=N
// with the probe document of the position drawn.
func (s *Server) random(r *http.Request) (response, error) {
	q := r.URL.Query()
	g, rules, err := gameRulesParams(q)
	if err != nil {
		return response{}, err
	}
	name := q.Get("material")
	if _, err := materialParam(g, name); err != nil {
		return response{}, err
	}
	m, err := g.ParseMaterial(name) // as given, not canonical: White is the side to win
	if err != nil {
		return response{}, badRequest("%v", err)
	}
	lv := levels[0]
	if want := q.Get("level"); want != "" {
		found := false
		for _, l := range levels {
			if l.name == want {
				lv, found = l, true
			}
		}
		if !found {
			return response{}, badRequest("level %q: easy (mate in up to 8 moves), medium (9 to 20), hard (more) or tight (at most 4 plies to spare before the count ends)", clip(want))
		}
	}
	seed, err := strconv.ParseUint(q.Get("seed"), 10, 64)
	if err != nil {
		return response{}, badRequest("seed %q: give a number, e.g. &seed=1 (the same seed draws the same position)", clip(q.Get("seed")))
	}
	pos, found, err := s.randomWin(g, m, &rules, lv, seed)
	if err != nil {
		return response{}, err
	}
	if !found {
		return response{}, &apiError{http.StatusNotFound, fmt.Sprintf("no position of %s that White wins inside the %s count with a mate in %s moves among %d drawn (seed %d): try another level or seed", g.MaterialName(m), rules.Name, lv.rangeText(), randomDraws, seed)}
	}
	judged, err := s.tables.Root(&pos, &rules)
	if err != nil {
		return response{}, err
	}
	return jsonResponse(report.NewProbe(&pos, judged, &rules))
}

// tightEnough reports whether a win inside the count leaves at most the
// level's spare plies (any, without a bound; a position with no count has
// nothing to spare).
func (l level) tightEnough(j honour.Judgement, r *honour.Rules) bool {
	if l.spare == 0 {
		return true
	}
	if j.Count.Kind == honour.NoCountKind || !j.Count.Binds(j.Value.IsWin()) {
		return false // no count, or one the winner runs: nothing to spare
	}
	goal := j.Value.Plies()
	if j.DTB.IsMate() {
		goal = j.DTB.Plies()
	}
	return r.MatingPlies(j.Count)-goal <= l.spare
}

func (l level) rangeText() string {
	if l.spare > 0 {
		return fmt.Sprintf("any number of (%d plies or fewer to spare before the count ends)", l.spare)
	}
	if l.max >= 1<<20 {
		return fmt.Sprintf("%d or more", l.min)
	}
	return fmt.Sprintf("%d to %d", l.min, l.max)
}

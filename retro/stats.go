package retro

import (
	"context"
	"fmt"
	"sort"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

// SideStats counts the positions of one side to move over the full board:
// every legal placement counted once, as if no symmetry were used.
type SideStats struct {
	Legal uint64         `json:"legal"`
	Draw  uint64         `json:"draw"`
	Win   map[int]uint64 `json:"win"`  // by mate distance in plies
	Loss  map[int]uint64 `json:"loss"` // by mate distance in plies
}

// Wins returns the number of won positions.
func (s *SideStats) Wins() uint64 { return sum(s.Win) }

// Losses returns the number of lost positions.
func (s *SideStats) Losses() uint64 { return sum(s.Loss) }

func sum(h map[int]uint64) uint64 {
	var n uint64
	for _, c := range h {
		n += c
	}
	return n
}

// LongestWin is a position with the longest win of its side to move.
type LongestWin struct {
	FEN string `json:"fen"`
	DTM int    `json:"dtm"` // plies
}

// Stats summarises a table.
type Stats struct {
	Material string               `json:"material"`
	Sides    map[string]SideStats `json:"sides"` // "w", "b"
	Longest  []LongestWin         `json:"longest"`
	// Count classifies the positions under each rule profile with a fresh
	// count: profile name → side → counts.
	Count map[string]map[string]CountStats `json:"count"`
}

// CountStats counts positions by category under a fresh honour count, from
// the side to move's point of view. Unknown counts the wins and losses of
// board's honour when ComputeStats had no DTB table: deciding them needs it
// (BoardCounts).
type CountStats struct {
	Win         uint64 `json:"win"`
	CursedWin   uint64 `json:"cursed_win"`
	Draw        uint64 `json:"draw"`
	BlessedLoss uint64 `json:"blessed_loss"`
	Loss        uint64 `json:"loss"`
	Unknown     uint64 `json:"unknown"`
}

// countStats classifies one side's histogram under rules r.
func countStats(s SideStats, m tb.Material, side tb.Color, r *tb.Rules) CountStats {
	c := r.FreshCountFor(m, side)
	cs := CountStats{Draw: s.Draw}
	add := func(h map[int]uint64) {
		for d, n := range h {
			v := probe.Mate(d)
			switch j := probe.Judge(v, c, r); {
			case !j.Exact:
				cs.Unknown += n
			case j.Category == probe.CategoryWin:
				cs.Win += n
			case j.Category == probe.CategoryCursedWin:
				cs.CursedWin += n
			case j.Category == probe.CategoryLoss:
				cs.Loss += n
			default:
				cs.BlessedLoss += n
			}
		}
	}
	add(s.Win)
	add(s.Loss)
	return cs
}

// BoardCounts classifies the positions of a material with pieces on both
// sides under a fresh board's-honour count of rules r (count at ply 0),
// from its DTM and DTB tables: full board, every legal placement once.
func BoardCounts(ctx context.Context, dtm, dtb *Table, r *tb.Rules, opts Options) (map[string]CountStats, error) {
	space := dtm.Space
	if dtb.Space.Material() != space.Material() {
		return nil, fmt.Errorf("DTB table of %s given for %s", dtb.Material(), dtm.Material())
	}
	parts := make([][2]CountStats, space.KingPairs())
	g := &generator{space: space, opts: opts}
	m := space.Material()
	err := g.parallel(ctx, "stats", 0, func(side tb.Color, k int) {
		cs := &parts[k][side]
		c := r.FreshCountFor(m, side)
		holes := dtb
		if dtm.HolesMarked {
			holes = dtm
		}
		holes.eachLegal(k, side, func(i uint64, n uint64) {
			switch probe.JudgeBoard(dtm.Values[side][i], dtb.Values[side][i], c, r).Category {
			case probe.CategoryWin:
				cs.Win += n
			case probe.CategoryCursedWin:
				cs.CursedWin += n
			case probe.CategoryDraw:
				cs.Draw += n
			case probe.CategoryBlessedLoss:
				cs.BlessedLoss += n
			case probe.CategoryLoss:
				cs.Loss += n
			}
		})
	})
	if err != nil {
		return nil, err
	}
	out := map[string]CountStats{}
	for side := tb.White; side <= tb.Black; side++ {
		var total CountStats
		for k := range parts {
			c := parts[k][side]
			total.Win += c.Win
			total.CursedWin += c.CursedWin
			total.Draw += c.Draw
			total.BlessedLoss += c.BlessedLoss
			total.Loss += c.Loss
		}
		out[side.String()] = total
	}
	return out, nil
}

// longestPerSide is how many longest wins Stats lists per side to move.
const longestPerSide = 3

// ComputeStats counts a table's positions (index holes are found by
// decoding unless the table marks them, so this works on tables read from
// files too).
func ComputeStats(ctx context.Context, table *Table, opts Options) (*Stats, error) {
	space := table.Space
	type partial struct {
		side      SideStats
		win, loss []uint64 // by plies, for the histogram
		longest   []uint64 // indices of the longest wins found
		best      int
	}
	parts := make([][2]partial, 2*space.KingPairs())
	g := &generator{space: space, opts: opts}
	err := g.parallel(ctx, "stats", 0, func(side tb.Color, k int) {
		pt := &parts[k][side]
		pt.best = -1
		table.eachLegal(k, side, func(i uint64, n uint64) {
			v := table.Values[side][i]
			pt.side.Legal += n
			switch {
			case v.IsWin():
				pt.win = count(pt.win, v.Plies(), n)
				if v.Plies() > pt.best {
					pt.best, pt.longest = v.Plies(), pt.longest[:0]
				}
				if v.Plies() == pt.best && len(pt.longest) < longestPerSide {
					pt.longest = append(pt.longest, i)
				}
			case v.IsLoss():
				pt.loss = count(pt.loss, v.Plies(), n)
			default:
				pt.side.Draw += n
			}
		})
	})
	if err != nil {
		return nil, err
	}
	st := &Stats{Material: space.Material().String(), Sides: map[string]SideStats{}}
	for side := tb.White; side <= tb.Black; side++ {
		total := SideStats{Win: map[int]uint64{}, Loss: map[int]uint64{}}
		best := -1
		var longest []uint64
		for k := range parts {
			pt := &parts[k][side]
			total.Legal += pt.side.Legal
			total.Draw += pt.side.Draw
			for d, n := range pt.win {
				if n != 0 {
					total.Win[d] += n
				}
			}
			for d, n := range pt.loss {
				if n != 0 {
					total.Loss[d] += n
				}
			}
			if pt.best > best {
				best, longest = pt.best, nil
			}
			if pt.best == best && best >= 0 {
				longest = append(longest, pt.longest...)
			}
		}
		sort.Slice(longest, func(a, b int) bool { return longest[a] < longest[b] })
		for _, i := range longest[:min(len(longest), longestPerSide)] {
			p, _ := space.Position(i, side)
			st.Longest = append(st.Longest, LongestWin{FEN: p.FEN(), DTM: best})
		}
		st.Sides[side.String()] = total
	}
	st.Count = map[string]map[string]CountStats{}
	for _, r := range tb.BuiltinRules() {
		st.Count[r.Name] = map[string]CountStats{}
		for side := tb.White; side <= tb.Black; side++ {
			st.Count[r.Name][side.String()] = countStats(st.Sides[side.String()], space.Material(), side, &r)
		}
	}
	return st, nil
}

// Longest returns the longest win in plies for a side to move of a finished
// table, or -1 if that side never wins. (Holes hold copies of legal values,
// so they never raise the maximum.)
func (t *Table) Longest(side tb.Color) int {
	_, longest := t.Census(side)
	return longest
}

// Census returns, in one pass, the number of legal positions of a side to
// move in a table fresh from the generator (holes marked probe.Illegal) and
// its longest win in plies, or -1 if that side never wins.
func (t *Table) Census(side tb.Color) (legal uint64, longest int) {
	longest = -1
	for _, v := range t.Values[side] {
		if v != probe.Illegal {
			legal++
		}
		if v.IsWin() && v.Plies() > longest {
			longest = v.Plies()
		}
	}
	return legal, longest
}

// count adds n to hist[plies], growing hist as needed.
func count(hist []uint64, plies int, n uint64) []uint64 {
	if plies >= len(hist) {
		hist = append(hist, make([]uint64, plies+1-len(hist))...)
	}
	hist[plies] += n
	return hist
}

package retro

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// SideStats counts the positions of one side to move over the full board:
// every legal placement counted once, as if no symmetry were used.
type SideStats struct {
	Legal uint64         `json:"legal"`
	Draw  uint64         `json:"draw"`
	Win   map[int]uint64 `json:"win"`  // by mate distance in plies
	Loss  map[int]uint64 `json:"loss"` // by mate distance in plies
	// Canonical counts the same positions once up to the table's
	// symmetries (a position and its mirror images once), as the
	// catalogue's positions count them and other generators' statistics
	// do (Syzygy's, where no side has two pieces of a kind).
	Canonical Outcomes `json:"canonical"`
}

// Outcomes counts positions by result for the side to move.
type Outcomes struct {
	Legal uint64 `json:"legal"`
	Win   uint64 `json:"win"`
	Draw  uint64 `json:"draw"`
	Loss  uint64 `json:"loss"`
}

// add counts n positions of value v.
func (o *Outcomes) add(v value.Value, n uint64) {
	o.Legal += n
	switch {
	case v.IsWin():
		o.Win += n
	case v.IsLoss():
		o.Loss += n
	default:
		o.Draw += n
	}
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
	// Game is "shatranj" for a Shatranj table, empty for Makruk's.
	Game     string               `json:"game,omitempty"`
	Material string               `json:"material"`
	Sides    map[string]SideStats `json:"sides"` // "w", "b"
	Longest  []LongestWin         `json:"longest"`
	// Count classifies the positions under each rule profile with a fresh
	// count: profile name → side → counts.
	Count map[string]map[string]CountStats `json:"count"`
	// CountDraws is, for each profile of Count, how many of the decided
	// positions its fresh count turns into draws (SetCount keeps it in
	// step with Count).
	CountDraws map[string]CountDraw `json:"count_draws"`
}

// CountDraw is how much a profile's count matters to a material: of the
// decided positions (wins and losses, both sides to move, full board),
// those a fresh count turns into draws (cursed wins and blessed losses).
// Unknown are the board's-honour results only a DTB table can judge;
// Share is Drawn/Decided (0 with nothing decided).
type CountDraw struct {
	Decided uint64  `json:"decided"`
	Drawn   uint64  `json:"drawn"`
	Unknown uint64  `json:"unknown"`
	Share   float64 `json:"share"`
}

// CountDrawOf sums one profile's counts (side → counts) into a CountDraw.
func CountDrawOf(counts map[string]CountStats) CountDraw {
	var d CountDraw
	for _, side := range []string{"w", "b"} {
		c := counts[side]
		d.Decided += c.Win + c.CursedWin + c.Loss + c.BlessedLoss + c.Unknown
		d.Drawn += c.CursedWin + c.BlessedLoss
		d.Unknown += c.Unknown
	}
	if d.Decided > 0 {
		d.Share = float64(d.Drawn) / float64(d.Decided)
	}
	return d
}

// SetCount records the counts of profile name (side → counts) and their
// count draws.
func (st *Stats) SetCount(name string, counts map[string]CountStats) {
	if st.Count == nil {
		st.Count = map[string]map[string]CountStats{}
		st.CountDraws = map[string]CountDraw{}
	}
	st.Count[name] = counts
	st.CountDraws[name] = CountDrawOf(counts)
}

// CountStats counts positions by category under a fresh honour count, from
// the side to move's point of view. Unknown counts the wins and losses of
// board's honour when ComputeStats had no DTB table: deciding them needs it
// (BoardCounts).
type CountStats struct {
	Win         uint64 `json:"win"`
	CursedWin   uint64 `json:"cursed-win"`
	Draw        uint64 `json:"draw"`
	BlessedLoss uint64 `json:"blessed-loss"`
	Loss        uint64 `json:"loss"`
	Unknown     uint64 `json:"unknown"`
}

// countStats classifies one side's histogram under rules r.
func countStats(s SideStats, m tb.Material, side tb.Color, r *honour.Rules) CountStats {
	c := r.FreshCountFor(m, side)
	cs := CountStats{Draw: s.Draw}
	add := func(h map[int]uint64) {
		for d, n := range h {
			v := value.Mate(d)
			switch j := r.Judge(v, c); {
			case !j.Exact:
				cs.Unknown += n
			case j.Category == honour.Win:
				cs.Win += n
			case j.Category == honour.CursedWin:
				cs.CursedWin += n
			case j.Category == honour.Loss:
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
func BoardCounts(ctx context.Context, dtm, dtb *Table, r *honour.Rules, opts Options) (map[string]CountStats, error) {
	if dtb.Space.Material() != dtm.Space.Material() {
		return nil, fmt.Errorf("DTB table of %s given for %s", dtb.Material(), dtm.Material())
	}
	holes := dtb
	if dtm.HolesMarked {
		holes = dtm
	}
	return boardCounts(ctx, dtm, dtb, holes, r, opts)
}

// Ranger gives a table's values a range of indices at a time: a Table in
// memory, or a table file read block by block (probe.File), so that a
// summary need not hold a large table whole.
type Ranger interface {
	Range(side tb.Color, lo, hi uint64, dst []value.Value) ([]value.Value, error)
}

// RangeTable is a solved table read a range at a time.
type RangeTable interface {
	Ranger
	Material() tb.Material
}

// Range returns the values of side in [lo, hi), in dst.
func (t *Table) Range(side tb.Color, lo, hi uint64, dst []value.Value) ([]value.Value, error) {
	return t.Values[side].Slice(lo, hi, dst), nil
}

// BoardCountsFrom is BoardCounts with the DTM values read a king pair at a
// time from dtm, and the legal positions told by dtb's marked holes (a
// table fresh from GenerateDTB).
func BoardCountsFrom(ctx context.Context, dtm Ranger, dtb *Table, r *honour.Rules, opts Options) (map[string]CountStats, error) {
	if !dtb.HolesMarked {
		return nil, errors.New("BoardCountsFrom needs a DTB table with its holes marked")
	}
	return boardCounts(ctx, dtm, dtb, dtb, r, opts)
}

// rangeBuffers recycles the values of a king pair between units: a new
// slice per unit would leave garbage enough to grow the heap by as much as
// the tables being read before the collector runs.
var rangeBuffers = sync.Pool{New: func() any { return new([]value.Value) }}

// rangeReads reads ranges of a table for concurrent workers, in recycled
// buffers, and keeps the first error.
type rangeReads struct {
	src  Ranger
	once sync.Once
	err  error
}

// read calls fn with the values of side in [lo, hi), unless reading them
// fails; fn must not keep them.
func (r *rangeReads) read(side tb.Color, lo, hi uint64, fn func(vals []value.Value)) {
	buf := rangeBuffers.Get().(*[]value.Value)
	defer rangeBuffers.Put(buf)
	vals, err := r.src.Range(side, lo, hi, *buf)
	if err != nil {
		r.once.Do(func() { r.err = err })
		return
	}
	*buf = vals
	fn(vals)
}

func boardCounts(ctx context.Context, dtm Ranger, dtb, holes *Table, r *honour.Rules, opts Options) (map[string]CountStats, error) {
	space := dtb.Space
	parts := make([][2]CountStats, space.KingPairs())
	m := space.Material()
	per := space.PerKingPair()
	reads := &rangeReads{src: dtm}
	// Each side's positions are judged under its fresh count.
	var judges [2]*honour.Categories
	var exact [2]bool // the judgements are exact (the count is one a table models)
	for side := tb.White; side <= tb.Black; side++ {
		c := r.FreshCountFor(m, side)
		judges[side] = honour.NewCategories(func(dtm, dtb value.Value) honour.Category { return r.JudgeBoard(dtm, dtb, c).Category })
		exact[side] = r.JudgeBoard(value.Draw, value.Draw, c).Exact
	}
	err := forKingPairs(ctx, space, &opts, StageStats, 0, func(side tb.Color, k int) {
		cs := &parts[k][side]
		judge := judges[side]
		lo := uint64(k) * per
		reads.read(side, lo, lo+per, func(dtmValues []value.Value) {
			var tally [honour.Win - honour.Loss + 1]uint64 // by category
			var unknown uint64
			dtbValues := dtb.Values[side]
			holes.eachLegal(k, side, func(i uint64, n uint64) {
				if !exact[side] { // a count no table models (NoCounterUntilCapture)
					unknown += n
					return
				}
				tally[judge.Of(dtmValues[i-lo], dtbValues.At(i))-honour.Loss] += n
			})
			cs.Win += tally[honour.Win-honour.Loss]
			cs.CursedWin += tally[honour.CursedWin-honour.Loss]
			cs.Draw += tally[honour.Draw-honour.Loss]
			cs.BlessedLoss += tally[honour.BlessedLoss-honour.Loss]
			cs.Loss += tally[0]
			cs.Unknown += unknown
		})
	})
	if err == nil {
		err = reads.err
	}
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
			total.Unknown += c.Unknown
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
	// codes[k][side][v]: the full-board count of legal positions of king
	// pair k holding value code v; canonical[k][side][v] the count of
	// their canonical positions (indices).
	codes := make([][2][]uint64, space.KingPairs())
	canonical := make([][2][]uint64, space.KingPairs())
	err := forKingPairs(ctx, space, &opts, StageStats, 0, func(side tb.Color, k int) {
		codes[k][side], canonical[k][side] = table.legalCodes(k, side)
	})
	if err != nil {
		return nil, err
	}
	st := &Stats{Material: space.Game().MaterialName(space.Material()), Sides: map[string]SideStats{}}
	if space.Game() != tb.Makruk {
		st.Game = space.Game().String()
	}
	for side := tb.White; side <= tb.Black; side++ {
		total := SideStats{Win: map[int]uint64{}, Loss: map[int]uint64{}}
		best := value.Draw // the longest win's code
		for k := range codes {
			for code, n := range codes[k][side] {
				v := value.Value(code)
				total.Legal += n
				switch {
				case n == 0:
				case v.IsWin():
					total.Win[v.Plies()] += n
					best = max(best, v)
				case v.IsLoss():
					total.Loss[v.Plies()] += n
				default:
					total.Draw += n
				}
			}
			for code, n := range canonical[k][side] {
				if n != 0 {
					total.Canonical.add(value.Value(code), n)
				}
			}
		}
		for _, i := range table.firstHolding(side, best, codes, longestPerSide) {
			p, _ := space.Position(i, side)
			st.Longest = append(st.Longest, LongestWin{FEN: p.FEN(), DTM: best.Plies()})
		}
		st.Sides[side.String()] = total
	}
	if !space.Game().HasCount() {
		return st, nil // no count, no categories under one
	}
	for _, r := range honour.BuiltinRules() {
		counts := map[string]CountStats{}
		for side := tb.White; side <= tb.Black; side++ {
			counts[side.String()] = countStats(st.Sides[side.String()], space.Material(), side, &r)
		}
		st.SetCount(r.Name, counts)
	}
	return st, nil
}

// legalCodes counts the legal positions of king pair k by value code, each
// weighted by its multiplicity: codes[v] full-board positions hold v, and
// canonical[v] indices (each canonical position has one index).
func (t *Table) legalCodes(k int, side tb.Color) (codes, canonical []uint64) {
	if !t.HolesMarked || t.Space.Tied(k) {
		t.eachLegal(k, side, func(i uint64, n uint64) {
			v := int(t.Values[side].At(i))
			codes = count(codes, v, n)
			canonical = count(canonical, v, 1)
		})
		return codes, canonical
	}
	// Holes are marked and every position stands for the same number of
	// full-board ones: count the codes of the whole king pair at once.
	per := t.Space.PerKingPair()
	canonical = tallyCodes(t.Values[side], uint64(k)*per, uint64(k+1)*per)
	canonical[value.Illegal] = 0
	n := uint64(t.Space.Symmetries())
	codes = make([]uint64, len(canonical))
	for v, c := range canonical {
		codes[v] = c * n
	}
	return codes, canonical
}

// firstHolding returns the first (lowest) indices, up to limit, of legal
// positions of side holding value code v, given each king pair's codes
// (legalCodes): only the king pairs that hold v are looked at.
func (t *Table) firstHolding(side tb.Color, v value.Value, codes [][2][]uint64, limit int) []uint64 {
	var found []uint64
	if v == value.Draw {
		return nil
	}
	for k := range codes {
		if c := codes[k][side]; int(v) >= len(c) || c[v] == 0 {
			continue
		}
		t.eachLegal(k, side, func(i uint64, _ uint64) {
			if t.Values[side].At(i) == v && len(found) < limit {
				found = append(found, i)
			}
		})
		if len(found) == limit {
			break
		}
	}
	return found
}

// Census returns the number of legal positions of a side to move in a
// table fresh from the generator (holes marked value.Illegal) and its
// longest win in plies, or -1 if that side never wins.
func (t *Table) Census(side tb.Color) (legal uint64, longest int) {
	codes := tallyCodes(t.Values[side], 0, t.Values[side].Len())
	longest = -1
	for code, n := range codes {
		if v := value.Value(code); n != 0 && v.IsWin() {
			longest = v.Plies()
		}
	}
	return t.Values[side].Len() - codes[value.Illegal], longest
}

// tallyCodes counts the values of a[lo:hi] by code: codes[v] of them hold
// v (the slice is as long as the largest code needs, and at least two).
// Four tallies, one per byte of every group of four, keep a run of equal
// values from waiting on its own increments; the overflow entries are
// counted one by one.
func tallyCodes(a *value.Array, lo, hi uint64) []uint64 {
	var lanes [4][256]uint64
	bytes := a.Codes()[lo:hi]
	i := 0
	for ; i+4 <= len(bytes); i += 4 {
		lanes[0][bytes[i]]++
		lanes[1][bytes[i+1]]++
		lanes[2][bytes[i+2]]++
		lanes[3][bytes[i+3]]++
	}
	for _, b := range bytes[i:] {
		lanes[0][b]++
	}
	codes := count(nil, int(value.Illegal), 0)
	for v := range value.Overflow {
		if n := lanes[0][v] + lanes[1][v] + lanes[2][v] + lanes[3][v]; n != 0 {
			codes = count(codes, v, n)
		}
	}
	wide := a.Overflowed()
	for _, w := range wide[sort.Search(len(wide), func(n int) bool { return wide[n].Index >= lo }):] {
		if w.Index >= hi {
			break
		}
		codes = count(codes, int(w.Value), 1)
	}
	return codes
}

// count adds n to hist[i], growing hist as needed.
func count(hist []uint64, i int, n uint64) []uint64 {
	if i >= len(hist) {
		hist = append(hist, make([]uint64, i+1-len(hist))...)
	}
	hist[i] += n
	return hist
}

package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// Plot geometry: the histogram's drawing area inside an SVG of plotWidth ×
// plotHeight, with margins for the axes and their labels.
const (
	plotWidth, plotHeight = 720, 360
	marginLeft, marginTop = 70, 62
	marginRight           = 20
	marginBottom          = 50
)

// WriteHistogramSVG draws the mate distances of a table, in moves, as an
// SVG bar chart: for each distance, the positions (both sides to move,
// full board) whose side to move wins, and those whose side to move is
// mated. stats --svg and serve's plot.svg write it.
func WriteHistogramSVG(w io.Writer, st *retro.Stats) {
	wins, losses := map[int]uint64{}, map[int]uint64{}
	longest := 0
	for _, side := range []string{"w", "b"} {
		s := st.Sides[side]
		for plies, n := range s.Win {
			wins[(plies+1)/2] += n
			longest = max(longest, (plies+1)/2)
		}
		for plies, n := range s.Loss {
			losses[plies/2] += n
			longest = max(longest, plies/2)
		}
	}
	var top uint64 = 1
	for moves := 0; moves <= longest; moves++ {
		top = max(top, wins[moves], losses[moves])
	}
	top = niceCeiling(top)

	innerW := float64(plotWidth - marginLeft - marginRight)
	innerH := float64(plotHeight - marginTop - marginBottom)
	slot := innerW / float64(longest+1)
	// The count-end labels go in rows of their own above the bars, so
	// they cover neither the bars nor each other; the plot grows by them.
	ends := countEnds(st.Material, longest)
	labels, rows := placeLabels(ends, slot, innerW)
	band := labelRow * rows
	height, plotTop := plotHeight+band, marginTop+band
	bar := math.Max(slot/2-0.5, 0.5)
	y := func(n uint64) float64 { return innerH * float64(n) / float64(top) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", plotWidth, height, plotWidth, height)
	fmt.Fprintf(&b, `<title>%s: positions by distance to mate</title>`+"\n", html.EscapeString(st.Material))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", plotWidth, height)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="15" font-weight="bold">%s: positions by distance to mate (full board, both sides to move)</text>`+"\n", marginLeft, html.EscapeString(st.Material))
	fmt.Fprintf(&b, `<g transform="translate(%d,%d)">`+"\n", marginLeft, plotTop)
	// Horizontal grid lines with the counts.
	for i := 0; i <= 4; i++ {
		n := top / 4 * uint64(i)
		yy := innerH - y(n)
		fmt.Fprintf(&b, `<line x1="0" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/>`, innerW, yy, yy)
		fmt.Fprintf(&b, `<text x="-6" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", yy, shortCount(n))
	}
	for moves := 0; moves <= longest; moves++ {
		x := float64(moves) * slot
		if n := wins[moves]; n > 0 {
			fmt.Fprintf(&b, `<rect class="win" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#2e7d32"><title>side to move mates in %d: %d</title></rect>`+"\n", x, innerH-y(n), bar, y(n), moves, n)
		}
		if n := losses[moves]; n > 0 {
			fmt.Fprintf(&b, `<rect class="loss" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="#c62828"><title>side to move is mated in %d: %d</title></rect>`+"\n", x+bar, innerH-y(n), bar, y(n), moves, n)
		}
	}
	step := max(1, (longest+1)/12)
	for moves := 0; moves <= longest; moves += step {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%d</text>`, (float64(moves)+0.5)*slot, innerH+16, moves)
	}
	fmt.Fprintf(&b, `<line x1="0" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#333"/>`+"\n", innerW, innerH, innerH)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">mate in N moves</text>`+"\n", innerW/2, innerH+36)
	// Where each built-in profile's fresh count ends, for the stronger
	// side's wins: the bars right of its line mate too late for it.
	for n, line := range ends {
		l := labels[n]
		x, y := float64(line.moves+1)*slot, -4-float64(labelRow*l.row)
		fmt.Fprintf(&b, `<line class="count-end" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#555" stroke-dasharray="4 3"><title>%s</title></line>`, x, x, y-9, innerH, html.EscapeString(line.title))
		fmt.Fprintf(&b, `<text class="count-end-label" x="%.1f" y="%.1f" font-size="11" fill="#555" text-anchor="%s">%s</text>`+"\n", l.x, y, l.anchor, html.EscapeString(line.label))
	}
	// The legend, on its own line under the title, above the labels.
	fmt.Fprintf(&b, `<rect x="0" y="%d" width="10" height="10" fill="#2e7d32"/><text x="14" y="%d">side to move wins</text>`, -30-band, -21-band)
	fmt.Fprintf(&b, `<rect x="140" y="%d" width="10" height="10" fill="#c62828"/><text x="154" y="%d">side to move loses</text>`+"\n", -30-band, -21-band)
	b.WriteString("</g>\n</svg>\n")
	io.WriteString(w, b.String())
}

// labelRow is the height of a row of count-end labels; labelCharWidth
// the width of a character of theirs (11 px sans-serif), about.
const (
	labelRow       = 14
	labelCharWidth = 6.2
)

// A placedLabel is where a count-end label goes: its anchor point's x,
// its row above the bars (0 nearest), and which end the point is at.
type placedLabel struct {
	x      float64
	row    int
	anchor string // "start": the label runs right of x; "end": left
}

// placeLabels puts each count end's label beside its line, to the right
// (to the left where it would leave the plot), in a row above the bars:
// above every label whose line runs under it (so no line crosses a label),
// and clear of the labels beside it. It returns the labels and the rows
// used.
func placeLabels(ends []countEnd, slot, width float64) ([]placedLabel, int) {
	out := make([]placedLabel, len(ends))
	lo, hi, line := make([]float64, len(ends)), make([]float64, len(ends)), make([]float64, len(ends))
	const gap = 6
	for n, e := range ends {
		line[n] = float64(e.moves+1) * slot
	}
	// Anchors, right to left: a label runs left of its line when it would
	// leave the plot, or cover the line of a label that runs left (two
	// labels covering each other's lines could not both be crossed by
	// neither line).
	order := make([]int, len(ends))
	for n := range order {
		order[n] = n
	}
	sort.Slice(order, func(a, b int) bool { return line[order[a]] > line[order[b]] })
	for k, n := range order {
		x, w := line[n], labelCharWidth*float64(len(ends[n].label))
		out[n] = placedLabel{x: x + 3, anchor: "start"}
		lo[n], hi[n] = x+3, x+3+w
		left := hi[n] > width
		for _, j := range order[:k] {
			if out[j].anchor == "end" && line[j] >= lo[n]-gap && line[j] <= hi[n]+gap {
				left = true
			}
		}
		if left && x-3-w >= 0 {
			out[n].x, out[n].anchor = x-3, "end"
			lo[n], hi[n] = x-3-w, x-3
		}
	}
	// Relax until no row changes (at most once per label and once more:
	// the rows only grow, and a label only waits for those before it).
	for range len(ends) + 1 {
		changed := false
		for i := range ends {
			row := 0
			for j := range ends {
				if line[j] != line[i] && line[j] >= lo[i]-gap && line[j] <= hi[i]+gap {
					row = max(row, out[j].row+1)
				}
			}
			for clash := true; clash; {
				clash = false
				for j := range i {
					if out[j].row == row && lo[i] < hi[j]+gap && lo[j] < hi[i]+gap {
						row, clash = row+1, true
					}
				}
			}
			if row != out[i].row {
				out[i].row, changed = row, true
			}
		}
		if !changed {
			break
		}
	}
	rows := 0
	for _, p := range out {
		rows = max(rows, p.row+1)
	}
	return out, rows
}

// countEnd is a line across the histogram where a count ends.
type countEnd struct {
	moves        int // the longest mate in moves inside the count
	label, title string
}

// countEnds returns where the fresh count of each built-in profile ends
// for the stronger side (White) of material, in moves, when that is
// inside the histogram's longest mate; profiles that end at the same
// distance share a line. Board's honour judges by its own distance (DTB),
// so its line only tells where a mate alone comes too late.
func countEnds(material string, longest int) []countEnd {
	m, err := tb.ParseMaterial(material)
	if err != nil {
		return nil
	}
	var ends []countEnd
	for _, r := range honour.BuiltinRules() {
		c := r.FreshCountFor(m, tb.White)
		if c.Kind == honour.NoCountKind {
			continue
		}
		moves := (c.Remaining() + 1) / 2 // a mate in N moves takes 2N-1 plies
		if moves >= longest {
			continue
		}
		if same := slices.IndexFunc(ends, func(e countEnd) bool { return e.moves == moves }); same >= 0 {
			e := &ends[same]
			e.label = strings.Replace(e.label, " count", ", "+r.Name+" count", 1)
			e.title += "; " + countTitle(r.Name, c, moves)
			continue
		}
		ends = append(ends, countEnd{moves: moves, label: r.Name + " count ends", title: countTitle(r.Name, c, moves)})
	}
	return ends
}

func countTitle(rules string, c honour.Count, moves int) string {
	return fmt.Sprintf("%s rules: %s count of %d plies, %d left when it starts: a mate in more than %d moves comes too late", rules, c.Kind, c.Limit, c.Remaining(), moves)
}

// niceCeiling rounds n up to 4, 8 or 20 times a power of ten, so that the
// grid's quarters are 1, 2 or 5 times a power of ten.
func niceCeiling(n uint64) uint64 {
	for p := uint64(1); ; p *= 10 {
		for _, m := range []uint64{4, 8, 20} {
			if c := m * p; c >= n {
				return c
			}
		}
	}
}

// shortCount writes 1200000 as 1.2M.
func shortCount(n uint64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.3gG", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.3gM", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.3gk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

package report

import (
	"fmt"
	"html"
	"io"
	"math"
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
	bar := math.Max(slot/2-0.5, 0.5)
	y := func(n uint64) float64 { return innerH * float64(n) / float64(top) }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", plotWidth, plotHeight, plotWidth, plotHeight)
	fmt.Fprintf(&b, `<title>%s: positions by distance to mate</title>`+"\n", html.EscapeString(st.Material))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", plotWidth, plotHeight)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="15" font-weight="bold">%s: positions by distance to mate (full board, both sides to move)</text>`+"\n", marginLeft, html.EscapeString(st.Material))
	fmt.Fprintf(&b, `<g transform="translate(%d,%d)">`+"\n", marginLeft, marginTop)
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
	for n, line := range countEnds(st.Material, longest) {
		x := float64(line.moves+1) * slot
		fmt.Fprintf(&b, `<line class="count-end" x1="%.1f" x2="%.1f" y1="0" y2="%.1f" stroke="#555" stroke-dasharray="4 3"><title>%s</title></line>`, x, x, innerH, html.EscapeString(line.title))
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="11" fill="#555">%s</text>`+"\n", x+3, 12+14*n, html.EscapeString(line.label))
	}
	// The legend, on its own line under the title.
	fmt.Fprintf(&b, `<rect x="0" y="-30" width="10" height="10" fill="#2e7d32"/><text x="14" y="-21">side to move wins</text>`)
	fmt.Fprintf(&b, `<rect x="140" y="-30" width="10" height="10" fill="#c62828"/><text x="154" y="-21">side to move loses</text>`+"\n")
	b.WriteString("</g>\n</svg>\n")
	io.WriteString(w, b.String())
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
		if len(ends) > 0 && ends[len(ends)-1].moves == moves {
			last := &ends[len(ends)-1]
			last.label = strings.Replace(last.label, " count", ", "+r.Name+" count", 1)
			last.title += "; " + countTitle(r.Name, c, moves)
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

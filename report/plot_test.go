package report

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/retro"
)

// The count-end labels of the histogram (issue 62, item 12) sit above the
// bars, in rows, inside the plot, and no two cover each other: checked for
// the endings whose labels crowded (KSSvK, KRRvK, KRvK) at several
// longest mates.
func TestCountEndLabelsKeepApart(t *testing.T) {
	lineRE := regexp.MustCompile(`<line class="count-end" x1="([0-9.]+)" x2="[0-9.]+" y1="(-[0-9.]+)"`)
	label := regexp.MustCompile(`<text class="count-end-label" x="([0-9.]+)" y="(-[0-9.]+)" font-size="11" fill="#555" text-anchor="(start|end)">([^<]*)</text>`)
	for _, material := range []string{"KSSvK", "KRRvK", "KRvK", "KRvKN", "KSMvK"} {
		for _, longest := range []int{12, 16, 24, 40, 64} {
			st := &retro.Stats{Material: material, Sides: map[string]retro.SideStats{
				"w": {Win: map[int]uint64{2*longest - 1: 10, 1: 1000}},
				"b": {Loss: map[int]uint64{2 * longest: 10}},
			}}
			var b strings.Builder
			WriteHistogramSVG(&b, st)
			found := label.FindAllStringSubmatch(b.String(), -1)
			require.Len(t, found, len(countEnds(material, longest)), "%s longest %d", material, longest)
			type box struct{ lo, hi, y float64 }
			var boxes []box
			type vline struct{ x, top float64 }
			var lines []vline
			for _, m := range lineRE.FindAllStringSubmatch(b.String(), -1) {
				x, _ := strconv.ParseFloat(m[1], 64)
				top, _ := strconv.ParseFloat(m[2], 64)
				lines = append(lines, vline{x, top})
			}
			require.Len(t, lines, len(found))
			for _, m := range found {
				x, _ := strconv.ParseFloat(m[1], 64)
				y, _ := strconv.ParseFloat(m[2], 64)
				w := labelCharWidth * float64(len(m[4]))
				lo := x
				if m[3] == "end" {
					lo = x - w
				}
				require.Negative(t, y, "%s: %q over the bars", material, m[4])
				require.GreaterOrEqual(t, lo, 0.0, "%s: %q leaves the plot", material, m[4])
				require.LessOrEqual(t, lo+w, float64(plotWidth-marginLeft-marginRight), "%s: %q leaves the plot", material, m[4])
				for _, o := range boxes {
					require.False(t, o.y == y && lo < o.hi && o.lo < lo+w, "%s longest %d: %q covers another label", material, longest, m[4])
				}
				for _, l := range lines {
					require.False(t, l.x > lo && l.x < lo+w && l.top < y, "%s longest %d: a line crosses %q", material, longest, m[4])
				}
				boxes = append(boxes, box{lo, lo + w, y})
			}
		}
	}
}

// The heat map's title fits its board at every figure (issue 62, item 12:
// "…mated king's squa" was cut): no line of it is wider than the board,
// at about 8.5 px a character of 14 px bold.
func TestHeatmapTitleFits(t *testing.T) {
	line := regexp.MustCompile(`<text x="20" y="[0-9]+" font-size="14" font-weight="bold">([^<]*)</text>`)
	h := &retro.Heatmap{Material: "KRRvKN", Piece: "k", Squares: make([]retro.HeatSquare, 64)}
	for figure := range heatTitles {
		var b strings.Builder
		require.NoError(t, WriteHeatmapSVG(&b, h, figure))
		lines := line.FindAllStringSubmatch(b.String(), -1)
		require.Len(t, lines, 2, figure)
		for _, l := range lines {
			require.LessOrEqual(t, 20+8.5*float64(len(l[1])), 440.0, "%s: %q", figure, l[1])
		}
	}
}

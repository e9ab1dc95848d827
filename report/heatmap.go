package report

import (
	"context"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
)

// ParsePiece reads a piece as a FEN letter (K, M, S, N, R; lower case for
// Black) of material m.
func ParsePiece(letter string, m tb.Material) (tb.Color, tb.PieceType, error) {
	if len(letter) == 1 {
		c := tb.White
		up := strings.ToUpper(letter)
		if up != letter {
			c = tb.Black
		}
		for t := tb.PieceType(0); t < tb.NumPieceTypes; t++ {
			if t == tb.Pawn || string(t.Letter()) != up {
				continue
			}
			if t != tb.King && m.Count(c, t) == 0 {
				break
			}
			return c, t, nil
		}
	}
	return 0, 0, fmt.Errorf("piece %q: give a piece of %s as a FEN letter (K, M, S, N, R for White; k, m, s, n, r for Black)", letter, m)
}

// Heatmap reads the DTM table of m in dir whole and maps, square by
// square, the wins with the piece given by its FEN letter there
// (retro.ComputeHeatmap).
func Heatmap(ctx context.Context, dir string, m tb.Material, letter string) (*retro.Heatmap, error) {
	c, t, err := ParsePiece(letter, m)
	if err != nil {
		return nil, err
	}
	table, err := store.LoadContext(ctx, dir, probe.DTMID(m))
	if err != nil {
		return nil, err
	}
	return retro.ComputeHeatmap(ctx, table, c, t, retro.Options{})
}

// WriteHeatmapText draws a heat map's figures as boards, rank 8 first:
// the share of wins, the longest and the median mate in moves, and the
// checkmates by the mated king's square.
func WriteHeatmapText(w io.Writer, h *retro.Heatmap) {
	fmt.Fprintf(w, "%s, White to move, by the square of %s (full board, every legal placement once)\n", h.Material, h.Piece)
	board := func(title string, cell func(s retro.HeatSquare) string) {
		fmt.Fprintf(w, "\n%s\n", title)
		for rank := 7; rank >= 0; rank-- {
			fmt.Fprintf(w, "  %d", rank+1)
			for file := range 8 {
				fmt.Fprintf(w, " %5s", cell(h.Squares[rank*8+file]))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "   ")
		for file := range 8 {
			fmt.Fprintf(w, " %5c", 'a'+file)
		}
		fmt.Fprintln(w)
	}
	moves := func(plies int) string {
		if plies < 0 {
			return "-"
		}
		return fmt.Sprint((plies + 1) / 2)
	}
	board("share of White's wins, %", func(s retro.HeatSquare) string {
		if s.Positions == 0 {
			return "."
		}
		return fmt.Sprintf("%.0f", 100*float64(s.Wins)/float64(s.Positions))
	})
	board("longest mate, moves", func(s retro.HeatSquare) string { return moves(s.Longest) })
	board("median mate, moves", func(s retro.HeatSquare) string { return moves(s.Median) })
	board("checkmates by the mated king's square", func(s retro.HeatSquare) string { return fmt.Sprint(s.Mates) })
}

// HeatFigures are the figures a heat map board can show.
var HeatFigures = []string{"wins", "longest", "median", "mates"}

// heatFigure returns a square's figure (and whether it has one): the share
// of White's wins in percent, the longest or median mate in moves, or the
// checkmates.
func heatFigure(s retro.HeatSquare, figure string) (float64, bool) {
	switch figure {
	case "longest", "median":
		plies := s.Longest
		if figure == "median" {
			plies = s.Median
		}
		return float64((plies + 1) / 2), plies >= 0
	case "mates":
		return float64(s.Mates), true
	}
	if s.Positions == 0 {
		return 0, false
	}
	return 100 * float64(s.Wins) / float64(s.Positions), true
}

var heatTitles = map[string]string{
	"wins":    "share of White's wins (%)",
	"longest": "longest mate (moves)",
	"median":  "median mate (moves)",
	"mates":   "checkmates by the mated king's square",
}

// HeatFigureTitle checks a figure's name ("" is wins) and returns it with
// its title.
func HeatFigureTitle(figure string) (string, string, error) {
	if figure == "" {
		figure = "wins"
	}
	title, ok := heatTitles[figure]
	if !ok {
		return "", "", fmt.Errorf("figure %q: wins, longest, median or mates", figure)
	}
	return figure, title, nil
}

// WriteHeatmapSVG draws one figure of a heat map (HeatFigures; "wins"
// when empty) as a board, darker for more, each square's figures on
// hover.
func WriteHeatmapSVG(w io.Writer, h *retro.Heatmap, figure string) error {
	figure, title, err := HeatFigureTitle(figure)
	if err != nil {
		return err
	}
	top := 0.0
	for _, s := range h.Squares {
		if v, ok := heatFigure(s, figure); ok {
			top = max(top, v)
		}
	}
	// The title takes two lines (the longest, "checkmates by the mated
	// king's square", does not fit one beside the material), the board
	// below them.
	const boardTop = 48
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 440 %d" width="440" height="%d" font-family="sans-serif" font-size="12">`+"\n", 440+boardTop, 440+boardTop)
	fmt.Fprintf(&b, `<title>%s, %s on the square: %s</title>`+"\n", html.EscapeString(h.Material), html.EscapeString(h.Piece), title)
	fmt.Fprintf(&b, `<rect width="440" height="%d" fill="#fff"/><text x="20" y="18" font-size="14" font-weight="bold">%s, %s on the square:</text><text x="20" y="36" font-size="14" font-weight="bold">%s</text>`+"\n",
		440+boardTop, html.EscapeString(h.Material), html.EscapeString(h.Piece), title)
	for n, s := range h.Squares { // a1 first
		sq := tb.Square(n)
		x, y := 30+sq.File()*50, boardTop+(7-sq.Rank())*50
		v, ok := heatFigure(s, figure)
		fill := "#eee"
		if ok && top > 0 {
			f := v / top
			fill = fmt.Sprintf("rgb(%d,%d,%d)", 255-int(200*f), 255-int(120*f), 255-int(200*f))
		}
		fmt.Fprintf(&b, `<rect class="heat" data-square="%s" x="%d" y="%d" width="50" height="50" fill="%s" stroke="#999"><title>%s: %d positions, %d White wins, longest mate %d plies, median %d, %d checkmates</title></rect>`+"\n",
			s.Square, x, y, fill, s.Square, s.Positions, s.Wins, s.Longest, s.Median, s.Mates)
		if ok {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" pointer-events="none">%.0f</text>`+"\n", x+25, y+30, v)
		}
	}
	for i := range 8 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%c</text><text x="18" y="%d" text-anchor="middle">%d</text>`+"\n", 55+i*50, boardTop+428, 'a'+i, boardTop+30+(7-i)*50, i+1)
	}
	b.WriteString("</svg>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

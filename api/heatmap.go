package api

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
	table, err := store.Load(dir, probe.DTMID(m))
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

// WriteHeatmapSVG draws the share of White's wins square by square as a
// board, darker for more, each square's figures on hover.
func WriteHeatmapSVG(w io.Writer, h *retro.Heatmap) {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 440 470" width="440" height="470" font-family="sans-serif" font-size="12">`+"\n")
	fmt.Fprintf(&b, `<title>%s: White's wins by the square of %s</title>`+"\n", html.EscapeString(h.Material), html.EscapeString(h.Piece))
	fmt.Fprintf(&b, `<rect width="440" height="470" fill="#fff"/><text x="20" y="20" font-size="14" font-weight="bold">%s: White's wins, %s on the square</text>`+"\n", html.EscapeString(h.Material), html.EscapeString(h.Piece))
	for n, s := range h.Squares { // a1 first
		sq := tb.Square(n)
		x, y := 30+sq.File()*50, 30+(7-sq.Rank())*50
		share := 0.0
		if s.Positions > 0 {
			share = float64(s.Wins) / float64(s.Positions)
		}
		fill := "#eee"
		if s.Positions > 0 {
			fill = fmt.Sprintf("rgb(%d,%d,%d)", 255-int(200*share), 255-int(120*share), 255-int(200*share))
		}
		fmt.Fprintf(&b, `<rect class="heat" data-square="%s" x="%d" y="%d" width="50" height="50" fill="%s" stroke="#999"><title>%s: %d positions, %d White wins (%.1f%%), longest mate %d plies, median %d, %d checkmates</title></rect>`+"\n",
			s.Square, x, y, fill, s.Square, s.Positions, s.Wins, 100*share, s.Longest, s.Median, s.Mates)
		if s.Positions > 0 {
			fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" pointer-events="none">%.0f</text>`+"\n", x+25, y+30, 100*share)
		}
	}
	for i := range 8 {
		fmt.Fprintf(&b, `<text x="%d" y="458" text-anchor="middle">%c</text><text x="18" y="%d" text-anchor="middle">%d</text>`+"\n", 55+i*50, 'a'+i, 60+(7-i)*50, i+1)
	}
	b.WriteString("</svg>\n")
	io.WriteString(w, b.String())
}

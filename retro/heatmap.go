package retro

import (
	"context"
	"fmt"
	"sort"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// Heatmap shows, square by square, how a piece's place decides a table:
// over the full board (every legal placement once), with White (the
// stronger side) to move and the piece on the square, how many positions
// there are, how many White wins, and the longest and the median of those
// wins; and, for every square, the checkmates given there (positions,
// either side to move, whose mated king stands on it).
type Heatmap struct {
	Material string       `json:"material"`
	Piece    string       `json:"piece"` // as in a FEN: "k" is the black king
	Squares  []HeatSquare `json:"squares"`
}

// HeatSquare is one square of a Heatmap. A piece of which there are
// several counts each of them on its square.
type HeatSquare struct {
	Square    string `json:"square"`
	Positions uint64 `json:"positions"`
	Wins      uint64 `json:"wins"`
	Longest   int    `json:"longest"` // plies; −1 without a win
	Median    int    `json:"median"`  // plies; −1 without a win
	Mates     uint64 `json:"mates"`
}

// heatPart is one king pair and side's share of a Heatmap.
type heatPart struct {
	positions, wins, mates [64]uint64
	plies                  [64]map[int]uint64 // the wins by mate distance
}

// ComputeHeatmap computes the Heatmap of table for the piece of colour c
// and type t (which the material must have).
func ComputeHeatmap(ctx context.Context, table *Table, c tb.Color, t tb.PieceType, opts Options) (*Heatmap, error) {
	space := table.Space
	m := space.Material()
	if c > tb.Black || t != tb.King && (t < tb.Rook || t > tb.Met || m.Count(c, t) == 0) {
		return nil, fmt.Errorf("%s has no piece %s", m, pieceLetter(c, t))
	}
	parts := make([][2]heatPart, space.KingPairs())
	err := forKingPairs(ctx, space, &opts, StageStats, 0, func(side tb.Color, k int) {
		part := &parts[k][side]
		space.Walk(k, side, func(i uint64, p *tb.Position) {
			v := table.Values[side].At(i)
			mated := v == value.MatedIn(0)
			if side != tb.White && !mated {
				return
			}
			space.Images(p, func(q *tb.Position) {
				if mated {
					part.mates[q.KingSquare(side)]++
				}
				if side != tb.White {
					return
				}
				for b := q.Pieces(c, t); b != 0; {
					s := b.PopFirst()
					part.positions[s]++
					if v.IsWin() {
						part.wins[s]++
						if part.plies[s] == nil {
							part.plies[s] = map[int]uint64{}
						}
						part.plies[s][v.Plies()]++
					}
				}
			})
		})
	})
	if err != nil {
		return nil, err
	}
	h := &Heatmap{Material: m.String(), Piece: pieceLetter(c, t)}
	for s := range 64 {
		sq := HeatSquare{Square: tb.Square(s).String(), Longest: -1, Median: -1}
		hist := map[int]uint64{}
		for k := range parts {
			for side := range parts[k] {
				part := &parts[k][side]
				sq.Positions += part.positions[s]
				sq.Wins += part.wins[s]
				sq.Mates += part.mates[s]
				for plies, n := range part.plies[s] {
					hist[plies] += n
				}
			}
		}
		sq.Longest, sq.Median = longestAndMedian(hist)
		h.Squares = append(h.Squares, sq)
	}
	return h, nil
}

// longestAndMedian returns the longest and the median (the lower middle)
// of a histogram of mate distances, −1 for an empty one.
func longestAndMedian(hist map[int]uint64) (longest, median int) {
	var plies []int
	var total uint64
	for d, n := range hist {
		plies = append(plies, d)
		total += n
	}
	if total == 0 {
		return -1, -1
	}
	sort.Ints(plies)
	var seen uint64
	median = -1
	for _, d := range plies {
		seen += hist[d]
		if median < 0 && 2*seen >= total {
			median = d
		}
	}
	return plies[len(plies)-1], median
}

// pieceLetter is the FEN letter of a piece: upper case for White.
func pieceLetter(c tb.Color, t tb.PieceType) string {
	l := string(t.Letter())
	if c == tb.Black {
		l = string(t.Letter() + 'a' - 'A')
	}
	return l
}

package match

import (
	"context"
	"fmt"
	"io"

	"github.com/makruktb/makruktb/tb"
)

// Run samples n positions of every material and mode and plays them,
// a line per game on progress.
func Run(ctx context.Context, cfg Config, mats []tb.Material, modes []Mode, n int, progress io.Writer) ([]Tally, error) {
	player, err := NewPlayer(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer player.Close()
	var tallies []Tally
	for _, m := range mats {
		for _, mode := range modes {
			fens, err := Sample(cfg.Oracle, cfg.Dialect, m, mode, n, cfg.Seed)
			if err != nil {
				return nil, err
			}
			tally := Tally{Material: m, Mode: mode}
			for i, fen := range fens {
				g, err := player.Play(ctx, m, mode, fen)
				if err != nil {
					return nil, err
				}
				tally.Games = append(tally.Games, g)
				status := "ok"
				if !g.OK {
					status = "FAILED: " + g.Failure()
				}
				fmt.Fprintf(progress, "%v %s %d/%d: %s\n", m, mode, i+1, len(fens), status)
			}
			tallies = append(tallies, tally)
		}
	}
	return tallies, nil
}

// WriteReport writes the table of results and the failed games, and
// returns how many failed.
func WriteReport(w io.Writer, tallies []Tally, modes []Mode) int {
	header := "| material |"
	rule := "|---|"
	for _, mode := range modes {
		if mode == Convert {
			header += " converted inside the count |"
		} else {
			header += " held (blessed losses) |"
		}
		rule += "---|"
	}
	fmt.Fprintln(w, header)
	fmt.Fprintln(w, rule)
	failed, total := 0, 0
	for i := 0; i < len(tallies); i += len(modes) {
		row := fmt.Sprintf("| %v |", tallies[i].Material)
		for _, t := range tallies[i : i+len(modes)] {
			if len(t.Games) == 0 {
				row += " none found |"
				continue
			}
			row += fmt.Sprintf(" %d/%d |", t.OK(), len(t.Games))
			failed += len(t.Games) - t.OK()
			total += len(t.Games)
		}
		fmt.Fprintln(w, row)
	}
	fmt.Fprintf(w, "\n%d of %d games converted or held\n", total-failed, total)
	for _, t := range tallies {
		for _, g := range t.Games {
			if !g.OK {
				fmt.Fprintf(w, "- %v %s: %s\n", t.Material, t.Mode, g.Failure())
			}
		}
	}
	return failed
}

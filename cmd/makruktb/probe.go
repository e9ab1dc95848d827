package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// moveJSON and probeJSON follow the lichess tablebase API: the top level is
// from the side to move's point of view; each move describes the position
// after it (given as a FEN with the count that follows the move), from the
// point of view of the side to move there. probe --json prints this
// document and serve's /api/v1/probe returns it.
type moveJSON struct {
	UCI      string `json:"uci"`
	FEN      string `json:"fen"`
	WDL      string `json:"wdl"`
	DTM      *int   `json:"dtm"`
	Category string `json:"category"`
}

type countJSON struct {
	Rules string `json:"rules"`
	Kind  string `json:"kind"` // "pieces", "board" or "none"
	Limit int    `json:"limit"`
	// Ply is −1 for a count that starts after this move (cambodian: the
	// side to move has more than three pieces and may not count).
	Ply int `json:"ply"`
	// Remaining is limit − ply, and 0 once the count has passed its limit.
	Remaining int `json:"remaining"`
	// Expired: the count has passed its limit, so no mate can come inside
	// it any more (a checkmate on the board still stands).
	Expired bool `json:"expired"`
}

// positionJSON is a position judged under a count: the head of probe's
// document, check's document and the start of line's.
type positionJSON struct {
	FEN      string `json:"fen"`
	Material string `json:"material"`
	WDL      string `json:"wdl"`
	DTM      *int   `json:"dtm"`
	Category string `json:"category"`
	// Exact is false when the count is board's honour and the DTB table of
	// the rules is missing: Category is then the plain DTM result.
	Exact bool `json:"exact"`
	// DTB is the board's-honour distance (plies) to mate or to a winning
	// capture of the last piece, when it was read.
	DTB   *int      `json:"dtb,omitempty"`
	Count countJSON `json:"count"`
}

type probeJSON struct {
	positionJSON
	Best  string     `json:"best"` // the count-aware best move, "" when there is none
	Moves []moveJSON `json:"moves"`
}

// dtmField returns the mate distance in plies, or nil for a draw.
func dtmField(v value.Value) *int {
	if !v.IsMate() {
		return nil
	}
	d := v.Plies()
	return &d
}

// probed is a position given on the command line, judged in its tables
// under the chosen rules. The caller closes tables.
type probed struct {
	pos       tb.Position
	tables    *probe.Tables
	rules     honour.Rules
	judgement honour.Judgement
}

// probePosition looks up the rules, parses the FEN given as arguments,
// opens the tables and judges the position.
func probePosition(dir, rulesName string, args []string) (*probed, error) {
	rules, err := honour.LookupRules(rulesName)
	if err != nil {
		return nil, err
	}
	pos, err := tb.ParseFEN(strings.Join(args, " "))
	if err != nil {
		return nil, err
	}
	tables, err := openTables(dir)
	if err != nil {
		return nil, err
	}
	j, err := tables.Judge(&pos, &rules)
	if err != nil {
		tables.Close()
		return nil, err
	}
	return &probed{pos: pos, tables: tables, rules: rules, judgement: j}, nil
}

func newProbeCommand() *cobra.Command {
	var dir, rulesName string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "probe [--rules R] [--tables DIR] [--json] FEN",
		Short: "Show a position's result and the result of every legal move",
		Long: `Show a position's mate distance and its category under the honour count
of the rules (win, cursed-win, draw, blessed-loss, loss: cursed and blessed
where the count turns the mate into a draw), then every legal move, best
first for the side to move, with the same for the position after it. The
FEN's count fields give the running count ("-": it starts now). --json
prints a document in the conventions of the lichess tablebase API.`,
		Example: `  makruktb probe "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
  makruktb probe --json "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pr, err := probePosition(dir, rulesName, args)
			if err != nil {
				return err
			}
			defer pr.tables.Close()
			moves, err := pr.tables.JudgedMoves(&pr.pos, &pr.rules)
			judged := judgedProbe{position: pr.judgement, moves: moves}
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), newProbeJSON(&pr.pos, judged, &pr.rules))
			}
			writeProbeText(cmd.OutOrStdout(), &pr.pos, judged, &pr.rules)
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addRulesFlag(cmd, &rulesName)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (lichess tablebase API conventions)")
	return cmd
}

// judgedProbe is a position and its moves judged under a count.
type judgedProbe struct {
	position honour.Judgement
	moves    []probe.JudgedMove
}

// judgePosition judges pos and its moves under rules r.
func judgePosition(t *probe.Tables, pos *tb.Position, r *honour.Rules) (judgedProbe, error) {
	j, err := t.Judge(pos, r)
	if err != nil {
		return judgedProbe{}, err
	}
	moves, err := t.JudgedMoves(pos, r)
	return judgedProbe{position: j, moves: moves}, err
}

func newPositionJSON(pos *tb.Position, j honour.Judgement, r *honour.Rules) positionJSON {
	v := j.Value
	return positionJSON{
		FEN:      pos.FEN(),
		Material: tb.MaterialOf(pos).String(),
		WDL:      v.WDL().String(),
		DTM:      dtmField(v),
		Category: j.Category.String(),
		Exact:    j.Exact,
		DTB:      dtmField(j.DTB),
		Count:    newCountJSON(j.Count, r),
	}
}

func newProbeJSON(pos *tb.Position, j judgedProbe, r *honour.Rules) probeJSON {
	doc := probeJSON{positionJSON: newPositionJSON(pos, j.position, r), Moves: []moveJSON{}}
	if i := probe.BestJudged(j.moves); i >= 0 {
		doc.Best = j.moves[i].Move.String()
	}
	for _, m := range j.moves {
		a := m.After.Value
		doc.Moves = append(doc.Moves, moveJSON{
			UCI: m.Move.String(), FEN: fenAfter(pos, m), WDL: a.WDL().String(), DTM: dtmField(a), Category: m.After.Category.String(),
		})
	}
	return doc
}

func newCountJSON(c honour.Count, r *honour.Rules) countJSON {
	return countJSON{
		Rules: r.Name, Kind: string(c.Kind), Limit: c.Limit, Ply: c.Ply, Remaining: max(c.Remaining(), 0),
		Expired: c.Kind != honour.NoCountKind && r.MatingPlies(c) <= 0,
	}
}

// fenAfter returns the FEN of the position after a judged move, with the
// count that runs there.
func fenAfter(pos *tb.Position, m probe.JudgedMove) string {
	q := pos.Play(m.Move)
	q.CountLimit, q.CountPly = tb.NoCount, 0
	if c := m.After.Count; c.Kind != honour.NoCountKind && c.Started() {
		q.CountLimit, q.CountPly = c.Limit, c.Ply
	}
	return q.FEN()
}

func writeJSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// valueText describes a value for the side to move in words.
func valueText(side tb.Color, v value.Value) string {
	switch {
	case v.IsWin():
		return fmt.Sprintf("%s mates in %d (%d plies)", side.Name(), v.Moves(), v.Plies())
	case v.IsLoss() && v.Plies() == 0:
		return fmt.Sprintf("%s is checkmated", side.Name())
	case v.IsLoss():
		return fmt.Sprintf("%s is mated in %d (%d plies)", side.Name(), v.Moves(), v.Plies())
	}
	return "draw"
}

func writeProbeText(w io.Writer, pos *tb.Position, j judgedProbe, r *honour.Rules) {
	v := j.position.Value
	fmt.Fprintf(w, "%s  %s to move\n%s (%s)\n", tb.MaterialOf(pos), pos.Side.Name(), valueText(pos.Side, v), j.position.Category)
	if !j.position.Exact {
		fmt.Fprintf(w, "Cannot tell the result under the %s count without the board's-honour table %s (makruktb gen makes it): the categories are the plain DTM results\n",
			r.Name, probe.BoardFileName(tb.MaterialOf(pos), r.Name))
	}
	if len(j.moves) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, m := range j.moves {
		mv := m.After.Value.Negate()
		var text string
		switch {
		case mv.IsWin():
			text = fmt.Sprintf("mate in %d", mv.Moves())
		case mv.IsLoss():
			text = fmt.Sprintf("mated in %d", mv.Moves())
		}
		fmt.Fprintf(w, "  %-6s %-13s %s\n", m.Move, m.After.Category.Opposite(), text)
	}
}

// lineJSON is line --json's document and /api/v1/line's: the start,
// judged as check --json gives it, then each move of the count-aware
// optimal line with the position after it. A line of a drawn position,
// or of a mate on the board, has no moves.
type lineJSON struct {
	Start positionJSON `json:"start"`
	Moves []stepJSON   `json:"moves"`
}

// stepJSON is one move of a line and the position after it: its FEN
// with the count running there, its mate distance, and its category
// and count, from the point of view of the side to move there.
type stepJSON struct {
	UCI      string    `json:"uci"`
	FEN      string    `json:"fen"`
	DTM      *int      `json:"dtm"`
	Category string    `json:"category"`
	Count    countJSON `json:"count"`
}

// judgeLine judges pos under r and follows its count-aware optimal line.
func judgeLine(t *probe.Tables, pos *tb.Position, r *honour.Rules) (lineJSON, error) {
	j, err := t.Judge(pos, r)
	if err != nil {
		return lineJSON{}, err
	}
	line, err := t.JudgedLine(pos, r)
	if err != nil {
		return lineJSON{}, err
	}
	doc := lineJSON{Start: newPositionJSON(pos, j, r), Moves: []stepJSON{}}
	cur := *pos
	for _, m := range line {
		doc.Moves = append(doc.Moves, stepJSON{
			UCI: m.Move.String(), FEN: fenAfter(&cur, m), DTM: dtmField(m.After.Value),
			Category: m.After.Category.String(), Count: newCountJSON(m.After.Count, r),
		})
		cur = cur.Play(m.Move)
	}
	return doc, nil
}

func newLineCommand() *cobra.Command {
	var dir, rulesName string
	var ascii, asJSON bool
	var every int
	cmd := &cobra.Command{
		Use:   "line [--rules R] [--tables DIR] [--ascii] [--every N] [--json] FEN",
		Short: "Print an optimal line to mate, with boards along the way",
		Long: `Print the count-aware optimal line from a position: both sides play their
best move under the running honour count of the rules (the quickest win
inside the count, else the quickest cursed win, a draw, or the longest
resistance) until mate. Each move shows the mate distance and the count
after it; a board is drawn every --every plies and at the end. A drawn
position has no line. --json prints the document of /api/v1/line instead.`,
		Example: `  makruktb line "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
  makruktb line --ascii --every 4 "8/8/8/8/8/2k5/1R6/K7 w - - 0 1"
  makruktb line --json --rules cambodian "n7/8/7R/8/8/8/8/K3k3 w - - 0 1"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if every < 1 {
				return fmt.Errorf("--every %d: must be at least 1", every)
			}
			pr, err := probePosition(dir, rulesName, args)
			if err != nil {
				return err
			}
			defer pr.tables.Close()
			if asJSON {
				doc, err := judgeLine(pr.tables, &pr.pos, &pr.rules)
				if err != nil {
					return err
				}
				return writeJSON(cmd.OutOrStdout(), doc)
			}
			pos, tables, rules, start := pr.pos, pr.tables, pr.rules, pr.judgement
			v := start.Value
			line, err := tables.JudgedLine(&pos, &rules)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%s\n%s (%s, %s rules)\n\n", pos.FEN(), valueText(pos.Side, v), start.Category, rules.Name)
			writeBoard(out, &pos, ascii)
			cur := pos
			for i, m := range line {
				number := fmt.Sprintf("%d.", cur.Fullmove)
				if cur.Side == tb.Black {
					number = fmt.Sprintf("%d...", cur.Fullmove)
				}
				cur = cur.Play(m.Move)
				fmt.Fprintf(out, "%-6s %-6s %-14s %s\n", number, m.Move, afterText(m.After.Value), countText(m.After.Count))
				if (i+1)%every == 0 || i == len(line)-1 {
					fmt.Fprintln(out)
					writeBoard(out, &cur, ascii)
				}
			}
			return nil
		},
	}
	addTablesFlag(cmd, &dir)
	addRulesFlag(cmd, &rulesName)
	cmd.Flags().BoolVar(&ascii, "ascii", false, "draw boards with letters instead of Unicode pieces")
	cmd.Flags().IntVar(&every, "every", 10, "draw the board every N plies")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the line as JSON (the document of /api/v1/line)")
	return cmd
}

// afterText describes the position after a move.
func afterText(v value.Value) string {
	switch {
	case v.IsLoss() && v.Plies() == 0:
		return "checkmate"
	case v.IsMate():
		return fmt.Sprintf("DTM %d plies", v.Plies())
	}
	return "draw"
}

// countText shows a running count, e.g. "count 9/16 (pieces)".
func countText(c honour.Count) string {
	if c.Kind == honour.NoCountKind {
		return ""
	}
	if !c.Started() {
		return fmt.Sprintf("count -/%d (%s, starts after this move)", c.Limit, c.Kind)
	}
	return fmt.Sprintf("count %d/%d (%s)", c.Ply, c.Limit, c.Kind)
}

var unicodePieces = [2][tb.NumPieceTypes]string{
	{tb.Rook: "♖", tb.Khon: "♗", tb.Knight: "♘", tb.Met: "♕", tb.Pawn: "♙", tb.King: "♔"},
	{tb.Rook: "♜", tb.Khon: "♝", tb.Knight: "♞", tb.Met: "♛", tb.Pawn: "♟", tb.King: "♚"},
}

// writeBoard draws the board from White's side, rank 8 first.
func writeBoard(w io.Writer, p *tb.Position, ascii bool) {
	for rank := 7; rank >= 0; rank-- {
		fmt.Fprintf(w, "  %d ", rank+1)
		for file := 0; file < 8; file++ {
			c, t := p.PieceAt(tb.NewSquare(file, rank))
			switch {
			case t == tb.NoPiece:
				fmt.Fprint(w, " .")
			case ascii && c == tb.White:
				fmt.Fprintf(w, " %c", t.Letter())
			case ascii:
				fmt.Fprintf(w, " %c", t.Letter()+'a'-'A')
			default:
				fmt.Fprintf(w, " %s", unicodePieces[c][t])
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "     a b c d e f g h   %s to move\n\n", p.Side.Name())
}

// Package report is the tables' answers as documents — a position judged
// under a count with every move (Probe), the count-aware optimal line
// (Line), a material's statistics and studies (Stats, Study) — and their
// renderings: JSON, text for the command line, SVG figures. The HTTP
// server (package api), probe, line, check and stats --json give the same
// documents.
package report

import (
	"cmp"
	"encoding/json"
	"io"
	"strings"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Move and Probe follow the lichess tablebase API: the top level is
// from the side to move's point of view; each move describes the position
// after it (given as a FEN with the count that follows the move), from the
// point of view of the side to move there. probe --json prints this
// document and serve's /api/v1/probe returns it.
type Move struct {
	UCI string `json:"uci"`
	// SAN is the move as players write it: Rb1, Nxc6, Ke2# (tb.Position.SAN).
	SAN      string `json:"san"`
	FEN      string `json:"fen"`
	WDL      string `json:"wdl"`
	DTM      *int   `json:"dtm"`
	Category string `json:"category"`
	// DTB is the board's-honour distance (plies) from the position after
	// the move to its side's goal (mate, or a capture of the last piece
	// into a pieces' count that still wins), where board's honour judges
	// it: what makes a longer mate the better move.
	DTB *int `json:"dtb,omitempty"`
	// Exact is false when the count after the move is board's honour and
	// the DTB table of the rules is missing: Category is then the plain
	// DTM result, which the count may turn into a draw.
	Exact bool `json:"exact"`
	// Count is the count after the move.
	Count Count `json:"count"`
}

// Count is a count as a document: which rules, which count, how far it
// has run.
type Count struct {
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
	// Unit is the step of the count as players call it: "moves" (two
	// plies) or "half-moves" (one ply; the thai-halfmove profile).
	Unit string `json:"unit"`
	// Counter, under rules whose board's count one side runs
	// (board_count_by "fewer"), is that side, "white" or "black", whose
	// own win the count does not limit, or "none" while both sides have
	// as many pieces; absent for a count that binds whoever wins.
	Counter string `json:"counter,omitempty"`
}

// Position is a position judged under a count: the head of probe's
// document, check's document and the start of line's.
type Position struct {
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
	DTB   *int  `json:"dtb,omitempty"`
	Count Count `json:"count"`
	// InCheck says the side to move is in check (left out when not).
	InCheck bool `json:"in_check,omitempty"`
	// Game is "shatranj" for a Shatranj position (left out for Makruk's);
	// Material is then in Shatranj's letters.
	Game string `json:"game,omitempty"`
}

// Probe is probe --json's document and /api/v1/probe's: the position
// judged under the count, the best move and every move.
type Probe struct {
	Position
	Best  string `json:"best"` // the count-aware best move, "" when there is none
	Moves []Move `json:"moves"`
	// WDLFile is what the rules' WDL file, the file an engine probes,
	// says of the position with a fresh count (probe --wdl only).
	WDLFile *WDLFile `json:"wdl_file,omitempty"`
}

// WDLFile is the answer of a WDL file: its name, and the category it
// gives, "" when the directory has no such file.
type WDLFile struct {
	File     string `json:"file"`
	Category string `json:"category"`
}

// DTM returns the mate distance in plies, or nil for a draw.
func DTM(v value.Value) *int {
	if !v.IsMate() {
		return nil
	}
	d := v.Plies()
	return &d
}

// NewPosition is the document of pos, judged j under r.
func NewPosition(pos *tb.Position, j honour.Judgement, r *honour.Rules) Position {
	v := j.Value
	return Position{
		FEN:      pos.FEN(),
		Material: pos.Game().MaterialName(tb.MaterialOf(pos)),
		WDL:      v.WDL().String(),
		DTM:      DTM(v),
		Category: j.Category.String(),
		Exact:    j.Exact,
		DTB:      DTM(j.DTB),
		Count:    NewCount(j.Count, pos.Side, r),
		InCheck:  pos.InCheck(pos.Side),
		Game:     gameName(pos.Game()),
	}
}

// gameName is the game's name in a document: empty for Makruk, the
// default, so that Makruk's documents are unchanged.
func gameName(g tb.Game) string {
	if g == tb.Makruk {
		return ""
	}
	return g.String()
}

// NewProbe is the document of pos and its moves, judged j under r.
func NewProbe(pos *tb.Position, j probe.Root, r *honour.Rules) Probe {
	doc := Probe{Position: NewPosition(pos, j.Position, r), Moves: []Move{}}
	if j.Best >= 0 {
		doc.Best = j.Moves[j.Best].Move.String()
	}
	for _, m := range j.Moves {
		a := m.After.Value
		doc.Moves = append(doc.Moves, Move{
			UCI: m.Move.String(), SAN: pos.SAN(m.Move), FEN: FENAfter(pos, m), WDL: a.WDL().String(), DTM: DTM(a), Category: m.After.Category.String(),
			DTB: DTM(m.After.DTB), Exact: m.After.Exact, Count: NewCount(m.After.Count, pos.Side.Other(), r),
		})
	}
	return doc
}

// NewCount is the document of count c under r, with mover to move.
func NewCount(c honour.Count, mover tb.Color, r *honour.Rules) Count {
	return Count{
		Rules: r.Name, Kind: string(c.Kind), Limit: c.Limit, Ply: c.Ply, Remaining: max(c.Remaining(), 0),
		Expired: c.Kind != honour.NoCountKind && r.MatingPlies(c) <= 0,
		Unit:    string(cmp.Or(r.Unit, honour.UnitMoves)),
		Counter: counterName(c, mover),
	}
}

// counterName names who runs count c with mover to move: a side, "none"
// where no count runs yet, "" for a neutral count.
func counterName(c honour.Count, mover tb.Color) string {
	if side, counted := c.CountingSide(mover); counted {
		return strings.ToLower(side.Name())
	}
	if c.Waiting() {
		return "none"
	}
	return ""
}

// FENAfter returns the FEN of the position after a judged move, with the
// count that runs there.
func FENAfter(pos *tb.Position, m probe.JudgedMove) string {
	q := pos.Play(m.Move)
	q.CountLimit, q.CountPly = tb.NoCount, 0
	if c := m.After.Count; c.Kind != honour.NoCountKind && c.Started() {
		q.CountLimit, q.CountPly = c.Limit, c.Ply
	}
	return q.FEN()
}

// WriteJSON writes doc as indented JSON, the form every command and the
// server give.
func WriteJSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// Line is line --json's document and /api/v1/line's: the start,
// judged as check --json gives it, then each move of the count-aware
// optimal line with the position after it. A line of a drawn position,
// or of a mate on the board, has no moves.
type Line struct {
	Start Position `json:"start"`
	Moves []Step   `json:"moves"`
}

// Step is one move of a line and the position after it: its FEN
// with the count running there, its mate distance, and its category
// and count, from the point of view of the side to move there.
type Step struct {
	UCI      string `json:"uci"`
	SAN      string `json:"san"`
	FEN      string `json:"fen"`
	DTM      *int   `json:"dtm"`
	Category string `json:"category"`
	Count    Count  `json:"count"`
}

// JudgeLine judges pos under r and follows its count-aware optimal line.
func JudgeLine(t *probe.Tables, pos *tb.Position, r *honour.Rules) (Line, error) {
	j, err := t.Judge(pos, r)
	if err != nil {
		return Line{}, err
	}
	line, err := t.JudgedLine(pos, r)
	if err != nil {
		return Line{}, err
	}
	doc := Line{Start: NewPosition(pos, j, r), Moves: []Step{}}
	cur := *pos
	for _, m := range line {
		doc.Moves = append(doc.Moves, Step{
			UCI: m.Move.String(), SAN: cur.SAN(m.Move), FEN: FENAfter(&cur, m), DTM: DTM(m.After.Value),
			Category: m.After.Category.String(), Count: NewCount(m.After.Count, cur.Side.Other(), r),
		})
		cur = cur.Play(m.Move)
	}
	return doc, nil
}

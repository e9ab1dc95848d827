package tb

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Counting rules (honour counts), the Makruk replacement for the 50-move
// rule. A Rules value is data: the built-in profiles below and any profile
// read from a JSON file are interpreted by the same code.
//
// Pieces' honour runs when one side has only its king: its limit is chosen
// by the stronger side's material (first matching entry of Pieces), and the
// count starts at an offset (all pieces on the board, the strong side's
// pieces, or none). Board's honour runs when both sides still have pieces.
// Counts are kept in plies; a position whose count ply exceeds the limit
// (or reaches it, for DrawAtLimit) is drawn unless the side to move is
// checkmated.
type Rules struct {
	Name string `json:"name"`
	// Pieces lists the pieces'-honour limits, first match wins.
	Pieces []PiecesLimit `json:"pieces"`
	// Start says where a fresh pieces'-honour count starts: "all" (every
	// piece on the board, both kings included), "strong" (the stronger
	// side's pieces, its king included) or "none" (zero).
	Start string `json:"start"`
	// DrawAtLimit draws as soon as the count reaches the limit instead of
	// when it exceeds it.
	DrawAtLimit bool `json:"draw_at_limit"`
	// BoardPlies is the board's-honour limit in plies; 0 means no board's
	// honour.
	BoardPlies int `json:"board_plies"`
}

// PiecesLimit is one row of the pieces'-honour table: when the stronger
// side has at least AtLeast pieces of type Piece (any material when Piece
// is empty), the count limit is Plies.
type PiecesLimit struct {
	Piece   string `json:"piece"` // "R", "S", "N", "M" or "" for anything
	AtLeast int    `json:"at_least"`
	Plies   int    `json:"plies"`
}

func movesTable(rook2, rook, khon2, knight2, khon, other int) []PiecesLimit {
	return []PiecesLimit{
		{"R", 2, 2 * rook2}, {"R", 1, 2 * rook}, {"S", 2, 2 * khon2},
		{"N", 2, 2 * knight2}, {"S", 1, 2 * khon}, {"", 0, 2 * other},
	}
}

// Built-in rule profiles.
var (
	ThaiRules      = Rules{Name: "thai", Pieces: movesTable(8, 16, 22, 32, 44, 64), Start: "all", BoardPlies: 128}
	CambodianRules = Rules{Name: "cambodian", Pieces: movesTable(7, 15, 21, 31, 43, 63), Start: "all", BoardPlies: 126}
	ASEANRules     = Rules{Name: "asean", Pieces: []PiecesLimit{{"R", 1, 32}, {"S", 1, 88}, {"N", 1, 128}}, Start: "none"}
	NoRules        = Rules{Name: "none"}
)

// BuiltinRules returns the built-in profiles by name.
func BuiltinRules() []Rules { return []Rules{ThaiRules, CambodianRules, ASEANRules, NoRules} }

// LookupRules returns a built-in profile by name, or reads a profile from
// a JSON file when name is a path ending in .json.
func LookupRules(name string) (Rules, error) {
	for _, r := range BuiltinRules() {
		if strings.EqualFold(r.Name, name) {
			return r, nil
		}
	}
	if strings.HasSuffix(name, ".json") {
		data, err := os.ReadFile(name)
		if err != nil {
			return Rules{}, fmt.Errorf("rules: %w", err)
		}
		r, err := ParseRules(data)
		if err != nil {
			return Rules{}, fmt.Errorf("%s: %w", name, err)
		}
		return r, nil
	}
	return Rules{}, fmt.Errorf("rules %q: not a profile (thai, cambodian, asean, none) nor a .json file", name)
}

// ParseRules reads a profile from JSON and checks it.
func ParseRules(data []byte) (Rules, error) {
	var r Rules
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Rules{}, fmt.Errorf("rules: %w", err)
	}
	return r, r.Validate()
}

// Validate reports what is wrong with a profile.
func (r *Rules) Validate() error {
	if r.Name == "" {
		return fmt.Errorf("rules: missing name")
	}
	switch r.Start {
	case "all", "strong", "none":
	case "":
		if len(r.Pieces) > 0 {
			return fmt.Errorf("rules %s: start must be all, strong or none", r.Name)
		}
	default:
		return fmt.Errorf("rules %s: start %q: must be all, strong or none", r.Name, r.Start)
	}
	for i, l := range r.Pieces {
		if l.Plies <= 0 {
			return fmt.Errorf("rules %s: pieces[%d]: plies must be positive", r.Name, i)
		}
		if l.Piece == "" {
			continue
		}
		t, ok := pieceTypeOfLetter(strings.ToUpper(l.Piece)[0])
		if len(l.Piece) != 1 || !ok || t > Met {
			return fmt.Errorf("rules %s: pieces[%d]: piece %q: must be R, S, N or M", r.Name, i, l.Piece)
		}
		if l.AtLeast < 1 {
			return fmt.Errorf("rules %s: pieces[%d]: at_least must be at least 1", r.Name, i)
		}
	}
	if r.BoardPlies < 0 {
		return fmt.Errorf("rules %s: board_plies must not be negative", r.Name)
	}
	return nil
}

// CountKind says which honour count applies to a material.
type CountKind string

const (
	NoCountKind CountKind = "none"
	PiecesCount CountKind = "pieces"
	BoardCount  CountKind = "board"
)

// Count is the state of an honour count in plies.
type Count struct {
	Kind  CountKind
	Limit int
	Ply   int
}

// Remaining returns Limit − Ply.
func (c Count) Remaining() int { return c.Limit - c.Ply }

// PiecesLimitFor returns the pieces'-honour limit in plies for material m
// whose weaker side (bare) is the given colour, or 0 when none applies.
func (r *Rules) PiecesLimitFor(m Material, bare Color) int {
	strong := bare.Other()
	for _, l := range r.Pieces {
		if l.Piece == "" {
			return l.Plies
		}
		t, _ := pieceTypeOfLetter(strings.ToUpper(l.Piece)[0])
		if m.Count(strong, t) >= l.AtLeast {
			return l.Plies
		}
	}
	return 0
}

// Bare returns the colour with only its king while the other side has
// more, and true; false when both or neither side have pieces.
func Bare(m Material) (Color, bool) {
	w, b := m.SidePieces(White), m.SidePieces(Black)
	switch {
	case w == 0 && b > 0:
		return White, true
	case b == 0 && w > 0:
		return Black, true
	}
	return White, false
}

// FreshCount returns the count that starts in a pawnless position p (as a
// FEN with "-" in the count field is judged): pieces' honour when one side
// is bare, board's honour when both have pieces, none otherwise.
func (r *Rules) FreshCount(p *Position) Count { return r.FreshCountFor(MaterialOf(p), p.Side) }

// FreshCountFor is FreshCount for any position of material m with the given
// side to move (the count depends on nothing else).
func (r *Rules) FreshCountFor(m Material, side Color) Count {
	if bare, ok := Bare(m); ok {
		limit := r.PiecesLimitFor(m, bare)
		if limit == 0 {
			return Count{Kind: NoCountKind}
		}
		start := 0
		switch r.Start {
		case "all":
			start = 2 * m.Pieces()
		case "strong":
			start = 2 * (1 + m.SidePieces(bare.Other()))
		}
		if start > 0 && side != bare {
			start-- // the strong side moves first: the count began a ply earlier
		}
		return Count{Kind: PiecesCount, Limit: limit, Ply: start}
	}
	if m.SidePieces(White) > 0 && m.SidePieces(Black) > 0 && r.BoardPlies > 0 {
		return Count{Kind: BoardCount, Limit: r.BoardPlies}
	}
	return Count{Kind: NoCountKind}
}

// CountOf returns the count of p: the FEN's count fields when a count is
// running, else a fresh count. The kind always follows the material.
func (r *Rules) CountOf(p *Position) Count { return r.CountOfMaterial(p, MaterialOf(p)) }

// CountOfMaterial is CountOf for a position whose material m the caller
// has at hand (a prober saves computing it twice).
func (r *Rules) CountOfMaterial(p *Position, m Material) Count {
	c := r.FreshCountFor(m, p.Side)
	if p.CountLimit != NoCount && c.Kind != NoCountKind {
		c.Limit, c.Ply = p.CountLimit, p.CountPly
	}
	return c
}

// MatingPlies returns the largest mate distance (plies, counted from p)
// that still wins inside count c: the mating move must be made from a
// position whose count has not passed the limit.
func (r *Rules) MatingPlies(c Count) int {
	d := c.Limit - c.Ply + 1
	if r.DrawAtLimit {
		d--
	}
	return d
}

package honour

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/makruktb/makruktb/tb"
)

// Rules is a counting profile. A Rules value is data: the built-in
// profiles below and any profile read from a JSON file are interpreted by
// the same code.
//
// Pieces' honour runs when one side has only its king: its limit is chosen
// by the stronger side's material (the first entry of Pieces that matches,
// so the order of the rows decides where several could: see PiecesLimit),
// and the count starts at an offset (Start: all pieces on the board, the
// strong side's pieces, or none), counted in Unit. Board's honour runs when
// both sides still have pieces. Counts are kept in plies; a position whose
// count ply exceeds the limit (or reaches it, for a count that draws on
// reaching: PiecesDraw, BoardDraw) is drawn unless the side to move is
// checkmated.
type Rules struct {
	Name string `json:"name"`
	// Pieces lists the pieces'-honour limits, first match wins.
	Pieces []PiecesLimit `json:"pieces"`
	// Start says where a fresh pieces'-honour count starts.
	Start Start `json:"start"`
	// Unit is what one step of the count is: a move of each side (two
	// plies, the default) or a half-move (one ply). It scales Start and
	// the count called aloud; the limits are in plies either way.
	Unit Unit `json:"unit,omitempty"`
	// DrawAtLimit draws as soon as either count reaches its limit instead
	// of when it exceeds it. It predates PiecesDraw and BoardDraw, which
	// choose for each count, and may not be given with them.
	DrawAtLimit bool `json:"draw_at_limit,omitempty"`
	// PiecesDraw and BoardDraw say when the pieces' and the board's count
	// draw: on exceeding the limit (the default) or on reaching it.
	PiecesDraw LimitDraw `json:"pieces_draw,omitempty"`
	BoardDraw  LimitDraw `json:"board_draw,omitempty"`
	// BareKingCapture says what a capture made by the bare king does to
	// a running pieces' count: it goes on with the same limit (the
	// default), or a new count starts as a fresh one would, with the limit
	// of the material left.
	BareKingCapture BareKingCapture `json:"bare_king_capture,omitempty"`
	// BoardPlies is the board's-honour limit in plies; 0 means no board's
	// honour.
	BoardPlies int `json:"board_plies"`
	// BoardCounters, if not 0, is the most pieces (king included) a side
	// may have to count board's honour: a count that has not started
	// starts only with a side that may count to move (Fairy-Stockfish's
	// cambodian count_limit: a side with more than three pieces does not
	// count). 0 means any side counts.
	BoardCounters int `json:"board_counters,omitempty"`
	// BoardCountBy says whose win a board's count limits: any side's (""
	// or "either", every built-in profile), or, with "fewer", only the
	// win of the side with more pieces, the side with fewer running the
	// count (as the texts say); with as many pieces on each side no count
	// runs. See Counter.
	BoardCountBy BoardCountBy `json:"board_count_by,omitempty"`
	// CounterMate says what a checkmate given by the side that runs a
	// board's count scores while the count runs: a win ("" or "win"), or
	// a draw ("draw", texts 001 and 002), which needs BoardCountBy
	// "fewer" (a neutral count has no counting side). Under "draw" the
	// DTB tables depend on who counts (Counting).
	CounterMate CounterMate `json:"counter_mate,omitempty"`
}

// CounterMate is what a mate by the counting side scores: "win" (also "")
// or "draw".
type CounterMate string

const (
	CounterMateWins  CounterMate = "win"
	CounterMateDraws CounterMate = "draw"
)

// BoardCountBy is who runs a board's count: "either" (also "") or
// "fewer".
type BoardCountBy string

const (
	CountByEither BoardCountBy = "either" // neutral: every win must fit the count
	CountByFewer  BoardCountBy = "fewer"  // the side with fewer pieces counts
)

// Start is where a fresh pieces'-honour count starts, in the profile's
// unit.
type Start string

const (
	StartAll          Start = "all"           // every piece on the board, both kings included
	StartStrong       Start = "strong"        // the stronger side's pieces, its king included
	StartStrongPieces Start = "strong-pieces" // the stronger side's pieces other than its king
	StartNone         Start = "none"          // zero: the whole limit
)

// Unit is the step of a count.
type Unit string

const (
	UnitMoves     Unit = "moves"      // a move of each side: two plies (also "")
	UnitHalfMoves Unit = "half-moves" // each half-move: one ply
)

// plies returns the plies of n steps of the count.
func (u Unit) plies(n int) int {
	if u == UnitHalfMoves {
		return n
	}
	return 2 * n
}

// LimitDraw is when a count draws: "exceed" (also "") or "reach".
type LimitDraw string

const (
	DrawOnExceeding LimitDraw = "exceed" // the count passes its limit
	DrawOnReaching  LimitDraw = "reach"  // the count reaches its limit
)

// BareKingCapture is what a capture by the bare king does to its count:
// "continue" (also "") or "restart".
type BareKingCapture string

const (
	CaptureContinues BareKingCapture = "continue" // the count goes on, same limit
	CaptureRestarts  BareKingCapture = "restart"  // a fresh count of the material left
)

// drawsOnReaching reports whether a count of that kind draws when it
// reaches its limit (rather than when it exceeds it).
func (r *Rules) drawsOnReaching(kind CountKind) bool {
	if r.DrawAtLimit {
		return true
	}
	if kind == BoardCount {
		return r.BoardDraw == DrawOnReaching
	}
	return r.PiecesDraw == DrawOnReaching
}

// PiecesLimit is one row of the pieces'-honour table: when the stronger
// side has at least AtLeast pieces of type Piece (any material when Piece
// is AnyPiece), the count limit is Plies. The first row that matches
// decides: king, khon and two knights have 32 moves when the two knights'
// row comes before the one khon's (thai) and 44 when it comes after
// (thai-halfmove), as the texts read it either way.
type PiecesLimit struct {
	Piece   LimitPiece `json:"piece"`
	AtLeast int        `json:"at_least"`
	Plies   int        `json:"plies"`
}

// LimitPiece is the piece type a pieces'-honour limit asks for, or
// AnyPiece. In JSON it is "R", "S", "N", "M" or "" (any).
type LimitPiece uint8

// AnyPiece is the LimitPiece of a limit that any material meets.
const AnyPiece LimitPiece = 0

// PieceOf returns the LimitPiece of piece type t (rook, khon, knight or
// met).
func PieceOf(t tb.PieceType) LimitPiece { return LimitPiece(t) + 1 }

// Type returns the piece type, and false for AnyPiece.
func (p LimitPiece) Type() (tb.PieceType, bool) {
	if p == AnyPiece {
		return 0, false
	}
	return tb.PieceType(p - 1), true
}

func (p LimitPiece) MarshalText() ([]byte, error) {
	t, ok := p.Type()
	if !ok {
		return []byte{}, nil
	}
	return []byte{t.Letter()}, nil
}

func (p *LimitPiece) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*p = AnyPiece
		return nil
	}
	s := strings.ToUpper(string(text))
	for _, t := range []tb.PieceType{tb.Rook, tb.Khon, tb.Knight, tb.Met} {
		if len(s) == 1 && s[0] == t.Letter() {
			*p = PieceOf(t)
			return nil
		}
	}
	return fmt.Errorf("piece %q: must be R, S, N or M", text)
}

// movesTable is the pieces'-honour table of the texts in moves (two
// rooks, one rook, two khons, two knights, one khon, anything else), in
// that order: king, khon and two knights count as two knights.
func movesTable(rook2, rook, khon2, knight2, khon, other int) []PiecesLimit {
	r, s, n := PieceOf(tb.Rook), PieceOf(tb.Khon), PieceOf(tb.Knight)
	return []PiecesLimit{
		{r, 2, 2 * rook2}, {r, 1, 2 * rook}, {s, 2, 2 * khon2},
		{n, 2, 2 * knight2}, {s, 1, 2 * khon}, {AnyPiece, 0, 2 * other},
	}
}

// halfMovesTable is the table of the text that counts half-moves
// (../shared/sources/000): the same numbers, each a ply, and one khon
// before two knights (its "two knights" row says "no khons").
func halfMovesTable() []PiecesLimit {
	r, s, n := PieceOf(tb.Rook), PieceOf(tb.Khon), PieceOf(tb.Knight)
	return []PiecesLimit{{r, 2, 8}, {r, 1, 16}, {s, 2, 22}, {s, 1, 44}, {n, 2, 32}, {AnyPiece, 0, 64}}
}

// Built-in rule profiles. The thai ones differ in where the pieces' count
// starts; thai-halfmove is the whole reading of the text that counts
// half-moves.
var (
	ThaiRules         = Rules{Name: "thai", Pieces: movesTable(8, 16, 22, 32, 44, 64), Start: StartAll, BoardPlies: 128}
	ThaiStrongRules   = Rules{Name: "thai-strong", Pieces: movesTable(8, 16, 22, 32, 44, 64), Start: StartStrongPieces, BoardPlies: 128}
	ThaiPlainRules    = Rules{Name: "thai-plain", Pieces: movesTable(8, 16, 22, 32, 44, 64), Start: StartNone, BoardPlies: 128}
	ThaiHalfMoveRules = Rules{Name: "thai-halfmove", Pieces: halfMovesTable(), Start: StartNone, Unit: UnitHalfMoves, BoardDraw: DrawOnReaching, BoardPlies: 64}
	CambodianRules    = Rules{Name: "cambodian", Pieces: movesTable(7, 15, 21, 31, 43, 63), Start: StartAll, BoardPlies: 126, BoardCounters: 3}
	ASEANRules        = Rules{Name: "asean", Pieces: []PiecesLimit{{PieceOf(tb.Rook), 1, 32}, {PieceOf(tb.Khon), 1, 88}, {PieceOf(tb.Knight), 1, 128}}, Start: StartNone}
	NoRules           = Rules{Name: "none"}
)

// BuiltinRules returns the built-in profiles by name.
func BuiltinRules() []Rules {
	return []Rules{ThaiRules, ThaiStrongRules, ThaiPlainRules, ThaiHalfMoveRules, CambodianRules, ASEANRules, NoRules}
}

// BuiltinNames is the names of the built-in profiles, for messages.
func BuiltinNames() string {
	var names []string
	for _, r := range BuiltinRules() {
		names = append(names, r.Name)
	}
	return strings.Join(names, ", ")
}

// Builtin returns the built-in profile of that name (case-insensitive).
func Builtin(name string) (Rules, bool) {
	for _, r := range BuiltinRules() {
		if strings.EqualFold(r.Name, name) {
			return r, true
		}
	}
	return Rules{}, false
}

// LookupRules returns a built-in profile by name, or reads a profile from
// a JSON file when name is a path ending in .json.
func LookupRules(name string) (Rules, error) {
	if r, ok := Builtin(name); ok {
		return r, nil
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
	return Rules{}, fmt.Errorf("rules %q: not a profile (%s) nor a .json file", name, BuiltinNames())
}

// ParseRules reads a profile from JSON and checks it; its name may not be
// a built-in profile's, which it would silently stand in for.
func ParseRules(data []byte) (Rules, error) {
	var r Rules
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Rules{}, fmt.Errorf("rules: %w", err)
	}
	if b, ok := Builtin(r.Name); ok {
		return Rules{}, fmt.Errorf("rules %s: the name of the built-in profile %s; a profile file takes a name of its own", r.Name, b.Name)
	}
	return r, r.Validate()
}

// Validate reports what is wrong with a profile.
func (r *Rules) Validate() error {
	if r.Name == "" {
		return fmt.Errorf("rules: missing name")
	}
	if !validName(r.Name) {
		return fmt.Errorf("rules %q: a name is 1 to 32 letters, digits, - and _ (it names table files: KRvKN.NAME.mtbb)", r.Name)
	}

	const starts = "all, strong, strong-pieces or none"
	switch r.Start {
	case StartAll, StartStrong, StartStrongPieces, StartNone:
	case "":
		if len(r.Pieces) > 0 {
			return fmt.Errorf("rules %s: start must be %s", r.Name, starts)
		}
	default:
		return fmt.Errorf("rules %s: start %q: must be %s", r.Name, r.Start, starts)
	}
	switch r.Unit {
	case "", UnitMoves, UnitHalfMoves:
	default:
		return fmt.Errorf("rules %s: unit %q: must be moves or half-moves", r.Name, r.Unit)
	}
	for _, d := range []struct {
		field string
		draw  LimitDraw
	}{{"pieces_draw", r.PiecesDraw}, {"board_draw", r.BoardDraw}} {
		switch d.draw {
		case "", DrawOnExceeding, DrawOnReaching:
		default:
			return fmt.Errorf("rules %s: %s %q: must be exceed or reach", r.Name, d.field, d.draw)
		}
		if d.draw != "" && r.DrawAtLimit {
			return fmt.Errorf("rules %s: draw_at_limit and %s both given: draw_at_limit is both counts at once; give pieces_draw and board_draw alone", r.Name, d.field)
		}
	}
	switch r.BareKingCapture {
	case "", CaptureContinues, CaptureRestarts:
	default:
		return fmt.Errorf("rules %s: bare_king_capture %q: must be continue or restart", r.Name, r.BareKingCapture)
	}
	switch r.BoardCountBy {
	case "", CountByEither, CountByFewer:
	default:
		return fmt.Errorf("rules %s: board_count_by %q: must be either or fewer", r.Name, r.BoardCountBy)
	}
	switch r.CounterMate {
	case "", CounterMateWins:
	case CounterMateDraws:
		if r.BoardCountBy != CountByFewer {
			return fmt.Errorf("rules %s: counter_mate draw needs board_count_by fewer: under a count either side may run, no side is the counting side", r.Name)
		}
	default:
		return fmt.Errorf("rules %s: counter_mate %q: must be win or draw", r.Name, r.CounterMate)
	}
	for i, l := range r.Pieces {
		if l.Plies <= 0 || l.Plies > tb.MaxCountPlies {
			return fmt.Errorf("rules %s: pieces[%d]: plies %d: must be 1 to %d", r.Name, i, l.Plies, tb.MaxCountPlies)
		}
		if l.Piece != AnyPiece && (l.AtLeast < 1 || l.AtLeast > maxSidePieces) {
			return fmt.Errorf("rules %s: pieces[%d]: at_least %d: must be 1 to %d", r.Name, i, l.AtLeast, maxSidePieces)
		}
	}
	if r.BoardPlies < 0 || r.BoardPlies > tb.MaxCountPlies {
		return fmt.Errorf("rules %s: board_plies %d: must be 0 (no board's honour) to %d", r.Name, r.BoardPlies, tb.MaxCountPlies)
	}
	if r.BoardCounters < 0 || r.BoardCounters == 1 || r.BoardCounters > maxSidePieces+1 {
		return fmt.Errorf("rules %s: board_counters %d: must be 0 (any side) or 2 to %d", r.Name, r.BoardCounters, maxSidePieces+1)
	}
	return nil
}

// maxSidePieces is the most pieces besides its king a side can have.
const maxSidePieces = 15

// validName reports whether a profile name can stand in a file name.
func validName(name string) bool {
	if len(name) > 32 {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return name != ""
}

// ForGame returns the rules a position of game g is judged under when the
// user named the profile name ("" when none was named; def is then the
// caller's default), looked up by lookup (LookupRules, or a server's
// built-in-only lookup). A game without a count (Shatranj) is judged
// under NoRules, and naming any other profile for it is an error.
func ForGame(g tb.Game, name, def string, lookup func(string) (Rules, error)) (Rules, error) {
	if !g.HasCount() {
		if name != "" && name != NoRules.Name {
			return NoRules, fmt.Errorf("rules %q: %s has no counting rule (its tables are DTM only)", name, g)
		}
		return NoRules, nil
	}
	if name == "" {
		name = def
	}
	return lookup(name)
}

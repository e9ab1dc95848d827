// Command libmakruktb is the C library of makruktb: built with
// -buildmode=c-shared (make lib) it becomes libmakruktb.so, declared by
// makruktb.h, so that engines written in C or C++ probe the tables during
// search without parsing FENs.
//
// Every exported function recovers from panics, so no Go panic crosses into
// C; failures are negative return codes with the text kept per C thread
// (lasterror.c). Handles are small integers looked up in a sync.Map, so a
// stale or forged handle is an error, not a crash.
package main

/*
#cgo CFLAGS: -O2
#include <stdlib.h>
#define MTB_NO_PROTOTYPES
#include "makruktb.h"
void mtb_set_error(const char *text);
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
)

func main() {}

// status is what every exported function returns: a result or MTB_OK when
// non-negative, an MTB_ERR_* code when negative.
type status = C.int

var (
	openTables sync.Map // uintptr handle → *probe.Tables
	lastHandle atomic.Uintptr

	rulesMu   sync.Mutex
	rulesList atomic.Pointer[[]*honour.Rules] // by id; copied on append
)

func init() {
	builtin := []*honour.Rules{}
	for _, r := range []honour.Rules{honour.ThaiRules, honour.CambodianRules, honour.ASEANRules, honour.NoRules} {
		builtin = append(builtin, &r)
	}
	rulesList.Store(&builtin)
}

// fail records err as the calling thread's last error and returns its code.
func fail(code status, err error) status {
	text := C.CString(err.Error())
	C.mtb_set_error(text)
	C.free(unsafe.Pointer(text))
	return code
}

// failErr maps a library error to its code.
func failErr(err error) status {
	var missing *probe.MissingError
	var fenErr *tb.FENError
	switch {
	case errors.As(err, &missing):
		return fail(C.MTB_ERR_MISSING, err)
	case errors.Is(err, probe.ErrPawns):
		return fail(C.MTB_ERR_PAWNS, err)
	case errors.Is(err, probe.ErrTooManyPieces):
		return fail(C.MTB_ERR_TOO_MANY, err)
	case errors.Is(err, probe.ErrIllegal):
		return fail(C.MTB_ERR_POSITION, err)
	case errors.Is(err, probe.ErrCorrupt), errors.Is(err, probe.ErrUnsupported):
		return fail(C.MTB_ERR_CORRUPT, err)
	case errors.As(err, &fenErr):
		return fail(C.MTB_ERR_FEN, err)
	}
	return fail(C.MTB_ERR_INTERNAL, err)
}

// argumentError fails with MTB_ERR_ARGUMENT.
func argumentError(format string, args ...any) status {
	return fail(C.MTB_ERR_ARGUMENT, fmt.Errorf(format, args...))
}

// guard turns a panic into MTB_ERR_INTERNAL; every export defers it.
func guard(name string, s *status) {
	if r := recover(); r != nil {
		*s = fail(C.MTB_ERR_INTERNAL, fmt.Errorf("%s: internal error: %v", name, r))
	}
}

func tablesOf(name string, h C.mtb_tables) (*probe.Tables, status) {
	t, ok := openTables.Load(uintptr(h))
	if !ok {
		return nil, argumentError("%s: %d is not an open tables handle", name, uintptr(h))
	}
	return t.(*probe.Tables), C.MTB_OK
}

func rulesOf(name string, id C.int) (*honour.Rules, status) {
	list := *rulesList.Load()
	if id < 0 || int(id) >= len(list) {
		return nil, argumentError("%s: %d is not a rules id", name, int(id))
	}
	return list[id], C.MTB_OK
}

//export mtb_open
func mtb_open(dir *C.char, cacheBytes C.int64_t, out *C.mtb_tables) (s status) {
	defer guard("mtb_open", &s)
	if out == nil {
		return argumentError("mtb_open: out is NULL")
	}
	if cacheBytes < 0 {
		return argumentError("mtb_open: cache size %d is negative", int64(cacheBytes))
	}
	if cacheBytes == 0 {
		cacheBytes = probe.DefaultCacheBytes
	}
	path := ""
	if dir != nil {
		path = C.GoString(dir)
	}
	t, err := probe.Open(path, probe.WithCacheBytes(int64(cacheBytes)))
	if err != nil {
		return failErr(err)
	}
	h := lastHandle.Add(1)
	openTables.Store(h, t)
	*out = C.mtb_tables(h)
	return C.MTB_OK
}

//export mtb_close
func mtb_close(h C.mtb_tables) (s status) {
	defer guard("mtb_close", &s)
	t, ok := openTables.LoadAndDelete(uintptr(h))
	if !ok {
		return argumentError("mtb_close: %d is not an open tables handle", uintptr(h))
	}
	if err := t.(*probe.Tables).Close(); err != nil {
		return failErr(err)
	}
	return C.MTB_OK
}

//export mtb_max_pieces
func mtb_max_pieces(h C.mtb_tables) (s status) {
	defer guard("mtb_max_pieces", &s)
	t, s := tablesOf("mtb_max_pieces", h)
	if t == nil {
		return s
	}
	return C.int(t.MaxPieces())
}

//export mtb_load_rules
func mtb_load_rules(path *C.char, id *C.int) (s status) {
	defer guard("mtb_load_rules", &s)
	if path == nil || id == nil {
		return argumentError("mtb_load_rules: NULL argument")
	}
	r, err := honour.LookupRules(C.GoString(path))
	if err != nil {
		return fail(C.MTB_ERR_ARGUMENT, err)
	}
	rulesMu.Lock()
	defer rulesMu.Unlock()
	list := append([]*honour.Rules(nil), *rulesList.Load()...)
	list = append(list, &r)
	rulesList.Store(&list)
	*id = C.int(len(list) - 1)
	return C.MTB_OK
}

// positionOf converts the C position, rejecting what tb.Position cannot
// hold (overlapping pieces, a bad side or count).
func positionOf(name string, cp *C.mtb_position) (tb.Position, status) {
	var p tb.Position
	if cp == nil {
		return p, argumentError("%s: position is NULL", name)
	}
	var seen uint64
	for c := range 2 {
		for t := range 6 {
			b := uint64(cp.pieces[c][t])
			if b&seen != 0 {
				return p, fail(C.MTB_ERR_POSITION, fmt.Errorf("%s: two pieces on one square (bitboard %d/%d overlaps another)", name, c, t))
			}
			seen |= b
			p.AddPieces(tb.Color(c), tb.PieceType(t), tb.Bitboard(b))
		}
	}
	switch cp.side {
	case C.MTB_WHITE, C.MTB_BLACK:
		p.Side = tb.Color(cp.side)
	default:
		return p, argumentError("%s: side %d is neither MTB_WHITE nor MTB_BLACK", name, int(cp.side))
	}
	switch {
	case cp.count_limit == C.MTB_NO_COUNT:
		p.CountLimit = tb.NoCount
	case cp.count_limit < 0 || cp.count_ply < 0:
		return p, argumentError("%s: count %d/%d is negative", name, int(cp.count_ply), int(cp.count_limit))
	default:
		p.CountLimit, p.CountPly = int(cp.count_limit), int(cp.count_ply)
	}
	p.Fullmove = 1
	return p, C.MTB_OK
}

// categoryCode is the C result of a category.
func categoryCode(c honour.Category) C.int32_t {
	switch c {
	case honour.Win:
		return C.MTB_WIN
	case honour.CursedWin:
		return C.MTB_CURSED_WIN
	case honour.BlessedLoss:
		return C.MTB_BLESSED_LOSS
	case honour.Loss:
		return C.MTB_LOSS
	}
	return C.MTB_DRAW
}

func pliesOf(v value.Value) C.int32_t {
	if !v.IsMate() {
		return -1
	}
	return C.int32_t(v.Plies())
}

//export mtb_probe_wdl
func mtb_probe_wdl(h C.mtb_tables, cp *C.mtb_position, rulesID C.int) (s status) {
	defer guard("mtb_probe_wdl", &s)
	t, s := tablesOf("mtb_probe_wdl", h)
	if t == nil {
		return s
	}
	r, s := rulesOf("mtb_probe_wdl", rulesID)
	if r == nil {
		return s
	}
	p, s := positionOf("mtb_probe_wdl", cp)
	if s != C.MTB_OK {
		return s
	}
	c, err := t.WDL(&p, r)
	if err != nil {
		return failErr(err)
	}
	return C.int(categoryCode(c))
}

//export mtb_probe_root
func mtb_probe_root(h C.mtb_tables, cp *C.mtb_position, rulesID C.int, value *C.mtb_value, best *C.mtb_move, moves *C.mtb_move, movesCap C.int, nMoves *C.int) (s status) {
	defer guard("mtb_probe_root", &s)
	p, s := positionOf("mtb_probe_root", cp)
	if s != C.MTB_OK {
		return s
	}
	return probeRoot("mtb_probe_root", h, &p, rulesID, value, best, moves, movesCap, nMoves)
}

//export mtb_parse_fen
func mtb_parse_fen(fen *C.char, cp *C.mtb_position) (s status) {
	defer guard("mtb_parse_fen", &s)
	if fen == nil || cp == nil {
		return argumentError("mtb_parse_fen: NULL argument")
	}
	p, err := tb.ParseFEN(C.GoString(fen))
	if err != nil {
		return failErr(err)
	}
	for c := range 2 {
		for t := range 6 {
			cp.pieces[c][t] = C.uint64_t(p.Pieces(tb.Color(c), tb.PieceType(t)))
		}
	}
	cp.side = C.int32_t(p.Side)
	cp.count_limit, cp.count_ply = C.MTB_NO_COUNT, 0
	if p.CountLimit != tb.NoCount {
		cp.count_limit, cp.count_ply = C.int32_t(p.CountLimit), C.int32_t(p.CountPly)
	}
	return C.MTB_OK
}

//export mtb_probe_fen
func mtb_probe_fen(h C.mtb_tables, fen *C.char, rulesID C.int, value *C.mtb_value, best *C.mtb_move, moves *C.mtb_move, movesCap C.int, nMoves *C.int) (s status) {
	defer guard("mtb_probe_fen", &s)
	if fen == nil {
		return argumentError("mtb_probe_fen: fen is NULL")
	}
	p, err := tb.ParseFEN(C.GoString(fen))
	if err != nil {
		return failErr(err)
	}
	return probeRoot("mtb_probe_fen", h, &p, rulesID, value, best, moves, movesCap, nMoves)
}

func probeRoot(name string, h C.mtb_tables, p *tb.Position, rulesID C.int, value *C.mtb_value, best *C.mtb_move, moves *C.mtb_move, movesCap C.int, nMoves *C.int) status {
	if value == nil || best == nil {
		return argumentError("%s: value or best is NULL", name)
	}
	if moves != nil && (nMoves == nil || movesCap < 0) {
		return argumentError("%s: moves given without n_moves or with a negative moves_cap", name)
	}
	t, s := tablesOf(name, h)
	if t == nil {
		return s
	}
	r, s := rulesOf(name, rulesID)
	if r == nil {
		return s
	}
	root, err := t.Root(p, r)
	if err != nil {
		return failErr(err)
	}
	j, judged := root.Position, root.Moves
	v, count := j.Value, j.Count
	*value = C.mtb_value{
		result: categoryCode(j.Category), wdl: C.int32_t(v.WDL()), plies: pliesOf(v), exact: 0,
	}
	if j.Exact {
		value.exact = 1
	}
	if count.Kind != honour.NoCountKind {
		value.count_limit, value.count_ply = C.int32_t(count.Limit), C.int32_t(count.Ply)
	}

	*best = C.mtb_move{from: -1, to: -1, result: categoryCode(j.Category), wdl: C.int32_t(v.WDL()), plies: pliesOf(v)}
	if root.Best >= 0 {
		*best = moveOf(judged[root.Best])
	}
	if moves != nil {
		out := unsafe.Slice(moves, int(movesCap))
		for i := range min(len(out), len(judged)) {
			out[i] = moveOf(judged[i])
		}
		*nMoves = C.int(len(judged))
	}
	return C.MTB_OK
}

func moveOf(j probe.JudgedMove) C.mtb_move {
	v := j.After.Value.Negate()
	return C.mtb_move{
		from: C.int32_t(j.Move.From()), to: C.int32_t(j.Move.To()),
		result: categoryCode(j.After.Category.Opposite()), wdl: C.int32_t(v.WDL()), plies: pliesOf(v),
	}
}

// constantsAgree reports whether makruktb.h numbers colours and pieces as
// package tb does (the test calls it: test files cannot use cgo).
func constantsAgree() error {
	pairs := []struct {
		name string
		c, g int
	}{
		{"MTB_WHITE", C.MTB_WHITE, int(tb.White)}, {"MTB_BLACK", C.MTB_BLACK, int(tb.Black)},
		{"MTB_ROOK", C.MTB_ROOK, int(tb.Rook)}, {"MTB_KHON", C.MTB_KHON, int(tb.Khon)},
		{"MTB_KNIGHT", C.MTB_KNIGHT, int(tb.Knight)}, {"MTB_MET", C.MTB_MET, int(tb.Met)},
		{"MTB_PAWN", C.MTB_PAWN, int(tb.Pawn)}, {"MTB_KING", C.MTB_KING, int(tb.King)},
		{"MTB_NO_COUNT", C.MTB_NO_COUNT, tb.NoCount},
	}
	for _, p := range pairs {
		if p.c != p.g {
			return fmt.Errorf("%s is %d in makruktb.h, %d in package tb", p.name, p.c, p.g)
		}
	}
	return nil
}

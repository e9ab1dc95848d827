package probe

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Errors about the position asked for (wrapped in a *PositionError).
var (
	ErrPawns         = tb.ErrPawns
	ErrTooManyPieces = tb.ErrTooManyPieces
	ErrIllegal       = errors.New("illegal position")
	// ErrGameOver: in a game where a bare king loses (Shatranj), the side
	// not to move has a bare king and the side to move pieces: the game
	// ended when the king was bared.
	ErrGameOver = errors.New("the game is over: the side not to move has a bare king")
)

// PositionError says why a position cannot be probed.
type PositionError struct {
	FEN string
	Err error
}

func (e *PositionError) Error() string { return fmt.Sprintf("position %q: %v", e.FEN, e.Err) }
func (e *PositionError) Unwrap() error { return e.Err }

// Option configures Open.
type Option func(*Tables) error

// WithCacheBytes bounds the memory of decompressed blocks kept for reuse
// (default 64 MiB).
func WithCacheBytes(n int64) Option {
	return func(t *Tables) error {
		if n < 0 {
			return fmt.Errorf("cache size %d: must not be negative", n)
		}
		t.cache = newBlockCache(n)
		return nil
	}
}

// WithDecodedWDL lets each side of a version-3 WDL file with at most n
// values be decoded whole, a byte a value, when it is first probed, and
// read from there: for programs that probe most positions of small
// tables (the WDL writer's and checker's capture searches), not for an
// engine, whose memory should be the files.
func WithDecodedWDL(n uint64) Option {
	return func(t *Tables) error {
		t.decodeLimit = n
		return nil
	}
}

// DefaultCacheBytes is the default block cache size.
const DefaultCacheBytes = 64 << 20

// Tables is a directory of tables, opened lazily. Safe for concurrent use:
// the set of files is never changed once published (Refresh publishes a
// larger copy), each file is opened once (sync.Once) and cached blocks are
// found without a lock, so probing threads do not wait for each other.
type Tables struct {
	dir         string
	cache       *blockCache
	decodeLimit uint64 // WithDecodedWDL's
	set         atomic.Pointer[fileSet]
	refreshMu   sync.Mutex // one Refresh at a time
}

// fileSet is the files of the directory as one scan found them.
type fileSet struct {
	maxPiece int
	files    map[fileKey]*lazyFile
	wdl      map[fileKey]*lazyFile // WDL files by material and profile
	rules    []string              // the rules names of the files, "" (DTM) first; a name keeps its index
}

// fileKey is an ID packed into one word, the key of the maps every probe
// reads: a word hashes in a few instructions, where an ID, with its rules
// name, took a third of a warm WDL probe's time. Bits 0–39 hold the piece
// counts, four bits each (White's Rook…Pawn, then Black's), bits 40–47 the
// game and bits 48–63 the index of the rules name in Tables.rules.
type fileKey uint64

// keyOf returns the key of id, and false when no file of the set can have
// it (its rules name is none of the set's).
func (s *fileSet) keyOf(id ID) (fileKey, bool) {
	r := slices.Index(s.rules, id.Rules)
	if r < 0 {
		return 0, false
	}
	counts, over := packCounts(id.Material)
	if over {
		return 0, false
	}
	return counts | fileKey(id.Game)<<40 | fileKey(r)<<48, true
}

// packCounts returns bits 0–39 of m's key, and true when a count does not
// fit in its four bits. It branches once, after the ten counts, as it
// runs on every probe.
func packCounts(m tb.Material) (k fileKey, over bool) {
	var all uint8
	for c, counts := range m.Counts {
		for p, n := range counts {
			all |= n
			k |= fileKey(n) << (4 * (c*len(counts) + p))
		}
	}
	return k, all > 15
}

// add records the file of id at path unless the set has it, and reports
// whether it was new (before the set is published only).
func (s *fileSet) add(files map[fileKey]*lazyFile, id ID, path string) bool {
	if !slices.Contains(s.rules, id.Rules) {
		s.rules = append(s.rules, id.Rules)
	}
	k, _ := s.keyOf(id) // scan parsed the name: every count fits
	if _, ok := files[k]; ok {
		return false
	}
	files[k] = &lazyFile{path: path}
	return true
}

type lazyFile struct {
	once  sync.Once
	path  string
	file  *File
	err   error
	slots []blockSlot // per block of file: the block while it is cached
}

// Open discovers the DTM tables in dir (when dir is "", $MAKRUKTB_PATH, or
// else ./data). Files are opened on first use.
func Open(dir string, opts ...Option) (*Tables, error) {
	dir = Dir(dir)
	t := &Tables{dir: dir}
	for _, o := range opts {
		if err := o(t); err != nil {
			return nil, err
		}
	}
	if t.cache == nil {
		t.cache = newBlockCache(DefaultCacheBytes)
	}
	t.set.Store(&fileSet{files: map[fileKey]*lazyFile{}, wdl: map[fileKey]*lazyFile{}, rules: []string{""}})
	if _, err := t.Refresh(); err != nil {
		return nil, err
	}
	return t, nil
}

// Refresh scans the directory again and adds the files written since
// (a table generated while a server runs), returning how many. Files
// already known stay as they are, open or not; a file removed stays
// known (an open one is still read). Probes running meanwhile see the
// directory before or after, never half of it.
func (t *Tables) Refresh() (added int, err error) {
	t.refreshMu.Lock()
	defer t.refreshMu.Unlock()
	ids, wdl, err := scan(t.dir)
	if err != nil {
		return 0, fmt.Errorf("probe: table directory: %w", err)
	}
	old := t.set.Load()
	s := &fileSet{maxPiece: old.maxPiece, files: maps.Clone(old.files), wdl: maps.Clone(old.wdl), rules: slices.Clone(old.rules)}
	for _, key := range wdl {
		if s.add(s.wdl, key, filepath.Join(t.dir, WDLFileName(key.Material, key.Rules))) {
			added++
		}
	}
	for _, key := range ids {
		if s.add(s.files, key, key.Path(t.dir)) {
			added++
		}
		if key.Rules == "" {
			s.maxPiece = max(s.maxPiece, key.Material.Pieces())
		}
	}
	if added > 0 {
		t.set.Store(s)
	}
	return added, nil
}

// Dir returns the table directory.
func (t *Tables) Dir() string { return t.dir }

// MaxPieces returns the largest piece count of any table found (2 if none:
// KvK needs no table).
func (t *Tables) MaxPieces() int { return max(t.set.Load().maxPiece, 2) }

// CacheBytes returns the memory held by cached blocks.
func (t *Tables) CacheBytes() int64 { return t.cache.bytes() }

// Close closes every open file. No probe may run during or after it.
func (t *Tables) Close() error {
	var first error
	s := t.set.Load()
	for _, files := range []map[fileKey]*lazyFile{s.files, s.wdl} {
		for _, lf := range files {
			if lf.file != nil {
				if err := lf.file.Close(); err != nil && first == nil {
					first = err
				}
			}
		}
	}
	return first
}

// table returns the table of key, opened on first use, or nil when the
// directory has none.
func (t *Tables) table(key ID) (*lazyFile, error) {
	s := t.set.Load()
	k, ok := s.keyOf(key)
	if !ok {
		return nil, nil
	}
	lf, ok := s.files[k]
	if !ok {
		return nil, nil
	}
	lf.once.Do(func() { lf.open(key, key.Metric(), t.dir) })
	return lf, lf.err
}

// wdlTable returns the WDL file of key (material and profile), opened on
// first use and checked against the DTM and DTB files beside it, or nil
// when the directory has none.
func (t *Tables) wdlTable(key ID) (*lazyFile, error) {
	s := t.set.Load()
	k, ok := s.keyOf(key)
	if !ok {
		return nil, nil
	}
	lf, ok := s.wdl[k]
	if !ok {
		return nil, nil
	}
	lf.once.Do(func() {
		if lf.open(key, WDL, t.dir); lf.err != nil {
			return
		}
		var dtm, dtb *File
		if f, err := t.table(DTMID(key.Material)); f != nil && err == nil {
			dtm = f.file
		}
		if f, err := t.table(key); f != nil && err == nil {
			dtb = f.file
		}
		if lf.err = CheckSources(lf.file, dtm, dtb); lf.err != nil {
			lf.file.Close()
			lf.file = nil
		}
	})
	return lf, lf.err
}

// open opens the file and checks that it holds the table its name says.
func (lf *lazyFile) open(key ID, metric Metric, dir string) {
	m := key.Material
	lf.file, lf.err = OpenFile(lf.path)
	if errors.Is(lf.err, fs.ErrNotExist) {
		lf.err = &MissingError{Material: ID{Material: m, Game: key.Game}.String(), Dir: dir}
	}
	if lf.err != nil {
		return
	}
	if lf.err = lf.file.Header.Holds(key, metric, lf.path); lf.err != nil {
		lf.file.Close()
		lf.file = nil
		return
	}
	lf.slots = make([]blockSlot, lf.file.Header.Blocks)
}

// Holds returns a CorruptError naming path unless the header is that of
// id's file of metric (DTM or DTB: id's table; WDL: id's WDL file): a file
// renamed, or copied under another name, holds another table than its
// name says.
func (h *Header) Holds(id ID, metric Metric, path string) error {
	if h.Material != id.Material || h.Metric != metric || h.Rules != id.Rules || h.Game != id.Game {
		return &CorruptError{File: path, Reason: fmt.Sprintf("holds the %s %s table of %s (rules %q), not what its name says", h.Game, h.Metric, h.Game.MaterialName(h.Material), h.Rules)}
	}
	return nil
}

// site is where the values of a legal position are stored: its canonical
// material, side to move and index. The DTM table and every DTB table of
// a material share the index, so one site serves them all. given is the
// material as the position has it (the colours not swapped).
type site struct {
	material tb.Material
	side     tb.Color
	index    uint64
	given    tb.Material
	place    uint64 // the index's place in a version-3 WDL file's stream
}

// locate checks that p can be probed and finds its site through the
// table of the given rules ("" for DTM). The table is nil, and the site
// empty, for KvK (a draw without tables) and when the directory lacks the
// table.
func (t *Tables) locate(p *tb.Position, rules string) (site, *lazyFile, error) {
	return t.locateIn(p, rules, t.table, false)
}

// locateIn is locate through the files table finds (t.table or t.wdlTable);
// legal says that p is known to be legal (a position after a legal move),
// which spares checking it.
func (t *Tables) locateIn(p *tb.Position, rules string, table func(ID) (*lazyFile, error), legal bool) (site, *lazyFile, error) {
	m := tb.MaterialOf(p)
	pieces := p.Occupied().Count() // m.Pieces() where both kings stand
	switch {
	case m.HasPawns():
		return site{}, nil, &PositionError{FEN: p.FEN(), Err: ErrPawns}
	case pieces > index.MaxPieces:
		return site{}, nil, &PositionError{FEN: p.FEN(), Err: ErrTooManyPieces}
	}
	if !legal {
		if err := p.Validate(); err != nil {
			return site{}, nil, &PositionError{FEN: p.FEN(), Err: fmt.Errorf("%w: %v", ErrIllegal, err)}
		}
	}
	if pieces == 2 {
		return site{given: m}, nil, nil
	}
	// The canonical side of the material (index.Canonical, without
	// counting the material again).
	q, canon := p, m
	if !m.IsCanonical() {
		flipped := p.ColorFlipped()
		q, canon = &flipped, m.Flipped()
	}
	lf, err := table(ID{Material: canon, Rules: rules, Game: p.Game()})
	if lf == nil || err != nil {
		return site{given: m}, nil, err
	}
	var i, place uint64
	var ok bool
	if o := lf.file.orders[q.Side]; o != nil && !o.identity {
		i, place, ok = lf.file.Space.IndexAs(q, o.kingPlace, o.weights[o.groups:])
	} else {
		i, ok = lf.file.Space.Index(q)
		place = i
	}
	if !ok {
		return site{}, nil, &PositionError{FEN: p.FEN(), Err: ErrIllegal}
	}
	return site{canon, q.Side, i, m, place}, lf, nil
}

// boardFile says which DTB file a position's value is read from: r's file
// of the count that runs there, which counter runs (colours of the
// position) when counted. It matters only under a profile that scores the
// counting side's mates as draws (honour.Variant); under any other every
// material has one file.
type boardFile struct {
	r       *honour.Rules
	counter tb.Color
	counted bool
}

// boardFileOf returns the file of a position under count c, mover to
// move.
func boardFileOf(r *honour.Rules, c honour.Count, mover tb.Color) boardFile {
	side, counted := c.CountingSide(mover)
	return boardFile{r, side, counted}
}

// rules returns the Rules of the file's ID for a position of material m
// (as on the board): the profile's name, with the variant's suffix in the
// colours of m's canonical side.
func (f boardFile) rules(m tb.Material) (string, error) {
	if !f.r.MatesDraw() {
		return f.r.Name, nil // one file per material: no work on the probe's path
	}
	canon, flip := m.Canonical()
	counter := f.counter
	if flip {
		counter = counter.Other()
	}
	v, ok := f.r.VariantFor(canon, counter, f.counted)
	if !ok {
		return "", fmt.Errorf("%s under %s rules: no DTB file for a count %s runs", canon, f.r.Name, strings.ToLower(counter.Name()))
	}
	return f.r.Name + v.Suffix(), nil
}

// mated is the DTB value of a checkmated position in the file.
func (f boardFile) mated(side tb.Color) value.Value { return f.r.Mated(side, f.counter, f.counted) }

// boardValue returns the DTB value of p (at site s) in file f, and false
// when the directory has no such table.
func (t *Tables) boardValue(p *tb.Position, s site, f boardFile) (value.Value, bool, error) {
	rules, err := f.rules(s.given)
	if err != nil {
		return 0, false, err
	}
	lf, err := t.table(ID{Material: s.material, Rules: rules})
	if lf == nil || err != nil {
		return 0, false, err
	}
	if !lf.file.Header.Stores(s.side) {
		v, err := t.searchBoard(p, f)
		return v, err == nil, err
	}
	v, err := t.lookup(lf, s)
	return v, err == nil, err
}

// BoardValue returns the DTB value under r of a legal pawnless position
// with pieces on both sides, from the side to move's point of view, and
// false when the directory has no DTB table of r for it. Under a profile
// whose DTB files depend on who counts, the count is the one r reads from
// p's FEN (BoardValueUnder takes any).
func (t *Tables) BoardValue(p *tb.Position, r *honour.Rules) (value.Value, bool, error) {
	return t.BoardValueUnder(p, r.CountOf(p), r)
}

// BoardValueUnder is BoardValue under count c.
func (t *Tables) BoardValueUnder(p *tb.Position, c honour.Count, r *honour.Rules) (value.Value, bool, error) {
	f := boardFileOf(r, c, p.Side)
	rules, err := f.rules(tb.MaterialOf(p))
	if err != nil {
		return 0, false, err
	}
	s, lf, err := t.locate(p, rules)
	if err != nil || lf == nil {
		return 0, false, err
	}
	return t.boardValue(p, s, f)
}

// dtmValue returns the DTM value of p (value.Draw for KvK) and its site.
func (t *Tables) dtmValue(p *tb.Position) (value.Value, site, error) {
	return t.dtmValueOf(p, false)
}

// dtmValueOf is dtmValue, sparing the check of p when legal says it is
// (locateIn).
func (t *Tables) dtmValueOf(p *tb.Position, legal bool) (value.Value, site, error) {
	s, lf, err := t.locateIn(p, "", t.table, legal)
	switch {
	case err != nil:
		return 0, s, err
	case lf != nil && !lf.file.Header.Stores(s.side):
		v, err := t.searchDTM(p)
		return v, s, err
	case lf != nil:
		v, err := t.lookup(lf, s)
		return v, s, err
	case s.given.Pieces() == 2:
		return value.Draw, s, nil
	}
	if p.Game().BareKingLoses() {
		if lost, drawn := p.Game().BareKingOutcome(p); lost || drawn {
			return bareVerdict(lost), s, nil
		}
		if p.Bare(p.Side.Other()) {
			return 0, s, &PositionError{FEN: p.FEN(), Err: ErrGameOver}
		}
	}
	canon, _ := s.given.Canonical()
	return 0, s, &MissingError{Material: ID{Material: canon, Game: p.Game()}.String(), Dir: t.dir}
}

// bareVerdict is the value of a bare king to move (tb.Game's
// BareKingOutcome): lost, as if mated, or a draw.
func bareVerdict(lost bool) value.Value {
	if lost {
		return value.MatedIn(0)
	}
	return value.Draw
}

// The one-ply search. A version-2 file stores one side to move; the value
// of a position with the other side to move is the best, for the side to
// move, of its moves' values: each successor is on the stored side of the
// same table, or after a capture in a sub-table (which may search again,
// one piece fewer). Without a move it is mated or stalemated.

// searchDTM returns the DTM value of p from its successors'.
func (t *Tables) searchDTM(p *tb.Position) (value.Value, error) {
	return bestMove(p, value.MatedIn(0), func(q *tb.Position) (value.Value, error) {
		v, _, err := t.dtmValueOf(q, true)
		return v, err
	})
}

// searchBoard returns the DTB value of p (pieces on both sides) in file f
// from its successors': a move that leaves both sides pieces keeps the
// board's count (DTB, run by the same side), a capture that bares the side
// it leaves to move is a goal or a draw by that side's DTM
// (honour.Rules.BaringCapture).
func (t *Tables) searchBoard(p *tb.Position, f boardFile) (value.Value, error) {
	return bestMove(p, f.mated(p.Side), func(q *tb.Position) (value.Value, error) {
		after := tb.MaterialOf(q)
		if !honour.HasBoardHonour(after) {
			v, _, err := t.dtmValueOf(q, true)
			return f.r.BaringCapture(after, q.Side, v), err
		}
		rules, err := f.rules(after)
		if err != nil {
			return 0, err
		}
		s, lf, err := t.locateIn(q, rules, t.table, true)
		if err != nil {
			return 0, err
		}
		if lf == nil {
			canon, _ := after.Canonical()
			return 0, &MissingError{Material: BoardFileName(canon, rules), Dir: t.dir}
		}
		v, _, err := t.boardValue(q, s, f)
		return v, err
	})
}

// bestMove returns the value of p for its side to move from the values
// of the positions after its legal moves (valueOf, from the point of view
// of the side to move there); without a move, mated when in check (or
// where stalemate loses).
func bestMove(p *tb.Position, mated value.Value, valueOf func(*tb.Position) (value.Value, error)) (value.Value, error) {
	var moves tb.MoveList
	p.LegalMoves(&moves)
	if moves.N == 0 {
		if p.LostWithoutMove() {
			return mated, nil
		}
		return value.Draw, nil
	}
	var best value.Value
	for n, m := range moves.Slice() {
		q := p.Play(m)
		v, err := valueOf(&q)
		if err != nil {
			return 0, err
		}
		if v = v.Negate(); n == 0 || value.Compare(v, best) > 0 {
			best = v
		}
	}
	return best, nil
}

// lookup returns the value stored at site s in lf's table.
func (t *Tables) lookup(lf *lazyFile, s site) (value.Value, error) {
	f, side, i := lf.file, s.side, s.index
	if stream := f.streams[side]; stream != nil { // read straight from the file's bytes
		if f.Header.Size <= t.decodeLimit {
			raw, err := f.decodedSide(side)
			if err != nil {
				return 0, err
			}
			return value.Value(raw[i]), nil
		}
		c, err := stream.At(s.place)
		if err != nil {
			return 0, f.corrupt(f.dataStart+int64(f.Header.Offsets[f.first[side]]), "%v to move, index %d: %v", side.Name(), i, err)
		}
		return value.Value(c), nil
	}
	b, off := f.BlockOf(side, i)
	slot := &lf.slots[b]
	raw, ok := t.cache.get(slot)
	if !ok {
		var err error
		if raw, err = f.rawBlock(b); err != nil {
			return 0, err
		}
		t.cache.put(slot, raw)
	}
	return f.valueAt(raw, off), nil
}

// Value returns the DTM value of a legal pawnless position, from the side
// to move's point of view. The colours are swapped internally when the
// position's material is stored the other way round.
func (t *Tables) Value(p *tb.Position) (value.Value, error) {
	v, _, err := t.dtmValue(p)
	return v, err
}

// WDL returns the category of the legal pawnless position p under rules r:
// read from the profile's WDL file when the count starts in p (its FEN's
// count field is "-") and the directory has the file, else computed from
// DTM and DTB as Judge does. It is the probe for an engine's search.
func (t *Tables) WDL(p *tb.Position, r *honour.Rules) (honour.Category, error) {
	return t.wdlOf(*p, r, false)
}

// wdlOf is WDL; legal says that p is known to be legal (see locateIn).
// It takes the position by value: it recurses through captureBound, and a
// pointer would make each capture's position escape to the heap.
func (t *Tables) wdlOf(pos tb.Position, r *honour.Rules, legal bool) (honour.Category, error) {
	p := &pos
	if p.CountLimit == tb.NoCount {
		c, ok, err := t.fromWDLFile(p, r, legal)
		if err != nil || ok {
			return c, err
		}
	}
	j, err := t.Judge(p, r)
	return j.Category, err
}

// WDLFromFile returns the category of the legal pawnless position p under
// rules r with the count starting in p, as the profile's WDL file gives it
// (what an engine's search reads), and false when the directory has no
// such file. The FEN's count fields are not read: a WDL file knows only
// a count that starts now.
func (t *Tables) WDLFromFile(p *tb.Position, r *honour.Rules) (honour.Category, bool, error) {
	return t.fromWDLFile(p, r, false)
}

// fromWDLFile is WDLFromFile; legal says that p is known to be legal.
func (t *Tables) fromWDLFile(p *tb.Position, r *honour.Rules, legal bool) (honour.Category, bool, error) {
	s, lf, err := t.locateIn(p, r.Name, t.wdlTable, legal)
	if err != nil || lf == nil {
		return 0, false, err
	}
	v, err := t.lookup(lf, s)
	if err != nil {
		return 0, false, err
	}
	if v > value.Value(wdlCode(honour.Win)) {
		b, _ := lf.file.BlockOf(s.side, s.index)
		return 0, false, lf.file.corrupt(lf.file.dataStart+int64(lf.file.Header.Offsets[b]), "block %d: category code %d", b, v)
	}
	c := wdlCategory(byte(v))
	h := &lf.file.Header
	if baring := h.BaringCapturesExact(); c < boundTop(baring) && h.CapturesDecide(s.side) {
		bound, err := t.captureBound(p, r, baring)
		if err != nil {
			return 0, false, err
		}
		c = max(c, bound)
	}
	return c, true, nil
}

// noBound is captureBound's answer for a position without a capture.
const noBound = honour.Loss - 1

// captureBound returns the least category the side to move in p is sure
// of by a capture when the count starts in p: for each capture, the
// opposite of the category of the position after it under a fresh
// count, except that a loss after it (the mover's win) counts as a
// cursed win. The count that runs after a capture is older than a fresh
// one (or is fresh), and an older count can only turn a win into a
// cursed win, so the bound holds under every profile whose limits do not
// grow as pieces go; the writer checks that it holds at every position
// before it relies on it (encodeWDL). With baring (version 3's bounds,
// Header.BaringCapturesExact) a capture is worth exactly the opposite of
// the position after it, a win included, where no older count can run
// there: when it leaves the other side a bare king (the pieces' count
// starts afresh) and under rules with no count at all. It is noBound
// when p has no capture.
func (t *Tables) captureBound(p *tb.Position, r *honour.Rules, baring bool) (honour.Category, error) {
	if !p.MayCapture() { // most positions: spares generating the moves
		return noBound, nil
	}
	var captures tb.MoveList
	p.LegalCaptures(&captures)
	return t.boundOf(p, captures.Slice(), r, baring)
}

// boundOf is captureBound of p, whose legal captures are captures.
func (t *Tables) boundOf(p *tb.Position, captures []tb.Move, r *honour.Rules, baring bool) (honour.Category, error) {
	top := boundTop(baring)
	bound := noBound
	for _, m := range captures {
		q := p.Play(m)
		q.CountLimit, q.CountPly = tb.NoCount, 0
		c, err := t.wdlOf(q, r, true)
		if err != nil {
			return 0, err
		}
		c = c.Opposite()
		if c == honour.Win && !(baring && (q.Bare(q.Side) || countless(r))) {
			c = honour.CursedWin
		}
		if bound = max(bound, c); bound == top {
			break // no capture bounds higher
		}
	}
	return bound, nil
}

// runCaptures lists the legal captures of the positions of a pass that
// bounds a side by its captures, one position after another in index
// order. In a space of runs the moves common to a run's positions are
// found once (tb.LaneMoves), as the generator's seed finds them: the last
// piece's square is the index's last digit.
type runCaptures struct {
	runs   bool
	cursor tb.LaneCursor
	moves  tb.MoveList
}

func newRunCaptures(space *index.Space) *runCaptures {
	c, t, runs := space.LanePiece()
	return &runCaptures{runs: runs, cursor: tb.NewLaneCursor(c, t)}
}

// of returns the legal captures of p, the legal position of index i; the
// list lasts until the next call.
func (rc *runCaptures) of(i uint64, p *tb.Position) []tb.Move {
	rc.moves.N = 0
	switch {
	case rc.runs:
		square := tb.Square(i % 64)
		lane, _ := rc.cursor.Moves(i/64, square, p)
		lane.LegalCaptures(square, &rc.moves)
	case p.MayCapture():
		p.LegalCaptures(&rc.moves)
	}
	return rc.moves.Slice()
}

// countless reports whether r never counts: no pieces' limit, no board's
// count.
func countless(r *honour.Rules) bool { return len(r.Pieces) == 0 && r.BoardPlies == 0 }

// boundTop is the highest category captureBound gives.
func boundTop(baring bool) honour.Category {
	if baring {
		return honour.Win
	}
	return honour.CursedWin
}

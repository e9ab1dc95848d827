package retro

import (
	"context"
	"math/bits"
	"sync"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// iterate runs the frontier by depth: for d = from, from+1, … it finds
// the positions decided as mate in d plies and un-moves them. Between two
// passes the state may be saved (maybeCheckpoint).
func (g *generator) iterate(ctx context.Context, from int) error {
	per := g.space.PerKingPair()
	_, _, runs := g.space.LanePiece()
	for d := from; d+2 <= int(g.deepest.Load()) || d == 0; d++ {
		if g.tooDeep.Load() {
			return nil
		}
		code := value.Mate(d)
		var deferred []deferredLoss
		var mu sync.Mutex
		err := g.parallel(ctx, StageIterate, d, func(side tb.Color, k int) {
			sc := scratches.Get().(*scratch) // decisions decode into it
			defer func() {
				if len(sc.deferred) > 0 {
					mu.Lock()
					deferred = append(deferred, sc.deferred...)
					mu.Unlock()
					sc.deferred = sc.deferred[:0]
				}
				scratches.Put(sc)
			}()
			lo, hi := uint64(k)*per, uint64(k+1)*per
			for lo < hi {
				block := lo >> presenceShift
				end := min(hi, (block+1)<<presenceShift)
				switch {
				case !g.present.has(side, block, code):
				case runs && !g.space.Tied(k):
					g.scanRuns(sc, side, k, lo, end, code)
				default:
					g.scan(sc, side, k, lo, end, code)
				}
				lo = end
			}
		})
		if err != nil {
			return err
		}
		for _, l := range deferred {
			g.states[l.side].setFinal(l.j, l.loss)
			g.present.mark(l.side, l.j, l.loss)
			g.noteDepth(l.loss)
		}
		if err := g.maybeCheckpoint(d); err != nil {
			return err
		}
	}
	return nil
}

// decidedWith reports whether position j of s has the value code to
// propagate: a win (settled or by capture) or a settled loss. For a loss
// the settled bit is read before the byte (state.go, "Reading a state
// while others write it").
func (s *states) decidedWith(j uint64, code value.Value) bool {
	if code.IsLoss() && !s.isSettled(j) {
		return false
	}
	b := s.load(j)
	if b != codeByte(code) {
		return false
	}
	return b != value.Overflow || s.overflow.get(j) == code
}

// scan propagates every position of side in [lo, hi) (king pair k) whose
// final value is code.
func (g *generator) scan(sc *scratch, side tb.Color, k int, lo, hi uint64, code value.Value) {
	s := &g.states[side]
	target := codeByte(code)
	for i := lo; i < hi; {
		// Eight bytes at a time: skip words without the code.
		if i&7 == 0 && i+8 <= hi && !mayHoldByte(s.loadEight(i), target) {
			i += 8
			continue
		}
		if s.decidedWith(i, code) {
			if code.IsWin() {
				s.settle(i)
			}
			g.propagate(sc, side, i, k, code)
		}
		i++
	}
}

// scanRuns is scan for a space made of runs (index.Space.LanePiece), king
// pair k not Tied: the positions of one run decided with code are
// propagated together (lo and hi are multiples of 64).
func (g *generator) scanRuns(sc *scratch, side tb.Color, k int, lo, hi uint64, code value.Value) {
	s := &g.states[side]
	target := codeByte(code)
	for r := lo; r < hi; r += 64 {
		var lanes tb.Bitboard
		if code.IsLoss() {
			lanes = s.lossesInRun(r, target) // unsettled, the byte is a counter
		} else {
			lanes = s.bytesInRun(r, target)
		}
		if target == value.Overflow {
			for l := lanes; l != 0; {
				lane := l.PopFirst()
				if s.overflow.get(r+uint64(lane)) != code {
					lanes &^= lane.Bitboard()
				}
			}
		}
		if lanes == 0 {
			continue
		}
		if code.IsWin() {
			s.settleRun(r, lanes) // wins by capture too: un-moves now only offer slower ones
		}
		g.propagateRun(sc, side, r, k, lanes, code)
	}
}

// propagateRun un-moves the positions of run r (king pair k, not Tied)
// whose last piece stands on one of lanes, all decided with value v. Each
// un-move of another piece is found once for the whole run and leads to
// one run of predecessors, lane for lane (tb.LaneRetractor), or with the
// lanes permuted by a symmetry (a king step out of the canonical region,
// index.LaneMap); the last piece's own un-moves stay inside the run.
// Only king steps onto a Tied king pair are made position by position.
func (g *generator) propagateRun(sc *scratch, side tb.Color, r uint64, k int, lanes tb.Bitboard, v value.Value) {
	prefix, _ := g.space.RunPrefix(r, side) // it holds decided positions, so it decodes
	laneColor, laneType, _ := g.space.LanePiece()
	them := side.Other()
	u := updater{g: g, sc: sc, states: &g.states[them], next: v.Negate(), side: them}
	if v.IsWin() {
		u.setStabiliser(1) // only a Tied king pair has positions that a symmetry maps to themselves
	}
	ret := prefix.LaneRetractor(laneColor, laneType)
	groups := g.space.Groups()
	for gi, gr := range groups[:len(groups)-1] {
		if gr.Color != them {
			continue
		}
		pieces := prefix.Pieces(them, gr.Type)
		for bb := pieces; bb != 0; {
			to := bb.PopFirst()
			st := g.space.Stepper(r, gi, pieces, to)
			for from := ret.Candidates(gr.Type, to); from != 0; {
				f := from.PopFirst()
				u.queue(st.To(f), ret.Lanes(gr.Type, f, to, lanes))
			}
		}
	}
	king := prefix.KingSquare(them)
	for from := ret.Candidates(tb.King, king); from != 0; {
		f := from.PopFirst()
		l := ret.Lanes(tb.King, f, king, lanes)
		if l == 0 {
			continue
		}
		if run, _, moved, ok := g.space.KingStepRun(r, k, &prefix, them, f); ok {
			u.queue(run, moved.Lanes(l))
			continue
		}
		for l != 0 {
			lane := l.PopFirst()
			p := prefix
			p.Put(laneColor, laneType, lane)
			u.apply(g.space.KingMovedIndex(r+uint64(lane), k, &p, them, f))
		}
	}
	if laneColor == them {
		u.queueLaneOrigins(r, lanes, &ret)
	}
	u.flush()
	if u.deepest != 0 {
		g.noteDepth(u.deepest)
	}
}

// propagate un-moves the position (side, i) of king pair k, decided with
// value v, and updates its predecessors: the position-by-position path of
// Tied king pairs and of spaces without runs. Un-moves of non-king pieces change
// one index digit (index.Space.StepIndex; under a Tied king pair, one digit
// in each of the two orientations, index.TiedStepper); king un-moves go
// through KingMovedIndex.
func (g *generator) propagate(sc *scratch, side tb.Color, i uint64, k int, v value.Value) {
	p := g.space.Decode(i, side) // decided, so legal
	r := p.Retractor()
	them := side.Other()
	u := updater{g: g, sc: sc, states: &g.states[them], next: v.Negate(), side: them}
	if v.IsWin() {
		u.setStabiliser(g.stabiliser(&p))
	}
	tied := g.space.Tied(k)
	var flipped uint64
	if tied {
		flipped = g.space.FlippedIndex(&p)
	}
	for gi, gr := range g.space.Groups() {
		if gr.Color != them {
			continue
		}
		pieces := p.Pieces(them, gr.Type)
		for bb := pieces; bb != 0; {
			to := bb.PopFirst()
			origins := r.Origins(gr.Type, to)
			if tied {
				st := g.space.TiedStepper(i, flipped, gi, pieces, to)
				for origins != 0 {
					u.apply(st.To(origins.PopFirst()), k)
				}
				continue
			}
			st := g.space.Stepper(i, gi, pieces, to)
			for origins != 0 {
				u.apply(st.To(origins.PopFirst()), k)
			}
		}
	}
	for from := r.Origins(tb.King, p.KingSquare(them)); from != 0; {
		u.apply(g.space.KingMovedIndex(i, k, &p, them, from.PopFirst()))
	}
	if u.deepest != 0 {
		g.noteDepth(u.deepest)
	}
}

// updater applies one frontier position's news to its predecessors.
type updater struct {
	g      *generator
	sc     *scratch
	states *states
	side   tb.Color    // side to move in the predecessors
	next   value.Value // the predecessors' value through this move
	stab   int         // stabiliser of the frontier position (wins only)
	weight int         // half-moves an un-move takes off a predecessor off the diagonal
	// lossByte is the byte removeEscapes gives a predecessor that loses in
	// next without a losing capture: next's code, or writingByte when it
	// takes the overflow shards (escaped writes it then).
	lossByte byte
	deepest  value.Value // deepest value assigned
	sink     uint64      // the sum of what flush touched, so no load is optimised away
}

// setStabiliser prepares the updater for a won frontier position whose
// stabiliser is stab.
func (u *updater) setStabiliser(stab int) {
	u.stab, u.weight = stab, 2/stab
	u.lossByte = writingByte
	if u.next < value.Overflow {
		u.lossByte = byte(u.next)
	}
}

// apply updates predecessor j of king pair kj: a win when the frontier
// position is lost, one escape fewer when it is won.
func (u *updater) apply(j uint64, kj int) {
	if u.stab == 0 {
		u.win(j)
		return
	}
	weight := u.weight
	space := u.g.space
	decoded := space.Tied(kj) // the position is in u.sc.pos
	if decoded {
		// The weight needs the position; a byte that is no counter now
		// never becomes one, and removeEscape would leave it alone.
		if b := u.states.load(j); !isCounter(b) && b != manyByte {
			return
		}
		u.sc.pos = space.Decode(j, u.side) // a counter: legal and canonical
		weight = 2 * (8 / space.Multiplicity(&u.sc.pos)) / u.stab
	}
	if result, capture := u.states.removeEscape(j, weight); result != escapeNone {
		u.escaped(j, result, capture, decoded)
	}
}

// win makes predecessor j a win through the frontier's loss, unless it
// already wins as fast.
func (u *updater) win(j uint64) {
	if u.states.setWin(j, u.next) {
		u.g.present.mark(u.side, j, u.next)
		u.deepest = u.next
	}
}

// escaped finishes what removeEscape began on predecessor j when it ran
// out of counter (escapeDecided) or found too many moves to count
// (escapeMany); decoded says whether u.sc.pos holds the position already.
func (u *updater) escaped(j uint64, result escape, capture, decoded bool) {
	if (capture || result == escapeMany) && !decoded {
		u.sc.pos = u.g.space.Decode(j, u.side)
	}
	if result == escapeMany {
		if loss, lost := u.g.lostByMoves(u.sc, u.next); lost && u.states.claim(j) {
			u.sc.deferred = append(u.sc.deferred, deferredLoss{u.side, j, loss})
		}
		return
	}
	loss := u.next
	if capture {
		loss = max(loss, u.g.worstCapture(u.sc))
	}
	u.states.setFinal(j, loss)
	u.g.present.mark(u.side, j, loss)
	u.deepest = max(u.deepest, loss)
}

// lost settles predecessor j, whose counter ran out and whose byte
// removeEscapes set to the loss through this move.
func (u *updater) lost(j uint64) {
	u.states.settle(j)
	u.g.present.mark(u.side, j, u.next)
	u.deepest = max(u.deepest, u.next)
}

// # Batches of runs
//
// Un-moving one frontier run leads to a few dozen runs of predecessors,
// each in its own cache line of state bytes and its own word of settled
// bits, most of them far apart. Updated one after another, every one of
// those misses would wait for the previous compare-and-swap, which lets
// no later load start before it. So propagateRun queues the runs it
// reaches (queue), and flush reads their words with atomic loads, which
// the processor overlaps, before it updates them: the updates find their
// lines in the cache. The order of updates never changes a value (both
// cores already update in any order), so the tables stay byte for byte
// the same. Measured on KRRvKN (gen --threads 2, with the exact byte
// scan and the seed's plain stores): 9.0–9.6 s against 10.0–10.7 s.

// runTarget is a run of predecessors waiting in a batch: the positions
// r+lane, lane in lanes, each reached by counts[lane] un-moves.
type runTarget struct {
	r      uint64
	lanes  tb.Bitboard
	counts *[64]uint8 // un-moves that reach each lane (nil: one each)
}

// queue adds a run of predecessors to the batch.
func (u *updater) queue(r uint64, lanes tb.Bitboard) {
	if lanes != 0 {
		u.sc.targets = append(u.sc.targets, runTarget{r: r, lanes: lanes})
	}
}

// queueLaneOrigins queues the predecessors of the frontier lanes through
// un-moves of the last piece itself: they stay in run r, and one of them
// may be reached from several frontier lanes. A win needs one, so their
// union is queued; a loss of escapes counts each, so the counts go with
// it (sc.counts, the batch's only counted run) and the counter of each
// predecessor drops once, by all of them.
func (u *updater) queueLaneOrigins(r uint64, lanes tb.Bitboard, ret *tb.LaneRetractor) {
	var union tb.Bitboard
	if u.stab == 0 {
		for l := lanes; l != 0; {
			union |= ret.LaneOrigins(l.PopFirst())
		}
		u.queue(r, union)
		return
	}
	counts := &u.sc.counts
	for l := lanes; l != 0; {
		origins := ret.LaneOrigins(l.PopFirst())
		for o := origins &^ union; o != 0; {
			counts[o.PopFirst()] = 0
		}
		union |= origins
		for o := origins; o != 0; {
			counts[o.PopFirst()]++
		}
	}
	if union != 0 {
		u.sc.targets = append(u.sc.targets, runTarget{r: r, lanes: union, counts: counts})
	}
}

// flush applies the batch in three sweeps: the settled words of its runs
// are read, then the first state word of each run that still has
// unsettled lanes, then the updates are made. The first two only load,
// so their misses overlap. (Most runs of a pass over losses turn out to
// be settled already, and their state bytes are never fetched.) A lane
// settled after its word was read is still applied, and apply leaves it
// as it is.
func (u *updater) flush() {
	targets := u.sc.targets
	s := u.states
	var sink uint64
	for i := range targets {
		sink += uint64(s.settledRun(targets[i].r))
	}
	for i := range targets {
		t := &targets[i]
		if t.lanes &^= s.settledRun(t.r); t.lanes != 0 {
			sink += s.touch(t.r + uint64(t.lanes.First()))
		}
	}
	u.sink += sink
	for i := range targets {
		if t := &targets[i]; t.lanes != 0 {
			u.applyRun(t.r, t.lanes, t.counts)
		}
	}
	u.sc.targets = targets[:0]
}

// applyRun updates the predecessors r+lane, lane in lanes, as apply
// does, but for those already settled, each counts[lane] times (nil:
// once). The king pair of a run is never Tied, so every un-move takes the
// updater's weight.
func (u *updater) applyRun(r uint64, lanes tb.Bitboard, counts *[64]uint8) {
	lanes &^= u.states.settledRun(r)
	if u.stab == 0 {
		for lanes != 0 {
			u.win(r + uint64(lanes.PopFirst()))
		}
		return
	}
	// Eight positions share a word: one compare-and-swap each.
	for lanes != 0 {
		q := uint64(lanes.First()) &^ 7
		group := uint8(lanes >> q)
		lanes &^= 0xff << q
		var c *[8]uint8
		if counts != nil {
			c = (*[8]uint8)(counts[q : q+8])
		}
		decided, many, capture := u.states.removeEscapes(r+q, group, u.weight, c, u.lossByte)
		for d := decided | many; d != 0; d &= d - 1 {
			n := uint64(bits.TrailingZeros8(d))
			switch {
			case many&(1<<n) != 0:
				u.escaped(r+q+n, escapeMany, false, false)
			case capture&(1<<n) == 0 && u.lossByte != writingByte:
				u.lost(r + q + n) // its byte holds the loss already
			default:
				u.escaped(r+q+n, escapeDecided, capture&(1<<n) != 0, false)
			}
		}
	}
}

// scratch is a worker's room for the position a decision decodes, and
// its list of losses decided by moves, written after the pass.
type scratch struct {
	pos      tb.Position
	moves    tb.MoveList
	deferred []deferredLoss
	targets  []runTarget // the batch of propagateRun
	counts   [64]uint8   // the counts of its one counted run (queueLaneOrigins)
}

// scratches recycles the scratch of the units of work: a new one per unit
// would leave garbage enough to grow the heap by a tenth of a large table
// before the collector runs.
var scratches = sync.Pool{New: func() any { return new(scratch) }}

// deferredLoss is a loss found by lostByMoves, claimed in its pass and
// written after it.
type deferredLoss struct {
	side tb.Color
	j    uint64
	loss value.Value
}

// worstCapture returns the longest loss among the captures of sc.pos, a
// position whose counter ran out and which the seed found with a losing
// capture: it loses in the longer of that and the frontier's loss. Every
// capture of such a position loses, or it could not have lost at all.
func (g *generator) worstCapture(sc *scratch) value.Value {
	p := &sc.pos
	sc.moves.N = 0
	p.LegalCaptures(&sc.moves)
	var worst value.Value
	for _, m := range sc.moves.Slice() {
		c, t := p.PieceAt(m.To())
		worst = max(worst, captureValue(g.subs, p, m, c, t).Negate())
	}
	return worst
}

// lostByMoves decides the position in sc.pos, with more moves than a
// counter holds, in
// a pass over wins whose predecessors lose in next: it is lost when every
// move leads to a win for the opponent already final (as fast as the
// frontier's, or faster), and then it loses in the longest of them.
func (g *generator) lostByMoves(sc *scratch, next value.Value) (value.Value, bool) {
	p := &sc.pos
	sc.moves.N = 0
	p.LegalMoves(&sc.moves)
	var worst value.Value
	other := &g.states[p.Side.Other()]
	for _, m := range sc.moves.Slice() {
		if c, t := p.PieceAt(m.To()); t != tb.NoPiece {
			v := captureValue(g.subs, p, m, c, t)
			if !v.IsWin() {
				return 0, false // the capture draws or wins
			}
			worst = max(worst, v.Negate())
			continue
		}
		q := p.Play(m)
		j, _ := g.space.Index(&q)
		b := other.load(j)
		if b&1 == 0 || b == holeByte {
			return 0, false // a loss, a draw or undecided
		}
		v := other.value(j, b)
		if !v.IsWin() || v.Negate() > next {
			return 0, false // not a win for the opponent, or not final yet
		}
		worst = max(worst, v.Negate())
	}
	return worst, true
}

// stabiliser returns the number of symmetries (used by the space) that map
// the canonical position p to itself: 2 for a position symmetric in the
// a1–h8 diagonal, 1 otherwise.
func (g *generator) stabiliser(p *tb.Position) int {
	if !g.space.FullSymmetry() {
		return 1
	}
	return 8 / g.space.Multiplicity(p)
}

// Package retro solves pawnless Makruk endgames by retrograde analysis:
// distance to mate in plies, for both sides to move, one material at a
// time, with captures looked up in the already solved sub-tables.
//
// # Algorithm
//
// Stage 1, seed (seed.go): every index of both sides is decoded once. Holes
// and illegal positions are marked; checkmates get "mated in 0"; every
// capture is looked up in its sub-table, which gives a tentative win (the
// quickest capture into a lost position), or rules a loss out (a capture
// into a drawn position), or a lower bound on the loss (every capture
// loses). The quiet moves are only counted.
//
// Stage 2, iterate (iterate.go): frontier by depth. For d = 0, 1, 2, … the
// positions whose final value is "mate in d plies" are found by a scan of
// the value arrays, and each is un-moved (tb.Position.UnMoves) to its
// predecessors:
//
//   - d even (the side to move there is mated): every predecessor wins in
//     d+1, unless it already wins as fast.
//   - d odd (the side to move there wins): every predecessor loses one
//     escape. Each position carries a counter of quiet moves not yet known
//     to lose; when it reaches zero the position is lost in
//     max(d+1, its longest losing capture), the captures looked up again
//     then (a flag in the counter says whether there are any). The counter
//     is kept in units of half a move,
//     because under the diagonal symmetry a position that maps to itself is
//     reached by a different number of un-moves than it has moves:
//     each un-move subtracts 2·|stabiliser of the predecessor| /
//     |stabiliser of the frontier position| (1, 2 or 4). A position with
//     more moves than a counter holds (31) is decided instead by generating
//     its moves each time one of them is found to lose (lostByMoves), as a
//     generator without counters would: few positions have that many
//     moves, and they are mostly the strong side's, which rarely loses.
//
// Values set at step d are always d+1 or later, so a scan never meets a
// value that is still changing. Whatever is undecided when the frontier is
// empty is a draw.
//
// Runs: when the last index group is a single piece, the 64 indices of a
// run differ only in that piece's square, and the scan collects the
// frontier of a run as a bitboard of "lanes". Every un-move of another
// piece is then generated once for the run (tb.LaneRetractor says, per
// origin, in which lanes it is legal) and lands in one run of predecessors;
// so do king steps that leave the canonical region (index.KingStepRun maps
// the lanes through the symmetry), and the last piece's own un-moves stay
// inside the run. The settled bits (state.go) mark the
// positions no update can change any more, so the predecessors already won
// or decided are dropped 64 at a time: most are, since every lost position
// is un-moved to all its predecessors and only the first to arrive wins.
// Tied king pairs, and spaces whose last group has several pieces, go
// position by position. The seed uses runs too: the legal moves of a
// run's positions are found together (tb.LaneMoves: what the other side
// attacks, the pins and the leapers' targets once per run, then per lane
// only what the lane piece changes).
//
// Memory: one byte per position and side to move and one settled bit
// (state.go): 1.125 bytes, the byte read through the bit — a final value,
// a counter, a win by capture not yet propagated — and updated with
// compare-and-swap on the word holding it (32-bit; 64-bit for the lanes
// of a run that share one), so both cores can work on any part of the
// table. The runs one frontier run leads to are queued and their words
// loaded before any is updated (iterate.go, "Batches of runs"), so their
// cache misses overlap instead of waiting behind each compare-and-swap. Codes from 255 up (mates beyond 252 plies) live in a
// side table. For KRSvKN (1 806 king pairs × 64³ indices per side) that is
// 1.07 GB, plus the sub-tables, which are held at a byte per index too
// (value.Array). A DTB generation first copies its known draws into the
// settled bits and lets the table they come from go.
// The large arrays ask for huge pages (hugepages_linux.go): they are read
// at random, and 4 KiB pages would miss the TLB at nearly every update.
// Out of core (Options.Scratch, spill.go) the same arrays are mapped from
// scratch files, and each pass visits the king pairs in an order that lets
// it hold a few dozen slices of the state at a time.
//
// Stage 3 (generator.finish) turns the state bytes into the table's
// value.Array in place. The verifier (verify.go) checks a finished table position by
// position against a one-ply search over it and its sub-tables, sharing no
// code with stages 1–2 beyond the move generator and the index; the tables
// of one material (DTM and DTB) are checked in one pass.
//
// The same machinery computes DTB, the board's-honour metric (board.go):
// only the values of captures differ, and the seed takes the positions
// known to draw (DTM draws, or the draws of a profile whose goals include
// this one's) without generating their moves.
package retro

// Package probe owns the table file format — the writer used by the
// generator and the reader — and the probing API used by engines and tools.
//
// # Probing
//
//	tables, err := probe.Open("data") // or "" for $MAKRUKTB_PATH, else ./data
//	pos, err := tb.ParseFEN("8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
//	v, err := tables.Value(&pos)      // value.Mate(31): White mates in 31 plies
//	moves, err := tables.Moves(&pos)  // every legal move, best first
//	line, err := tables.JudgedLine(&pos, &honour.ThaiRules) // the optimal line under the count
//
// A position is looked up in the table of its canonical material (colours
// swapped when needed, see index.Canonical); the file is opened on first
// use and the block holding the value is decompressed into a bounded cache
// shared by all tables, found without a lock. Tables is safe for
// concurrent use. Errors are typed: *MissingError (no table for the
// material), *PositionError (pawns, too many pieces, illegal position),
// *CorruptError (naming the file and offset; a damaged block never yields
// a value). Under Makruk's honour counts (package tb/honour), Judge,
// JudgedMoves and JudgedLine (count.go) give each position its category —
// win, cursed-win, draw, blessed-loss or loss — reading the DTB tables
// where board's honour needs them; WDL (wdl.go) reads a WDL file when
// there is one and the count starts in the position.
//
// # File format, version 1
//
// One file per material and metric, named MATERIAL.mtbm for distance to
// mate (e.g. KRSvKN.mtbm). All integers are little-endian. Everything the
// reader needs comes first, and every field is bounds-checked on open.
//
//	offset  size  field
//	0       8     magic "MAKRUKTB"
//	8       2     format version (1)
//	10      1     metric: 1 = DTM
//	11      1     value width in bytes: 1 or 2
//	12      1     length n of the material name
//	13      n     material name, canonical (stronger side first), e.g. KRSvKN
//	…       1     length r of the rule-profile name (0 for DTM)
//	…       r     rule-profile name
//	…       1     symmetries used: 8, or 2 for tables with a Khon
//	…       4     king pairs
//	…       8     indices per king pair
//	…       8     indices per side to move (king pairs × per king pair)
//	…       4     values per block B
//	…       4     number of blocks N (per side ⌈size/B⌉, White's blocks first)
//	…       8·(N+1) block offsets, relative to the start of the data section;
//	              block k occupies [off[k], off[k+1])
//	…       4     CRC-32C of the data section
//	…       4     CRC-32C of every header byte before this field
//	data    …     N blocks, each an independent zstd frame (with its own
//	              content checksum) of B values (the last block of a side may
//	              be shorter) of the given width
//
// Values are value.Value codes (package tb/value). Index holes and
// illegal positions are stored as a copy of the previous legal value in
// the block, which compresses best; the reader never looks at them.
//
// Files are written to a temporary name, synced and renamed, so a file
// with the final name is always complete. The same values always give the
// same bytes.
//
// # Format version 2: one side to move
//
// A version-2 DTM or DTB file (written by WriteFileV2, gen --format 2 and
// convert --format 2) has the same names and version 1's layout with the
// version field 2 and two fields after the number of blocks:
//
//	offset  size  field
//	…       1     codec of the blocks: 1 = zstd frames of Width bytes per index
//	…       1     sides to move stored: 1 = White, 2 = Black (3 = both, WDL)
//
// It stores one side to move, the one whose values compress smaller, in
// blocks of BlockSizeV2 indices at zstd's best level; the other side's
// value of a position is the best of its moves' values one ply on (the
// successors on the stored side, captures in the sub-tables), which Tables
// computes when asked (a one-ply search) and package retro's Derive
// computes for a whole table (store.Load does it). Holes are the
// generator's (value.Illegal) filled with the previous value in the block,
// so the same values always give the same bytes, whether written by the
// generator or converted from version 1. A version-2 file is about a
// quarter of the size of version 1 (KRRvKN's DTM: 7.8 MB against 30.2).
//
// # WDL files
//
// A WDL file, MATERIAL.RULES.mtbw (e.g. KRvKN.thai.mtbw), holds each
// position's category under one rule profile when the count starts now:
// one byte per index (0 loss, 1 blessed-loss, 2 draw, 3 cursed-win,
// 4 win), for both sides to move, in zstd blocks of WDLBlockSize
// indices. Its layout is version 2's with the metric 3 (WDL), the
// rule-profile name of the file, and, after the block count:
//
//	offset  size  field
//	…       1     codec: 2 (1 in the files made before 2026-12-05, every
//	              category stored as it is)
//	…       1     bits 0–1: sides stored (3, both); bits 2–3: the sides
//	              where captures decide (bit 2 White, bit 3 Black)
//	…       4     data CRC-32C of the DTM file it was made from
//	…       4     data CRC-32C of the DTB file it was made from (0: none)
//
// then the block offsets, the data checksum and the header checksum as in
// version 1. Tables refuses a WDL file whose recorded checksums are not
// those of the DTM and DTB files beside it (convert makes it anew after
// converting them).
//
// Where captures decide (Syzygy's trick, in the count's terms): a
// capture gives the side to move at least a bound, the opposite of the
// category of the position after it under a fresh count, except that the
// mover's win there counts as a cursed win (the count that runs after a
// capture may be older than a fresh one, and an older count can only
// turn a win into a cursed win). Where the bound of a position's best
// capture equals its category, the file may store any category not above
// it, and stores the one before it (runs compress); the reader takes the
// better of the stored category and the bound, searching the captures
// (one probe of a smaller table each) only when the stored category is
// below a cursed win. The writer computes both forms of each side and
// keeps this one when it takes at most three quarters of the other
// (KRRvKN.thai.mtbw: Black to move 3.1 MB → 0.5 MB); a reader of such a
// side needs the tables of the positions after a capture. Holes carry,
// on such a side, the category before them; elsewhere the category of the
// values the DTM file stores there, or derives (retro.Derive repeats the
// previous value). The file is a function of the DTM and DTB files and
// of the sub-tables' categories alone (see wdl.go).
package probe

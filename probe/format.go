package probe

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
)

// Magic starts every table file.
const Magic = "MAKRUKTB"

// Version is the format version of the DTM and DTB files WriteFile
// writes: both sides to move stored.
const Version = 1

// Version2 is the format of WDL files and of the DTM and DTB files
// WriteFileV2 writes, which store one side to move: version 1's layout
// with the codec and the sides stored after the block count, and in a
// WDL file the checksums of the files it was made from (see doc.go).
const Version2 = 2

// Version3 is the format of WDL files in the pairs codec (package pairs):
// version 2's header, each side to move one stream of Re-Pair symbols in
// blocks of at most 64 bytes, read a value at a time straight from the
// file, with no block to inflate and no cache (codecPairs). The header's
// block size is 0 and its two "blocks" are the streams of White and
// Black to move.
const Version3 = 3

// Codec and sides-stored fields of a version-2 header.
const (
	codecZstd = 1 // the blocks are zstd frames of Width bytes per index
	// codecZstdCaptures is codecZstd in a WDL file whose writer chose,
	// side by side, whether captures decide (Header.Captures): the sides
	// byte then also carries those sides, shifted by two bits.
	codecZstdCaptures = 2
	// codecPairs is a version-3 WDL file's: codecZstdCaptures's sides
	// byte, each side one pairs stream.
	codecPairs = 3
	bothSides  = 3 // the sides stored: bit 0 White, bit 1 Black
)

// Metric says what a table's values measure.
type Metric uint8

const (
	// DTM is distance to mate in plies, for both sides to move.
	DTM Metric = 1
	// DTB is the board's-honour metric of one rule profile (Header.Rules):
	// the distance in plies to mate or to a capture that bares the opponent
	// into a win inside the fresh pieces' count (see package retro). Only
	// materials with pieces on both sides have it.
	DTB Metric = 2
	// WDL is the category of each position under one rule profile
	// (Header.Rules) when the count starts now: loss, blessed-loss, draw,
	// cursed-win or win (format version 2, file wdl.go).
	WDL Metric = 3
)

// Extension returns the file name extension of the metric.
func (m Metric) Extension() string {
	switch m {
	case DTM:
		return ".mtbm"
	case DTB:
		return ".mtbb"
	case WDL:
		return ".mtbw"
	}
	return ".unknown"
}

func (m Metric) String() string {
	switch m {
	case DTM:
		return "dtm"
	case DTB:
		return "dtb"
	case WDL:
		return "wdl"
	}
	return fmt.Sprintf("metric(%d)", uint8(m))
}

// DefaultBlockSize is the number of values per compressed block of a
// version-1 file.
const DefaultBlockSize = 1 << 15

// BlockSizeV2 is the number of indices per block of a version-2 file:
// eight version-1 blocks, which compress a fifth smaller than one.
const BlockSizeV2 = 8 * DefaultBlockSize

// Header describes a table file; it is everything before the data section.
type Header struct {
	Version  int // Version or Version2 (always for a WDL file)
	Material tb.Material
	Metric   Metric
	Rules    string // rule profile, empty for DTM
	// Game is the game whose rules the table follows. A DTM table of
	// another game than Makruk writes the game's name where a DTB table
	// writes its rule profile, and its material in the game's letters.
	Game        tb.Game
	Width       int // bytes per value: 1 or 2
	Symmetries  int // 8 or 2
	KingPairs   int
	PerKingPair uint64
	Size        uint64 // indices per side to move
	BlockSize   int    // values per block
	Blocks      int    // blocks in the file, every side stored
	// Sides is the sides to move stored (bit 0 White, bit 1 Black): both
	// in version 1 and in WDL files, one in a version-2 DTM or DTB file,
	// whose other side follows from it by one ply (package retro's
	// Derive, Tables' one-ply search).
	Sides int
	// Codec is codecZstd, or in a WDL file codecZstdCaptures (what the
	// writer makes), with Captures the sides to move (bit 0 White, bit 1
	// Black) whose stored categories are only lower bounds where a
	// capture decides: the category is the better of the stored one and
	// the captures' (see wdl.go).
	Codec    int
	Captures int
	Offsets  []uint64
	DataCRC  uint32
	// Made from, in a WDL file: the data checksums (DataCRC) of the DTM
	// file and of the DTB file (0 when the material has none) it was
	// computed from.
	DTMCRC, DTBCRC uint32
	// Orders are, in a version-3 WDL file, the order of the index's
	// digits each side's stream is stored in (see order.go).
	Orders [2][]uint8
}

// blocksPerSide returns ⌈Size / BlockSize⌉, or 1 for a pairs stream.
func (h *Header) blocksPerSide() int {
	if h.Codec == codecPairs {
		return 1
	}
	return int((h.Size + uint64(h.BlockSize) - 1) / uint64(h.BlockSize))
}

// Stores reports whether the file holds the values of side to move.
func (h *Header) Stores(side tb.Color) bool { return h.Sides&(1<<side) != 0 }

// OneSided reports whether the file stores one side to move only (a
// version-2 DTM or DTB file).
func (h *Header) OneSided() bool { return h.Sides != bothSides }

// sidesStored returns how many sides to move the file holds.
func (h *Header) sidesStored() int { return h.Sides&1 + h.Sides>>1&1 }

// CapturesDecide reports whether the WDL file's categories of side to
// move are lower bounds where a capture decides (Header.Captures).
func (h *Header) CapturesDecide(side tb.Color) bool { return h.Captures&(1<<side) != 0 }

// BaringCapturesExact reports whether a WDL file's capture bounds
// (CapturesDecide) take a capture at its exact worth, a win included,
// where no older count can run after it (version 3): a capture that bares
// the other side (the pieces' count starts afresh there, as the category
// of the position after it assumes), and any capture under rules with no
// count. Version 2's bounds stop at a cursed win.
func (h *Header) BaringCapturesExact() bool { return h.Version >= Version3 }

// CapturesDecided reports whether the writer of a WDL file decided, side
// by side, whether captures decide (Codec codecZstdCaptures, as WriteWDL
// writes it): a file made before (RecodeWDL rewrites it) stores every
// category as it is.
func (h *Header) CapturesDecided() bool {
	return h.Metric == WDL && (h.Codec == codecZstdCaptures || h.Codec == codecPairs)
}

// StoredSide returns the side to move a one-sided file holds (White for a
// file that holds both).
func (h *Header) StoredSide() tb.Color {
	if h.Sides == 2 {
		return tb.Black
	}
	return tb.White
}

// newHeader fills the index parameters of a header from the index space.
func newHeader(s *index.Space, metric Metric, width int) Header {
	sym := 2
	if s.FullSymmetry() {
		sym = 8
	}
	return Header{
		Version:     Version,
		Material:    s.Material(),
		Game:        s.Game(),
		Metric:      metric,
		Width:       width,
		Symmetries:  sym,
		KingPairs:   s.KingPairs(),
		PerKingPair: s.PerKingPair(),
		Size:        s.Size(),
		BlockSize:   DefaultBlockSize,
		Sides:       bothSides,
		Codec:       codecZstd,
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// marshal encodes the header, its checksum last.
func (h *Header) marshal() []byte {
	b := []byte(Magic)
	b = binary.LittleEndian.AppendUint16(b, uint16(h.Version))
	b = append(b, byte(h.Metric), byte(h.Width))
	name := h.Game.MaterialName(h.Material)
	b = append(b, byte(len(name)))
	b = append(b, name...)
	rules := h.Rules
	if h.Game != tb.Makruk {
		rules = h.Game.String()
	}
	b = append(b, byte(len(rules)))
	b = append(b, rules...)
	b = append(b, byte(h.Symmetries))
	b = binary.LittleEndian.AppendUint32(b, uint32(h.KingPairs))
	b = binary.LittleEndian.AppendUint64(b, h.PerKingPair)
	b = binary.LittleEndian.AppendUint64(b, h.Size)
	b = binary.LittleEndian.AppendUint32(b, uint32(h.BlockSize))
	b = binary.LittleEndian.AppendUint32(b, uint32(h.Blocks))
	if h.Version >= Version2 {
		b = append(b, byte(h.Codec), byte(h.Sides|h.Captures<<2))
	}
	if h.Metric == WDL {
		b = binary.LittleEndian.AppendUint32(b, h.DTMCRC)
		b = binary.LittleEndian.AppendUint32(b, h.DTBCRC)
	}
	if h.Version == Version3 {
		for _, o := range h.Orders {
			b = append(b, byte(len(o)))
			b = append(b, o...)
		}
	}
	for _, o := range h.Offsets {
		b = binary.LittleEndian.AppendUint64(b, o)
	}
	b = binary.LittleEndian.AppendUint32(b, h.DataCRC)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// Package pairs compresses a long sequence of byte values drawn from a few
// (a WDL file's categories: five) so that any one value can be read back
// by decoding a few dozen bytes: no block to inflate, no cache.
//
// A stream is cut into parts of 2^p values (the last shorter), each
// compressed on its own. The encoder replaces, pass after pass, the most
// frequent pairs of adjacent symbols of a part by new symbols (Re-Pair),
// up to MaxSymbols in all: a symbol then stands for a run of values, a
// leaf for one. The symbols of the final sequence are coded with a
// canonical Huffman code and packed, whole, into blocks of 2^k bytes
// (k 5 or 6, whichever gives the smaller part). A table gives the number
// of values each block holds, and a sparse index, every 2^s values (about
// eight blocks' worth), the block and the offset in it where that value
// lies. Reading value i: its part, the sparse entry, a walk over the
// blocks' counts to the block holding it, Huffman decoding in that block
// until the symbol covering i, and a descent of that symbol's pair tree
// to its leaf, or to a symbol whose values are all one.
//
// A stream, all integers little-endian (uvarint: encoding/binary's):
//
//	u8        version (3)
//	uvarint   n, the number of values
//	u8        p, log2 of the values of a part (16 to 40)
//	then for each of the max(1, ⌈n / 2^p⌉) parts:
//	uvarint   the part's length in bytes, and the part:
//
//	uvarint   L, the number of leaves (at most 256); L bytes, their values
//	uvarint   P, the number of pairs; P × 3 bytes, the two symbols of
//	          pair k (symbol L+k), 12 bits each, the first in the low
//	          bits: each is a leaf (below L) or an earlier pair
//	L+P bytes the Huffman code length of each symbol (0: not in the code)
//	u8        k, log2 of the block size in bytes
//	u8        c, the width in bytes of a count and an offset: 2, or 4 where
//	          a block holds more than 65 536 values
//	uvarint   B, the number of blocks
//	u8        s, log2 of the sparse index's step
//	uvarint   E, the number of sparse entries, ⌈m / 2^s⌉ (m the part's values)
//	B × c     the number of values in each block, less one
//	E × (4+c) for value e·2^s: u32 its block, its offset in the block (c bytes)
//	B × 2^k   the blocks: codes most significant bit first, zero-padded
//
// Versions 1 and 2 are read too: their parts have no byte c (counts and
// offsets are two bytes); version 1 is u8 1, uvarint n, then one part of
// n values.
//
// Codes are canonical: sorted by length, then by symbol, the first code
// of each length the one after the last code of the length before,
// shifted left. No code is longer than MaxCodeLen bits; a symbol stands
// for at most MaxRun values (65 536 before version 3), and a block holds
// at most 2^32 (65 536 with two-byte counts). The sparse step is about
// eight blocks' values on average, and smaller where a read would walk
// over more than 256 blocks' counts.
package pairs

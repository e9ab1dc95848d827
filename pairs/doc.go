// Package pairs compresses a long sequence of byte values drawn from a few
// (a WDL file's categories: five) so that any one value can be read back
// by decoding a few dozen bytes: no block to inflate, no cache.
//
// The encoder replaces, pass after pass, the most frequent pairs of
// adjacent symbols by new symbols (Re-Pair), up to MaxSymbols in all: a
// symbol then stands for a run of values, a leaf for one. The symbols of
// the final sequence are coded with a canonical Huffman code and packed,
// whole, into blocks of 2^k bytes (k from 5 to 8, whichever gives the
// smallest stream). A table gives the number of values each block holds,
// and a sparse index, every 2^s values, the block and the offset in it
// where that value lies. Reading value i: the sparse entry of i, a walk
// over the blocks' counts to the block holding it, Huffman decoding in
// that block until the symbol covering i, and a descent of that symbol's
// pair tree to its leaf.
//
// A stream, all integers little-endian (uvarint: encoding/binary's):
//
//	u8        version (1)
//	uvarint   n, the number of values
//	uvarint   L, the number of leaves (at most 256); L bytes, their values
//	uvarint   P, the number of pairs; P × 3 bytes, the two symbols of
//	          pair k (symbol L+k), 12 bits each, the first in the low
//	          bits: each is a leaf (below L) or an earlier pair
//	L+P bytes the Huffman code length of each symbol (0: not in the code)
//	u8        k, log2 of the block size in bytes
//	uvarint   B, the number of blocks
//	u8        s, log2 of the sparse index's step
//	uvarint   E, the number of sparse entries, ⌈n / 2^s⌉
//	B × u16   the number of values in each block, less one
//	E × 6     for value e·2^s: u32 its block, u16 its offset in the block
//	B × 2^k   the blocks: codes most significant bit first, zero-padded
//
// Codes are canonical: sorted by length, then by symbol, the first code
// of each length the one after the last code of the length before,
// shifted left. No code is longer than MaxCodeLen bits; a symbol stands
// for at most MaxRun values, and a block holds at most 65 536.
package pairs

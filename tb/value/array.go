package value

import (
	"fmt"
	"slices"
	"sync"
)

// # One byte per value
//
// An Array holds the values of one side to move of a table, one byte per
// index: codes 0…254 stand in their byte; a byte of 255 says the code (255
// or more: a mate beyond 252 plies, which few positions of any table have)
// is in the overflow list, sorted by index.
//
//	byte    0 … 254     the value code itself
//	byte    255         look the index up in the overflow list
//
// This halves the memory of a two-byte array: a 6-piece table's values,
// and the sub-tables its generation reads, fit where they otherwise
// would not.

// Overflow is the byte that sends a look-up to the overflow list.
const Overflow = 255

// Wide is one entry of the overflow list.
type Wide struct {
	Index uint64
	Value Value
}

// Array is one side's values of a table (see above). Build it with Set
// (concurrently for distinct indices) and Seal it before reading.
type Array struct {
	codes []byte
	wide  []Wide // sorted by Index once sealed
	mu    sync.Mutex
}

// NewArray returns an array of n draws.
func NewArray(n uint64) *Array { return &Array{codes: make([]byte, n)} }

// ArrayFrom returns a sealed array holding the codes and overflow entries
// given (in any order); codes must hold Overflow exactly at the entries'
// indices.
func ArrayFrom(codes []byte, wide []Wide) (*Array, error) {
	a := &Array{codes: codes, wide: wide}
	a.Seal()
	n := 0
	for _, c := range codes {
		if c == Overflow {
			n++
		}
	}
	if n != len(wide) {
		return nil, fmt.Errorf("value: %d overflow bytes, %d overflow entries", n, len(wide))
	}
	for _, w := range wide {
		if w.Index >= uint64(len(codes)) || w.Value < Overflow {
			return nil, fmt.Errorf("value: overflow entry %d = %d out of range", w.Index, w.Value)
		}
	}
	return a, nil
}

// ArrayOf returns a sealed array of vals.
func ArrayOf(vals []Value) *Array {
	a := NewArray(uint64(len(vals)))
	for i, v := range vals {
		a.Set(uint64(i), v)
	}
	a.Seal()
	return a
}

// Len returns the number of values.
func (a *Array) Len() uint64 { return uint64(len(a.codes)) }

// Codes returns the bytes of the array (Overflow for the entries of the
// overflow list); a scan for a code below Overflow may read them directly.
func (a *Array) Codes() []byte { return a.codes }

// Set stores v at index i. Concurrent calls must be for distinct indices,
// and all of them must come before Seal.
func (a *Array) Set(i uint64, v Value) {
	if v < Overflow {
		a.codes[i] = byte(v)
		return
	}
	a.codes[i] = Overflow
	a.mu.Lock()
	a.wide = append(a.wide, Wide{i, v})
	a.mu.Unlock()
}

// Seal sorts the overflow list; the array is read-only afterwards. When
// one index was Set twice, the later value counts.
func (a *Array) Seal() {
	slices.SortStableFunc(a.wide, func(x, y Wide) int {
		switch {
		case x.Index < y.Index:
			return -1
		case x.Index > y.Index:
			return 1
		}
		return 0
	})
	kept := a.wide[:0]
	for n, w := range a.wide {
		if n+1 < len(a.wide) && a.wide[n+1].Index == w.Index || a.codes[w.Index] != Overflow {
			continue // overwritten
		}
		kept = append(kept, w)
	}
	a.wide = kept
}

// At returns the value at index i.
func (a *Array) At(i uint64) Value {
	if c := a.codes[i]; c != Overflow {
		return Value(c)
	}
	return a.wideAt(i)
}

func (a *Array) wideAt(i uint64) Value {
	k, found := slices.BinarySearchFunc(a.wide, i, func(w Wide, i uint64) int {
		switch {
		case w.Index < i:
			return -1
		case w.Index > i:
			return 1
		}
		return 0
	})
	if !found {
		return Illegal // not sealed, or not built by Set: never a real value
	}
	return a.wide[k].Value
}

// Slice expands the values of [lo, hi) into dst (reusing its capacity).
func (a *Array) Slice(lo, hi uint64, dst []Value) []Value {
	dst = dst[:0]
	for i, c := range a.codes[lo:hi] {
		v := Value(c)
		if c == Overflow {
			v = a.wideAt(lo + uint64(i))
		}
		dst = append(dst, v)
	}
	return dst
}

// All returns every value, expanded (for tests and small tables).
func (a *Array) All() []Value { return a.Slice(0, a.Len(), nil) }

// Overflowed returns the overflow list, sorted by index.
func (a *Array) Overflowed() []Wide { return a.wide }

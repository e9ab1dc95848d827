package index

import "math/bits"

// divisor divides by a fixed d with one multiplication: for n·d < 2⁶⁴,
// ⌊n/d⌋ = ⌊n·m / 2⁶⁴⌋ with m = ⌊2⁶⁴/d⌋ + 1. (Write m = 2⁶⁴/d + e with
// 0 < e ≤ 1: n·m/2⁶⁴ = n/d + n·e/2⁶⁴, and the error n·e/2⁶⁴ < 1/d cannot
// carry past the next integer, since the fraction of n/d is at most
// (d−1)/d.) Indices stay below 2³⁶ and divisors below 2²⁸, far inside the
// bound. Hardware 64-bit division costs tens of cycles; this costs a few.
type divisor struct {
	d, m uint64
}

func newDivisor(d uint64) divisor {
	if d == 1 {
		return divisor{d: 1}
	}
	return divisor{d: d, m: ^uint64(0)/d + 1}
}

// divMod returns ⌊n/d⌋ and n mod d.
func (v divisor) divMod(n uint64) (q, r uint64) {
	if v.d == 1 {
		return n, 0
	}
	q, _ = bits.Mul64(n, v.m)
	return q, n - q*v.d
}

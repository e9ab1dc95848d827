package honour

import (
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// # Who counts, and which DTB file
//
// Under a profile whose counting side's mates are draws (CounterMate
// "draw"), a DTB table depends on which side runs the board's count: that
// side is fixed from the count's start through every capture.
//
// Each material has its own DTB file under a profile (OwnFile), for the
// count it starts with fresh: the side with fewer pieces counts, or no one
// where both have as many (then every mate is a goal). Up to six pieces a
// material with more pieces on one side is only reached with the side
// behind counting, so that file is all it needs. A material with one
// piece each is also reached with either side counting (from a material a
// piece larger, after the counting side captured): it has a file for each
// (WhiteCounting, BlackCounting; Variants), named with Variant.Suffix.
// Under any other profile mates score alike whoever counts, and the
// material's own file serves every count.

// Variant names one DTB file of a material under a profile: its own, or
// the one of a count White or Black runs (colours of the file's material).
type Variant int8

const (
	OwnFile       Variant = iota // the count the material starts fresh
	WhiteCounting                // a count White runs
	BlackCounting                // a count Black runs
)

// variantOf returns the variant of a count side runs.
func variantOf(side tb.Color) Variant {
	if side == tb.White {
		return WhiteCounting
	}
	return BlackCounting
}

// Suffix is what the variant's file adds to its profile's name in file
// names and headers: "@white" or "@black", none for OwnFile. Profile
// names cannot hold "@", so no profile's files take these names.
func (v Variant) Suffix() string {
	switch v {
	case WhiteCounting:
		return "@white"
	case BlackCounting:
		return "@black"
	}
	return ""
}

// MatesDraw reports whether r scores a mate by the counting side as a
// draw, so that its DTB tables depend on who counts.
func (r *Rules) MatesDraw() bool { return r.CounterMate == CounterMateDraws }

// Counter returns the side whose mates the DTB file v of m under r scores
// as draws, and false when every mate is a goal there.
func (r *Rules) Counter(m tb.Material, v Variant) (tb.Color, bool) {
	if !r.MatesDraw() {
		return tb.White, false
	}
	switch v {
	case WhiteCounting:
		return tb.White, true
	case BlackCounting:
		return tb.Black, true
	}
	w, b := m.SidePieces(tb.White), m.SidePieces(tb.Black)
	switch {
	case w < b:
		return tb.White, true
	case b < w:
		return tb.Black, true
	}
	return tb.White, false
}

// Variants returns the DTB files of m under r, its own first: one piece
// each under CounterMate "draw" adds a count White and Black run.
func (r *Rules) Variants(m tb.Material) []Variant {
	if r.MatesDraw() && HasBoardHonour(m) && m.SidePieces(tb.White) == 1 && m.SidePieces(tb.Black) == 1 {
		return []Variant{OwnFile, WhiteCounting, BlackCounting}
	}
	return []Variant{OwnFile}
}

// VariantFor returns the DTB file of m under r for a count side runs
// (counted false: no count, or a profile where mates score alike), and
// false when m has no such file.
//
// Where no side counts, the material's own file holds the count it starts
// fresh: none with as many pieces each, and after a capture from such a
// material (two pieces or more each) the count the side behind starts.
func (r *Rules) VariantFor(m tb.Material, side tb.Color, counted bool) (Variant, bool) {
	if !counted || !r.MatesDraw() {
		return OwnFile, true
	}
	if own, ok := r.Counter(m, OwnFile); ok && own == side {
		return OwnFile, true
	}
	if len(r.Variants(m)) > 1 {
		return variantOf(side), true
	}
	return OwnFile, false
}

// Mated returns the DTB value of a checkmated position, mated to move,
// under a count side runs (counted false: no side): a loss, or a draw
// when r scores a mate by the counting side as one.
func (r *Rules) Mated(mated, side tb.Color, counted bool) value.Value {
	if r.MatesDraw() && counted && side == mated.Other() {
		return value.Draw
	}
	return value.MatedIn(0)
}

// MateValue returns the DTB value of a checkmated position of m, mated
// to move, in DTB file v: a loss, or a draw when the mate was given by the
// side whose mates r scores as draws.
func (r *Rules) MateValue(m tb.Material, v Variant, mated tb.Color) value.Value {
	counter, ok := r.Counter(m, v)
	return r.Mated(mated, counter, ok)
}

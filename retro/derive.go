package retro

import (
	"context"
	"slices"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/value"
)

// Derive computes the values of side to move of each check's table (one
// material) from the other side's values and the sub-tables: the one-ply
// search Verify compares with, written instead of compared. A version-2
// table file stores one side to move; loading it whole derives the other.
// The derived side's holes repeat the value before them (as the table
// files store holes), so what is computed from them compresses as well.
func Derive(ctx context.Context, checks []Check, side tb.Color, opts Options) error {
	if len(checks) == 0 {
		return nil
	}
	tables, resolvers, err := resolversOf(checks)
	if err != nil {
		return err
	}
	derived := make([]*value.Array, len(tables))
	for x := range derived {
		derived[x] = value.NewArray(tables[x].Space.Size())
		codes := derived[x].Codes()
		for i := range codes {
			codes[i] = byte(value.Illegal)
		}
	}
	only := func(s tb.Color) bool { return s == side }
	err = oneMovePass(ctx, tables, resolvers, opts, StageDerive, only, func(_ tb.Color, i uint64, _ *tb.Position, want []value.Value) {
		for x, v := range want {
			derived[x].Set(i, v)
		}
	})
	if err != nil {
		return err
	}
	for x, table := range tables {
		fillHoles(derived[x])
		derived[x].Seal()
		table.Values[side] = derived[x]
		table.HolesMarked = false
		table.Derived[side] = true
	}
	return nil
}

// HolesFilled returns a copy of a, one side of a table fresh from the
// generator (its holes value.Illegal, HolesMarked), as Derive gives that
// side: each hole repeating the value before it. What is computed from it
// (a WDL file) is then the same as from the table's version-2 file.
func HolesFilled(a *value.Array) (*value.Array, error) {
	c, err := value.ArrayFrom(slices.Clone(a.Codes()), slices.Clone(a.Overflowed()))
	if err != nil {
		return nil, err
	}
	fillHoles(c)
	return c, nil
}

// fillHoles replaces each value.Illegal code of a by the code before it
// (value.Draw at the start; an overflow code is not repeated).
func fillHoles(a *value.Array) {
	prev := byte(value.Draw)
	codes := a.Codes()
	for i, c := range codes {
		switch c {
		case byte(value.Illegal):
			codes[i] = prev
		case value.Overflow: // its value is in the overflow list, by index
		default:
			prev = c
		}
	}
}

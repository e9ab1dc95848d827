package index_test

import (
	"fmt"

	"github.com/makruktb/makruktb/index"
	"github.com/makruktb/makruktb/tb"
)

// A position's index in its material's table, and back. Tables without a
// khon use the eight symmetries of the square, so a position and its
// mirror image share one index; the decoded position is the canonical one.
func ExampleSpace_Index() {
	space, err := index.New(tb.MustParseMaterial("KRvK"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(space.KingPairs(), "king pairs,", space.Size(), "indices per side")
	for _, fen := range []string{"8/8/8/3k4/8/8/8/KR6 w - - 0 1", "6RK/8/8/8/4k3/8/8/8 w - - 0 1"} {
		pos, _ := tb.ParseFEN(fen)
		i, ok := space.Index(&pos)
		back := space.Decode(i, pos.Side)
		fmt.Println(i, ok, back.FEN())
	}
	// Output:
	// 462 king pairs, 29568 indices per side
	// 1224 true 8/8/8/8/4k3/8/R7/K7 w - - 0 1
	// 1224 true 8/8/8/8/4k3/8/R7/K7 w - - 0 1
}

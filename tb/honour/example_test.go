package honour_test

import (
	"fmt"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/tb/value"
)

// Judging a mate distance under the honour count. KRvK under the thai
// rules: the pieces' count of a rook allows 16 moves (32 plies) and starts
// at the number of pieces on the board, so the mate must come within 28
// plies; a mate in 15 moves (29 plies) is a draw by the count, a cursed
// win.
func ExampleRules_Judge() {
	pos, _ := tb.ParseFEN("8/8/8/3k4/8/8/8/KR6 w - - 0 1")
	rules := honour.ThaiRules
	count := rules.FreshCount(&pos)
	fmt.Println(count.Kind, count.Limit, count.Ply, rules.MatingPlies(count))
	for _, v := range []value.Value{value.MateIn(14), value.MateIn(15)} {
		fmt.Println(v, rules.Judge(v, count).Category)
	}
	// Output:
	// pieces 32 5 28
	// win in 27 plies win
	// win in 29 plies cursed-win
}

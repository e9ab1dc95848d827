package tb_test

import (
	"fmt"

	"github.com/makruktb/makruktb/tb"
)

// Reading a position in FEN, with Makruk's letters (S the khon, M the met),
// and its legal moves.
func ExampleParseFEN() {
	pos, err := tb.ParseFEN("8/8/8/3k4/8/8/2S5/K7 w - - 0 1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(pos.Side, tb.MaterialOf(&pos), pos.InCheck(tb.Black))
	var moves tb.MoveList
	pos.LegalMoves(&moves)
	fmt.Println(moves.N, "legal moves")
	_, err = tb.ParseFEN("8/8/8/3k4/8/8/2S5/K7 x - - 0 1")
	fmt.Println(err)
	// Output:
	// w KSvK false
	// 8 legal moves
	// fen "8/8/8/3k4/8/8/2S5/K7 x - - 0 1": side: "x" is neither w nor b
}

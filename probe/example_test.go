package probe_test

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// Probing a position: its value, its category under the honour count and
// its moves. testdata holds the KMvK table (a met alone cannot mate).
func Example() {
	tables, err := probe.Open("testdata")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tables.Close()
	pos, err := tb.ParseFEN("8/8/8/3k4/8/8/2M5/K7 w - - 0 1")
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := tables.Value(&pos)
	fmt.Println(v, err)
	j, err := tables.Judge(&pos, &honour.ThaiRules)
	fmt.Println(j.Category, j.Count.Kind, j.Count.Limit, err)
	moves, err := tables.Moves(&pos)
	fmt.Println(len(moves), "moves, the first", moves[0].Move, moves[0].ForMover(), err)
	// Output:
	// draw <nil>
	// draw pieces 128 <nil>
	// 7 moves, the first c2b1 draw <nil>
}

// A table the directory does not hold is a *MissingError, which is also
// an fs.ErrNotExist.
func ExampleMissingError() {
	tables, err := probe.Open("testdata")
	if err != nil {
		fmt.Println(err)
		return
	}
	pos, _ := tb.ParseFEN("8/8/8/3k4/8/8/2R5/K7 w - - 0 1")
	_, err = tables.Value(&pos)
	var missing *probe.MissingError
	fmt.Println(errors.As(err, &missing), missing.Material, errors.Is(err, fs.ErrNotExist))
	// Output:
	// true KRvK true
}

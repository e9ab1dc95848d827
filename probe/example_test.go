package probe_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
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

// openKRvK generates KRvK into a new directory and opens it; done removes
// the directory.
func openKRvK() (tables *probe.Tables, done func(), err error) {
	dir, err := os.MkdirTemp("", "krvk")
	if err != nil {
		return nil, nil, err
	}
	r := &pipeline.Runner{Dir: dir, Threads: 2, Reference: store.RepositoryReferences()}
	jobs, err := pipeline.Plan(tb.Makruk, []tb.Material{tb.MustParseMaterial("KRvK")}, nil)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	if err := r.Run(context.Background(), jobs); err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	if tables, err = probe.Open(dir); err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return tables, func() { tables.Close(); os.RemoveAll(dir) }, nil
}

// The root probe: a position judged under the count its FEN gives ("-":
// the count starts now), each move judged by the position after it, and
// the best move under the count.
func ExampleTables_Root() {
	tables, done, err := openKRvK()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()
	pos, _ := tb.ParseFEN("8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	root, err := tables.Root(&pos, &honour.ThaiRules)
	if err != nil {
		fmt.Println(err)
		return
	}
	j := root.Position
	fmt.Println(j.Value, j.Category, j.Count.Kind, j.Count.Limit)
	best := root.Moves[root.Best]
	fmt.Println("best", best.Move, best.After.Category.Opposite(), "of", len(root.Moves), "moves")
	// Output:
	// win in 31 plies cursed-win pieces 32
	// best b2b1 cursed-win of 16 moves
}

// The count-aware optimal line: both sides play their best move under the
// running count until mate; each move carries the count after it.
func ExampleTables_JudgedLine() {
	tables, done, err := openKRvK()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer done()
	pos, _ := tb.ParseFEN("8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
	line, err := tables.JudgedLine(&pos, &honour.ThaiRules)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range line[:3] {
		fmt.Println(m.Move, m.After.Value, m.After.Count.Ply, "of", m.After.Count.Limit)
	}
	last := line[len(line)-1]
	fmt.Println(len(line), "plies, ending in", last.Move, last.After.Value)
	// Output:
	// b2b1 loss in 30 plies 6 of 32
	// c3c2 win in 29 plies 7 of 32
	// b1f1 loss in 28 plies 8 of 32
	// 31 plies, ending in c4c8 loss in 0 plies
}

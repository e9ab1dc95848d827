package pipeline_test

import (
	"context"
	"fmt"
	"os"

	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/store"
	"github.com/makruktb/makruktb/tb"
)

// Generating KRvK into a directory and probing it: the plan says what to
// make (sub-tables first; KRvK needs none but KvK, a known draw without a
// table), the runner makes it and holds it to the reference checksums.
func ExampleRunner() {
	dir, err := os.MkdirTemp("", "tables")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	jobs, err := pipeline.Plan(tb.Makruk, []tb.Material{tb.MustParseMaterial("KRvK")}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range jobs {
		fmt.Println("plan:", j.ID)
	}
	r := &pipeline.Runner{Dir: dir, Threads: 2, Verify: true, Reference: store.RepositoryReferences()}
	if err := r.Run(context.Background(), jobs); err != nil {
		fmt.Println(err)
		return
	}
	tables, err := probe.Open(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tables.Close()
	pos, _ := tb.ParseFEN("8/8/8/3k4/8/8/8/KR6 w - - 0 1")
	v, err := tables.Value(&pos)
	fmt.Println(pos.FEN(), v, err)
	// Output:
	// plan: KRvK
	// 8/8/8/3k4/8/8/8/KR6 w - - 0 1 win in 29 plies <nil>
}

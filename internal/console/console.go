// Package console shows the work of the pipeline on a terminal: what
// became of each table on standard output, remarks on standard error, and
// the passes of the table at work as a progress bar when standard error
// is a terminal.
package console

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/makruktb/makruktb/pipeline"
	"github.com/makruktb/makruktb/retro"
)

// Printer shows a run of the pipeline: what became of each table on
// standard output, remarks and --timings on standard error, and the
// passes of the table at work as a progress bar when standard error is a
// terminal.
type Printer struct {
	Out, ErrOut io.Writer
	Timings     bool // print how long each stage of each table took (on ErrOut)
	bar         *bar
}

func (p *Printer) Start(name string) { p.bar = newBar(name) }

func (p *Printer) Progress(pr retro.Progress) { p.bar.update(pr) }

func (p *Printer) Stop() { p.bar.finish() }

func (p *Printer) Print(line string) { fmt.Fprintln(p.Out, line) }

func (p *Printer) Log(line string) {
	p.bar.clear() // the bar redraws below the line
	fmt.Fprintln(p.ErrOut, line)
}

func (p *Printer) Made(r pipeline.Result) {
	fmt.Fprintln(p.Out, r.Summary.Line())
	if p.Timings {
		fmt.Fprintf(p.ErrOut, "%-27s %s\n", r.Job.ID, r.Timings)
	}
}

// bar shows the progress of one table's passes on stderr when it is a
// terminal.
type bar struct {
	mu    sync.Mutex
	name  string
	pb    *progressbar.ProgressBar
	stage retro.Stage
	depth int
}

func newBar(name string) *bar {
	b := &bar{name: name}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		b.pb = progressbar.NewOptions64(1,
			progressbar.OptionSetWriter(os.Stderr),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(),
		)
	}
	return b
}

// clear takes the bar off its line, for a line of text.
func (b *bar) clear() {
	if b == nil || b.pb == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.pb.Clear()
}

func (b *bar) update(p retro.Progress) {
	if b == nil || b.pb == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if p.Stage != b.stage || p.Depth != b.depth {
		b.stage, b.depth = p.Stage, p.Depth
		b.pb.Reset()
		b.pb.ChangeMax64(p.Total)
		desc := fmt.Sprintf("%s %s", b.name, p.Stage)
		if p.Stage == retro.StageIterate {
			desc = fmt.Sprintf("%s mates in %d plies", b.name, p.Depth)
		}
		b.pb.Describe(desc)
	}
	_ = b.pb.Set64(p.Done)
}

func (b *bar) finish() {
	if b != nil && b.pb != nil {
		_ = b.pb.Finish()
		_ = b.pb.Clear()
	}
}

package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Adapter stands between a UCI client (a GUI, a match runner) and a wrapped
// engine. It forwards every command and relays every line of the engine's
// output, except that it answers "go" itself, at once, when the position
// is in the tables: the best move under the count, with "info depth 1
// score mate N" (the side to move mates in N moves inside the count),
// "score mate -N", or "score cp 0" for a draw, a count draw included.
type Adapter struct {
	Engine *Engine
	Oracle *Oracle
	// Out receives the client's lines; Log, when not nil, one line for
	// each position the adapter could not follow.
	Out io.Writer
	Log io.Writer

	outMu   sync.Mutex
	dialect *Dialect // the UCI_Variant's, nil when the tables do not model it
	game    *Game    // the current position, nil when unknown
	pending string   // a bestmove held back until stop (go infinite, go ponder)

	// The engine answers every isready with a readyok, in order: readyOwn
	// says for each one still to come whether the adapter asked (to know
	// that the engine's output up to then has been relayed) rather than
	// the client; synced receives the adapter's.
	readyMu  sync.Mutex
	readyOwn []bool
	synced   chan struct{}
	relayed  chan struct{} // closed when the engine's output has ended
}

// Run serves the client's commands from in until "quit", the end of in or
// the end of ctx, and returns an *ExitError if the engine exits before.
func (a *Adapter) Run(ctx context.Context, in io.Reader) error {
	commands := make(chan string)
	go func() {
		defer close(commands)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case commands <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	a.synced, a.relayed = make(chan struct{}, 1), make(chan struct{})
	relayed := a.relayed
	go a.relay()
	for {
		select {
		case <-ctx.Done():
			a.Engine.Close()
			return ctx.Err()
		case <-relayed:
			<-a.Engine.Done()
			return a.Engine.ExitErr()
		case line, ok := <-commands:
			if !ok {
				a.finish()
				return nil
			}
			quit, err := a.handle(line)
			if quit {
				a.finish()
				return nil
			}
			if err != nil {
				var exit *ExitError
				if errors.As(err, &exit) {
					<-relayed
					<-a.Engine.Done()
					return a.Engine.ExitErr()
				}
				return err
			}
		}
	}
}

// finish ends a session on quit or the end of the client's input: the
// engine is told to quit and everything it wrote before it did reaches
// the client (a GUI or a script piping "uci, isready, quit" expects the
// engine's every line), unless it takes longer than a few seconds.
func (a *Adapter) finish() {
	a.Engine.CloseInput()
	select {
	case <-a.relayed:
	case <-time.After(quitGrace):
	}
	a.Engine.Close()
}

// quitGrace is how long an engine told to quit may take to finish.
const quitGrace = 3 * time.Second

// relay copies the engine's output to the client, but for the readyok
// answers to the adapter's own isready.
func (a *Adapter) relay() {
	defer close(a.relayed)
	for line := range a.Engine.Lines() {
		if line == "readyok" {
			a.readyMu.Lock()
			own := len(a.readyOwn) > 0 && a.readyOwn[0]
			if len(a.readyOwn) > 0 {
				a.readyOwn = a.readyOwn[1:]
			}
			a.readyMu.Unlock()
			if own {
				a.synced <- struct{}{}
				continue
			}
		}
		a.println(line)
	}
}

// sync waits until the engine has answered every command sent so far,
// and its output has been relayed: so the tables' answer comes after it.
func (a *Adapter) sync() error {
	a.expectReady(true)
	if err := a.Engine.Send("isready"); err != nil {
		return err
	}
	select {
	case <-a.synced:
		return nil
	case <-a.relayed:
		<-a.Engine.Done()
		return a.Engine.ExitErr()
	}
}

func (a *Adapter) expectReady(own bool) {
	a.readyMu.Lock()
	defer a.readyMu.Unlock()
	a.readyOwn = append(a.readyOwn, own)
}

func (a *Adapter) println(line string) {
	a.outMu.Lock()
	defer a.outMu.Unlock()
	fmt.Fprintln(a.Out, line)
}

func (a *Adapter) logf(format string, args ...any) {
	if a.Log != nil {
		fmt.Fprintf(a.Log, "makruktb uci: "+format+"\n", args...)
	}
}

// handle serves one command line; it reports whether it was quit.
func (a *Adapter) handle(line string) (quit bool, err error) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return false, nil
	}
	switch words[0] {
	case "quit":
		// A search held back (go infinite) ends with its bestmove, as
		// Fairy-Stockfish's own does on quit.
		if a.pending != "" {
			a.println(a.pending)
			a.pending = ""
		}
		return true, a.Engine.Send(line)
	case "isready":
		a.expectReady(false)
	case "setoption":
		if name, v, ok := optionOf(words[1:]); ok && strings.EqualFold(name, "UCI_Variant") {
			a.dialect, _ = DialectOf(v)
			a.game = nil
		}
	case "ucinewgame":
		a.game = nil
	case "position":
		a.game = nil
		if a.dialect != nil {
			g, err := a.dialect.ParsePosition(strings.Join(words[1:], " "))
			if err != nil {
				a.logf("%v: the engine answers", err)
			} else {
				a.game = g
			}
		}
	case "go":
		if answered, err := a.answer(words[1:]); answered || err != nil {
			return false, err
		}
	case "stop", "ponderhit":
		if a.pending != "" {
			a.println(a.pending)
			a.pending = ""
			return false, nil
		}
	}
	return false, a.Engine.Send(line)
}

// answer answers a go command from the tables when it can.
func (a *Adapter) answer(args []string) (bool, error) {
	hold := false
	for _, w := range args {
		switch w {
		case "perft", "searchmoves":
			return false, nil
		case "infinite", "ponder":
			hold = true
		}
	}
	if a.game == nil || !a.Oracle.Covers(a.game) {
		return false, nil
	}
	ans, err := a.Oracle.Scored(a.game)
	if err != nil {
		a.logf("%s: %v: the engine answers", a.game.FEN(), err)
		return false, nil
	}
	if err := a.sync(); err != nil {
		return false, err
	}
	a.println(fmt.Sprintf("info depth 1 seldepth 1 multipv 1 score %s nodes 1 time 0 pv %s", ans.Score(), ans.Move))
	best := "bestmove " + ans.Move.String()
	if hold {
		a.pending = best
	} else {
		a.println(best)
	}
	return true, nil
}

// optionOf reads "name N… value V…" of a setoption command.
func optionOf(words []string) (name, v string, ok bool) {
	if len(words) < 2 || words[0] != "name" {
		return "", "", false
	}
	i := 1
	for i < len(words) && words[i] != "value" {
		i++
	}
	name = strings.Join(words[1:i], " ")
	if i < len(words) {
		v = strings.Join(words[i+1:], " ")
	}
	return name, v, true
}

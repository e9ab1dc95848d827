package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Engine is a UCI engine running as a child process: lines go in on its
// standard input and come out of its standard output.
type Engine struct {
	argv  []string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	done  chan struct{} // closed when the process has exited
	err   error         // how it exited, set before done closes

	mu     sync.Mutex
	closed bool
}

// ExitError says that the engine exited when it was still needed.
type ExitError struct {
	Engine string
	Err    error // the exit status, nil for status 0
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("engine %s exited", e.Engine)
	}
	return fmt.Sprintf("engine %s exited: %v", e.Engine, e.Err)
}

func (e *ExitError) Unwrap() error { return e.Err }

// StartEngine starts the engine command argv (program and arguments). Its
// standard error goes to stderr when that is not nil.
func StartEngine(argv []string, stderr io.Writer) (*Engine, error) {
	if len(argv) == 0 {
		return nil, errors.New("no engine command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting engine: %w", err)
	}
	e := &Engine{argv: argv, cmd: cmd, stdin: stdin, lines: make(chan string, 64), done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			e.lines <- strings.TrimRight(sc.Text(), "\r")
		}
		close(e.lines)
		e.err = cmd.Wait()
		close(e.done)
	}()
	return e, nil
}

// Name returns the engine's command line.
func (e *Engine) Name() string { return strings.Join(e.argv, " ") }

// Lines returns the engine's output, a line at a time; it is closed when
// the engine exits.
func (e *Engine) Lines() <-chan string { return e.lines }

// Done is closed when the engine has exited.
func (e *Engine) Done() <-chan struct{} { return e.done }

// ExitErr returns how the engine exited; call it after Done is closed.
func (e *Engine) ExitErr() error { return &ExitError{Engine: e.Name(), Err: e.err} }

// Send writes a line to the engine.
func (e *Engine) Send(line string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return &ExitError{Engine: e.Name(), Err: errors.New("already closed")}
	}
	if _, err := io.WriteString(e.stdin, line+"\n"); err != nil {
		return &ExitError{Engine: e.Name(), Err: err}
	}
	return nil
}

// CloseInput tells the engine to quit and closes its input; its output
// goes on to Lines until it exits.
func (e *Engine) CloseInput() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
		io.WriteString(e.stdin, "quit\n") //nolint:errcheck // it may be gone already
		e.stdin.Close()
		e.closed = true
	}
}

// Close asks the engine to quit and waits a moment for it, then kills it.
// Its output from then on is dropped.
func (e *Engine) Close() {
	e.CloseInput()
	go func() { // drain, so that the reader can finish
		for range e.lines {
		}
	}()
	select {
	case <-e.done:
	case <-time.After(3 * time.Second):
		e.cmd.Process.Kill() //nolint:errcheck // it is exiting anyway
		<-e.done
	}
}

// Expect reads the engine's lines until one for which match returns
// true, and returns it; every line read goes to seen when it is not nil.
// It fails when the engine exits, ctx ends or the timeout passes.
func (e *Engine) Expect(ctx context.Context, timeout time.Duration, match func(string) bool, seen func(string)) (string, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				<-e.done
				return "", e.ExitErr()
			}
			if seen != nil {
				seen(line)
			}
			if match(line) {
				return line, nil
			}
		case <-timer.C:
			return "", fmt.Errorf("engine %s: no answer within %v", e.Name(), timeout)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// Handshake starts a UCI session: uci, options, isready.
func (e *Engine) Handshake(ctx context.Context, options map[string]string) error {
	if err := e.Send("uci"); err != nil {
		return err
	}
	if _, err := e.Expect(ctx, 30*time.Second, func(l string) bool { return l == "uciok" }, nil); err != nil {
		return err
	}
	for name, v := range options {
		if err := e.Send("setoption name " + name + " value " + v); err != nil {
			return err
		}
	}
	return e.Ready(ctx)
}

// Ready sends isready and waits for readyok.
func (e *Engine) Ready(ctx context.Context) error {
	if err := e.Send("isready"); err != nil {
		return err
	}
	_, err := e.Expect(ctx, 30*time.Second, func(l string) bool { return l == "readyok" }, nil)
	return err
}

// BestMove sets a position ("startpos …" or "fen … moves …"), searches
// for movetime and returns the engine's best move and the last info line
// with a score.
func (e *Engine) BestMove(ctx context.Context, position string, movetime time.Duration) (move, info string, err error) {
	if err := e.Send("position " + position); err != nil {
		return "", "", err
	}
	if err := e.Send(fmt.Sprintf("go movetime %d", movetime.Milliseconds())); err != nil {
		return "", "", err
	}
	line, err := e.Expect(ctx, movetime+30*time.Second, func(l string) bool { return strings.HasPrefix(l, "bestmove") }, func(l string) {
		if strings.HasPrefix(l, "info") && strings.Contains(l, " score ") {
			info = l
		}
	})
	if err != nil {
		return "", info, err
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		return "", info, fmt.Errorf("engine %s: %q names no move", e.Name(), line)
	}
	return f[1], info, nil
}

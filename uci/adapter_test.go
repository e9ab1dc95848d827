package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/makruktb/makruktb/internal/longtest"
	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/stretchr/testify/require"
)

// fakeEngine is a UCI engine for the adapter's tests (the test binary run
// with $MAKRUKTB_FAKE_ENGINE): it echoes every command as an info string,
// answers uci and isready, and answers go with bestmove a1a2 — or exits
// with status 3 when $MAKRUKTB_FAKE_ENGINE is "die".
func fakeEngine() {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Text()
		fmt.Printf("info string got %s\n", line)
		switch {
		case line == "uci":
			fmt.Println("id name fake engine")
			fmt.Println("uciok")
		case line == "isready":
			fmt.Println("readyok")
		case strings.HasPrefix(line, "go"):
			if os.Getenv("MAKRUKTB_FAKE_ENGINE") == "die" {
				os.Exit(3)
			}
			fmt.Println("info depth 3 score cp 7")
			fmt.Println("bestmove a1a2")
		case line == "quit":
			return
		}
	}
}

// lines collects the adapter's output and waits for lines in it.
type lines struct {
	mu   sync.Mutex
	text []string
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.text = append(l.text, strings.Split(strings.TrimRight(string(p), "\n"), "\n")...)
	return len(p), nil
}

// waitFor waits until a line with that prefix has come after line from,
// and returns its index.
func (l *lines) waitFor(t *testing.T, from int, prefix string) int {
	t.Helper()
	deadline := time.Now().Add(testenv.Patience(t))
	for time.Now().Before(deadline) {
		l.mu.Lock()
		for i := from; i < len(l.text); i++ {
			if strings.HasPrefix(l.text[i], prefix) {
				l.mu.Unlock()
				return i
			}
		}
		l.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t.Fatalf("no %q after line %d in:\n%s", prefix, from, strings.Join(l.text, "\n"))
	return 0
}

func (l *lines) since(from int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.text[from:], "\n")
}

// startAdapter runs an adapter around the fake engine (mode: "ok" or
// "die"); it returns the client's pipe, the output and Run's result.
func startAdapter(t *testing.T, mode string) (io.WriteCloser, *lines, <-chan error) {
	t.Setenv("MAKRUKTB_FAKE_ENGINE", mode)
	e, err := StartEngine([]string{os.Args[0]}, nil)
	require.NoError(t, err)
	in, client := io.Pipe()
	out := &lines{}
	a := &Adapter{Engine: e, Oracle: &Oracle{Tables: testenv.OpenTables(t, "KRvK")}, Out: out}
	done := make(chan error, 1)
	go func() { done <- a.Run(context.Background(), in) }()
	t.Cleanup(func() { client.Close(); e.Close() })
	return client, out, done
}

func send(t *testing.T, w io.Writer, line string) {
	t.Helper()
	_, err := io.WriteString(w, line+"\n")
	require.NoError(t, err)
}

// The adapter forwards everything, answers go itself in a table position
// of a variant the tables model (at once, without the engine), holds its
// answer to go infinite until stop, and ends on quit.
func TestAdapter(t *testing.T) {
	client, out, done := startAdapter(t, "ok")
	send(t, client, "uci")
	out.waitFor(t, 0, "id name fake engine")
	out.waitFor(t, 0, "uciok")
	send(t, client, "isready")
	out.waitFor(t, 0, "readyok")

	// No UCI_Variant yet: Fairy-Stockfish would play chess; the engine answers.
	send(t, client, "position fen k7/8/1K6/8/8/8/8/7R w - - 0 1")
	send(t, client, "go movetime 10")
	n := out.waitFor(t, 0, "info string got go movetime 10")
	out.waitFor(t, n, "bestmove a1a2")

	send(t, client, "setoption name UCI_Variant value makruk")
	n = out.waitFor(t, n, "info string got setoption name UCI_Variant value makruk")
	send(t, client, "position fen k7/8/1K6/8/8/8/8/7R w - - 0 1")
	send(t, client, "go wtime 1000 btime 1000")
	m := out.waitFor(t, n, "bestmove")
	require.Contains(t, out.since(n), "info depth 1 seldepth 1 multipv 1 score mate 1 nodes 1 time 0 pv h1h8")
	require.Contains(t, out.since(m), "bestmove h1h8")
	require.NotContains(t, out.since(n), "got go", "the tables answered, not the engine")

	// The count kept through the moves: after Black's king move the rook
	// mates at once.
	send(t, client, "position fen 1k6/8/1K6/8/8/8/8/7R b - - 0 1 moves b8a8")
	send(t, client, "go infinite")
	m = out.waitFor(t, m+1, "info depth 1")
	require.Contains(t, out.since(m), "score mate 1")
	require.NotContains(t, out.since(m), "bestmove", "go infinite waits for stop")
	send(t, client, "stop")
	out.waitFor(t, m, "bestmove h1h8")

	// Pawns: the engine answers.
	send(t, client, "position fen k7/8/1K6/8/8/1P6/8/7R w - - 0 1")
	send(t, client, "go movetime 10")
	m = out.waitFor(t, m, "info string got go movetime 10")
	out.waitFor(t, m, "bestmove a1a2")

	// A move that is not legal: the adapter cannot follow, the engine answers.
	send(t, client, "position fen k7/8/1K6/8/8/8/8/7R w - - 0 1 moves h1h1")
	send(t, client, "go depth 3")
	m = out.waitFor(t, m, "info string got go depth 3")
	out.waitFor(t, m, "bestmove a1a2")

	// The adapter's own isready, sent so that its answers come after the
	// engine's output, is not relayed: only the client's readyok is.
	require.Equal(t, 1, strings.Count(out.since(0), "readyok"), out.since(0))

	// quit during go infinite: the held bestmove comes first (issue 58.11).
	send(t, client, "position fen k7/8/1K6/8/8/8/8/7R w - - 0 1")
	send(t, client, "go infinite")
	m = out.waitFor(t, m+1, "info depth 1")
	require.NotContains(t, out.since(m), "bestmove")
	send(t, client, "quit")
	select {
	case err := <-done:
		require.NoError(t, err)
		require.Contains(t, out.since(m), "bestmove h1h8")
	case <-time.After(testenv.Patience(t)):
		t.Fatal("the adapter did not end on quit")
	}
}

// An engine that dies ends the adapter with an *ExitError that says so,
// rather than leaving the client waiting.
func TestAdapterEngineDies(t *testing.T) {
	client, out, done := startAdapter(t, "die")
	send(t, client, "uci")
	out.waitFor(t, 0, "uciok")
	send(t, client, "position startpos")
	send(t, client, "go movetime 10")
	select {
	case err := <-done:
		var exit *ExitError
		require.True(t, errors.As(err, &exit), "%v", err)
		require.Contains(t, err.Error(), "exit status 3")
	case <-time.After(testenv.Patience(t)):
		t.Fatal("the adapter hangs when its engine dies")
	}
}

// A client that pipes its commands and ends at once ("uci", "isready",
// "quit", or the end of its input) gets every line the engine wrote
// before it quit: 200 sessions each with the fake engine and 20 with
// Fairy-Stockfish, 200 in make test-long (issue 37: the adapter once dropped all but 2 of
// Fairy-Stockfish's 31 lines in such a session).
func TestQuitRelaysEverything(t *testing.T) {
	oracle := &Oracle{Tables: testenv.OpenTables(t, "KRvK")}
	session := func(argv []string, input string) []string {
		e, err := StartEngine(argv, nil)
		require.NoError(t, err)
		out := &lines{}
		a := &Adapter{Engine: e, Oracle: oracle, Out: out}
		require.NoError(t, a.Run(context.Background(), strings.NewReader(input)))
		return out.text
	}
	t.Setenv("MAKRUKTB_FAKE_ENGINE", "ok")
	fake := []string{"info string got uci", "id name fake engine", "uciok", "info string got isready", "readyok", "info string got quit"}
	for i := range 200 {
		input := "uci\nisready\nquit\n"
		if i%2 == 1 {
			input = "uci\nisready\n" // the end of input quits too
		}
		require.Equal(t, fake, session([]string{os.Args[0]}, input), "session %d", i)
	}

	fs := testenv.FairyStockfish(t, "")
	want := session([]string{fs}, "uci\nisready\nquit\n")
	require.Greater(t, len(want), 20, "Fairy-Stockfish's answer to uci: %q", want)
	require.Equal(t, "readyok", want[len(want)-1])
	for i := range longtest.Runs(20, 200) {
		require.Equal(t, want, session([]string{fs}, "uci\nisready\nquit\n"), "session %d", i)
	}
}

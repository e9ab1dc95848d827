package match

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/makruktb/makruktb/internal/testenv"
	"github.com/makruktb/makruktb/probe"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/uci"
)

// The test binary is also the engine the tests play: with
// $MAKRUKTB_MATCH_ENGINE=first a weak engine that plays its first legal
// move, with =adapter that engine behind the adapter, reading the tables
// in $MAKRUKTB_MATCH_TABLES.
func TestMain(m *testing.M) {
	switch os.Getenv("MAKRUKTB_MATCH_ENGINE") {
	case "first":
		firstMoveEngine()
		return
	case "adapter":
		os.Exit(adapterEngine())
	}
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}

func firstMoveEngine() {
	d, _ := uci.DialectOf("makruk")
	var g *uci.Game
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "uci":
			fmt.Println("id name first move\nuciok")
		case line == "isready":
			fmt.Println("readyok")
		case strings.HasPrefix(line, "position "):
			g, _ = d.ParsePosition(strings.TrimPrefix(line, "position "))
		case strings.HasPrefix(line, "go"):
			var l tb.MoveList
			g.Pos.LegalMoves(&l)
			fmt.Printf("bestmove %v\n", l.Moves[0])
		case line == "quit":
			return
		}
	}
}

func adapterEngine() int {
	tables, err := probe.Open(os.Getenv("MAKRUKTB_MATCH_TABLES"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv("MAKRUKTB_MATCH_ENGINE", "first")
	e, err := uci.StartEngine([]string{os.Args[0]}, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	a := &uci.Adapter{Engine: e, Oracle: &uci.Oracle{Tables: tables}, Out: os.Stdout, Log: os.Stderr}
	if err := a.Run(context.Background(), os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func config(t *testing.T, engine string, tables *probe.Tables) Config {
	t.Setenv("MAKRUKTB_MATCH_ENGINE", engine)
	t.Setenv("MAKRUKTB_MATCH_TABLES", tables.Dir())
	d, _ := uci.DialectOf("makruk")
	return Config{Engine: []string{os.Args[0]}, Oracle: &uci.Oracle{Tables: tables}, Dialect: d, MoveTime: 10 * time.Millisecond, Seed: 3}
}

// Sample draws distinct positions of the asked result under their fresh
// count, written in the FEN's count fields.
func TestSample(t *testing.T) {
	tables := testenv.OpenTables(t, "KRvK", "KRvKN")
	d, _ := uci.DialectOf("makruk")
	o := &uci.Oracle{Tables: tables}
	for _, c := range []struct {
		material string
		mode     Mode
		want     honour.Category
		count    string
	}{
		{"KRvK", Convert, honour.Win, " w - 32 5 1"},
		{"KRvK", Hold, honour.BlessedLoss, " b - 32 6 1"},
		{"KRvKN", Convert, honour.Win, " w - 128 0 1"},
		{"KRvKN", Hold, honour.BlessedLoss, " b - 128 0 1"},
	} {
		t.Run(c.material+"/"+c.count, func(t *testing.T) {
			fens, err := Sample(o, d, tb.MustParseMaterial(c.material), c.mode, 15, 1)
			require.NoError(t, err)
			require.Len(t, fens, 15)
			seen := map[string]bool{}
			for _, fen := range fens {
				require.False(t, seen[fen], fen)
				seen[fen] = true
				require.True(t, strings.HasSuffix(fen, c.count), fen)
				g, err := d.NewGame(fen)
				require.NoError(t, err)
				cat, err := o.Judge(g)
				require.NoError(t, err)
				require.Equal(t, c.want, cat, fen)
			}
		})
	}
}

// Behind the adapter even an engine that plays its first legal move
// converts and holds every game; alone it fails, and each failure names
// the move that lost the result.
func TestPlay(t *testing.T) {
	tables := testenv.OpenTables(t, "KRvK", "KRvKN")
	for _, engine := range []string{"adapter", "first"} {
		cfg := config(t, engine, tables)
		pl, err := NewPlayer(context.Background(), cfg)
		require.NoError(t, err)
		failed := 0
		for _, name := range []string{"KRvK", "KRvKN"} {
			m := tb.MustParseMaterial(name)
			for _, mode := range []Mode{Convert, Hold} {
				fens, err := Sample(cfg.Oracle, cfg.Dialect, m, mode, 6, 2)
				require.NoError(t, err)
				for _, fen := range fens {
					g, err := pl.Play(context.Background(), m, mode, fen)
					require.NoError(t, err)
					if engine == "adapter" {
						require.True(t, g.OK, "%s %s: %s", engine, mode, g.Failure())
					}
					if !g.OK {
						failed++
						require.GreaterOrEqual(t, g.Slip, 0, g.Failure())
						require.Contains(t, g.Failure(), g.Moves[g.Slip])
					}
					if g.OK && mode == Convert {
						require.Equal(t, "mate", g.Ending)
					}
				}
			}
		}
		if engine == "first" {
			require.Greater(t, failed, 0, "the first legal move does not convert everything")
		}
		pl.Close()
	}
}

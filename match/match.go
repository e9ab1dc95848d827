// Package match plays an engine against the tables from positions the
// tables have solved, with the honour count running, and reports how
// often the engine gets the result the tables say it can: a win inside the
// count from a position won inside a fresh count (convert), or a draw from
// a position where the count saves the side that would be mated (hold).
//
// The tables play the other side: the longest defence, or the quickest
// mate, by the count (probe.BestJudged). The count is kept as
// Fairy-Stockfish keeps it (package uci), and the engine is given each
// position as a GUI gives it: the start FEN with its count fields and the
// moves since.
package match

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
	"github.com/makruktb/makruktb/uci"
)

// Mode is what the engine is asked to do.
type Mode int

const (
	// Convert: the engine has a position won inside a fresh count and
	// must mate before the count runs out.
	Convert Mode = iota
	// Hold: the engine's king would be mated but the count runs out
	// first (a blessed loss); it must not let the mate come sooner.
	Hold
)

func (m Mode) String() string {
	if m == Hold {
		return "hold"
	}
	return "convert"
}

// maxTries bounds the random placements Sample tries.
const maxTries = 1000000

// maxPlies bounds a game: no count allows one this long.
const maxPlies = 1000

// Config says what to play.
type Config struct {
	// Engine is the engine's command line (program and arguments).
	Engine []string
	// Options are set on the engine after the handshake (UCI_Variant is
	// set from Dialect).
	Options  map[string]string
	Oracle   *uci.Oracle
	Dialect  *uci.Dialect
	MoveTime time.Duration
	Seed     uint64
}

// Game is one game's record.
type Game struct {
	Material tb.Material
	Mode     Mode
	Start    string   // the start FEN, count fields included
	Moves    []string // every move played, in UCI notation
	OK       bool     // converted, or held
	// Ending is how the game ended: "mate", "count" (the count ran out),
	// "stalemate", "repetition" or "bare kings".
	Ending string
	// Slip is the ply (from 0) of the engine's first move after which the
	// tables no longer give it its goal, or -1; SlipTo is what the
	// position then was for the engine.
	Slip   int
	SlipTo honour.Category
}

// Failure describes a failed game in a line, "" for a good one.
func (g *Game) Failure() string {
	if g.OK {
		return ""
	}
	s := fmt.Sprintf("%s: ended by %s after %d moves", g.Start, g.Ending, (len(g.Moves)+1)/2)
	if g.Slip >= 0 {
		s += fmt.Sprintf("; the engine's move %d, %s, left it a %s", g.Slip/2+1, g.Moves[g.Slip], g.SlipTo)
	}
	return s
}

// Sample returns n start positions of material m for mode, drawn at random
// (seeded) among the legal placements whose side to move is the engine's:
// for Convert won inside a fresh count, for Hold a blessed loss under it.
// Each comes as a FEN with the count fields of the fresh count, as
// Fairy-Stockfish reads them. It returns fewer than n when the material
// has too few such positions to find them by chance.
func Sample(o *uci.Oracle, d *uci.Dialect, m tb.Material, mode Mode, n int, seed uint64) ([]string, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(m.Pieces())<<8|uint64(mode)))
	side, want := tb.White, honour.Win
	if mode == Hold {
		side, want = tb.Black, honour.BlessedLoss
	}
	var out []string
	seen := map[string]bool{}
	for tries := 0; len(out) < n; tries++ {
		if tries >= maxTries {
			return out, nil
		}
		p, ok := tb.RandomPosition(rng, m, side)
		if !ok {
			continue
		}
		fen := freshFEN(&p, &d.Rules)
		if seen[fen] {
			continue
		}
		g, err := d.NewGame(fen)
		if err != nil || !o.Covers(g) {
			continue
		}
		cat, err := o.Judge(g)
		if err != nil {
			return out, err
		}
		if cat == want {
			seen[fen] = true
			out = append(out, fen)
		}
	}
	return out, nil
}

// freshFEN returns p's FEN with the fresh count of rules r in its count
// fields ("-" when the count starts only after the move).
func freshFEN(p *tb.Position, r *honour.Rules) string {
	c := r.FreshCount(p)
	q := *p
	q.CountLimit, q.CountPly = tb.NoCount, 0
	if c.Kind != honour.NoCountKind && c.Started() {
		q.CountLimit, q.CountPly = c.Limit, c.Ply
	}
	return q.FEN()
}

// Player plays games against one engine process.
type Player struct {
	cfg    Config
	engine *uci.Engine
}

// NewPlayer starts the engine and sets its variant.
func NewPlayer(ctx context.Context, cfg Config) (*Player, error) {
	e, err := uci.StartEngine(cfg.Engine, nil)
	if err != nil {
		return nil, err
	}
	opts := map[string]string{"UCI_Variant": cfg.Dialect.Variant}
	for k, v := range cfg.Options {
		opts[k] = v
	}
	if err := e.Handshake(ctx, opts); err != nil {
		e.Close()
		return nil, err
	}
	return &Player{cfg: cfg, engine: e}, nil
}

// Close ends the engine.
func (pl *Player) Close() { pl.engine.Close() }

// Play plays one game from fen, the engine moving first. An error means
// the engine or the tables failed, not the game.
func (pl *Player) Play(ctx context.Context, m tb.Material, mode Mode, fen string) (Game, error) {
	game := Game{Material: m, Mode: mode, Start: fen, Slip: -1}
	d, o := pl.cfg.Dialect, pl.cfg.Oracle
	g, err := d.NewGame(fen)
	if err != nil {
		return game, err
	}
	if err := pl.engine.Send("ucinewgame"); err != nil {
		return game, err
	}
	if err := pl.engine.Ready(ctx); err != nil {
		return game, err
	}
	engineSide := g.Pos.Side
	goal := honour.Win
	if mode == Hold {
		goal = honour.BlessedLoss
	}
	seen := map[string]int{}
	for ply := 0; ; ply++ {
		if ending, over := gameOver(g, seen); over {
			game.Ending = ending
			engineMated := ending == "mate" && g.Pos.Side == engineSide
			if mode == Convert {
				game.OK = ending == "mate" && !engineMated
			} else {
				game.OK = !engineMated
			}
			return game, nil
		}
		if ply >= maxPlies {
			return game, fmt.Errorf("%s: no end after %d plies", fen, maxPlies)
		}
		var mv string
		if g.Pos.Side == engineSide {
			position := "fen " + fen
			if len(game.Moves) > 0 {
				position += " moves " + strings.Join(game.Moves, " ")
			}
			mv, _, err = pl.engine.BestMove(ctx, position, pl.cfg.MoveTime)
			if err != nil {
				return game, err
			}
			if err := g.Play(mv); err != nil {
				return game, fmt.Errorf("engine %s: %w", pl.engine.Name(), err)
			}
			if game.Slip < 0 {
				cat, err := judgeAfter(o, g)
				if err != nil {
					return game, err
				}
				if mover := cat.Opposite(); mover < goal {
					game.Slip, game.SlipTo = ply, mover
				}
			}
		} else {
			ans, err := o.Best(g)
			if err != nil {
				return game, err
			}
			mv = ans.Move.String()
			g.PlayMove(ans.Move)
		}
		game.Moves = append(game.Moves, mv)
	}
}

// judgeAfter judges g for its side to move; a game at its end is judged
// by how it ended.
func judgeAfter(o *uci.Oracle, g *uci.Game) (honour.Category, error) {
	if tb.MaterialOf(&g.Pos).Pieces() == 2 {
		return honour.Draw, nil
	}
	return o.Judge(g)
}

// gameOver says whether and how the game has ended: mate, stalemate, the
// count run out, bare kings, or a position on the board for the third
// time (seen counts them).
func gameOver(g *uci.Game, seen map[string]int) (string, bool) {
	switch {
	case g.Pos.IsCheckmate():
		return "mate", true
	case !g.Pos.HasLegalMove():
		return "stalemate", true
	case g.Count.Expired():
		return "count", true
	case tb.MaterialOf(&g.Pos).Pieces() == 2:
		return "bare kings", true
	}
	key := g.Pos.BoardFEN() + " " + g.Pos.Side.String()
	seen[key]++
	if seen[key] >= 3 {
		return "repetition", true
	}
	return "", false
}

// Tally is the result of one material and mode.
type Tally struct {
	Material tb.Material
	Mode     Mode
	Games    []Game
}

// OK returns the number of games converted (or held).
func (t *Tally) OK() int {
	n := 0
	for _, g := range t.Games {
		if g.OK {
			n++
		}
	}
	return n
}

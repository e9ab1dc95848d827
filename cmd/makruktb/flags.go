package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/retro"
	"github.com/makruktb/makruktb/tb"
	"github.com/makruktb/makruktb/tb/honour"
)

// threadsFlag is a --threads value, checked when the flag is parsed: 1 to
// retro.MaxThreads workers, or 0 for every core.
type threadsFlag int

func (t *threadsFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > retro.MaxThreads {
		return fmt.Errorf("want 1 to %d threads, or 0 for every core", retro.MaxThreads)
	}
	*t = threadsFlag(n)
	return nil
}

func (t *threadsFlag) String() string { return strconv.Itoa(int(*t)) }
func (t *threadsFlag) Type() string   { return "N" }

// addThreadsFlag adds --threads, 0 (every core) by default.
func addThreadsFlag(cmd *cobra.Command, threads *int) {
	cmd.Flags().Var((*threadsFlag)(threads), "threads", fmt.Sprintf("worker threads, 1 to %d (default: every core)", retro.MaxThreads))
}

func addTablesFlag(cmd *cobra.Command, dir *string) {
	cmd.Flags().StringVar(dir, "tables", "", "table directory (default $MAKRUKTB_PATH, else ./data)")
}

func addGameFlag(cmd *cobra.Command, game *string) {
	cmd.Flags().StringVar(game, "game", "makruk", "the game: makruk, or shatranj (Makruk's ancestor: alfil B, ferz Q; DTM tables only, named MATERIAL.shatranj.mtbm)")
}

// gameFlag reads --game. A game without a count has no DTB tables: unless
// --dtb was given, *dtb becomes "none" for it.
func gameFlag(cmd *cobra.Command, name string, dtb *string) (tb.Game, error) {
	g, err := tb.ParseGame(name)
	if err != nil {
		return g, fmt.Errorf("--game: %w", err)
	}
	if dtb != nil && !g.HasCount() && !cmd.Flags().Changed("dtb") {
		*dtb = "none"
	}
	return g, nil
}

func addRulesFlag(cmd *cobra.Command, rules *string) {
	cmd.Flags().StringVar(rules, "rules", "thai", "counting rules: "+honour.BuiltinNames()+", or a profile .json file")
}

// needFEN is the Args of a command that takes a FEN: without one it says
// what to give, with the command's first example.
func needFEN(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return nil
	}
	example, _, _ := strings.Cut(strings.TrimSpace(cmd.Example), "\n")
	return fmt.Errorf("give a position as a FEN, e.g. %s", strings.TrimSpace(example))
}

// addAnnounceFlag adds --announce: the count also as players call it
// aloud, in moves (honour.Count.Called).
func addAnnounceFlag(cmd *cobra.Command, announce *string) {
	cmd.Flags().StringVar(announce, "announce", "plies", `show the count also as players call it aloud, in moves: up ("3 of 16", from where the rules start it) or down ("64, 63, 62…": the moves left); plies shows plies only`)
}

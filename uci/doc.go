// Package uci puts the tables in front of a UCI engine in
// Fairy-Stockfish's dialect: it keeps the honour count through a game's
// moves exactly as Fairy-Stockfish does (Dialect, Game), answers a
// position from the tables under that count (Oracle), talks to an engine
// process (Engine) and, between a client and an engine, answers "go"
// itself whenever the position is in the tables (Adapter).
//
// A position's count in Fairy-Stockfish is a pair of FEN fields that its
// move function keeps; the tables judge under honour.Count. The two agree
// once a count runs; before it does (a FEN with "-"), the oracle judges
// by the moves that will start it.
package uci

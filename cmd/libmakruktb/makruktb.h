/*
 * makruktb.h — probe Makruk endgame tablebases (makruktb) from C and C++.
 *
 * Build the library with `make lib`: build/libmakruktb.so and this header
 * in build/. Link with -Lbuild -lmakruktb (and -Wl,-rpath or
 * LD_LIBRARY_PATH so the loader finds it).
 *
 * Conventions
 *   Squares:  a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63
 *             (bit s of a bitboard is square s).
 *   Colours:  MTB_WHITE = 0, MTB_BLACK = 1.
 *   Pieces:   MTB_ROOK (Ruea), MTB_KHON, MTB_KNIGHT (Ma), MTB_MET,
 *             MTB_PAWN (Bia), MTB_KING (Khun), in that order.
 *   Distances are in plies (half-moves). Counts are in plies too.
 *
 * Every function returns a status: a result or MTB_OK when it is >= 0,
 * an MTB_ERR_* code when it is negative. mtb_last_error() then returns the
 * text of the calling thread's last failure.
 *
 * Thread safety: an mtb_tables handle may be probed by any number of
 * threads at once. mtb_close must not race with probes on the same handle.
 */
#ifndef MAKRUKTB_H
#define MAKRUKTB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { MTB_WHITE = 0, MTB_BLACK = 1 };

enum {
    MTB_ROOK = 0,
    MTB_KHON = 1,
    MTB_KNIGHT = 2,
    MTB_MET = 3,
    MTB_PAWN = 4,
    MTB_KING = 5
};

/* Results, from the point of view of the side to move, under the honour
 * count (the lichess/Syzygy names). */
enum {
    MTB_LOSS = 0,
    MTB_BLESSED_LOSS = 1, /* mated, but the count runs out first */
    MTB_DRAW = 2,
    MTB_CURSED_WIN = 3, /* mates, but the count runs out first */
    MTB_WIN = 4
};

/* Failures (negative). */
enum {
    MTB_OK = 0,
    MTB_ERR_ARGUMENT = -1, /* a NULL pointer, a bad handle, colour, rules id or size */
    MTB_ERR_POSITION = -2, /* an illegal position: pieces overlap, no king, side not to move in check */
    MTB_ERR_PAWNS = -3,    /* pawns on the board: the tables are pawnless */
    MTB_ERR_TOO_MANY = -4, /* more pieces than any table holds */
    MTB_ERR_MISSING = -5,  /* the table for this material is not in the directory */
    MTB_ERR_CORRUPT = -6,  /* a damaged or truncated table file */
    MTB_ERR_FEN = -7,      /* the FEN does not parse */
    MTB_ERR_INTERNAL = -8  /* a bug in makruktb: please report the error text */
};

/* Counting rules. Built-in profiles have fixed ids; mtb_load_rules adds
 * profiles read from JSON files. */
enum {
    MTB_RULES_THAI = 0, /* the default: Fairy-Stockfish's makruk rules */
    MTB_RULES_CAMBODIAN = 1,
    MTB_RULES_ASEAN = 2,
    MTB_RULES_NONE = 3 /* no count: the plain DTM result */
};

/* MTB_NO_COUNT in count_limit: no count is running yet; the count starts
 * in this position (a "-" in the FEN's count field). */
#define MTB_NO_COUNT (-1)

/* A position as an engine holds it. */
typedef struct {
    uint64_t pieces[2][6]; /* [colour][piece type] */
    int32_t side;          /* MTB_WHITE or MTB_BLACK to move */
    int32_t count_limit;   /* the running count's limit in plies, or MTB_NO_COUNT */
    int32_t count_ply;     /* the running count's ply */
} mtb_position;

/* The position's value at the root. */
typedef struct {
    int32_t result; /* MTB_LOSS ... MTB_WIN, under the count */
    int32_t wdl;    /* -1 loss, 0 draw, 1 win: the plain result without a count */
    int32_t plies;  /* distance to mate in plies (0: checkmated), -1 for a draw */
    int32_t exact;  /* 0 when result is the plain result because a board's-honour
                       count needs a DTB table that is not in the directory;
                       1 otherwise */
    int32_t count_limit, count_ply; /* the count in force (0, 0 when none);
                                       count_ply is -1 when the count starts
                                       after this move (cambodian: the side
                                       to move has more than three pieces) */
} mtb_value;

/* A legal move and its result for the side that makes it. */
typedef struct {
    int32_t from, to; /* squares */
    int32_t result;   /* MTB_LOSS ... MTB_WIN for the mover, under the count */
    int32_t wdl;      /* -1, 0, 1 for the mover, without a count */
    int32_t plies;    /* distance to mate in plies from before the move, -1 for a draw */
} mtb_move;

/* The most legal moves a Makruk position can have (MTB_MAX_MOVES is a
 * safe size for the moves array of mtb_probe_root). */
#define MTB_MAX_MOVES 256

typedef uintptr_t mtb_tables; /* a handle; 0 is never a valid one */

#ifndef MTB_NO_PROTOTYPES

/* Opens the tables in dir (NULL or "": $MAKRUKTB_PATH, else ./data) with
 * a block cache of cache_bytes (0: 64 MiB) and stores the handle in *out.
 * Table files are opened when first probed. */
int mtb_open(const char *dir, int64_t cache_bytes, mtb_tables *out);

/* Closes the tables and frees everything they hold. */
int mtb_close(mtb_tables t);

/* The largest piece count of any table in the directory (2 if none). */
int mtb_max_pieces(mtb_tables t);

/* Reads a counting-rules profile (JSON, see README) and stores its id in
 * *rules_id for the probe functions. */
int mtb_load_rules(const char *path, int *rules_id);

/* The result (MTB_LOSS ... MTB_WIN) of pos for the side to move under the
 * count, or a negative MTB_ERR_* code: the probe for an engine's search.
 * When the count starts in pos (count_limit MTB_NO_COUNT) and the directory
 * has the rules' WDL file (MATERIAL.RULES.mtbw, which gen and convert
 * write), it reads one byte of it; otherwise it reads the DTM value and,
 * under board's honour, the DTB value of the rules (without that table the
 * plain result is returned, see mtb_value.exact). */
int mtb_probe_wdl(mtb_tables t, const mtb_position *pos, int rules_id);

/* Probes the root: stores the position's value in *value and a best move
 * (the fastest win inside the count, else the fastest win, a drawing move,
 * or the longest resistance) in *best (from = to = -1 when there is no
 * legal move). When moves is not NULL, it receives every legal move,
 * best first, up to moves_cap of them, and *n_moves their number.
 * Returns MTB_OK or a negative MTB_ERR_* code. */
int mtb_probe_root(mtb_tables t, const mtb_position *pos, int rules_id, mtb_value *value,
                   mtb_move *best, mtb_move *moves, int moves_cap, int *n_moves);

/* Parses a FEN (with the count fields "countLimit countPly" in plies, or
 * "-") into *pos. */
int mtb_parse_fen(const char *fen, mtb_position *pos);

/* mtb_probe_root for a FEN. */
int mtb_probe_fen(mtb_tables t, const char *fen, int rules_id, mtb_value *value, mtb_move *best,
                  mtb_move *moves, int moves_cap, int *n_moves);

/* The text of the calling thread's last failure ("" if none). The string
 * stays valid until the thread's next failing call. */
const char *mtb_last_error(void);

#endif /* MTB_NO_PROTOTYPES */

#ifdef __cplusplus
}
#endif

#endif /* MAKRUKTB_H */

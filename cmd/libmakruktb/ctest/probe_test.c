/* The C test of libmakruktb: probes known positions through the C API and
 * checks the answers. Run by `make ctest` (part of `make test`) with a
 * directory holding the KRvK and KRRvK tables, in format version 1 and
 * again in version 2 with their thai and plain WDL files:
 *
 *     build/probe_test build/ctest-tables
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "makruktb.h"

static int failures;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            failures++;                                                   \
            fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                 \
            fprintf(stderr, " (last error: %s)\n", mtb_last_error());    \
        }                                                                 \
    } while (0)

static int square(const char *name) { return (name[0] - 'a') + 8 * (name[1] - '1'); }

/* A KRvK position: the white king and rook, the black king, the side to
 * move; no count running. */
static mtb_position krk(const char *white_king, const char *rook, const char *black_king, int side) {
    mtb_position p;
    memset(&p, 0, sizeof p);
    p.pieces[MTB_WHITE][MTB_KING] = 1ull << square(white_king);
    p.pieces[MTB_WHITE][MTB_ROOK] = 1ull << square(rook);
    p.pieces[MTB_BLACK][MTB_KING] = 1ull << square(black_king);
    p.side = side;
    p.count_limit = MTB_NO_COUNT;
    return p;
}

/* KRvK, White: Ka1 Rb2, Black: Kc3, White to move: the longest KRvK mate,
 * 16 moves (31 plies), as in chess. */
static mtb_position krk_longest(void) { return krk("a1", "b2", "c3", MTB_WHITE); }

static void test_krk_mate_in_16(mtb_tables t) {
    mtb_position p = krk_longest();
    /* Pieces' honour for one rook: 16 moves = 32 plies, the count starting
     * at ply 2*3-1 = 5 with the strong side to move: 28 plies left, too few
     * for a mate in 31 plies, so a cursed win under thai rules. */
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_NONE) == MTB_WIN, "KRvK plain result");
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_THAI) == MTB_CURSED_WIN, "KRvK under thai from a fresh count");
    /* A count that has run only 1 ply leaves 32 plies: a win. */
    p.count_limit = 32;
    p.count_ply = 1;
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_THAI) == MTB_WIN, "KRvK at count 1/32");
    p.count_limit = MTB_NO_COUNT;

    mtb_value v;
    mtb_move best, moves[MTB_MAX_MOVES];
    int n = 0;
    int rc = mtb_probe_root(t, &p, MTB_RULES_NONE, &v, &best, moves, MTB_MAX_MOVES, &n);
    CHECK(rc == MTB_OK, "mtb_probe_root returned %d", rc);
    CHECK(v.wdl == 1 && v.plies == 31 && v.result == MTB_WIN && v.exact == 1,
          "value wdl %d plies %d result %d exact %d", v.wdl, v.plies, v.result, v.exact);
    CHECK(best.wdl == 1 && best.plies == 31 && best.result == MTB_WIN, "best move plies %d", best.plies);
    CHECK(best.from >= 0 && best.to >= 0, "a best move from %d to %d", best.from, best.to);
    CHECK(n > 1 && n < MTB_MAX_MOVES, "%d legal moves", n);
    CHECK(moves[0].from == best.from && moves[0].to == best.to, "the best move comes first");
    for (int i = 1; i < n; i++)
        CHECK(moves[i].wdl < 1 || moves[i].plies >= moves[i - 1].plies || moves[i - 1].wdl < 1,
              "moves best first (move %d)", i);

    /* The same through the FEN entry point. */
    mtb_value fv;
    mtb_move fbest;
    rc = mtb_probe_fen(t, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1", MTB_RULES_NONE, &fv, &fbest, NULL, 0, NULL);
    CHECK(rc == MTB_OK && fv.plies == 31 && fbest.plies == 31, "FEN probe: rc %d plies %d", rc, fv.plies);

    /* Playing the best move leaves Black mated in 15 moves (30 plies). */
    mtb_position q = krk_longest();
    uint64_t from = 1ull << best.from, to = 1ull << best.to;
    for (int k = 0; k < 6; k++)
        if (q.pieces[MTB_WHITE][k] & from)
            q.pieces[MTB_WHITE][k] ^= from | to;
    q.side = MTB_BLACK;
    rc = mtb_probe_root(t, &q, MTB_RULES_NONE, &v, &best, NULL, 0, NULL);
    CHECK(rc == MTB_OK && v.wdl == -1 && v.plies == 30 && v.result == MTB_LOSS, "after the best move: plies %d", v.plies);
}

static void test_krrk_count_draw(mtb_tables t) {
    /* KRRvK, Black to move, fresh count. Thai pieces' honour for two rooks
     * is 8 moves = 16 plies; the count starts at 2*4 = 8 with the bare king
     * to move, leaving 16-8+1 = 9 plies for the mating move. */
    mtb_position p;
    int rc = mtb_parse_fen("k7/8/8/8/8/2R5/8/1R2K3 b - - 0 1", &p);
    CHECK(rc == MTB_OK, "parse returned %d", rc);
    CHECK(p.side == MTB_BLACK && p.count_limit == MTB_NO_COUNT, "side %d count %d", p.side, p.count_limit);
    mtb_value v;
    mtb_move best;
    rc = mtb_probe_root(t, &p, MTB_RULES_THAI, &v, &best, NULL, 0, NULL);
    CHECK(rc == MTB_OK, "probe returned %d", rc);
    CHECK(v.count_limit == 16 && v.count_ply == 8, "count %d/%d", v.count_ply, v.count_limit);
    CHECK(v.wdl == -1, "Black loses without a count");

    /* The longest KRRvK mate, 13 plies, from a fresh count: the count
     * starts at 7 (strong side to move), 16-7+1 = 10 < 13 → cursed win. */
    rc = mtb_probe_fen(t, "8/8/8/8/8/3k4/2R5/KR6 w - - 0 1", MTB_RULES_THAI, &v, &best, NULL, 0, NULL);
    CHECK(rc == MTB_OK && v.plies == 13 && v.result == MTB_CURSED_WIN, "rc %d plies %d result %d", rc, v.plies, v.result);
    CHECK(best.result == MTB_CURSED_WIN, "best move result %d", best.result);
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_NONE) == MTB_LOSS, "no count");
    /* Count at ply 3: 14 plies left, the mate in 13 fits. */
    rc = mtb_probe_fen(t, "8/8/8/8/8/3k4/2R5/KR6 w - 16 3 1", MTB_RULES_THAI, &v, &best, NULL, 0, NULL);
    CHECK(rc == MTB_OK && v.result == MTB_WIN, "count 3/16: result %d", v.result);
}

/* KRvK, Black to move beside the undefended rook (White: Ka1 Rd4, Black:
 * Ke5): taking it draws. In the version-2 directory's WDL files captures
 * decide for Black, so the file may store a loss there and the probe
 * searches the capture. */
static void test_capture_draws(mtb_tables t) {
    mtb_position p = krk("a1", "d4", "e5", MTB_BLACK);
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_NONE) == MTB_DRAW, "Black takes the rook");
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_THAI) == MTB_DRAW, "Black takes the rook under thai");
    /* The king a file further off cannot take it: Black loses. */
    p = krk("a1", "d4", "f5", MTB_BLACK);
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_NONE) == MTB_LOSS, "the rook out of reach");
}

static void test_failures(mtb_tables t) {
    mtb_position p;
    mtb_value v;
    mtb_move best;

    /* KRRvKN is not in the test directory. */
    CHECK(mtb_parse_fen("8/8/8/8/8/3k4/2R5/KR5n w - - 0 1", &p) == MTB_OK, "parse");
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_THAI) == MTB_ERR_MISSING, "a missing table");
    CHECK(strstr(mtb_last_error(), "KRRvKN") != NULL, "the error names the table: %s", mtb_last_error());

    /* Pawns. */
    CHECK(mtb_parse_fen("8/8/8/8/3P4/3k4/2R5/K7 w - - 0 1", &p) == MTB_OK, "parse");
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_THAI) == MTB_ERR_PAWNS, "pawns");

    /* Illegal: Black in check with White to move; pieces overlapping. */
    p = krk_longest();
    p.pieces[MTB_WHITE][MTB_ROOK] = 1ull << square("c1");
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_THAI) == MTB_ERR_POSITION, "side not to move in check");
    p = krk_longest();
    p.pieces[MTB_BLACK][MTB_KING] = 1ull << square("b2");
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_THAI) == MTB_ERR_POSITION, "overlapping pieces");
    p = krk_longest();
    p.pieces[MTB_BLACK][MTB_KING] = 0;
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_THAI) == MTB_ERR_POSITION, "no black king");

    /* Bad arguments. */
    p = krk_longest();
    p.side = 2;
    CHECK(mtb_probe_wdl(t, &p, MTB_RULES_THAI) == MTB_ERR_ARGUMENT, "side 2");
    p.side = MTB_WHITE;
    CHECK(mtb_probe_wdl(t, &p, 99) == MTB_ERR_ARGUMENT, "rules 99");
    CHECK(mtb_probe_wdl(t + 1000, &p, MTB_RULES_THAI) == MTB_ERR_ARGUMENT, "a bad handle");
    CHECK(mtb_probe_wdl(t, NULL, MTB_RULES_THAI) == MTB_ERR_ARGUMENT, "NULL position");
    CHECK(mtb_probe_root(t, &p, MTB_RULES_THAI, NULL, &best, NULL, 0, NULL) == MTB_ERR_ARGUMENT, "NULL value");

    /* A bad FEN names what is wrong. */
    CHECK(mtb_probe_fen(t, "8/8/8/8/8/2k5/1R6/K7 x - - 0 1", MTB_RULES_THAI, &v, &best, NULL, 0, NULL) == MTB_ERR_FEN, "bad side");
    CHECK(strstr(mtb_last_error(), "side") != NULL, "error text: %s", mtb_last_error());
    CHECK(mtb_load_rules("/nonexistent/rules.json", &(int){0}) == MTB_ERR_ARGUMENT, "missing rules file");
    mtb_tables none;
    CHECK(mtb_open(NULL, -1, &none) == MTB_ERR_ARGUMENT, "negative cache size");
}

/* Many threads probe one handle; each checks the KRvK answer and its own
 * error text. */
static void *probe_thread(void *arg) {
    mtb_tables t = *(mtb_tables *)arg;
    mtb_position p = krk_longest();
    intptr_t bad = 0;
    for (int i = 0; i < 20000; i++) {
        if (mtb_probe_wdl(t, &p, MTB_RULES_NONE) != MTB_WIN)
            bad++;
        if (i % 1000 == 0) {
            p.side = 7;
            if (mtb_probe_wdl(t, &p, MTB_RULES_NONE) != MTB_ERR_ARGUMENT || !strstr(mtb_last_error(), "side 7"))
                bad++;
            p.side = MTB_WHITE;
        }
    }
    return (void *)bad;
}

static void test_threads(mtb_tables t) {
    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, probe_thread, &t);
    for (int i = 0; i < 4; i++) {
        void *bad;
        pthread_join(threads[i], &bad);
        CHECK(bad == NULL, "thread %d: %ld wrong answers", i, (long)(intptr_t)bad);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s TABLE_DIR\n", argv[0]);
        return 2;
    }
    mtb_tables t;
    if (mtb_open(argv[1], 1 << 20, &t) != MTB_OK) {
        fprintf(stderr, "mtb_open %s: %s\n", argv[1], mtb_last_error());
        return 1;
    }
    CHECK(mtb_max_pieces(t) == 4, "max pieces %d", mtb_max_pieces(t));
    test_krk_mate_in_16(t);
    test_krrk_count_draw(t);
    test_capture_draws(t);
    test_failures(t);
    test_threads(t);
    CHECK(mtb_close(t) == MTB_OK, "close");
    CHECK(mtb_close(t) == MTB_ERR_ARGUMENT, "closing twice");
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("libmakruktb C test: ok\n");
    return 0;
}

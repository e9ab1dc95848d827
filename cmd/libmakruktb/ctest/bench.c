/* WDL probes per second from C with a warm cache, on one and two threads:
 * 4096 random legal KRvKN positions, the set the Go benchmark
 * BenchmarkWDLWarm (probe/bench_test.go) probes, so the two figures give
 * the cost of crossing the cgo boundary; then KRvKS with Black to move,
 * a side whose WDL file stores bounds where captures decide, so the
 * reader searches Black's captures where it reads less than a cursed win
 * (BenchmarkWDLCaptures in Go).
 *
 *     make bench-lib TABLES=data
 */
#define _POSIX_C_SOURCE 199309L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "makruktb.h"

enum { N_POSITIONS = 4096, CALLS = 2000000, ROUNDS = 5 };

static mtb_tables tables;
static mtb_position positions[N_POSITIONS];

/* A set of positions to probe: White's king and white_piece against
 * Black's king and black_piece, side to move side (-1: either). */
struct set {
    const char *name;
    int white_piece, black_piece, side;
};

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static int random_square(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % 64);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *probe_loop(void *arg) {
    long *bad = arg;
    for (int i = 0; i < CALLS; i++)
        if (mtb_probe_wdl(tables, &positions[i & (N_POSITIONS - 1)], MTB_RULES_THAI) < 0)
            (*bad)++;
    return NULL;
}

static double run(int threads) {
    pthread_t t[8];
    long bad[8] = {0};
    double start = now();
    for (int i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, probe_loop, &bad[i]);
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    double seconds = now() - start;
    for (int i = 0; i < threads; i++)
        if (bad[i])
            fprintf(stderr, "thread %d: %ld failed probes\n", i, bad[i]);
    return (double)CALLS * threads / seconds;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v) {
    double s[ROUNDS];
    memcpy(s, v, sizeof s);
    qsort(s, ROUNDS, sizeof s[0], compare);
    return s[ROUNDS / 2];
}

static double min_of(const double *v) {
    double m = v[0];
    for (int i = 1; i < ROUNDS; i++)
        m = v[i] < m ? v[i] : m;
    return m;
}

static double max_of(const double *v) {
    double m = v[0];
    for (int i = 1; i < ROUNDS; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

/* Fills positions with random legal placements of set s (the library
 * rejects the illegal ones); 0 when done, 1 when a table is missing. */
static int fill(const struct set *s) {
    for (int n = 0; n < N_POSITIONS;) {
        mtb_position p;
        memset(&p, 0, sizeof p);
        int sq[4];
        for (int i = 0; i < 4; i++)
            sq[i] = random_square();
        p.pieces[MTB_WHITE][MTB_KING] = 1ull << sq[0];
        p.pieces[MTB_WHITE][s->white_piece] = 1ull << sq[1];
        p.pieces[MTB_BLACK][MTB_KING] = 1ull << sq[2];
        p.pieces[MTB_BLACK][s->black_piece] = 1ull << sq[3];
        p.side = s->side >= 0 ? s->side : (int32_t)(rng >> 40 & 1);
        p.count_limit = MTB_NO_COUNT;
        int rc = mtb_probe_wdl(tables, &p, MTB_RULES_THAI);
        if (rc == MTB_ERR_MISSING) {
            fprintf(stderr, "bench_lib: %s\n", mtb_last_error());
            return 1;
        }
        if (rc >= 0)
            positions[n++] = p;
    }
    return 0;
}

static int bench(const struct set *s) {
    if (fill(s))
        return 1;
    run(1); /* warm the cache */
    /* A virtual machine's speed drifts by 10-15% from second to second:
     * one- and two-thread runs alternate, and the medians are compared. */
    double one[ROUNDS], two[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        one[r] = run(1);
        two[r] = run(2);
    }
    double m1 = median(one), m2 = median(two);
    printf("WDL probes, warm cache, %s, median of %d alternating rounds:\n", s->name, ROUNDS);
    printf("  1 thread  %.2f M/s (%.0f ns/call; rounds %.0f-%.0f ns)\n", m1 / 1e6, 1e9 / m1, 1e9 / max_of(one), 1e9 / min_of(one));
    printf("  2 threads %.2f M/s (%.2fx one thread)\n", m2 / 1e6, m2 / m1);
    return 0;
}

int main(int argc, char **argv) {
    if (mtb_open(argc > 1 ? argv[1] : "data", 0, &tables) != MTB_OK) {
        fprintf(stderr, "mtb_open: %s\n", mtb_last_error());
        return 1;
    }
    static const struct set sets[] = {
        {"KRvKN", MTB_ROOK, MTB_KNIGHT, -1},
        {"KRvKS, Black to move (captures decide)", MTB_ROOK, MTB_KHON, MTB_BLACK},
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof sets / sizeof sets[0] && !rc; i++)
        rc = bench(&sets[i]);
    mtb_close(tables);
    return rc;
}

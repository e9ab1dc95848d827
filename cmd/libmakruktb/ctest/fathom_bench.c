/* WDL probes side by side with Syzygy's prober (Fathom), from C, on the
 * same random legal positions of materials of rooks and knights (KRRvKN
 * unless named): makruktb's mtb_probe_wdl on its thai WDL files with the
 * library's default settings, Fathom's tb_probe_wdl on Syzygy's .rtbw
 * files. Rooks, knights and kings move in Makruk as in chess, so every
 * answer's sign must agree (a cursed win is a win without the count, a
 * blessed loss a loss).
 *
 *     fathom_bench MAKRUKTB_DIR SYZYGY_DIR [MATERIAL...]
 *     make bench-lib TABLES=DIR FATHOM=DIR SYZYGY=DIR [FATHOM_MATERIALS=...]
 *
 * With MTB_BENCH_RULES=none in the environment it probes the WDL files of
 * the profile with no count ("none", `convert --wdl thai,none`), which
 * hold what Syzygy's hold: the same information, not the count's too.
 *
 * FATHOM is a checkout of github.com/jdart1/Fathom (its src/tbprobe.c is
 * compiled in), SYZYGY a directory with the materials' .rtbw files and
 * those of their captures (Syzygy's rtbgen from github.com/syzygy1/tb
 * makes them). Both stay outside the repository.
 *
 * Cold: the first pass over the positions after opening the tables (the
 * files in the page cache, nothing in either prober's memory). Warm: the
 * median of rounds alternating the two probers, one thread and two.
 */
#define _POSIX_C_SOURCE 199309L
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "makruktb.h"
#include "tbprobe.h"

enum { N_POSITIONS = 1000000, ROUNDS = 5, MAX_THREADS = 2, MAX_MATERIALS = 32 };

/* A material: the pieces of each side besides its king. */
struct material {
    const char *name;
    int pieces[2][5]; /* [colour] the piece types, n[colour] of them */
    int n[2];
};
static struct material materials[MAX_MATERIALS];
static int n_materials;

static mtb_tables tables;
static mtb_position *positions;
static int rules = MTB_RULES_THAI; /* MTB_RULES_NONE with MTB_BENCH_RULES=none */
static const char *rules_name = "thai";

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Fathom's probe of p (its pieces as bitboards; no castling, no en
 * passant, the 50-move counter at zero). */
static unsigned fathom_wdl(const mtb_position *p) {
    uint64_t white = 0, black = 0;
    for (int t = 0; t < 6; t++) {
        white |= p->pieces[MTB_WHITE][t];
        black |= p->pieces[MTB_BLACK][t];
    }
    uint64_t kings = p->pieces[0][MTB_KING] | p->pieces[1][MTB_KING];
    uint64_t rooks = p->pieces[0][MTB_ROOK] | p->pieces[1][MTB_ROOK];
    uint64_t knights = p->pieces[0][MTB_KNIGHT] | p->pieces[1][MTB_KNIGHT];
    return tb_probe_wdl(white, black, kings, 0, rooks, 0, knights, 0, 0, 0, 0, p->side == MTB_WHITE);
}

/* The sign of a result: +1 a win (cursed or not), -1 a loss, 0 a draw. */
static int sign(int result) { return (result > MTB_DRAW) - (result < MTB_DRAW); }

/* Parses a material of rooks and knights ("KRRvKN"); 0 when it is one. */
static int parse_material(const char *name, struct material *m) {
    memset(m, 0, sizeof *m);
    m->name = name;
    int side = -1, total = 2;
    for (const char *c = name; *c; c++) {
        if (*c == 'K') {
            if (++side > 1)
                return 1;
        } else if (*c == 'v' && side == 0) {
            continue;
        } else if ((*c == 'R' || *c == 'N') && side >= 0 && m->n[side] < 4 && ++total <= 5) {
            m->pieces[side][m->n[side]++] = *c == 'R' ? MTB_ROOK : MTB_KNIGHT;
        } else {
            return 1;
        }
    }
    return side != 1 || total < 3;
}

/* Fills positions with random legal placements of the materials in
 * turn, either side to move; 0 when done, 1 when a table is missing. */
static int fill(void) {
    for (int n = 0; n < N_POSITIONS;) {
        const struct material *m = &materials[n % n_materials];
        mtb_position p;
        memset(&p, 0, sizeof p);
        uint64_t r = next_random(), occupied = 0;
        bool overlap = false;
        for (int side = 0; side < 2; side++)
            for (int i = -1; i < m->n[side]; i++) {
                uint64_t sq = 1ull << (next_random() & 63);
                overlap |= (occupied & sq) != 0;
                occupied |= sq;
                p.pieces[side][i < 0 ? MTB_KING : m->pieces[side][i]] |= sq;
            }
        if (overlap)
            continue;
        p.side = (int32_t)(r >> 40 & 1);
        p.count_limit = MTB_NO_COUNT;
        int rc = mtb_probe_wdl(tables, &p, rules);
        if (rc == MTB_ERR_MISSING) {
            fprintf(stderr, "fathom_bench: %s\n", mtb_last_error());
            return 1;
        }
        if (rc >= 0)
            positions[n++] = p;
    }
    return 0;
}

struct job {
    bool fathom;
    int first;
    long failed;
};

static void *probe_loop(void *arg) {
    struct job *j = arg;
    for (int i = 0; i < N_POSITIONS; i++) {
        const mtb_position *p = &positions[(j->first + i) % N_POSITIONS];
        if (j->fathom ? fathom_wdl(p) == TB_RESULT_FAILED : mtb_probe_wdl(tables, p, rules) < 0)
            j->failed++;
    }
    return NULL;
}

/* Nanoseconds per probe with threads threads, each probing every
 * position once (from its own starting point). */
static double run(bool fathom, int threads) {
    pthread_t t[MAX_THREADS];
    struct job jobs[MAX_THREADS];
    double start = now();
    for (int i = 0; i < threads; i++) {
        jobs[i] = (struct job){fathom, i * (N_POSITIONS / threads), 0};
        pthread_create(&t[i], NULL, probe_loop, &jobs[i]);
    }
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    double seconds = now() - start;
    for (int i = 0; i < threads; i++)
        if (jobs[i].failed) {
            fprintf(stderr, "fathom_bench: %s: %ld failed probes\n", fathom ? "Fathom" : "makruktb", jobs[i].failed);
            exit(1);
        }
    return seconds * 1e9 / ((double)N_POSITIONS * threads);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v) {
    qsort(v, ROUNDS, sizeof v[0], compare);
    return v[ROUNDS / 2];
}

int main(int argc, char **argv) {
    if (argc < 3 || argc - 3 > MAX_MATERIALS) {
        fprintf(stderr, "usage: fathom_bench MAKRUKTB_DIR SYZYGY_DIR [MATERIAL...] (at most %d)\n", MAX_MATERIALS);
        return 2;
    }
    const char *env = getenv("MTB_BENCH_RULES");
    if (env && strcmp(env, "none") == 0) {
        rules = MTB_RULES_NONE;
        rules_name = "none";
    } else if (env && *env && strcmp(env, "thai") != 0) {
        fprintf(stderr, "fathom_bench: MTB_BENCH_RULES=%s: thai or none\n", env);
        return 2;
    }
    static const char *const default_materials[] = {"KRRvKN"};
    const char *const *names = argc > 3 ? (const char *const *)argv + 3 : default_materials;
    n_materials = argc > 3 ? argc - 3 : 1;
    for (int i = 0; i < n_materials; i++)
        if (parse_material(names[i], &materials[i])) {
            fprintf(stderr, "fathom_bench: %s: not a material of kings, rooks and knights, 3 to 5 pieces\n", names[i]);
            return 2;
        }
    positions = malloc(sizeof *positions * N_POSITIONS);
    if (!positions)
        return 1;
    /* The positions come from a handle of their own, closed before the
     * measured one opens: the cold pass starts with nothing read. */
    if (mtb_open(argv[1], 0, &tables) != MTB_OK) {
        fprintf(stderr, "mtb_open: %s\n", mtb_last_error());
        return 1;
    }
    if (fill())
        return 1;
    mtb_close(tables);

    /* Cold: opening the tables and the first pass, per probe. */
    double start = now();
    if (mtb_open(argv[1], 0, &tables) != MTB_OK) {
        fprintf(stderr, "mtb_open: %s\n", mtb_last_error());
        return 1;
    }
    run(false, 1);
    double cold_ours = (now() - start) * 1e9 / N_POSITIONS;
    start = now();
    unsigned largest = 0;
    for (int i = 0; i < n_materials; i++)
        if (2u + materials[i].n[0] + materials[i].n[1] > largest)
            largest = 2u + materials[i].n[0] + materials[i].n[1];
    if (!tb_init(argv[2]) || TB_LARGEST < largest) {
        fprintf(stderr, "fathom_bench: no %u-piece Syzygy tables in %s\n", largest, argv[2]);
        return 1;
    }
    run(true, 1);
    double cold_fathom = (now() - start) * 1e9 / N_POSITIONS;

    long disagree = 0, counts[5] = {0};
    for (int i = 0; i < N_POSITIONS; i++) {
        int ours = mtb_probe_wdl(tables, &positions[i], rules);
        unsigned theirs = fathom_wdl(&positions[i]);
        counts[ours]++;
        if (sign(ours) != sign((int)theirs) && disagree++ < 5)
            fprintf(stderr, "disagree at position %d: makruktb %d, Fathom %u\n", i, ours, theirs);
    }

    double ours1[ROUNDS], theirs1[ROUNDS], ours2[ROUNDS], theirs2[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        ours1[r] = run(false, 1);
        theirs1[r] = run(true, 1);
        ours2[r] = run(false, 2);
        theirs2[r] = run(true, 2);
    }
    double o1 = median(ours1), t1 = median(theirs1), o2 = median(ours2), t2 = median(theirs2);
    for (int i = 0; i < n_materials; i++)
        printf("%s%s", i ? ", " : "", materials[i].name);
    printf(": %d random legal positions (%ld losses, %ld blessed losses, %ld draws, %ld cursed wins, %ld wins under %s rules)\n",
           N_POSITIONS, counts[0], counts[1], counts[2], counts[3], counts[4], rules_name);
    printf("  signs: %ld of %d disagree with Fathom\n", disagree, N_POSITIONS);
    printf("                          makruktb    Fathom   ratio\n");
    printf("  cold, 1 thread       %9.0f ns %7.0f ns  %5.2fx\n", cold_ours, cold_fathom, cold_ours / cold_fathom);
    printf("  warm, 1 thread       %9.0f ns %7.0f ns  %5.2fx\n", o1, t1, o1 / t1);
    printf("  warm, 2 threads      %9.0f ns %7.0f ns  %5.2fx  (per probe)\n", o2, t2, o2 / t2);
    printf("  2 threads' speed-up  %9.2fx %8.2fx\n", o1 / o2, t1 / t2);
    mtb_close(tables);
    tb_free();
    return disagree != 0;
}

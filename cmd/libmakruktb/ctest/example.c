/* cmd/libmakruktb/ctest/example.c */
/* The README's example: probe a position from C. */
#include <stdio.h>
#include "makruktb.h"

int main(int argc, char **argv) {
    mtb_tables tables;
    if (mtb_open(argc > 1 ? argv[1] : "data", 64 << 20, &tables) != MTB_OK) {
        fprintf(stderr, "makruktb: %s\n", mtb_last_error());
        return 1;
    }

    /* White: Ka1, Rb2; Black: Kc3; White to move; no count running yet. */
    mtb_position pos = {0};
    pos.pieces[MTB_WHITE][MTB_KING] = 1ull << 0;  /* a1 */
    pos.pieces[MTB_WHITE][MTB_ROOK] = 1ull << 9;  /* b2 */
    pos.pieces[MTB_BLACK][MTB_KING] = 1ull << 18; /* c3 */
    pos.side = MTB_WHITE;
    pos.count_limit = MTB_NO_COUNT;

    /* In search: one call, the result under the thai count. */
    int wdl = mtb_probe_wdl(tables, &pos, MTB_RULES_THAI);
    if (wdl < 0) {
        fprintf(stderr, "makruktb: %s\n", mtb_last_error());
        mtb_close(tables);
        return 1;
    }

    /* At the root: the value and a best move. */
    mtb_value value;
    mtb_move best;
    if (mtb_probe_root(tables, &pos, MTB_RULES_NONE, &value, &best, NULL, 0, NULL) != MTB_OK) {
        fprintf(stderr, "makruktb: %s\n", mtb_last_error());
        mtb_close(tables);
        return 1;
    }
    printf("thai result %d (MTB_CURSED_WIN = %d); mate in %d plies, best move %c%d%c%d\n",
           wdl, MTB_CURSED_WIN, value.plies,
           'a' + best.from % 8, 1 + best.from / 8, 'a' + best.to % 8, 1 + best.to / 8);

    mtb_close(tables);
    return 0;
}

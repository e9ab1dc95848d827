// The calling thread's last error text, kept in C thread-local storage: a
// Go function exported to C runs on the C thread that called it, so the
// text set there is the one that thread reads back.
#include <string.h>

static __thread char mtb_error_text[1024];

void mtb_set_error(const char *text) {
	strncpy(mtb_error_text, text, sizeof mtb_error_text - 1);
	mtb_error_text[sizeof mtb_error_text - 1] = 0;
}

const char *mtb_last_error(void) { return mtb_error_text; }

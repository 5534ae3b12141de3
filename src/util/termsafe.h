/* termsafe.h - bytes made harmless for a terminal.
 *
 * A name in a trace is bytes chosen by whoever wrote the trace; printed as
 * is, "\033]0;title\a" retitles the window and "\033[2J" clears the screen.
 * Output that goes to a terminal passes through this filter: C0 controls
 * other than tab and newline, DEL, the C1 controls (U+0080..U+009F) and
 * bytes that are not well-formed UTF-8 each become '?'.  Output to files
 * and pipes is never filtered: it keeps the bytes its format needs.
 *
 * The filter is a small state (an incomplete UTF-8 sequence carried to the
 * next call), so a stream may be fed in any pieces.  No allocation.
 */
#ifndef CG_TERMSAFE_H
#define CG_TERMSAFE_H

#include <stddef.h>

struct cg_termsafe {
	unsigned char pend[4]; /* the start of a sequence cut by the last call */
	size_t npend;
};

void termsafe_init(struct cg_termsafe *ts);
/* Filter the n bytes at p, calling emit(ctx, bytes, len) with safe pieces
 * (never longer than n + 3 bytes in all).  With last set, a sequence left
 * incomplete at the end is emitted as '?'.  Returns the first nonzero value
 * emit returned, else 0. */
int termsafe_feed(struct cg_termsafe *ts, const void *p, size_t n, int last,
		  int (*emit)(void *ctx, const char *bytes, size_t len), void *ctx);

#endif

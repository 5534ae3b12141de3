/* gv_log.h - Graphviz's messages, captured rather than printed (render_gv.c
 * and the files split from it).
 *
 * Between gv_log_begin and gv_log_end every libcgraph/libgvc message,
 * warnings included, goes to a buffer instead of stderr; gv_log_message
 * then gives the one that explains a failure.  Not thread-safe (Graphviz's
 * message callback has no context argument).
 */
#ifndef CG_GV_LOG_H
#define CG_GV_LOG_H

#include <cgraph.h>

#include "util/strbuf.h"

struct gv_saved {
	agusererrf errf;
	agerrlevel_t level;
};

/* Start capturing; saved receives the handler to restore.  Messages other
 * than errors (warnings) are added to sink (gv_log_add) when it is not
 * NULL. */
void gv_log_begin(struct gv_saved *saved, struct strbuf *sink);

/* Restore the handler gv_log_begin replaced. */
void gv_log_end(const struct gv_saved *saved);

/* The most useful captured message: the last error, else the last
 * message, else fallback.  Valid until the next gv_log_begin. */
const char *gv_log_message(const char *fallback);

/* At most this many messages are kept (then the rest are dropped). */
#define GV_LOG_LINES 8

struct gv_stderr {
	int saved;    /* the real descriptor 2, or -1 */
	int capture;  /* the memory file standing in for it, or -1 */
};

/* Point descriptor 2 at a memory file (or /dev/null) while Graphviz runs:
 * its plugins print there directly (glib's log, fontconfig, GD).  Nothing
 * of ours may print until gv_log_stderr_end. */
void gv_log_stderr_begin(struct gv_stderr *s);

/* Restore descriptor 2 and add what was printed to lines (gv_log_add). */
void gv_log_stderr_end(struct gv_stderr *s, struct strbuf *lines);

/* Add msg to lines, one message a line: each once, at most GV_LOG_LINES,
 * without a trailing newline or blanks. */
void gv_log_add(struct strbuf *lines, const char *msg);

#endif

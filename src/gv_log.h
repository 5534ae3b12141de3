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

struct gv_saved {
	agusererrf errf;
	agerrlevel_t level;
};

/* Start capturing; saved receives the handler to restore. */
void gv_log_begin(struct gv_saved *saved);

/* Restore the handler gv_log_begin replaced. */
void gv_log_end(const struct gv_saved *saved);

/* The most useful captured message: the last error, else the last
 * message, else fallback.  Valid until the next gv_log_begin. */
const char *gv_log_message(const char *fallback);

#endif

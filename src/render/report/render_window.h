/* render_window.h - the HTML report's time windows: the call log of every
 * thread (pagelog.h) as a JSON block, and the script that replays any
 * window of it (src/render/report/assets/window.js) and the frames, so that the
 * page can show the profile of a dragged window or of one frame exactly as
 * callgraph --range FROM:TO gives it.
 *
 * Data (#cg-win-data): {"ok", "why", "budget", "calls", "origin", "dual",
 * "primary", "nlisted", "frameK", "flameFraction", "flameDepth",
 * "threads"}.  ok is 1 when the page can replay windows; else why says in
 * one sentence what stops it (no wall clock, a filter, records the log
 * cannot give back one by one, the budget).  threads: per thread of the
 * profile, [page index (-1: folded idle thread), records, wall, cpu, then
 * per event code, wall delta, cpu delta]: code k >= 0 enters the method at
 * position k of the all-threads view, -1 leaves, -2 - k leaves method k
 * entered before tracing; wall on the window axis (us from the trace's
 * first record), cpu on the thread's clock (0 on a trace without it).
 * origin: the axis's zero on the timeline's clock (us), so that the page
 * puts both on one axis.  frameK: positions of the frame methods (any
 * overload of Choreographer.doFrame).  Borrows everything. */
#ifndef CG_RENDER_WINDOW_H
#define CG_RENDER_WINDOW_H

#include "render/report.h"

/* Why the page cannot replay windows of r's trace (one sentence, no
 * capital, no full stop), or NULL when it can. */
const char *render_window_why(const struct cg_report *r);

/* Append the data block and the script to out (nothing without a log).
 * Returns 0. */
int render_window_section(const struct cg_report *r, struct strbuf *out, struct cg_error *err);

#endif

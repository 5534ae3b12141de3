/* render_window.h - the HTML report's windows of the trace: the call log
 * of every thread (pagelog.h) and the frames (frames.h) as a JSON block, and
 * the script that shows a window (src/render/report/assets/winui.js, with
 * window.js, which replays it), so that the page can show the profile of a
 * dragged window or of one frame exactly as callgraph --range FROM:TO gives
 * it.
 *
 * Data (#cg-win-data): {"ok", "why", "file", "budget", "calls", "origin",
 * "dual", "primary", "nlisted", "flameFraction", "flameDepth", "frames",
 * "slowest", "framePattern", "threads"}.  ok is 1 when the page can replay
 * windows; else why says in one phrase what stops it (no wall clock, a
 * filter, records that do not open or close one call each, the budget).
 * file: the trace as given, for the --range command.  budget and calls: the
 * log's budget and the calls it met.  origin: the axis's zero (the raw wall
 * time of the trace's first record) on the timeline's clock, so that the page
 * puts both on one axis; primary: 1 when the page's numbers are on the cpu
 * clock (--clock cpu), which has no window axis.  threads: per thread of the
 * profile, [page index (-1: a folded idle thread), records, wall, cpu, then
 * per event code, wall delta, cpu delta]: code k >= 0 enters the method at
 * position k of the all-threads view, -1 leaves, -2 - k leaves method k
 * entered before tracing; wall on the window axis (us from the origin), cpu
 * on the thread's clock (0 on a trace without it); none unless ok.
 * frames: per frame, in order, [start on the axis, wall, cpu, page thread,
 * 1 when entered before tracing]; slowest: frame indices, slowest first.
 * Borrows everything. */
#ifndef CG_RENDER_WINDOW_H
#define CG_RENDER_WINDOW_H

#include "render/report.h"

/* Why the page cannot replay windows of r's trace (one sentence, no
 * capital, no full stop), or NULL when it can. */
const char *render_window_why(const struct cg_report *r);

/* Append the data block and the script to out.  Returns 0. */
int render_window_section(const struct cg_report *r, struct strbuf *out, struct cg_error *err);

#endif

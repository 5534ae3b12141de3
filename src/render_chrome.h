/* render_chrome.h - Chrome's Trace Event Format (JSON object form), as the
 * Perfetto UI, chrome://tracing and speedscope open it: a "B" and an "E"
 * event per call (never "X"), times in microseconds on the clock used,
 * pid the trace's process id (0 when unknown), tid the thread id, with
 * process and thread names as "M" metadata events.  Names are methods with
 * their signature as exportname.h says.  Needs the event log (r->events).
 *
 * Bound.  When the selected threads made more than CHROME_MAX_CALLS calls,
 * only the longest are kept: the smallest duration d such that at most
 * CHROME_MAX_CALLS calls last d us or more is found, and shorter calls are
 * dropped (their time stays inside their caller's span).  A call never
 * outlasts its caller, so the kept calls still nest.  "otherData.callgraph"
 * says what was kept: {"clock", "rule", "max_calls", "min_dur_us" (0 when
 * nothing was dropped), "calls", "kept", "dropped", "threads": [{"tid",
 * "calls", "dropped", "dropped_top_us"}]} where dropped_top_us is the time
 * of the dropped calls made by the thread itself (not by a method), so a
 * thread's top-level spans plus dropped_top_us plus its own exclusive time
 * are its inclusive time.  The renderer borrows r. */
#ifndef CG_RENDER_CHROME_H
#define CG_RENDER_CHROME_H

#include "report.h"

#define CHROME_MAX_CALLS 500000

extern const struct cg_renderer render_chrome;

#endif

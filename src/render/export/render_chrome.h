/* render_chrome.h - Chrome's Trace Event Format (JSON object form), as the
 * Perfetto UI, chrome://tracing and speedscope open it: a "B" and an "E"
 * event per call (never "X"), times in microseconds on the clock used,
 * pid the trace's process id (0 when unknown), tid the thread id, with
 * process and thread names as "M" metadata events.  Names are methods with
 * their signature as exportname.h says.  Needs the event log (r->events).
 *
 * Bound.  Calls of 0 us are left out: they have no extent on a
 * microsecond timeline, and a consumer that sorts events by time (as
 * speedscope's importer does) cannot tell where an empty call begins and
 * ends among the others at that instant.  With them out, every "E" at a
 * time comes before every "B" at that time, so sorting keeps the nesting.
 * An "E" repeats its call's name (speedscope matches ends by name) and
 * carries empty args, which sets it apart from a "B" of the same name at
 * the same instant: speedscope's importer, given the next "B" and the next
 * "E" at one time with equal name and args, would take the "B" first.
 * When more than CHROME_MAX_CALLS calls remain, only the longest are kept:
 * the smallest duration d such that at most CHROME_MAX_CALLS calls last d
 * us or more is found, and shorter calls are dropped too.  A dropped
 * call's time stays inside its caller's span, and a call never outlasts
 * its caller, so the kept calls still nest.  "otherData.callgraph" says
 * what was kept: {"clock", "rule", "max_calls", "min_dur_us" (1, or d),
 * "calls", "kept", "dropped", "threads": [{"tid", "calls", "dropped",
 * "dropped_top_us"}]} where dropped_top_us is the time of the dropped
 * calls made by the thread itself (not by a method), so a thread's
 * top-level spans plus dropped_top_us plus its own exclusive time
 * are its inclusive time.  The event log is read twice: once for the
 * durations (the CHROME_MAX_CALLS + 1 longest kept in a heap), once to
 * write, deciding a call as soon as it has lasted d us or has returned;
 * memory is the heap and the stack, whatever the number of calls.  The
 * renderer borrows r. */
#ifndef CG_RENDER_CHROME_H
#define CG_RENDER_CHROME_H

#include "render/report.h"

#define CHROME_MAX_CALLS 500000

extern const struct cg_renderer render_chrome;

#endif

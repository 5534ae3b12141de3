/* render_speedscope.h - speedscope's JSON file format
 * (https://www.speedscope.app/file-format-schema.json): one "evented"
 * profile per selected thread, in the view's thread order, whose open and
 * close events are the calls exactly as replayed, in microseconds from the
 * thread's first event; so speedscope's time-order view is the real
 * timeline, a thread's total weight is its duration (its inclusive time)
 * and its open events are its calls.  Frames are methods named with their
 * signature as exportname.h says, with the source file.  Needs the event
 * log (r->events).  The renderer borrows r. */
#ifndef CG_RENDER_SPEEDSCOPE_H
#define CG_RENDER_SPEEDSCOPE_H

#include "render/report.h"

extern const struct cg_renderer render_speedscope;

#endif

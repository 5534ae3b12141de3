/* render_folded.h - folded stacks for FlameGraph (flamegraph.pl), speedscope
 * and inferno: one line "thread;caller;...;callee N" per distinct stack with
 * a non-zero exclusive time N in integer microseconds, from the calling-
 * context tree (r->cct, which must be set).  A thread's own root exclusive
 * time (between its top-level calls) is the line "thread;[between calls]
 * N", so every line has a ';' (Perfetto's format sniffer wants one in each
 * of the first lines).  The lines of a thread sum to its inclusive time
 * (the view's thread incl_us).
 *
 * Frames are "Class.method" with '/' shown as '.' (packages shortened under
 * r->short_names); under r->slash_names packages are joined by '/'
 * ("java/lang/String.equals"), the form flamegraph.pl's --colors java
 * palette recognises.  Overloads share a frame name.  Thread names get " (tid)"
 * when two selected threads share a name.  In every name ';', control
 * characters and DEL become '_', invalid UTF-8 bytes U+FFFD, and an empty
 * name "?".  Order: threads as in the view, then depth first with siblings by
 * name.  Stacks deeper than FOLDED_MAX_DEPTH frames (below the thread) end
 * in one frame "[deeper frames]" holding all the time below the cap, so the
 * output stays O(nodes x FOLDED_MAX_DEPTH), not O(depth^2) for deep
 * recursion, and the sums are kept.  The renderer borrows r. */
#ifndef CG_RENDER_FOLDED_H
#define CG_RENDER_FOLDED_H

#include "render/report.h"

/* Frames per stack before the rest is summed into "[deeper frames]"
 * (the HTML flame graph draws 256; FlameGraph handles this many). */
#define FOLDED_MAX_DEPTH 512

/* The frame holding a thread's time outside any method. */
#define FOLDED_BETWEEN "[between calls]"

extern const struct cg_renderer render_folded;

#endif

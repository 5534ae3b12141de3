/* render_flame.h - flame-graph data for the HTML report, from the
 * calling-context tree (cct.h).
 *
 * Bound: within a thread, a frame narrower than the thread's total /
 * FLAME_FRACTION (a fifth of a pixel on a 1000-px graph) is dropped and its
 * time stays in its parent (shown as the parent's own time); frames deeper
 * than FLAME_DEPTH are dropped likewise.  When all threads together still
 * keep more than FLAME_BUDGET frames, the all-threads total / FLAME_FRACTION
 * is used for every thread instead, and frames past the budget are dropped.
 * Borrows everything; writes only to out.
 */
#ifndef CG_RENDER_FLAME_H
#define CG_RENDER_FLAME_H

#include <stddef.h>

#include "model/cct.h"
#include "model/profile.h"
#include "util/strbuf.h"

#define FLAME_FRACTION 5000
#define FLAME_DEPTH 256
#define FLAME_BUDGET 100000

/* Append {"fraction","kept","dropped","threads":[[thread index, incl, n, ...
 * frames]]} where the frames of a thread are in preorder as flat quadruples
 * k, incl us, excl us, number of kept children (k: the method's position in
 * the all-threads view, -1 for the root); the thread's own entry is
 * its root (incl = the thread's time).  Children sorted by inclusive desc,
 * then midx.  Sets used[midx] (size nused) for every method named.  On a
 * dual-clock trace "other" is 1, each thread's entry is [thread index, incl,
 * incl on the other clock, ...] and each frame has two more numbers, its
 * inclusive and exclusive time on the other clock; else "other" is 0.
 * Which frames are kept is decided on the primary clock.  map (NULL:
 * every thread as itself) gives the thread index written for thread i,
 * and leaves out the threads it maps to -1 (report.h thread_map). */
void flame_json(const struct cg_cct *c, struct cg_profile *p, const int32_t *map,
		unsigned char *used, size_t nused, struct strbuf *out);

#endif

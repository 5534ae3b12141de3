/* render_callgrind.h - the callgrind profile format (valgrind's
 * docs/callgrind-format), as KCachegrind and callgrind_annotate read it.
 *
 * One event, the clock used in microseconds.  Every method that ran is a
 * function (fl= its source file, "???" when the key gives none; fn= its
 * name as exportname.h says) whose self cost is its exclusive time, and
 * every caller->callee edge a call record (cfn=, calls= every call,
 * recursive ones included) whose cost is the edge's inclusive time: the
 * calls in which the callee was not already on the stack.  So the costs of
 * the calls into a function add up to its inclusive time, outermost
 * activations only, which is how callgrind_annotate --inclusive=yes and
 * KCachegrind count it, even through recursion.  Each thread is a function
 * "[NAME]" whose self cost is its time outside any method and which calls
 * the methods it ran at top level; the totals line is the total time.
 * The renderer borrows r. */
#ifndef CG_RENDER_CALLGRIND_H
#define CG_RENDER_CALLGRIND_H

#include "render/report.h"

extern const struct cg_renderer render_callgrind;

#endif

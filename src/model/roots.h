/* roots.h - the thread roots the call graph draws: the threads of a pool
 * as one root, idle threads folded into one.
 *
 * Rules, for a view of two or more threads (the man page states them at
 * --no-merge-threads):
 *  1. Idle threads.  A thread is idle when it spent at least 90 % of its
 *     time waiting, by the waiting rule of waiting.h applied to the whole
 *     thread: with both clocks, its cpu time (last - first event on the
 *     thread-cpu clock) is at most 10 % of its wall time; with one clock,
 *     one of its known blocking methods has at least 90 % of the thread's
 *     time as inclusive time.  A thread one of whose methods passes the
 *     graph's hot-spot rule (a method that is not waiting, with an
 *     exclusive time on that thread of at least hot_pct % of the view
 *     total) is not idle, and neither is the thread named "main" (it draws
 *     the frames).  Two or more idle threads fold into one root,
 *     "N idle threads"; a lone idle thread stays itself.
 *  2. Pools.  The other threads share a root when their names are the
 *     same but for their numbers (every run of decimal digits counts as
 *     one placeholder: pool-4-thread-1 and pool-4-thread-12 match,
 *     pool-4-thread-1 and pool-4-worker-1 do not) and they enter the same
 *     code: the same set of top-level callees (the methods their thread
 *     roots call, at least one).  A pool of two or more threads is
 *     labelled with the name, each run of digits that differs among its
 *     members written '*': "pool-4-thread-*" (the graph adds "(3
 *     threads)").  Rule 1 comes first: an idle thread of a pool is folded
 *     with the idle ones.
 * A merged root's numbers are its members' summed, on both clocks (times,
 * records; first and last events the earliest and the latest; depth the
 * deepest), and its root edges its members' edges summed per callee.
 * Roots are listed in the order of their first member (the view's thread
 * order).
 *
 * The view roots_make gives has one thread per root and the root edges
 * merged; its methods and method order are those of the view it came
 * from, and its edges the view's order (inclusive time descending, roots
 * before methods, then caller and callee).  So filter.c, fold.c and the
 * renderers work on it as on any view; a root's thread index there is its
 * index in roots[].
 *
 * Ownership: the roots own their arrays and names (roots_free); the view
 * they came from is borrowed and must outlive them.
 */
#ifndef CG_ROOTS_H
#define CG_ROOTS_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "model/waiting.h"

enum cg_root_kind { CG_ROOT_THREAD, CG_ROOT_POOL, CG_ROOT_IDLE };

struct cg_root {
	enum cg_root_kind kind;
	size_t first, n;   /* its threads: members[first .. first + n) */
};

struct cg_roots {
	struct cg_view view;        /* one thread per root (see above) */
	const struct cg_view *from; /* the view the roots were made from */
	struct cg_root *roots;      /* view.nthreads entries */
	uint32_t *members;          /* thread indices of `from`, root by root, each in thread order */
	struct cg_pthread *threads; /* view.threads when merged, else NULL */
	struct cg_pedge *edges;     /* view.edges when merged, else NULL */
	char *names;                /* the merged roots' names, one after another */
	size_t pools, pooled;       /* pools, and the threads in them */
	size_t idle;                /* threads folded as idle */
};

/* Group the threads of v into roots by the rules above (with merge 0, or a
 * view of one thread, every thread is its own root and out->view is *v).
 * hot_pct is the hot-spot rule's percentage (0 = no exception).  Always
 * succeeds; fills *out, which the caller passes to roots_free. */
void roots_make(const struct cg_view *v, int merge, double hot_pct, struct cg_roots *out);

/* Release what rs holds and zero it; accepts NULL and a zeroed struct. */
void roots_free(struct cg_roots *rs);

#endif

/* filter.h - threshold pruning of the call graph, a separate pass after the
 * model.
 *
 * Rules, in order (spec.md "Graph"):
 *  1. Edge rule: a caller->callee edge is kept when its inclusive time *on
 *     that edge* is at least PCT % of the caller's inclusive time (the
 *     caller method's incl_us, or for a root edge the thread's incl_us).
 *     PCT is taken to six decimals and compared in exact integer arithmetic,
 *     so 10 % of 1000 us keeps an edge of exactly 100 us.  PCT 0 keeps every
 *     edge.  (dmtracedump compared the callee's *total* inclusive time with
 *     the caller's; that keeps a busy callee under every caller, however
 *     little of its time came through that caller.)
 *  2. Reachability: methods not reachable from a thread root by kept edges
 *     are dropped, and so are edges with a dropped endpoint.
 *  3. Node cap: at most max_nodes methods (0 = no cap), admitted in a
 *     best-first search from the roots by inclusive time, so every kept
 *     method keeps a kept path from a root.
 * A self-edge A->A (direct recursion) is never subject to the rule: it is
 * kept exactly when A is, and renderers draw recursion as a self-loop on A
 * labelled with A's rec_calls.  Thread roots are always kept and are not
 * counted as nodes.
 *
 * Ownership: the selection owns its three arrays; filter_sel_free releases
 * them.  The view is borrowed and must outlive nothing here.
 */
#ifndef CG_FILTER_H
#define CG_FILTER_H

#include <stddef.h>

#include "profile.h"
#include "util.h"

/* Default --max-nodes: dot layout time grows much faster than linearly with
 * nodes and crossing edges.  Measured (libgvc 2.42, 2-core machine, render
 * to SVG, which is almost all layout):
 *   corpus traces at -t 0 (densest), worst trace:  100 nodes 0.09 s,
 *     150 0.23 s, 200 0.49 s, 300 5.0 s;
 *   synthetic DAGs, 2 edges per node, 5 seeds:    100 0.07-0.21 s,
 *     150 0.16-0.65 s, 200 0.42-0.96 s, 300 1-5 s;
 *   every corpus trace at the default -t 20 with this cap: <= 0.22 s.
 * 150 is the largest round cap whose worst case stays well under a second. */
#define CG_DEFAULT_MAX_NODES 150

struct cg_graph_sel {
	unsigned char *keep_method;  /* by position in view->methods (nmethods entries) */
	unsigned char *keep_thread;  /* by index in view->threads */
	unsigned char *keep_edge;    /* by index in view->edges */
	size_t nodes_kept, nodes_dropped, edges_kept, edges_dropped;
};

/* Select the nodes and edges of v to draw, by the rules above.  pct is the
 * threshold in percent, 0 to 100; max_nodes caps the method nodes (0: no
 * cap).  On success fills *out (which the caller later passes to
 * filter_sel_free) and returns 0.  Returns -1 with err filled, and *out
 * zeroed, when pct is not a number from 0 to 100.  Counts: nodes_* count
 * methods of v (kept + dropped == v->nmethods); edges_* count v->edges
 * (kept + dropped == v->nedges). */
int filter_prune(const struct cg_view *v, double pct, size_t max_nodes, struct cg_graph_sel *out,
		 struct cg_error *err);

/* Release the arrays of sel and zero it; accepts NULL and a zeroed sel. */
void filter_sel_free(struct cg_graph_sel *sel);

#endif

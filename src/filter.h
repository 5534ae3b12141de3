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
 *  3. Caps (max_nodes 0 = none): at most max_nodes nodes, thread roots and
 *     methods together, admitted in a best-first search from the roots by
 *     inclusive time (roots first on ties), so every kept method keeps a
 *     kept path from a kept root: the edge it was reached by (its tree
 *     edge) is always drawn.  Other kept edges between kept nodes are then
 *     drawn busiest first up to CG_EDGES_PER_NODE * max_nodes edges in all,
 *     since dot's layout time grows with crossing edges as much as nodes.
 * A self-edge A->A (direct recursion) is never subject to the rule or the
 * edge cap: it is kept exactly when A is, and renderers draw recursion as a
 * self-loop on A labelled with A's rec_calls.
 *
 * Ownership: the selection owns its three arrays; filter_sel_free releases
 * them.  The view is borrowed and must outlive nothing here.
 */
#ifndef CG_FILTER_H
#define CG_FILTER_H

#include <stddef.h>

#include "profile.h"
#include "util.h"

/* Default --max-nodes.  Measured on a 2-core machine, libgvc 2.42, whole
 * callgraph runs or render_graph calls:
 *   layout + SVG, synthetic DAGs with 2 edges per node (13 seeds):
 *     150 nodes <= 0.10 s, 200 <= 0.18 s, 250 0.18-0.56 s, 300 0.5-1.2 s;
 *   layout + SVG, every corpus trace at -t 0 (the densest graphs), cap 250:
 *     <= 0.11 s;
 *   PNG (raster-bound) of the widest corpus graphs at -t 20: cap 150
 *     0.61-0.75 s, cap 200 up to 1.04 s.
 * 150 keeps every output format of every corpus trace under a second and
 * the layout itself about ten times under. */
#define CG_DEFAULT_MAX_NODES 150

/* With a node cap N, at most this many times N edges are drawn (recursion
 * loops aside). */
#define CG_EDGES_PER_NODE 2

struct cg_graph_sel {
	unsigned char *keep_method;  /* by position in view->methods (nmethods entries) */
	unsigned char *keep_thread;  /* by index in view->threads */
	unsigned char *keep_edge;    /* by index in view->edges */
	size_t nodes_kept, nodes_dropped, edges_kept, edges_dropped;
};

/* Select the nodes and edges of v to draw, by the rules above.  pct is the
 * threshold in percent, 0 to 100; max_nodes caps the nodes (roots and
 * methods together) and with them the edges; 0 means no caps.  On success
 * fills *out (which the caller later passes to filter_sel_free) and
 * returns 0.  Returns -1 with err filled, and *out
 * zeroed, when pct is not a number from 0 to 100.  Counts: nodes_* count
 * thread roots and methods of v (kept + dropped == v->nthreads +
 * v->nmethods); edges_* count v->edges (kept + dropped == v->nedges). */
int filter_prune(const struct cg_view *v, double pct, size_t max_nodes, struct cg_graph_sel *out,
		 struct cg_error *err);

/* Release the arrays of sel and zero it; accepts NULL and a zeroed sel. */
void filter_sel_free(struct cg_graph_sel *sel);

#endif

/* filter.h - which nodes and edges the call graph draws, a separate pass
 * after the model.
 *
 * Items are the thread roots and the methods of a view.  Rules, in order
 * (spec.md "Graph"); every comparison is exact integer arithmetic on the
 * percentages taken to six decimals:
 *  1. Node floor: an item whose inclusive time is below node_pct % of the
 *     view's total is dropped; so is any item at 0 us (a thread root
 *     included), whatever the floor.
 *  2. Edge rule (-t, when pct > 0): a caller->callee edge passes when its
 *     inclusive time *on that edge* is at least pct % of the caller's
 *     inclusive time (the caller method's incl_us, or for a root edge the
 *     thread's incl_us); 10 % of 1000 us keeps an edge of exactly 100 us.
 *     Items not reachable from a thread root along passing edges are
 *     dropped.  (dmtracedump compared the callee's *total* inclusive time
 *     with the caller's; that keeps a busy callee under every caller,
 *     however little of its time came through that caller.)
 *  3. Node cap (max_nodes, 0 = none): thread roots and methods are taken
 *     by inclusive time (roots first on ties).  Methods whose exclusive
 *     time is at least hot_pct % of the total (the hot spots) are admitted
 *     while there is room; any other item only while room remains beyond
 *     a reserve for the hot spots still to come (at most half the cap).
 *     So the default graph keeps every hot spot, and the structure above
 *     them fills the rest.
 *  4. Edges: an edge between two kept items that passes the edge rule is
 *     drawn when its inclusive time is at least edge_pct % of the total,
 *     busiest first, up to CG_EDGES_PER_NODE * max_nodes edges.
 *  5. Residual edges: when a kept method is called through dropped methods
 *     (callers of callers ... that are not drawn), a dotted residual edge
 *     runs from each nearest kept ancestor on those paths (busiest first,
 *     at most CG_RESIDUAL_PER_NODE per method) when the time the method
 *     receives from dropped callers is at least edge_pct % of the total.
 *     A kept method that still has no drawn caller gets its busiest direct
 *     edge from a kept caller, whatever its time.
 * A self-edge A->A (direct recursion) is never subject to the rules or the
 * cap: it is kept exactly when A is, and renderers draw recursion as a
 * self-loop on A labelled with A's rec_calls.
 *
 * Ownership: the selection owns its arrays; filter_sel_free releases them.
 * The view is borrowed and must outlive nothing here.
 */
#ifndef CG_FILTER_H
#define CG_FILTER_H

#include <stddef.h>

#include "model/profile.h"
#include "util/util.h"

/* Default --max-nodes (see the man page for how it was chosen). */
#define CG_DEFAULT_MAX_NODES 80
/* The largest --max-nodes honoured: with gv_layout.c's bounds, the worst
 * graph of that size (random calls, every edge drawn) is laid out and
 * rendered in a few seconds (see the man page). */
#define CG_MAX_NODES_LIMIT 500

/* Default node and edge fractions (percent of the view total) and -t. */
#define CG_DEFAULT_NODE_PCT 0.5
#define CG_DEFAULT_EDGE_PCT 0.1
#define CG_DEFAULT_THRESHOLD 0.0
/* Hot spots: methods with at least this share of exclusive time, admitted
 * first under the node cap. */
#define CG_DEFAULT_HOT_PCT 1.0

/* At most this many residual edges into one method. */
#define CG_RESIDUAL_PER_NODE 3

/* Layout cost of larger caps, measured on a 2-core machine, libgvc 2.42,
 * whole callgraph runs or render_graph calls:
 *   layout + SVG, synthetic DAGs with 2 edges per node (13 seeds):
 *     150 nodes <= 0.10 s, 200 <= 0.18 s, 250 0.18-0.56 s, 300 0.5-1.2 s;
 *   layout + SVG, every corpus trace at -t 0 (the densest graphs), cap 250:
 *     <= 0.11 s;
 *   PNG (raster-bound) of the widest corpus graphs at -t 20: cap 150
 *     0.61-0.75 s, cap 200 up to 1.04 s.
 * so any cap up to 150 keeps every output format of every corpus trace
 * under a second; 80 is chosen for legibility (a readable PNG). */

/* With a node cap N, at most this many times N edges are drawn (recursion
 * loops aside). */
#define CG_EDGES_PER_NODE 2

struct cg_graph_rules {
	double pct;        /* -t: percent of the caller's time; 0 = off */
	double node_pct;   /* node floor, percent of the view total */
	double edge_pct;   /* edge floor, percent of the view total */
	double hot_pct;    /* hot spots admitted first under the cap; 0 = none */
	size_t max_nodes;  /* 0 = no cap */
};

/* A residual edge: from a kept item (thread index, or nthreads + method
 * position) to a kept method (its position in view->methods). */
struct cg_residual {
	uint32_t from;
	uint32_t to;
};

struct cg_graph_sel {
	unsigned char *keep_method;  /* by position in view->methods (nmethods entries) */
	unsigned char *keep_thread;  /* by index in view->threads */
	unsigned char *keep_edge;    /* by index in view->edges */
	struct cg_residual *residual;/* nresidual entries, in method order */
	size_t nresidual;
	size_t nodes_kept, nodes_dropped, edges_kept, edges_dropped;
	/* What each rule dropped (nodes: items; edges: view edges). */
	size_t drop_floor;   /* items below the node floor or roots at 0 us */
	size_t drop_rule;    /* items above it not reachable by -t edges */
	size_t drop_cap;     /* items cut by the node cap */
	size_t edrop_floor;  /* edges between kept items below the edge floor */
	size_t edrop_cap;    /* edges cut by the edge cap */
};

/* Select the nodes and edges of v to draw, by the rules above.  On success
 * fills *out (which the caller later passes to filter_sel_free) and returns
 * 0.  Returns -1 with err filled, and *out zeroed, when a percentage is not
 * a number from 0 to 100.  Counts: nodes_* count thread roots and methods
 * of v (kept + dropped == v->nthreads + v->nmethods); edges_* count
 * v->edges (kept + dropped == v->nedges; residual edges are counted by
 * nresidual only). */
int filter_select(const struct cg_view *v, const struct cg_graph_rules *rules,
		  struct cg_graph_sel *out, struct cg_error *err);

/* filter_select with only the -t rule and the cap: pct as -t, max_nodes,
 * no floors, no hot spots. */
int filter_prune(const struct cg_view *v, double pct, size_t max_nodes, struct cg_graph_sel *out,
		 struct cg_error *err);

/* 1 when us is at least pct % of whole, exactly (pct taken to six
 * decimals, as the rules above); 0 when pct is not from 0 to 100. */
int filter_pct_ge(uint64_t us, double pct, uint64_t whole);

/* Release the arrays of sel and zero it; accepts NULL and a zeroed sel. */
void filter_sel_free(struct cg_graph_sel *sel);

#endif

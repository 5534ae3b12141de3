/* gv_layout.h - a bound on the work of dot's layout (render_gv.c).
 *
 * dot's cost is set by the graph it really lays out: every edge that spans
 * several ranks becomes a chain of virtual nodes (two per rank, as edge
 * labels double the ranks), and the x-coordinate pass runs network simplex
 * over all of them, each iteration costing time in proportion to their
 * number.  Left alone, a 400-node graph of random calls took 15 s of CPU
 * (95 000 crossings in mincross, then 10 000 simplex iterations over
 * 16 000 nodes).  gv_layout_cost estimates that size from the graph as
 * built, before dot sees it; gv_layout_bound caps the iterations of each
 * phase (nslimit1, mclimit, nslimit, searchsize) so that their product
 * with the size stays within a fixed budget.  The estimate needs no
 * layout and is the same on every machine, so the drawing is too.
 */
#ifndef CG_GV_LAYOUT_H
#define CG_GV_LAYOUT_H

#include <stddef.h>

#include <cgraph.h>

struct gv_layout_cost {
	size_t nodes;   /* real nodes */
	size_t edges;   /* edges, self-loops included */
	size_t ranks;   /* longest path, in ranks */
	size_t aux;     /* estimated nodes of dot's positioning graph */
};

/* Estimate the layout size of g, whose edges (self-loops aside) must form
 * a DAG (gv_build makes them so).  Longest-path layering bounds the ranks
 * that network simplex finds from above, so aux is an upper estimate. */
void gv_layout_cost(Agraph_t *g, struct gv_layout_cost *c);

enum gv_engine {
	GV_DOT,          /* dot, unaided: the graph is small */
	GV_DOT_BOUNDED,  /* dot with its iterations capped */
	GV_SFDP          /* too deep for dot in bounded time: sfdp, a
			    force-directed layout whose cost follows nodes
			    and edges, not ranks */
};

/* Choose the engine for cost c and set g's limits for it (nothing for
 * GV_DOT, so the layout of a small graph is dot's own).  The engine's
 * Graphviz name is gv_layout_name(engine). */
enum gv_engine gv_layout_bound(Agraph_t *g, const struct gv_layout_cost *c);

const char *gv_layout_name(enum gv_engine engine);

#endif

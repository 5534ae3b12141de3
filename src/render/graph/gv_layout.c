/* gv_layout.c - a bound on the work of dot's layout; see gv_layout.h.
 */
#include "render/graph/gv_layout.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/util.h"

/* Budgets, in (estimated positioning-graph nodes) x (iterations): the
 * x-coordinate network simplex, the ranking one (over the real graph), and
 * mincross (its default effort, mclimit 1, is 24 iterations).  Measured on
 * the 2-core machine of the man page, a positioning iteration costs about
 * 0.2 us per node. */
#define POS_BUDGET 1000000.0
#define RANK_BUDGET 4000000.0
#define MC_BUDGET 1000.0
/* Graphs whose positioning graph has at most AUX_FREE nodes are laid out
 * as dot would: the worst of them takes well under a second.  Past
 * AUX_DOT_MAX even dot's fixed costs (the initial feasible tree, the first
 * mincross pass, spline routing) take seconds, and grow with the square
 * of the ranks: a 500-node chain called from its root at every level took
 * over 300 s. */
#define AUX_FREE 3000
#define AUX_DOT_MAX 12000

void gv_layout_cost(Agraph_t *g, struct gv_layout_cost *c)
{
	size_t n = (size_t)agnnodes(g), head = 0, tail = 0, maxseq = 0, span = 0;
	size_t *indeg, *rank;
	Agnode_t *v, **queue;
	Agedge_t *e;

	c->nodes = n;
	c->edges = (size_t)agnedges(g);
	c->ranks = 0;
	for (v = agfstnode(g); v; v = agnxtnode(g, v))
		if ((size_t)AGSEQ(v) > maxseq)
			maxseq = (size_t)AGSEQ(v);
	indeg = xcalloc(maxseq + 1, sizeof(*indeg));
	rank = xcalloc(maxseq + 1, sizeof(*rank));
	queue = xmalloc((n ? n : 1) * sizeof(*queue));
	for (v = agfstnode(g); v; v = agnxtnode(g, v))
		for (e = agfstout(g, v); e; e = agnxtout(g, e))
			if (aghead(e) != v)
				indeg[AGSEQ(aghead(e))]++;
	for (v = agfstnode(g); v; v = agnxtnode(g, v))
		if (indeg[AGSEQ(v)] == 0)
			queue[tail++] = v;
	/* Kahn's order gives every node its longest path from a source. */
	while (head < tail) {
		v = queue[head++];
		for (e = agfstout(g, v); e; e = agnxtout(g, e)) {
			Agnode_t *h = aghead(e);

			if (h == v)
				continue;
			if (rank[AGSEQ(h)] < rank[AGSEQ(v)] + 1)
				rank[AGSEQ(h)] = rank[AGSEQ(v)] + 1;
			if (--indeg[AGSEQ(h)] == 0)
				queue[tail++] = h;
		}
	}
	for (v = agfstnode(g); v; v = agnxtnode(g, v)) {
		if (rank[AGSEQ(v)] > c->ranks)
			c->ranks = rank[AGSEQ(v)];
		for (e = agfstout(g, v); e; e = agnxtout(g, e))
			if (aghead(e) != v && rank[AGSEQ(aghead(e))] > rank[AGSEQ(v)])
				span += rank[AGSEQ(aghead(e))] - rank[AGSEQ(v)];
	}
	/* Labels double the ranks: 2 * span - 1 virtual nodes per edge, and
	 * the positioning graph adds one node per edge. */
	c->aux = n + 2 * span + c->edges;
	free(indeg);
	free(rank);
	free(queue);
}

static void set_num(Agraph_t *g, const char *attr, double value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.4f", value);
	agsafeset(g, (char *)attr, buf, "");
}

enum gv_engine gv_layout_bound(Agraph_t *g, const struct gv_layout_cost *c)
{
	double aux = (double)c->aux, n = c->nodes ? (double)c->nodes : 1.0;
	double mc;

	if (c->aux <= AUX_FREE)
		return GV_DOT;
	if (c->aux > AUX_DOT_MAX) {
		/* Overlapping boxes would hide nodes: prism moves them apart. */
		agsafeset(g, "overlap", "prism", "");
		return GV_SFDP;
	}
	/* nslimit and nslimit1 count iterations in units of real nodes. */
	set_num(g, "nslimit", POS_BUDGET / aux / n);
	set_num(g, "nslimit1", RANK_BUDGET / ((double)(c->nodes + c->edges)) / n);
	mc = MC_BUDGET / aux;
	set_num(g, "mclimit", mc < 1.0 ? mc : 1.0);
	agsafeset(g, "searchsize", "10", "");
	return GV_DOT_BOUNDED;
}

const char *gv_layout_name(enum gv_engine engine)
{
	return engine == GV_SFDP ? "sfdp" : "dot";
}

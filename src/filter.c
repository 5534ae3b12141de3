/* filter.c - threshold pruning: the -t edge rule, reachability from the
 * thread roots, then the node cap (see filter.h for the rules). */
#include "filter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The threshold is used to six decimals: 12.5 % is 12500000 millionths. */
#define PCT_SCALE 1000000u

/* hi:lo = a * b, the full 128-bit product. */
static void mul_u64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);

	*lo = (mid << 32) | (p00 & 0xffffffffu);
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* 1 when a * b >= c * d, exactly (no overflow, no rounding). */
static int prod_ge(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t h1, l1, h2, l2;

	mul_u64(a, b, &h1, &l1);
	mul_u64(c, d, &h2, &l2);
	return h1 != h2 ? h1 > h2 : l1 >= l2;
}

/* Position of symtab method index midx in v->methods, or UINT32_MAX. */
static uint32_t pos_of(const struct cg_view *v, uint32_t midx)
{
	uint32_t p;

	if (midx >= v->npos)
		return UINT32_MAX;
	p = v->method_pos[midx];
	return p < v->nmethods ? p : UINT32_MAX;
}

/* Best-first order of the graph's items: an item is a thread root (id <
 * nthreads) or a method (id - nthreads is its position in v->methods).
 * Busier first; on a tie roots first, then by index (methods[] is already
 * in inclusive order, so positions keep the view's tie-breaks). */
struct order {
	const struct cg_view *v;
	uint32_t nt;
};

static uint64_t item_us(const struct order *o, uint32_t id)
{
	return id < o->nt ? o->v->threads[id].incl_us : o->v->methods[id - o->nt].incl_us;
}

static int item_before(const struct order *o, uint32_t a, uint32_t b)
{
	uint64_t ta = item_us(o, a), tb = item_us(o, b);

	if (ta != tb)
		return ta > tb;
	return a < b; /* roots have the smaller ids */
}

/* A binary heap of item ids, first item on top. */
struct heap {
	uint32_t *a;
	size_t n;
};

static void heap_push(struct heap *h, const struct order *o, uint32_t x)
{
	size_t i = h->n++;

	while (i > 0 && item_before(o, x, h->a[(i - 1) / 2])) {
		h->a[i] = h->a[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->a[i] = x;
}

static uint32_t heap_pop(struct heap *h, const struct order *o)
{
	uint32_t top = h->a[0], x = h->a[--h->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && item_before(o, h->a[c + 1], h->a[c]))
			c++;
		if (!item_before(o, h->a[c], x))
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n)
		h->a[i] = x;
	return top;
}

int filter_prune(const struct cg_view *v, double pct, size_t max_nodes, struct cg_graph_sel *out,
		 struct cg_error *err)
{
	size_t nm = v->nmethods, nt = v->nthreads, ne = v->nedges, ni = nm + nt;
	size_t i, k, cap, edge_room, ntree = 0;
	struct order o = { v, (uint32_t)nt };
	unsigned char *rule, *queued, *tree;
	uint32_t *via, *adj;
	size_t *start, *fill;
	struct heap h = { NULL, 0 };
	uint64_t pmicro;

	memset(out, 0, sizeof(*out));
	if (!(pct >= 0.0 && pct <= 100.0)) {
		cg_error_set(err, -1, "threshold %g is not a percentage from 0 to 100", pct);
		return -1;
	}
	pmicro = (uint64_t)(pct * PCT_SCALE + 0.5);
	out->keep_method = xcalloc(nm ? nm : 1, 1);
	out->keep_thread = xcalloc(nt ? nt : 1, 1);
	out->keep_edge = xcalloc(ne ? ne : 1, 1);
	rule = xcalloc(ne ? ne : 1, 1);
	tree = xcalloc(ne ? ne : 1, 1);
	queued = xcalloc(ni ? ni : 1, 1);
	via = xmalloc((nm ? nm : 1) * sizeof(*via));
	start = xcalloc(ni + 1, sizeof(*start));
	h.a = xmalloc((ni ? ni : 1) * sizeof(*h.a));

	/* 1. The edge rule.  Self-edges are recursion, drawn with their node.
	 * start[] counts the passing edges of each caller item. */
	for (i = 0; i < ne; i++) {
		const struct cg_pedge *e = &v->edges[i];
		uint32_t cpos = UINT32_MAX, epos = pos_of(v, e->callee);
		uint64_t caller_us;

		if (epos == UINT32_MAX)
			continue;
		if (e->from_root) {
			if (e->caller >= nt)
				continue;
			caller_us = v->threads[e->caller].incl_us;
		} else {
			cpos = pos_of(v, e->caller);
			if (cpos == UINT32_MAX || cpos == epos)
				continue;
			caller_us = v->methods[cpos].incl_us;
		}
		/* edge * 100 >= pct * caller, with pct in millionths. */
		if (!prod_ge(e->incl_us, 100u * (uint64_t)PCT_SCALE, pmicro, caller_us))
			continue;
		rule[i] = 1;
		start[(e->from_root ? e->caller : nt + cpos) + 1]++;
	}

	/* The passing edges by caller item (compressed rows of edge indices). */
	for (k = 0; k < ni; k++)
		start[k + 1] += start[k];
	adj = xmalloc((start[ni] ? start[ni] : 1) * sizeof(*adj));
	fill = xmalloc((ni ? ni : 1) * sizeof(*fill));
	memcpy(fill, start, ni * sizeof(*fill));
	for (i = 0; i < ne; i++) {
		const struct cg_pedge *e = &v->edges[i];

		if (rule[i])
			adj[fill[e->from_root ? e->caller : nt + pos_of(v, e->caller)]++] = (uint32_t)i;
	}
	free(fill);

	/* 2 and 3. Best-first search from the roots: what it reaches is what
	 * the passing edges reach; with a cap, the busiest items are admitted
	 * first, each method through an edge from an admitted caller (its tree
	 * edge, which is always drawn). */
	for (i = 0; i < nt; i++) {
		queued[i] = 1;
		heap_push(&h, &o, (uint32_t)i);
	}
	cap = max_nodes ? max_nodes : SIZE_MAX;
	while (h.n && out->nodes_kept < cap) {
		uint32_t x = heap_pop(&h, &o);

		if (x < nt) {
			out->keep_thread[x] = 1;
		} else {
			out->keep_method[x - nt] = 1;
			tree[via[x - nt]] = 1;
			ntree++;
		}
		out->nodes_kept++;
		for (k = start[x]; k < start[x + 1]; k++) {
			uint32_t c = (uint32_t)nt + pos_of(v, v->edges[adj[k]].callee);

			if (!queued[c]) {
				queued[c] = 1;
				via[c - nt] = adj[k];
				heap_push(&h, &o, c);
			}
		}
	}
	out->nodes_dropped = ni - out->nodes_kept;

	/* Edges: tree edges, self-edges of kept methods, then other passing
	 * edges between kept ends, busiest first (view order), within the
	 * edge cap. */
	edge_room = max_nodes ? CG_EDGES_PER_NODE * max_nodes - ntree : SIZE_MAX;
	for (i = 0; i < ne; i++) {
		const struct cg_pedge *e = &v->edges[i];
		uint32_t epos = pos_of(v, e->callee);
		int keep = 0;

		if (epos == UINT32_MAX || !out->keep_method[epos]) {
			keep = 0;
		} else if (!e->from_root && pos_of(v, e->caller) == epos) {
			keep = 1;
		} else if (tree[i]) {
			keep = 1;
		} else if (rule[i] && edge_room > 0 &&
			   (e->from_root ? out->keep_thread[e->caller]
					 : out->keep_method[pos_of(v, e->caller)])) {
			keep = 1;
			edge_room--;
		}
		out->keep_edge[i] = (unsigned char)keep;
		out->edges_kept += (size_t)keep;
	}
	out->edges_dropped = ne - out->edges_kept;

	free(rule);
	free(tree);
	free(queued);
	free(via);
	free(start);
	free(adj);
	free(h.a);
	return 0;
}

void filter_sel_free(struct cg_graph_sel *sel)
{
	if (!sel)
		return;
	free(sel->keep_method);
	free(sel->keep_thread);
	free(sel->keep_edge);
	memset(sel, 0, sizeof(*sel));
}

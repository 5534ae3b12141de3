/* filter.c - what the graph draws: node floor, the -t edge rule with
 * reachability from the thread roots, the node cap with hot spots first,
 * edge floor and cap, residual edges (see filter.h for the rules). */
#include "model/filter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/groups.h"

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

/* pct (0 to 100) in millionths of a percent, or -1 when out of range. */
static int64_t pct_micro(double pct)
{
	if (!(pct >= 0.0 && pct <= 100.0))
		return -1;
	return (int64_t)(pct * PCT_SCALE + 0.5);
}

/* 1 when us >= pm millionths of a percent of whole. */
static int share_ge(uint64_t us, uint64_t pm, uint64_t whole)
{
	return prod_ge(us, 100u * (uint64_t)PCT_SCALE, pm, whole);
}

/* Item of an edge's caller / callee: thread index, or nthreads + position
 * in v->methods; UINT32_MAX when not in the view. */
static uint32_t caller_item(const struct cg_view *v, const struct cg_pedge *e)
{
	uint32_t p;

	if (e->from_root)
		return e->caller < v->nthreads ? e->caller : UINT32_MAX;
	p = pos_of(v, e->caller);
	return p == UINT32_MAX ? p : (uint32_t)v->nthreads + p;
}

static uint32_t callee_item(const struct cg_view *v, const struct cg_pedge *e)
{
	uint32_t p = pos_of(v, e->callee);

	return p == UINT32_MAX ? p : (uint32_t)v->nthreads + p;
}

/* Compressed rows: for each item, the indices of the edges in `use` that
 * leave it (by_callee 0) or enter it (by_callee 1).  *start has ni + 1
 * entries; both arrays are the caller's to free. */
static void edge_rows(const struct cg_view *v, const unsigned char *use, int by_callee,
		      uint32_t **start_out, uint32_t **adj_out)
{
	uint32_t *keys = xmalloc((v->nedges + 1) * sizeof(*keys));
	struct cg_groups g;
	size_t i;

	for (i = 0; i < v->nedges; i++) {
		uint32_t c = caller_item(v, &v->edges[i]), h = callee_item(v, &v->edges[i]);

		keys[i] = use[i] && c != UINT32_MAX && h != UINT32_MAX ? (by_callee ? h : c)
									: GROUPS_SKIP;
	}
	groups_build(&g, v->nthreads + v->nmethods, keys, NULL, v->nedges);
	free(keys);
	*start_out = g.start;
	*adj_out = g.item;
}

/* Sort ids by item_before (a merge sort: stable and O(n log n)). */
static void order_sort(const struct order *o, uint32_t *ids, uint32_t *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	order_sort(o, ids, tmp, h);
	order_sort(o, ids + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = item_before(o, ids[j], ids[i]) ? ids[j++] : ids[i++];
	while (i < h)
		tmp[k++] = ids[i++];
	while (j < n)
		tmp[k++] = ids[j++];
	memcpy(ids, tmp, n * sizeof(*ids));
}

int filter_select(const struct cg_view *v, const struct cg_graph_rules *rules,
		  struct cg_graph_sel *out, struct cg_error *err)
{
	size_t nm = v->nmethods, nt = v->nthreads, ne = v->nedges, ni = nm + nt;
	size_t i, k, cap, nc = 0, edge_room, head, tail;
	int64_t t_pm = pct_micro(rules->pct), n_pm = pct_micro(rules->node_pct),
		e_pm = pct_micro(rules->edge_pct), h_pm = pct_micro(rules->hot_pct);
	unsigned char *rule, *reach, *cand, *hot, *kept, *drawn_in;
	uint32_t *queue, *ids, *tmp, *stamp;
	uint32_t *fstart, *rstart;
	uint32_t *fadj, *radj;
	struct order o = { v, (uint32_t)nt };
	size_t nhot = 0;
	uint64_t total = v->total_us;
	size_t rcap = 0;

	memset(out, 0, sizeof(*out));
	if (t_pm < 0 || n_pm < 0 || e_pm < 0 || h_pm < 0) {
		double bad = t_pm < 0 ? rules->pct : n_pm < 0 ? rules->node_pct
				   : e_pm < 0 ? rules->edge_pct : rules->hot_pct;

		cg_error_set(err, -1, "threshold %g is not a percentage from 0 to 100", bad);
		return -1;
	}
	out->keep_method = xcalloc(nm ? nm : 1, 1);
	out->keep_thread = xcalloc(nt ? nt : 1, 1);
	out->keep_edge = xcalloc(ne ? ne : 1, 1);
	rule = xcalloc(ne ? ne : 1, 1);
	reach = xcalloc(ni ? ni : 1, 1);
	cand = xcalloc(ni ? ni : 1, 1);
	hot = xcalloc(ni ? ni : 1, 1);
	kept = xcalloc(ni ? ni : 1, 1);
	drawn_in = xcalloc(ni ? ni : 1, 1);
	queue = xmalloc((ni ? ni : 1) * sizeof(*queue));
	ids = xmalloc((ni ? ni : 1) * sizeof(*ids));
	tmp = xmalloc((ni ? ni : 1) * sizeof(*tmp));
	stamp = xmalloc((ni ? ni : 1) * sizeof(*stamp));

	/* 2. The edge rule (self-edges are recursion, drawn with their node). */
	for (i = 0; i < ne; i++) {
		const struct cg_pedge *e = &v->edges[i];
		uint32_t c = caller_item(v, e), h = callee_item(v, e);
		uint64_t caller_us;

		if (c == UINT32_MAX || h == UINT32_MAX || c == h)
			continue;
		caller_us = c < nt ? v->threads[c].incl_us : v->methods[c - nt].incl_us;
		rule[i] = (unsigned char)(t_pm == 0 ||
					  prod_ge(e->incl_us, 100u * (uint64_t)PCT_SCALE,
						  (uint64_t)t_pm, caller_us));
	}
	edge_rows(v, rule, 0, &fstart, &fadj);
	edge_rows(v, rule, 1, &rstart, &radj);

	/* Reachability from the roots (with time) along passing edges. */
	head = tail = 0;
	for (i = 0; i < nt; i++)
		if (v->threads[i].incl_us > 0) {
			reach[i] = 1;
			queue[tail++] = (uint32_t)i;
		}
	while (head < tail) {
		uint32_t x = queue[head++];

		for (k = fstart[x]; k < fstart[x + 1]; k++) {
			uint32_t h = callee_item(v, &v->edges[fadj[k]]);

			if (!reach[h]) {
				reach[h] = 1;
				queue[tail++] = h;
			}
		}
	}

	/* 1 and 2: candidates pass the floor and are reachable. */
	for (k = 0; k < ni; k++) {
		uint64_t us = k < nt ? v->threads[k].incl_us : v->methods[k - nt].incl_us;

		if (us == 0 || !share_ge(us, (uint64_t)n_pm, total)) {
			out->drop_floor++;
		} else if (!reach[k]) {
			out->drop_rule++;
		} else {
			cand[k] = 1;
			ids[nc++] = (uint32_t)k;
			hot[k] = (unsigned char)(k >= nt && h_pm > 0 &&
						 share_ge(v->methods[k - nt].excl_us, (uint64_t)h_pm, total));
		}
	}

	/* 3. The cap: by inclusive time; a hot spot is admitted while there is
	 * room, anything else only beyond a reserve for the hot spots still
	 * to come (at most half the cap). */
	order_sort(&o, ids, tmp, nc);
	cap = rules->max_nodes ? rules->max_nodes : SIZE_MAX;
	for (k = 0; k < nc; k++)
		nhot += hot[ids[k]];
	for (k = 0; k < nc; k++) {
		size_t reserve = nhot < cap / 2 ? nhot : cap / 2;

		if (out->nodes_kept < cap && (hot[ids[k]] || out->nodes_kept + reserve < cap)) {
			kept[ids[k]] = 1;
			if (ids[k] < nt)
				out->keep_thread[ids[k]] = 1;
			else
				out->keep_method[ids[k] - nt] = 1;
			out->nodes_kept++;
		} else {
			out->drop_cap++;
		}
		nhot -= hot[ids[k]];
	}
	out->nodes_dropped = ni - out->nodes_kept;

	/* 4. Direct edges between kept items, busiest first (view order). */
	edge_room = rules->max_nodes ? CG_EDGES_PER_NODE * rules->max_nodes : SIZE_MAX;
	for (i = 0; i < ne; i++) {
		const struct cg_pedge *e = &v->edges[i];
		uint32_t c = caller_item(v, e), h = callee_item(v, e);

		if (c == UINT32_MAX || h == UINT32_MAX || !kept[c] || !kept[h])
			continue;
		if (c == h) {
			out->keep_edge[i] = 1;  /* the recursion loop */
		} else if (!rule[i]) {
			continue;
		} else if (share_ge(e->incl_us, (uint64_t)e_pm, total) && edge_room > 0) {
			out->keep_edge[i] = 1;
			drawn_in[h] = 1;
			edge_room--;
		}
	}

	/* 5. Residual edges: from each kept method up through dropped callers
	 * to the nearest kept ancestors.  stamp marks what this search saw. */
	for (k = 0; k < ni; k++)
		stamp[k] = UINT32_MAX;
	for (k = nt; k < ni; k++) {
		uint64_t from_dropped = 0;
		size_t nfound = 0, f;

		if (!kept[k])
			continue;
		for (i = rstart[k]; i < rstart[k + 1]; i++) {
			uint32_t c = caller_item(v, &v->edges[radj[i]]);

			if (!kept[c])
				from_dropped += v->edges[radj[i]].incl_us;
		}
		if (from_dropped == 0 || !share_ge(from_dropped, (uint64_t)e_pm, total))
			continue;
		/* Breadth-first up through dropped items; kept ones found are
		 * collected in tmp (nfound) and not searched further. */
		head = tail = 0;
		stamp[k] = (uint32_t)k;
		queue[tail++] = (uint32_t)k;
		while (head < tail) {
			uint32_t x = queue[head++];

			for (i = rstart[x]; i < rstart[x + 1]; i++) {
				uint32_t c = caller_item(v, &v->edges[radj[i]]);

				/* A kept direct caller is not a residual source, but
				 * may be one through a dropped frame: not marked. */
				if (stamp[c] == (uint32_t)k || (kept[c] && x == k))
					continue;
				stamp[c] = (uint32_t)k;
				if (kept[c])
					tmp[nfound++] = c;
				else
					queue[tail++] = c;
			}
		}
		/* Busiest ancestors first; skip those with a drawn direct edge. */
		{
			size_t a, b;

			for (a = 1; a < nfound; a++)
				for (b = a; b > 0 && item_before(&o, tmp[b], tmp[b - 1]); b--) {
					uint32_t t = tmp[b];

					tmp[b] = tmp[b - 1];
					tmp[b - 1] = t;
				}
		}
		for (f = 0, i = 0; f < nfound && i < CG_RESIDUAL_PER_NODE; f++) {
			size_t d;
			int direct = 0;

			for (d = rstart[k]; d < rstart[k + 1]; d++)
				if (out->keep_edge[radj[d]] && caller_item(v, &v->edges[radj[d]]) == tmp[f])
					direct = 1;
			if (direct)
				continue;
			if (out->nresidual == rcap) {
				rcap = rcap ? 2 * rcap : 16;
				out->residual = xrealloc(out->residual, rcap * sizeof(*out->residual));
			}
			out->residual[out->nresidual].from = tmp[f];
			out->residual[out->nresidual].to = (uint32_t)(k - nt);
			out->nresidual++;
			drawn_in[k] = 1;
			i++;
		}
	}

	/* A kept method with no drawn caller keeps its busiest direct edge
	 * from a kept caller (edges are in inclusive order). */
	for (k = nt; k < ni; k++) {
		if (!kept[k] || drawn_in[k])
			continue;
		for (i = rstart[k]; i < rstart[k + 1]; i++) {
			uint32_t c = caller_item(v, &v->edges[radj[i]]);

			if (kept[c] && c != k && !out->keep_edge[radj[i]]) {
				size_t best = radj[i], d;

				for (d = i + 1; d < rstart[k + 1]; d++)
					if (kept[caller_item(v, &v->edges[radj[d]])] &&
					    caller_item(v, &v->edges[radj[d]]) != k && radj[d] < best)
						best = radj[d];
				out->keep_edge[best] = 1;
				break;
			}
		}
	}
	/* What dropped the passing edges between kept items that are not drawn. */
	for (i = 0; i < ne; i++) {
		const struct cg_pedge *e = &v->edges[i];
		uint32_t c = caller_item(v, e), h = callee_item(v, e);

		out->edges_kept += out->keep_edge[i];
		if (out->keep_edge[i] || !rule[i] || !kept[c] || !kept[h])
			continue;
		if (!share_ge(e->incl_us, (uint64_t)e_pm, total))
			out->edrop_floor++;
		else
			out->edrop_cap++;
	}
	out->edges_dropped = ne - out->edges_kept;

	free(rule);
	free(reach);
	free(cand);
	free(hot);
	free(kept);
	free(drawn_in);
	free(queue);
	free(ids);
	free(tmp);
	free(stamp);
	free(fstart);
	free(fadj);
	free(rstart);
	free(radj);
	return 0;
}

int filter_prune(const struct cg_view *v, double pct, size_t max_nodes, struct cg_graph_sel *out,
		 struct cg_error *err)
{
	struct cg_graph_rules rules = { pct, 0.0, 0.0, 0.0, max_nodes };

	return filter_select(v, &rules, out, err);
}

int filter_pct_ge(uint64_t us, double pct, uint64_t whole)
{
	int64_t pm = pct_micro(pct);

	return pm >= 0 && share_ge(us, (uint64_t)pm, whole);
}

void filter_sel_free(struct cg_graph_sel *sel)
{
	if (!sel)
		return;
	free(sel->keep_method);
	free(sel->keep_thread);
	free(sel->keep_edge);
	free(sel->residual);
	memset(sel, 0, sizeof(*sel));
}

/* fold.c - pass-through chains of the drawn graph (see fold.h). */
#include "model/fold.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define NO_ITEM UINT32_MAX

/* Item numbering as in filter.c: thread index, or nthreads + position. */
static uint32_t caller_item(const struct cg_view *v, const struct cg_pedge *e)
{
	if (e->from_root)
		return e->caller < v->nthreads ? e->caller : NO_ITEM;
	if (e->caller >= v->npos || v->method_pos[e->caller] >= v->nmethods)
		return NO_ITEM;
	return (uint32_t)v->nthreads + v->method_pos[e->caller];
}

static uint32_t callee_item(const struct cg_view *v, const struct cg_pedge *e)
{
	if (e->callee >= v->npos || v->method_pos[e->callee] >= v->nmethods)
		return NO_ITEM;
	return (uint32_t)v->nthreads + v->method_pos[e->callee];
}

/* Count the drawn edge c -> h: remember the single neighbour, or mark
 * more than one (NO_ITEM with a count above 1). */
static void link(uint32_t c, uint32_t h, uint32_t *nin, uint32_t *nout, uint32_t *pred,
		 uint32_t *succ)
{
	if (c == h)
		return;
	nout[c]++;
	succ[c] = h;
	nin[h]++;
	pred[h] = c;
}

void fold_chains(const struct cg_view *v, const struct cg_graph_sel *sel, int enable,
		 struct cg_fold *out)
{
	size_t nt = v->nthreads, nm = v->nmethods, ni = nt + nm, i, k, cap = 0, cap_start = 1;
	uint32_t *nin, *nout, *pred, *succ;
	unsigned char *pass;

	memset(out, 0, sizeof(*out));
	out->chain_of = xmalloc((nm ? nm : 1) * sizeof(*out->chain_of));
	out->start = xcalloc(1, sizeof(*out->start));
	for (i = 0; i < nm; i++)
		out->chain_of[i] = FOLD_NONE;
	if (!enable)
		return;
	nin = xcalloc(ni ? ni : 1, sizeof(*nin));
	nout = xcalloc(ni ? ni : 1, sizeof(*nout));
	pred = xcalloc(ni ? ni : 1, sizeof(*pred));
	succ = xcalloc(ni ? ni : 1, sizeof(*succ));
	pass = xcalloc(ni ? ni : 1, 1);
	for (i = 0; i < v->nedges; i++) {
		uint32_t c = caller_item(v, &v->edges[i]), h = callee_item(v, &v->edges[i]);

		if (sel->keep_edge[i] && c != NO_ITEM && h != NO_ITEM)
			link(c, h, nin, nout, pred, succ);
	}
	for (i = 0; i < sel->nresidual; i++)
		link(sel->residual[i].from, (uint32_t)nt + sel->residual[i].to, nin, nout, pred, succ);
	for (k = nt; k < ni; k++) {
		const struct cg_pmethod *pm = &v->methods[k - nt];

		pass[k] = (unsigned char)(sel->keep_method[k - nt] && nin[k] == 1 && nout[k] == 1 &&
					  pm->incl_us > 0 &&
					  pm->excl_us <= pm->incl_us / 100);
	}
	/* A run starts at a pass-through method whose caller is not one; a
	 * cycle of pass-through methods has no start and stays unfolded. */
	for (k = nt; k < ni; k++) {
		size_t n = 0, first;
		uint32_t x;

		if (!pass[k] || pass[pred[k]])
			continue;
		for (x = (uint32_t)k; x != NO_ITEM && pass[x] && n <= nm; x = succ[x])
			n++;
		if (n < FOLD_MIN_RUN)
			continue;
		if (out->start[out->nchains] + n > cap) {
			cap = 2 * (out->start[out->nchains] + n);
			out->members = xrealloc(out->members, cap * sizeof(*out->members));
		}
		first = out->start[out->nchains];
		for (x = (uint32_t)k, i = 0; i < n; i++, x = succ[x]) {
			out->members[first + i] = x - (uint32_t)nt;
			out->chain_of[x - nt] = (uint32_t)out->nchains;
		}
		out->folded += n;
		out->nchains++;
		out->start = xgrow(out->start, &cap_start, out->nchains + 1, sizeof(*out->start));
		out->start[out->nchains] = first + n;
	}
	free(nin);
	free(nout);
	free(pred);
	free(succ);
	free(pass);
}

void fold_free(struct cg_fold *f)
{
	if (!f)
		return;
	free(f->chain_of);
	free(f->members);
	free(f->start);
	memset(f, 0, sizeof(*f));
}

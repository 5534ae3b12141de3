/* profile_view.c - the profile's views: the threads' method and edge tables
 * summed per symtab method and per (caller, callee) pair, methods that ran
 * sorted by inclusive time, edges by inclusive time on precomputed keys
 * (callers and callees by method id on ties).  Built on first request.
 * Also the profile's read-only accessors. */
#include <stdlib.h>
#include <string.h>

#include "model/profile_impl.h"

static int cmp_methods(const void *a, const void *b)
{
	const struct cg_pmethod *x = a, *y = b;

	if (x->incl_us != y->incl_us)
		return x->incl_us > y->incl_us ? -1 : 1;
	if (x->excl_us != y->excl_us)
		return x->excl_us > y->excl_us ? -1 : 1;
	if (x->info->id != y->info->id)
		return x->info->id < y->info->id ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* An edge's sort key, computed once: inclusive time descending, then
 * roots (by thread index) before methods (by id), then callee id; method
 * indices and the edge's position break ties, so the order is total. */
struct edge_key {
	uint64_t incl_us;
	uint64_t caller_id, callee_id;
	uint32_t caller, callee;
	int from_root;
	size_t pos;
};

static int cmp_edge_keys(const void *pa, const void *pb)
{
	const struct edge_key *x = pa, *y = pb;

	if (x->incl_us != y->incl_us)
		return x->incl_us > y->incl_us ? -1 : 1;
	if (x->from_root != y->from_root)
		return x->from_root ? -1 : 1;
	if (x->caller_id != y->caller_id)
		return x->caller_id < y->caller_id ? -1 : 1;
	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee_id != y->callee_id)
		return x->callee_id < y->callee_id ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void sort_edges(struct cg_pedge *a, size_t n, const struct cg_symtab *st)
{
	struct edge_key *k;
	struct cg_pedge *tmp;
	size_t i;

	if (n < 2)
		return;
	k = xmalloc(n * sizeof(*k));
	for (i = 0; i < n; i++) {
		k[i].incl_us = a[i].incl_us;
		k[i].from_root = a[i].from_root;
		k[i].caller = a[i].caller;
		k[i].callee = a[i].callee;
		k[i].caller_id = a[i].from_root ? a[i].caller : symtab_method(st, a[i].caller)->id;
		k[i].callee_id = symtab_method(st, a[i].callee)->id;
		k[i].pos = i;
	}
	qsort(k, n, sizeof(*k), cmp_edge_keys);
	tmp = xmalloc(n * sizeof(*tmp));
	for (i = 0; i < n; i++)
		tmp[i] = a[k[i].pos];
	memcpy(a, tmp, n * sizeof(*a));
	free(tmp);
	free(k);
}

/* Accumulate one thread's tables into a view store.  `root_index` is the
 * thread index used for its root edges in this view. */
static void accumulate(struct cg_profile *p, struct view_store *vs, struct cg_htab *et,
		       size_t *nedges, size_t *cap_edges, const struct tstate *ts,
		       uint32_t root_index, size_t *nmeth, size_t *cap_meth)
{
	size_t i;

	for (i = 1; i < ts->ntm; i++) {
		const struct tmeth *m = &ts->tm[i];
		struct cg_pmethod *pm;

		/* Entries only for methods some thread's table holds, found
		 * through vs->pos: nothing per method of the key but the index. */
		if (vs->pos[m->midx] == UINT32_MAX) {
			vs->methods = xgrow(vs->methods, cap_meth, *nmeth + 1, sizeof(*vs->methods));
			memset(&vs->methods[*nmeth], 0, sizeof(*vs->methods));
			vs->methods[*nmeth].index = m->midx;
			vs->pos[m->midx] = (uint32_t)(*nmeth)++;
		}
		pm = &vs->methods[vs->pos[m->midx]];

		pm->incl_us += m->incl;
		pm->excl_us += m->excl;
		pm->calls += m->calls;
		pm->rec_calls += m->rec;
		if (p->has_other) {
			pm->o_incl_us += m->o_incl;
			pm->o_excl_us += m->o_excl;
		}
	}
	for (i = 0; i < ts->nedges; i++) {
		const struct tedge *e = &ts->edges[i];
		uint32_t caller_slot = (uint32_t)(e->key >> 32);
		int from_root = caller_slot == 0;
		uint32_t caller, callee;
		uint64_t key;
		uint32_t j;

		if (e->key == UINT64_MAX)
			continue; /* freed */
		caller = from_root ? root_index : ts->tm[caller_slot].midx;
		callee = ts->tm[e->callee].midx;
		key = ((uint64_t)caller << 32 | callee) ^ (from_root ? 0x8000000000000000ULL : 0);
		j = htab_find(et, key);
		if (j == HTAB_NONE) {
			struct cg_pedge *pe;

			vs->edges = xgrow(vs->edges, cap_edges, *nedges + 1, sizeof(*vs->edges));
			pe = &vs->edges[*nedges];
			memset(pe, 0, sizeof(*pe));
			pe->caller = caller;
			pe->callee = callee;
			pe->from_root = from_root;
			j = (uint32_t)(*nedges)++;
			htab_insert(et, key, j, 0);
		}
		vs->edges[j].calls += e->calls;
		if (profile_edge_valid(ts, e)) {
			vs->edges[j].incl_us += e->incl;
			if (p->has_other)
				vs->edges[j].o_incl_us += e->o_incl;
		}
	}
}

void profile_view_build(struct cg_profile *p, struct view_store *vs, int thread)
{
	size_t nm = symtab_method_count(p->st), i, k, nedges = 0, cap_edges = 0;
	size_t nmeth = 0, cap_meth = 0;
	struct cg_htab et;
	struct cg_pmethod *all;

	htab_init(&et);
	vs->methods = NULL;
	vs->pos = xmalloc((nm ? nm : 1) * sizeof(*vs->pos));
	for (i = 0; i < nm; i++)
		vs->pos[i] = UINT32_MAX;
	if (thread < 0) {
		for (i = 0; i < p->npthreads; i++)
			accumulate(p, vs, &et, &nedges, &cap_edges, p->threads[i], (uint32_t)i,
				   &nmeth, &cap_meth);
	} else {
		accumulate(p, vs, &et, &nedges, &cap_edges, p->threads[thread], 0, &nmeth,
			   &cap_meth);
	}
	htab_free(&et);
	all = vs->methods ? vs->methods : xcalloc(1, sizeof(*all));
	vs->methods = all;
	/* Keep methods that ran. */
	for (i = 0, k = 0; i < nmeth; i++) {
		vs->pos[all[i].index] = UINT32_MAX;
		if (!all[i].calls && !all[i].rec_calls && !all[i].excl_us && !all[i].incl_us)
			continue;
		all[k] = all[i];
		all[k].info = symtab_method(p->st, all[k].index);
		k++;
	}
	qsort(all, k, sizeof(*all), cmp_methods);
	for (i = 0; i < k; i++)
		vs->pos[all[i].index] = (uint32_t)i;
	sort_edges(vs->edges, nedges, p->st);

	vs->v.methods = all;
	vs->v.nmethods = k;
	vs->v.method_pos = vs->pos;
	vs->v.npos = nm;
	vs->v.edges = vs->edges;
	vs->v.nedges = nedges;
	vs->v.thread = thread;
	vs->v.has_other = p->has_other;
	vs->v.primary = p->primary;
	if (thread < 0) {
		vs->v.threads = p->pthreads;
		vs->v.nthreads = p->npthreads;
		vs->v.total_us = 0;
		vs->v.o_total_us = 0;
		for (i = 0; i < p->npthreads; i++) {
			vs->v.total_us += p->pthreads[i].incl_us;
			vs->v.o_total_us += p->pthreads[i].other_us;
		}
	} else {
		vs->v.threads = &p->pthreads[thread];
		vs->v.nthreads = 1;
		vs->v.total_us = p->pthreads[thread].incl_us;
		vs->v.o_total_us = p->pthreads[thread].other_us;
	}
	vs->built = 1;
}


void profile_view_free(struct view_store *vs)
{
	free(vs->methods);
	free(vs->pos);
	free(vs->edges);
}

const struct cg_view *profile_view(struct cg_profile *p, int thread)
{
	struct view_store *vs;

	if (thread >= (int)p->npthreads)
		return NULL;
	vs = thread < 0 ? &p->all : &p->per[thread];
	if (!vs->built)
		profile_view_build(p, vs, thread);
	return &vs->v;
}

size_t profile_thread_count(const struct cg_profile *p)
{
	return p->npthreads;
}

size_t profile_warnings(const struct cg_profile *p, const struct cg_warning **out)
{
	*out = p->warnings;
	return p->nwarnings;
}

int profile_sampling(const struct cg_profile *p)
{
	return p->sampling;
}

void profile_filters(const struct cg_profile *p, const char *const **focus,
		     const char *const **hide)
{
	*focus = p->focusing ? p->opts.focus : NULL;
	*hide = p->opts.hide && p->opts.hide[0] ? p->opts.hide : NULL;
}

const struct cg_profile_stats *profile_stats(const struct cg_profile *p)
{
	return &p->stats;
}

const char *profile_clock_name(enum cg_clock_sel c)
{
	return c == CG_USE_CPU ? "cpu" : "wall";
}

double profile_off_cpu(uint64_t cpu_us, uint64_t wall_us)
{
	if (wall_us == 0)
		return -1;
	if (cpu_us >= wall_us)
		return 0;
	return (double)(wall_us - cpu_us) / (double)wall_us;
}

/* profile_view.c - the profile's views: the threads' method and edge tables
 * summed per symtab method and per (caller, callee) pair, methods that ran
 * sorted by inclusive time, edges by inclusive time (callers and callees by
 * method id on ties), both sorted in place.  Built on first request.
 * Also the profile's read-only accessors. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile_impl.h"
#include "model/waiting.h"
#include "util/sort.h"
#include "util/thread.h"

static int cmp_methods(const void *a, const void *b, void *ctx)
{
	const struct cg_pmethod *x = a, *y = b;

	if (x->incl_us != y->incl_us)
		return x->incl_us > y->incl_us ? -1 : 1;
	if (x->excl_us != y->excl_us)
		return x->excl_us > y->excl_us ? -1 : 1;
	return symtab_method_cmp_id(ctx, x->index, y->index);
}

/* A method's place in (id, symtab index) order. */
struct id_rank {
	uint64_t id;
	uint32_t index;
};

static int cmp_id_rank(const void *a, const void *b, void *ctx)
{
	const struct id_rank *x = a, *y = b;

	(void)ctx;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Edges that share caller and callee are adjacent in this order. */
static int cmp_edge_pairs(const void *a, const void *b, void *ctx)
{
	const struct cg_pedge *x = a, *y = b;

	(void)ctx;
	if (x->from_root != y->from_root)
		return x->from_root ? -1 : 1;
	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* The view's edge order: inclusive time descending, then roots (by thread
 * index) before methods, callers and then callees by method id (symtab
 * index on equal ids, through rank).  A view has one edge per (root,
 * caller, callee), so the order is total. */
static int cmp_edges(const void *a, const void *b, void *ctx)
{
	const struct cg_pedge *x = a, *y = b;
	const uint32_t *rank = ctx;
	uint32_t cx, cy;

	if (x->incl_us != y->incl_us)
		return x->incl_us > y->incl_us ? -1 : 1;
	if (x->from_root != y->from_root)
		return x->from_root ? -1 : 1;
	cx = x->from_root ? x->caller : rank[x->caller];
	cy = y->from_root ? y->caller : rank[y->caller];
	if (cx != cy)
		return cx < cy ? -1 : 1;
	cx = rank[x->callee];
	cy = rank[y->callee];
	return cx < cy ? -1 : cx > cy;
}

uint32_t *profile_pos_new(const struct cg_profile *p)
{
	size_t nm = symtab_method_count(p->st), i;
	uint32_t *pos = xmalloc((nm ? nm : 1) * sizeof(*pos));

	for (i = 0; i < nm; i++)
		pos[i] = UINT32_MAX;
	return pos;
}

/* Add a method's sums to a view method. */
void profile_pmethod_add(const struct cg_profile *p, struct cg_pmethod *pm, uint64_t incl,
			 uint64_t o_incl, uint64_t calls, const struct msums *s)
{
	pm->incl_us += incl;
	pm->excl_us += s->excl;
	pm->calls += calls;
	pm->rec_calls += s->rec;
	if (p->has_other) {
		pm->o_incl_us += o_incl;
		pm->o_excl_us += s->o_excl;
	}
}

static void pmethod_add(const struct cg_profile *p, struct cg_pmethod *pm, const struct tmeth *m)
{
	profile_pmethod_add(p, pm, m->incl, m->o_incl, m->calls, &m->u.s);
}

/* 1 when method midx, with outermost inclusive time incl (o_incl on the
 * other clock) on a thread, was waiting there (waiting.h). */
static int method_waiting(const struct cg_profile *p, uint32_t midx, uint64_t incl,
			  uint64_t o_incl)
{
	struct cg_method_info tmp;

	if (!p->has_other)
		return waiting_known(symtab_method_peek(p->st, midx, &tmp));
	return p->primary == CG_USE_WALL ? waiting_off_cpu(incl, o_incl)
					 : waiting_off_cpu(o_incl, incl);
}

/* Raise pt's busy_excl_us and wait_incl_us with one of its methods.  A
 * method is looked up only when it would raise a maximum: with one clock
 * the lookup compares names, and a thread runs thousands of methods. */
static void method_waits(const struct cg_profile *p, struct cg_pthread *pt, uint32_t midx,
			 uint64_t excl, uint64_t incl, uint64_t o_incl)
{
	if (excl > pt->busy_excl_us && !method_waiting(p, midx, incl, o_incl))
		pt->busy_excl_us = excl;
	if (incl > pt->wait_incl_us && incl * 100 >= pt->incl_us * WAITING_THREAD_PCT &&
	    method_waiting(p, midx, incl, o_incl))
		pt->wait_incl_us = incl;
}

void thread_waits(const struct cg_profile *p, const struct tstate *ts, struct cg_pthread *pt)
{
	size_t i;

	pt->busy_excl_us = pt->wait_incl_us = 0;
	for (i = 1; i < ts->ntm; i++)
		method_waits(p, pt, ts->tm[i].midx, ts->tm[i].u.s.excl, ts->tm[i].incl,
			     ts->tm[i].o_incl);
}

/* A thread's edge e (not freed) as a view edge, by method index (thread
 * index `root_index` for a root edge).  e may be a copy: only the thread's
 * method slots are read. */
static void pedge_of(const struct cg_profile *p, const struct tstate *ts, const struct tedge *e,
		     uint32_t root_index, struct cg_pedge *pe)
{
	uint32_t caller_slot = (uint32_t)(e->key >> 32);

	memset(pe, 0, sizeof(*pe));
	pe->from_root = caller_slot == 0;
	pe->caller = pe->from_root ? root_index : ts->tm[caller_slot].midx;
	pe->callee = ts->tm[e->callee].midx;
	pe->calls = e->calls;
	if (profile_edge_valid(ts, e)) {
		pe->incl_us = e->incl;
		if (p->has_other)
			pe->o_incl_us = e->o_incl;
	}
}

/* Sum one thread's method table into the view's methods (found through
 * vs->pos), which grow (capacity *cap) with the methods new to the view. */
static void add_methods(const struct cg_profile *p, struct view_store *vs, const struct tstate *ts,
			size_t *nmeth, size_t *cap)
{
	size_t i;

	for (i = 1; i < ts->ntm; i++) {
		const struct tmeth *m = &ts->tm[i];
		struct cg_pmethod *pm;

		if (vs->pos[m->midx] == UINT32_MAX) {
			vs->methods = xgrow(vs->methods, cap, *nmeth + 1, sizeof(*vs->methods));
			vs->pos[m->midx] = (uint32_t)(*nmeth)++;
			pm = &vs->methods[vs->pos[m->midx]];
			memset(pm, 0, sizeof(*pm));
			pm->index = m->midx;
		}
		pmethod_add(p, &vs->methods[vs->pos[m->midx]], m);
	}
}

/* Append one thread's edges to the view's, by method index (thread index
 * `root_index` for its root edges). */
static void add_edges(const struct cg_profile *p, struct cg_pedge *out, size_t *n,
		      const struct tstate *ts, uint32_t root_index)
{
	size_t i;

	for (i = 0; i < ts->nedges; i++)
		if (ts->edges[i].key != UINT64_MAX) /* else freed */
			pedge_of(p, ts, &ts->edges[i], root_index, &out[(*n)++]);
}

/* Sum edges that share (root, caller, callee): sort them together and fold
 * each run into its first.  One thread's edges never repeat (its table is
 * keyed by caller and callee), so only a view of several threads needs it. */
static size_t merge_edges(struct cg_pedge *e, size_t n)
{
	size_t i, k = 0;

	sort_inplace(e, n, sizeof(*e), cmp_edge_pairs, NULL);
	for (i = 0; i < n; i++) {
		if (k && cmp_edge_pairs(&e[k - 1], &e[i], NULL) == 0) {
			e[k - 1].calls += e[i].calls;
			e[k - 1].incl_us += e[i].incl_us;
			e[k - 1].o_incl_us += e[i].o_incl_us;
		} else {
			e[k++] = e[i];
		}
	}
	return k;
}

/* Sort a view's edges: methods ranked by (id, index) first, through an
 * array over the key's methods, freed before returning. */
static void sort_edges(struct cg_profile *p, struct view_store *vs, size_t nmeth, size_t nedges)
{
	size_t nm = symtab_method_count(p->st), i;
	struct id_rank *ids;
	uint32_t *rank;

	if (nedges < 2)
		return;
	ids = xmalloc((nmeth ? nmeth : 1) * sizeof(*ids));
	for (i = 0; i < nmeth; i++) {
		ids[i].index = vs->methods[i].index;
		ids[i].id = symtab_method_id(p->st, ids[i].index);
	}
	sort_inplace(ids, nmeth, sizeof(*ids), cmp_id_rank, NULL);
	rank = xmalloc((nm ? nm : 1) * sizeof(*rank));
	for (i = 0; i < nmeth; i++)
		rank[ids[i].index] = (uint32_t)i;
	free(ids);
	sort_inplace(vs->edges, nedges, sizeof(*vs->edges), cmp_edges, rank);
	free(rank);
}

/* A profile of one thread hands its tables over when it is finished: each
 * method slot and each edge is rewritten in place as a view's method and
 * edge (no larger than the slot it replaces), the method array is cut to
 * size, and the thread keeps nothing.  The first view asked for takes the
 * arrays and sorts them; both views of such a profile (all threads, and
 * thread 0) are the same, so the second one shares the first's arrays. */
_Static_assert(sizeof(struct cg_pmethod) <= sizeof(struct tmeth), "method slot too small");
_Static_assert(sizeof(struct cg_pedge) <= sizeof(struct tedge), "edge slot too small");

void profile_view_take(struct cg_profile *p)
{
	struct view_store *vs = &p->all;
	struct tstate *ts;
	struct cg_pedge *pe;
	struct cg_pmethod *pm;
	size_t i, n = 0;

	if (p->npthreads != 1)
		return;
	ts = p->threads[0];
	pe = (struct cg_pedge *)(void *)ts->edges;
	pm = (struct cg_pmethod *)(void *)ts->tm;
	vs->pos = profile_pos_new(p);
	/* Edges first: they read the method slots' indices and epochs.  Each
	 * is copied out before its place is written. */
	for (i = 0; i < ts->nedges; i++) {
		struct tedge e = ts->edges[i];

		if (e.key != UINT64_MAX) /* else freed */
			pedge_of(p, ts, &e, 0, &pe[n++]);
	}
	vs->ntaken_edges = n;
	/* Slot 0 is the root; method k comes from slot k + 1. */
	for (i = 1; i < ts->ntm; i++) {
		struct tmeth m = ts->tm[i];
		struct cg_pmethod out;

		memset(&out, 0, sizeof(out));
		out.index = m.midx;
		pmethod_add(p, &out, &m);
		pm[i - 1] = out;
		vs->pos[m.midx] = (uint32_t)(i - 1);
	}
	vs->ntaken_methods = ts->ntm ? ts->ntm - 1 : 0;
	/* Never empty, as the arrays of a summed view. */
	vs->methods = xrealloc(pm, (vs->ntaken_methods ? vs->ntaken_methods : 1) * sizeof(*pm));
	vs->edges = xrealloc(pe, (n ? n : 1) * sizeof(*pe));
	ts->tm = NULL;
	ts->edges = NULL;
	ts->ntm = ts->cap_tm = ts->nedges = ts->cap_edges = 0;
}

/* A view of several threads (or one of several) is built from the
 * threads' tables: methods grown as they are first seen (through pos),
 * edges in an array bounded by the threads' tables and merged in place; no
 * hash table and no copy for sorting.  When no view of a single thread will
 * follow, each thread's tables go once summed, so the view's arrays replace
 * them. */
static void sum_threads(struct cg_profile *p, struct view_store *vs, int thread, size_t *nmeth_out,
			size_t *nedges_out)
{
	size_t i, nedges = 0, nmeth = 0, cap = 0, bound = 0;
	size_t first = thread < 0 ? 0 : (size_t)thread;
	size_t last = thread < 0 ? p->npthreads : (size_t)thread + 1;

	vs->pos = profile_pos_new(p);
	for (i = first; i < last; i++)
		bound += p->threads[i]->nedges;
	vs->methods = NULL;
	vs->edges = xmalloc((bound ? bound : 1) * sizeof(*vs->edges));
	/* Methods in the order of first sight.  The arrays fill as each
	 * thread's tables go, when no view of one thread will follow. */
	for (i = first; i < last; i++) {
		if (thread < 0)
			thread_waits(p, p->threads[i], &p->pthreads[i]);
		add_methods(p, vs, p->threads[i], &nmeth, &cap);
		add_edges(p, vs->edges, &nedges, p->threads[i], thread < 0 ? (uint32_t)i : 0);
		if (thread < 0 && p->opts.no_thread_views)
			thread_drop_tables(p->threads[i]);
	}
	/* Never empty, as the arrays of a taken view. */
	vs->methods = xrealloc(vs->methods, (nmeth ? nmeth : 1) * sizeof(*vs->methods));
	if (last - first > 1)
		nedges = merge_edges(vs->edges, nedges);
	if (nedges < bound && nedges)
		vs->edges = xrealloc(vs->edges, nedges * sizeof(*vs->edges));
	*nmeth_out = nmeth;
	*nedges_out = nedges;
}

/* A global profile's thread view, from the source of the threads' own sums
 * (profile_set_thread_sums): a method's sums come in parts, added up here
 * through vs->pos; each edge comes once. */
struct sums_into {
	const struct cg_profile *p;
	struct view_store *vs;
	size_t nmeth, cap_meth, nedges, cap_edges;
};

static void sums_method(void *ctx, const struct cg_pmethod *m)
{
	struct sums_into *in = ctx;
	struct view_store *vs = in->vs;
	struct msums sums = { .rec = m->rec_calls, .excl = m->excl_us, .o_excl = m->o_excl_us };
	struct cg_pmethod *pm;

	if (vs->pos[m->index] == UINT32_MAX) {
		vs->methods = xgrow(vs->methods, &in->cap_meth, in->nmeth + 1, sizeof(*vs->methods));
		vs->pos[m->index] = (uint32_t)in->nmeth;
		pm = &vs->methods[in->nmeth++];
		memset(pm, 0, sizeof(*pm));
		pm->index = m->index;
	}
	profile_pmethod_add(in->p, &vs->methods[vs->pos[m->index]], m->incl_us, m->o_incl_us,
			    m->calls, &sums);
}

static void sums_edge(void *ctx, const struct cg_pedge *e)
{
	struct sums_into *in = ctx;
	struct cg_pedge *pe;

	in->vs->edges = xgrow(in->vs->edges, &in->cap_edges, in->nedges + 1,
			      sizeof(*in->vs->edges));
	pe = &in->vs->edges[in->nedges++];
	*pe = *e;
	if (!in->p->has_other)
		pe->o_incl_us = 0;
}

/* vs empty, before sums are added into it through in. */
static void sums_start(const struct cg_profile *p, struct view_store *vs, struct sums_into *in)
{
	memset(in, 0, sizeof(*in));
	in->p = p;
	in->vs = vs;
	vs->pos = profile_pos_new(p);
	vs->methods = NULL;
	vs->edges = NULL;
}

/* The sums added: vs's arrays cut to size (thousands of threads' views may
 * be asked for), and never empty, as the arrays of a summed view. */
static void sums_end(struct view_store *vs, const struct sums_into *in, size_t *nmeth_out,
		     size_t *nedges_out)
{
	vs->methods = xrealloc(vs->methods, (in->nmeth ? in->nmeth : 1) * sizeof(*vs->methods));
	vs->edges = xrealloc(vs->edges, (in->nedges ? in->nedges : 1) * sizeof(*vs->edges));
	*nmeth_out = in->nmeth;
	*nedges_out = in->nedges;
}

static void sums_thread(struct cg_profile *p, struct view_store *vs, int thread, void *src,
			size_t *nmeth_out, size_t *nedges_out)
{
	struct sums_into in;
	struct cg_sums_sink sink = { &in, sums_method, sums_edge };

	sums_start(p, vs, &in);
	if (p->tsums)
		p->tsums(src, (uint32_t)thread, &sink);
	sums_end(vs, &in, nmeth_out, nedges_out);
}

static void sums_no_edge(void *ctx, const struct cg_pedge *e)
{
	(void)ctx;
	(void)e;
}

static void view_finish(struct cg_profile *p, struct view_store *vs, int thread, size_t nmeth,
			size_t nedges);

/* Threads' views built on two threads at once: each takes the next thread
 * index not yet taken and sums through a source of its own.  A view is
 * written by the one that took it; the rest of the profile is only read. */
struct views_job {
	struct cg_profile *p;
	void *src;
	atomic_size_t *next;
};

static void *views_run(void *arg)
{
	const struct views_job *j = arg;
	struct cg_profile *p = j->p;
	size_t i, nmeth, nedges;

	while ((i = atomic_fetch_add(j->next, 1)) < p->npthreads) {
		if (p->per[i].built)
			continue;
		sums_thread(p, &p->per[i], (int)i, j->src, &nmeth, &nedges);
		view_finish(p, &p->per[i], (int)i, nmeth, nedges);
	}
	return NULL;
}

/* pt's busiest and waiting methods, from its n methods m. */
static void pmethods_waits(const struct cg_profile *p, struct cg_pthread *pt,
			   const struct cg_pmethod *m, size_t n)
{
	size_t k;

	pt->busy_excl_us = pt->wait_incl_us = 0;
	for (k = 0; k < n; k++)
		method_waits(p, pt, m[k].index, m[k].excl_us, m[k].incl_us, m[k].o_incl_us);
}

/* Every thread's view, on two threads at once where the profile has a
 * second source of the sums. */
static void views_all(struct cg_profile *p)
{
	atomic_size_t next;
	struct views_job mine = { p, p->tsums_src, &next };
	struct views_job other = { p, p->tsums_src2, &next };
	pthread_t t;
	int two;

	atomic_init(&next, 0);
	two = p->tsums_src2 && thread_start(&t, views_run, &other) == 0;
	views_run(&mine);
	if (two)
		pthread_join(t, NULL);
}

/* Whether the threads' views will be asked for and are few enough to be
 * built at once, with the view of all threads. */
static int views_at_once(const struct cg_profile *p)
{
	return !p->opts.no_thread_views && p->npthreads <= PROFILE_VIEWS_AT_ONCE;
}

/* Each thread's busiest and waiting methods, from the source of its sums:
 * its methods summed in one scratch store, read and cleared, no view kept
 * (a trace may have tens of thousands of threads).  Where the threads'
 * views will be asked for and are few, each is built here instead
 * (views_all) and its methods read: the sums are walked once, not once for
 * the waits and once for the view.  A view leaves out only methods whose
 * sums are all 0, which raise no maximum. */
static void sums_waits(struct cg_profile *p)
{
	size_t i, k;
	struct view_store w;
	struct sums_into in = { p, &w, 0, 0, 0, 0 };
	struct cg_sums_sink sink = { &in, sums_method, sums_no_edge };

	if (views_at_once(p)) {
		views_all(p);
		for (i = 0; i < p->npthreads; i++) {
			const struct cg_view *v = profile_view(p, (int)i);

			pmethods_waits(p, &p->pthreads[i], v->methods, v->nmethods);
		}
		return;
	}
	memset(&w, 0, sizeof(w));
	w.pos = profile_pos_new(p);
	for (i = 0; i < p->npthreads; i++) {
		in.nmeth = 0;
		p->tsums(p->tsums_src, (uint32_t)i, &sink);
		pmethods_waits(p, &p->pthreads[i], w.methods, in.nmeth);
		for (k = 0; k < in.nmeth; k++)
			w.pos[w.methods[k].index] = UINT32_MAX;
	}
	free(w.pos);
	free(w.methods);
}

/* The view of all threads of a profile without tables whose views come
 * from the threads' sums (views_from_sums): every thread's methods added
 * up by index (sums_method), its edges by caller -> callee pair through a
 * table of the view's edges keyed by their first 8 bytes (a thread gives
 * each pair once: one thread needs no table), and its root's edges apart,
 * with the thread's index as caller, as the edges of a root line in global
 * tables.  in first: sums_method reads the sink's ctx as it. */
struct sums_all_into {
	struct sums_into in;
	uint32_t thread;
	int merge;            /* several threads: their edges may repeat */
	struct cg_itab etab;  /* edges not from a root, by (caller, callee) */
};

_Static_assert(offsetof(struct cg_pedge, caller) == 0 && offsetof(struct cg_pedge, callee) == 4,
	       "the table of summed edges keys them by their first 8 bytes");

static void sums_all_edge(void *ctx, const struct cg_pedge *e)
{
	struct sums_all_into *a = ctx;
	struct view_store *vs = a->in.vs;
	struct cg_pedge *pe;
	uint32_t k = ITAB_NONE;
	uint64_t key;

	if (!e->from_root && a->merge) {
		memcpy(&key, e, sizeof(key));
		k = itab_find(&a->etab, key, vs->edges, sizeof(*vs->edges));
	}
	if (k != ITAB_NONE) {
		pe = &vs->edges[k];
		pe->calls += e->calls;
		pe->incl_us += e->incl_us;
		if (a->in.p->has_other)
			pe->o_incl_us += e->o_incl_us;
		return;
	}
	sums_edge(&a->in, e);
	k = (uint32_t)(a->in.nedges - 1);
	if (e->from_root)
		vs->edges[k].caller = a->thread;
	else if (a->merge)
		itab_insert(&a->etab, k, vs->edges, sizeof(*vs->edges));
}

static void sums_all(struct cg_profile *p, struct view_store *vs, size_t *nmeth_out,
		     size_t *nedges_out)
{
	struct sums_all_into a;
	struct cg_sums_sink sink = { &a, sums_method, p->opts.no_edges ? sums_no_edge : sums_all_edge };
	size_t i, k;

	memset(&a, 0, sizeof(a));
	sums_start(p, vs, &a.in);
	a.merge = p->npthreads > 1;
	if (p->tsums && views_at_once(p) && p->npthreads > 1) {
		/* The threads' views, which sums_waits reads anyway, built
		 * first (on two threads) and summed: the tree is walked once.
		 * One thread's view is the view of all threads, which it
		 * shares: the tree is walked into that alone. */
		views_all(p);
		for (i = 0; i < p->npthreads; i++) {
			const struct cg_view *v = &p->per[i].v;

			a.thread = (uint32_t)i;
			for (k = 0; k < v->nmethods; k++)
				sink.method(&a, &v->methods[k]);
			for (k = 0; k < v->nedges; k++)
				sink.edge(&a, &v->edges[k]);
		}
	} else {
		for (i = 0; p->tsums && i < p->npthreads; i++) {
			a.thread = (uint32_t)i;
			p->tsums(p->tsums_src, (uint32_t)i, &sink);
		}
	}
	itab_free(&a.etab);
	sums_end(vs, &a.in, nmeth_out, nedges_out);
}

/* Sort the view's nedges edges, keep its methods that ran (of nmeth) in
 * order, and fill vs->v. */
static void view_finish(struct cg_profile *p, struct view_store *vs, int thread, size_t nmeth,
			size_t nedges)
{
	size_t nm = symtab_method_count(p->st), i, k;
	struct cg_pmethod *all;

	sort_edges(p, vs, nmeth, nedges);
	all = vs->methods;
	/* Keep methods that ran. */
	for (i = 0, k = 0; i < nmeth; i++) {
		vs->pos[all[i].index] = UINT32_MAX;
		if (!all[i].calls && !all[i].rec_calls && !all[i].excl_us && !all[i].incl_us)
			continue;
		all[k++] = all[i];
	}
	sort_inplace(all, k, sizeof(*all), cmp_methods, p->st);
	for (i = 0; i < k; i++)
		vs->pos[all[i].index] = (uint32_t)i;

	vs->v.st = p->st;
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

void profile_view_build(struct cg_profile *p, struct view_store *vs, int thread)
{
	size_t nmeth, nedges;

	if (p->global && thread >= 0 && p->npthreads == 1) {
		/* One thread: its view is the view of all threads. */
		const struct cg_view *all = profile_view(p, -1);

		vs->v = *all;
		vs->v.thread = thread;
		vs->built = 1;
		return;
	} else if (p->global && thread >= 0) {
		sums_thread(p, vs, thread, p->tsums_src, &nmeth, &nedges);
	} else if (p->global) {
		/* The view of all threads, from the global tables (which go once
		 * read) or, without tables, from the threads' sums; then each
		 * thread's waits, from the source of its own sums, where there are
		 * several (one thread keeps its waits at 0, as its per-thread
		 * tables did). */
		if (p->bare && p->opts.views_from_sums)
			sums_all(p, vs, &nmeth, &nedges);
		else
			profile_global_view(p, vs, &nmeth, &nedges);
		view_finish(p, vs, thread, nmeth, nedges);
		if (p->tsums && p->npthreads > 1)
			sums_waits(p);
		return;
	} else if (p->npthreads == 1 && !p->opts.no_views) {
		/* The arrays profile_view_take made, or the twin's view. */
		struct view_store *taken = &p->all;
		const struct view_store *twin = thread < 0 ? &p->per[0] : &p->all;

		if (twin->built) {
			vs->v = twin->v;
			vs->v.thread = thread;
			vs->built = 1;
			return;
		}
		vs->pos = taken->pos;
		vs->methods = taken->methods;
		vs->edges = taken->edges;
		nmeth = taken->ntaken_methods;
		nedges = taken->ntaken_edges;
		if (vs != taken)
			memset(taken, 0, sizeof(*taken));
	} else {
		sum_threads(p, vs, thread, &nmeth, &nedges);
	}
	view_finish(p, vs, thread, nmeth, nedges);
}

void profile_view_free(struct view_store *vs)
{
	if (vs->methods_bytes)
		xbig_free(vs->methods, vs->methods_bytes);
	else
		free(vs->methods);
	free(vs->pos);
	free(vs->edges);
}

void profile_set_thread_sums(struct cg_profile *p, cg_thread_sums_fn fn, void *src, void *src2)
{
	p->tsums = fn;
	p->tsums_src = src;
	p->tsums_src2 = src2;
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

const struct cg_pthread *profile_threads(const struct cg_profile *p)
{
	return p->pthreads;
}

int profile_has_other(const struct cg_profile *p)
{
	return p->has_other;
}

enum cg_clock_sel profile_primary(const struct cg_profile *p)
{
	return p->primary;
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

/* No view will read the thread's edge table. */
void thread_drop_edges(struct tstate *ts)
{
	free(ts->edges);
	ts->edges = NULL;
	ts->nedges = ts->cap_edges = 0;
}

/* No view will read the thread's method and edge tables (again). */
void thread_drop_tables(struct tstate *ts)
{
	free(ts->tm);
	ts->tm = NULL;
	ts->ntm = ts->cap_tm = 0;
	thread_drop_edges(ts);
}

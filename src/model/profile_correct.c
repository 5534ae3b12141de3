/* profile_correct.c - the correction pass of a global profile (profile.h):
 * frames entered before tracing began.
 *
 * The global replay (profile_global.c) passes over an exit on an empty
 * stack.  Such a frame, though, is the caller of everything its thread ran
 * before it, and the method's earlier outermost activations on that thread
 * were recursive ones (profile_adopt.c).  So the records of each thread that
 * had such an exit, up to its last one, are replayed again, twice, into
 * per-thread tables: once adopting, as the per-thread replay does, and once
 * passing over, as the global replay did.  The first's sums less the
 * second's are added to the global tables.  Right after a thread's last
 * such exit its stack is empty in both replays, so all that follows is
 * counted alike in both and needs nothing.
 */
#include <stdlib.h>

#include "model/profile_impl.h"

/* Records decoded at a time. */
#define FIX_BATCH 256

uint64_t profile_correct_count(const struct cg_profile *p)
{
	uint64_t n = 0;
	size_t i;

	if (!p->global)
		return 0;
	for (i = 0; i < p->nthreads; i++)
		if (p->threads[i]->adopt_to > n)
			n = p->threads[i]->adopt_to;
	return n;
}

static void fix_create(struct cg_profile *p)
{
	struct cg_profile_opts o = { 0 };

	o.clock = p->opts.clock;
	o.max_depth = p->opts.max_depth;
	p->fix[0] = profile_create(p->st, &o);
	p->fix[1] = profile_create(p->st, &o);
	p->fix[1]->no_adopt = 1;
}

/* Give both replays the records of recs[0..n). */
static int fix_feed(struct cg_profile *p, const struct cg_record *recs, size_t n,
		    struct cg_error *err)
{
	if (!n)
		return 0;
	if (profile_add(p->fix[0], recs, n, err) < 0 || profile_add(p->fix[1], recs, n, err) < 0)
		return -1;
	return 0;
}

/* Record r, the next one given again: kept for both replays when its
 * thread's records up to its last exit on an empty stack are not all in. */
static int fix_wants(struct cg_profile *p, const struct cg_record *r)
{
	uint64_t k = p->refed++;
	const struct tstate *ts = profile_thread_find(p, r->tid);

	return ts && ts->selected && k < ts->adopt_to;
}

int profile_correct_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
			struct cg_error *err)
{
	struct cg_record keep[FIX_BATCH];
	size_t i, m = 0;

	if (!p->fix[0])
		fix_create(p);
	for (i = 0; i < n; i++) {
		if (!fix_wants(p, &recs[i]))
			continue;
		keep[m++] = recs[i];
		if (m == FIX_BATCH) {
			if (fix_feed(p, keep, m, err) < 0)
				return -1;
			m = 0;
		}
	}
	return fix_feed(p, keep, m, err);
}

int profile_correct_add_raw(struct cg_profile *p, const struct cg_raw_layout *l,
			    const unsigned char *bytes, size_t n, uint64_t offset,
			    struct cg_error *err)
{
	struct cg_record recs[FIX_BATCH];
	size_t i, m;

	for (i = 0; i < n; i += m) {
		for (m = 0; m < FIX_BATCH && i + m < n; m++, bytes += l->size, offset += l->size) {
			trace_raw_decode(l, bytes, &recs[m]);
			recs[m].offset = offset;
		}
		if (profile_correct_add(p, recs, m, err) < 0)
			return -1;
	}
	return 0;
}

static void add(uint64_t *x, uint64_t v, int neg)
{
	*x += neg ? (uint64_t)0 - v : v;
}

/* Add (neg: subtract) the tables of q, a per-thread replay of some of p's
 * threads, to p's global tables. */
static void fix_apply(struct cg_profile *p, const struct cg_profile *q, int neg)
{
	size_t i, j;

	for (i = 0; i < q->nthreads; i++) {
		const struct tstate *qs = q->threads[i];
		struct tstate *ps = profile_thread_find(p, qs->tid);

		for (j = 1; j < qs->ntm; j++) {
			const struct tmeth *m = &qs->tm[j];
			uint32_t line = profile_global_line(p, m->midx);
			struct gline *g = &p->lines[line];

			add(&g->calls, m->calls, neg);
			add(&g->incl, m->incl, neg);
			add(&g->o_incl, m->o_incl, neg);
		}
		for (j = 0; j < qs->nedges; j++) {
			const struct tedge *e = &qs->edges[j];
			uint32_t slot = (uint32_t)(e->key >> 32), caller, callee, k;
			struct gedge *g;

			if (e->key == UINT64_MAX)
				continue; /* freed */
			caller = slot ? profile_global_line(p, qs->tm[slot].midx) : profile_global_root(p, ps);
			k = profile_global_edge(p, caller, (uint32_t)e->key, &callee);
			g = &p->gedges[k];
			add(&g->calls, e->calls, neg);
			add(&g->all, e->all, neg);
			add(&g->o_all, e->o_all, neg);
			if (profile_edge_valid(qs, e)) {
				add(&g->incl, e->incl, neg);
				add(&g->o_incl, e->o_incl, neg);
			}
		}
	}
}

void profile_correct_end(struct cg_profile *p)
{
	if (!p->fix[0])
		return;
	fix_apply(p, p->fix[0], 0);
	fix_apply(p, p->fix[1], 1);
	profile_free(p->fix[0]);
	profile_free(p->fix[1]);
	p->fix[0] = p->fix[1] = NULL;
}

/* profile_global_merge.c - the ranges of a trace replayed apart into global
 * tables (profile_global.c), summed in order (profile_merge).
 *
 * A range's profile numbers its lines and edges in the order it met them,
 * so each of its lines is found in the sum by symtab index (a root by its
 * thread), and each edge by (caller line, raw callee id): one lookup per
 * line and per edge of the range, a few tens of thousands on a
 * gigabyte-sized trace, against tens of millions of records.  Frames
 * entered before tracing are not adopted here: each range notes its
 * threads' last such exit by the record's index in the span, and the
 * correction pass of the sum (profile_correct.c) adopts them all.
 */
#include "model/profile_impl.h"

/* The line of p for line l of q, whose threads are those of q. */
static uint32_t line_in(struct cg_profile *p, const struct cg_profile *q, const struct gline *l)
{
	if (l->flags & G_ROOT)
		return profile_global_root(p, profile_thread_find(p, q->threads[l->midx]->tid));
	return profile_global_line(p, l->midx);
}

void profile_global_merge(struct cg_profile *p, const struct cg_profile *q)
{
	size_t i;

	for (i = 0; i < q->nlines; i++) {
		const struct gline *l = &q->lines[i];
		struct gline *pl;
		uint32_t k;

		if (l->flags & G_ROOT)
			continue; /* a root has edges only */
		k = profile_global_line(p, l->midx);
		pl = &p->lines[k];
		pl->calls += l->calls;
		pl->incl += l->incl;
		pl->o_incl += l->o_incl;
	}
	for (i = 0; i < q->ngedges; i++) {
		const struct gedge *e = &q->gedges[i];
		uint32_t caller = line_in(p, q, &q->lines[e->caller]), callee;
		uint32_t k = profile_global_edge(p, caller, q->lines[e->callee].id, &callee);
		struct gedge *pe = &p->gedges[k];

		pe->calls += e->calls;
		pe->incl += e->incl;
		pe->o_incl += e->o_incl;
		pe->all += e->all;
		pe->o_all += e->o_all;
	}
	p->fed = q->fed;
}

/* profile_adopt.c - frames entered before tracing began (profile.h): an
 * exit on a thread's empty stack makes its method the caller of everything
 * that thread ran so far.  Its root edges move under the method's slot,
 * and the method's earlier outermost activations become recursive: an epoch
 * per (thread, method) makes the inclusive time of every edge into it
 * invalid in O(1).  In a range replayed apart, the thread's earlier ranges
 * are adopted when the ranges are summed (profile_merge.c). */
#include <stdlib.h>

#include "model/profile_impl.h"

void profile_adopt(struct cg_profile *p, struct tstate *ts, uint32_t s)
{
	struct tmeth *m = &ts->tm[s];
	size_t i, nroot;
	uint32_t *roots, callee;

	if (m->calls || m->incl) {
		/* Its earlier outermost activations now run inside this frame:
		 * recursive, as their edges' calls less its outermost calls. */
		m->calls = 0;
		m->incl = 0;
		m->o_incl = 0;
		m->epoch++;
	}
	roots = ts->root_edges;
	nroot = ts->nroot;
	ts->root_edges = NULL;
	ts->nroot = ts->cap_root = 0;
	for (i = 0; i < nroot; i++) {
		uint32_t r = roots[i];
		uint32_t child = (uint32_t)ts->edges[r].key;
		uint64_t calls = ts->edges[r].calls;
		int valid = profile_edge_valid(ts, &ts->edges[r]);
		uint64_t incl = valid ? ts->edges[r].incl : 0;
		uint64_t o_incl = valid ? ts->edges[r].o_incl : 0;
		uint64_t all = ts->edges[r].all, o_all = ts->edges[r].o_all;
		uint32_t t = profile_edge_get(p, ts, s, child, &callee);

		ts->edges[t].calls += calls;
		ts->edges[t].all += all;
		ts->edges[t].o_all += o_all;
		profile_edge_add_incl(ts, &ts->edges[t], incl, o_incl);
		profile_edge_delete(ts, r);
	}
	free(roots);
}

/* An exit on an empty stack: method `id` was entered before tracing began.
 * Its frame spans from the thread's first event to now and becomes the caller
 * of everything this thread ran so far (in a range replayed apart, of what
 * it ran in this range; profile_merge adopts the rest). */
void profile_exit_before_start(struct cg_profile *p, struct tstate *ts, uint32_t id)
{
	uint32_t s, e, callee;
	struct tmeth *m;

	if (p->no_adopt) {
		p->warn[CG_W_EXIT_EMPTY]++;
		return;
	}
	s = profile_tm_get(ts, profile_method_index(p, id));
	m = &ts->tm[s];
	if (p->filtering) {
		unsigned fl = profile_method_flags(p, m->midx);

		if ((fl & MF_HIDE) || (p->focusing && !(fl & MF_FOCUS))) {
			/* Invisible: what ran so far keeps its callers. */
			p->warn[CG_W_EXIT_EMPTY]++;
			return;
		}
	}
	if (ts->seeded) {
		if (ts->nadopted == MAX_ADOPTED) {
			p->abandoned = 1; /* replay the rest in order instead */
			return;
		}
		ts->adopted = xgrow(ts->adopted, &ts->cap_adopted, ts->nadopted + 1,
				    sizeof(*ts->adopted));
		ts->adopted[ts->nadopted++] = m->midx;
	}
	profile_adopt(p, ts, s);
	m = &ts->tm[s];
	m->calls++;
	m->incl += ts->now - ts->first;
	m->o_incl += ts->other_now - ts->other_first;
	e = profile_edge_get(p, ts, 0, id, &callee);
	ts->edges[e].calls++;
	ts->edges[e].all += ts->now - ts->first;
	ts->edges[e].o_all += ts->other_now - ts->other_first;
	profile_edge_add_incl(ts, &ts->edges[e], ts->now - ts->first, ts->other_now - ts->other_first);
	p->warn[CG_W_EXIT_EMPTY]++;
	if (p->focusing) {
		/* covers every earlier focused frame */
		ts->focus_us = ts->now - ts->first;
		ts->o_focus_us = ts->other_now - ts->other_first;
	}
	profile_observe_adopt(p, ts, m->midx, id);
}


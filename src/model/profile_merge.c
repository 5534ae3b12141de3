/* profile_merge.c - a trace replayed in ranges, each into its own profile:
 * seeding a range's threads with their state before it, parking the
 * stacks open at its end, and summing the ranges in order (profile.h). */
#include <stdlib.h>
#include <string.h>

#include "model/profile_impl.h"

/* Push seed frames (bottom first) onto ts's stack, as their entries did:
 * the edge from the frame below, the method active once more. */
static void push_frames(struct cg_profile *p, struct tstate *ts, const struct cg_seed_frame *fr,
			size_t n)
{
	size_t i;

	if (p->global) {
		for (i = 0; i < n; i++)
			if (p->bare)
				profile_bare_push(p, ts, fr[i].id, fr[i].entry, fr[i].o_entry);
			else
				profile_global_push(p, ts, fr[i].id, fr[i].entry, fr[i].o_entry);
		return;
	}
	for (i = 0; i < n; i++) {
		uint32_t caller = ts->depth ? ts->stack[ts->depth - 1].tm : 0, callee;
		uint32_t e = profile_edge_get(p, ts, caller, fr[i].id, &callee);
		struct frame *f;

		ts->stack = xgrow(ts->stack, &ts->cap_stack, ts->depth + 1, sizeof(*ts->stack));
		f = &ts->stack[ts->depth++];
		memset(f, 0, sizeof(*f));
		f->edge = e;
		f->tm = f->own = callee;
		f->id = fr[i].id;
		f->entry = fr[i].entry;
		f->o_entry = fr[i].o_entry;
		ts->tm[callee].active++;
		/* Only its time from now on is this profile's (struct tedge). */
		ts->edges[e].all -= ts->now - f->entry;
		ts->edges[e].o_all -= ts->other_now - f->o_entry;
	}
	if (ts->depth > ts->max_depth)
		ts->max_depth = (uint32_t)ts->depth;
}

/* Tell the observer of the n seed frames just pushed on ts, bottom first,
 * as their entries: a range's tree starts from the stacks open before it. */
static void observe_seeds(struct cg_profile *p, const struct tstate *ts,
			  const struct cg_seed_frame *fr, size_t n)
{
	size_t i, base = ts->depth - n;

	for (i = 0; i < n; i++) {
		/* The method, or the raw id for an observer that asks for it. */
		uint32_t slot = ts->stack[base + i].tm, m = fr[i].id;

		if (!profile_obs_raw(p))
			m = p->bare ? slot : p->global ? p->lines[slot].midx : ts->tm[slot].midx;
		observer_enter_o(p->obs, ts->index, m, fr[i].entry, ts->other_first,
				 fr[i].o_entry);
	}
}

void profile_seed(struct cg_profile *p, const struct cg_seed *seeds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct cg_seed *sd = &seeds[i];
		struct tstate *ts = profile_thread_new(p, sd->tid);

		ts->started = 1;
		ts->seeded = 1;
		ts->prev_raw = sd->prev_raw;
		ts->prev_other = sd->prev_other;
		ts->prev_wall = sd->prev_wall;
		ts->now = sd->now;
		ts->first = sd->first;
		ts->other_now = sd->other_now;
		ts->other_first = sd->other_first;
		push_frames(p, ts, sd->stack, sd->depth);
		if (p->obs)
			observe_seeds(p, ts, sd->stack, sd->depth);
	}
}

void profile_first_record(struct cg_profile *p, uint64_t k)
{
	p->fed = k;
}

size_t profile_snapshot(const struct cg_profile *p, struct cg_seed **seeds,
			struct cg_seed_frame **frames)
{
	size_t i, d, nf = 0, k = 0;

	for (i = 0; i < p->nthreads; i++)
		nf += p->threads[i]->depth;
	*seeds = xcalloc(p->nthreads ? p->nthreads : 1, sizeof(**seeds));
	*frames = xcalloc(nf ? nf : 1, sizeof(**frames));
	for (i = 0; i < p->nthreads; i++) {
		const struct tstate *ts = p->threads[i];
		struct cg_seed *sd = &(*seeds)[i];

		sd->tid = ts->tid;
		sd->prev_raw = ts->prev_raw;
		sd->prev_other = ts->prev_other;
		sd->prev_wall = ts->prev_wall;
		sd->now = ts->now;
		sd->first = ts->first;
		sd->other_now = ts->other_now;
		sd->other_first = ts->other_first;
		sd->stack = &(*frames)[k];
		sd->depth = ts->depth;
		for (d = 0; d < ts->depth; d++, k++) {
			(*frames)[k].id = ts->stack[d].id;
			(*frames)[k].entry = ts->stack[d].entry;
			(*frames)[k].o_entry = ts->stack[d].o_entry;
		}
	}
	return p->nthreads;
}

void profile_park(struct cg_profile *p)
{
	size_t i;

	for (i = 0; i < p->nthreads; i++) {
		struct tstate *ts = p->threads[i];

		if (p->bare) {
			profile_bare_park(ts);
			continue;
		}
		if (p->global) {
			profile_global_park(p, ts);
			continue;
		}
		ts->parked = ts->depth; /* the frames stay, for profile_unpark */
		while (ts->depth) {
			const struct frame *f = &ts->stack[--ts->depth];

			/* Its time so far; the rest is the next range's. */
			ts->edges[f->edge].all += ts->now - f->entry;
			ts->edges[f->edge].o_all += ts->other_now - f->o_entry;
			ts->tm[f->tm].active--;
		}
	}
}

/* Add thread qs of a later range to ps: methods by symtab index, edges by
 * (caller's method, raw callee id); edge times the later range no longer
 * counts (an epoch moved on) are left out.  Recursive calls follow from the
 * summed edges' calls (struct tmeth). */
static void merge_thread(struct cg_profile *p, struct tstate *ps, const struct tstate *qs)
{
	size_t i;

	for (i = 0; i < qs->ntm; i++) {
		const struct tmeth *m = &qs->tm[i];
		uint32_t slot = i ? profile_tm_get(ps, m->midx) : 0;
		struct tmeth *pm = &ps->tm[slot];

		pm->incl += m->incl;
		pm->calls += m->calls;
		pm->o_incl += m->o_incl;
	}
	for (i = 0; i < qs->nedges; i++) {
		const struct tedge *e = &qs->edges[i];
		uint32_t caller = (uint32_t)(e->key >> 32), callee, k;

		if (e->key == UINT64_MAX)
			continue; /* on the free list */
		caller = caller ? profile_tm_get(ps, qs->tm[caller].midx) : 0;
		k = profile_edge_get(p, ps, caller, (uint32_t)e->key, &callee);
		ps->edges[k].calls += e->calls;
		ps->edges[k].all += e->all;
		ps->edges[k].o_all += e->o_all;
		if (profile_edge_valid(qs, e))
			profile_edge_add_incl(ps, &ps->edges[k], e->incl, e->o_incl);
	}
}

/* Thread qs's counts and clocks, of a later range, into ps. */
static void merge_clocks(struct tstate *ps, const struct tstate *qs)
{
	ps->records += qs->records;
	ps->same_ts += qs->same_ts;
	ps->pairs += qs->pairs;
	ps->small_steps += qs->small_steps;
	if (qs->max_depth > ps->max_depth)
		ps->max_depth = qs->max_depth;
	ps->now = qs->now;
	ps->other_now = qs->other_now;
	ps->prev_raw = qs->prev_raw;
	ps->prev_other = qs->prev_other;
	ps->prev_wall = qs->prev_wall;
}

void profile_merge(struct cg_profile *p, struct cg_profile *q)
{
	size_t i, k, w;

	for (i = 0; i < q->nthreads; i++) {
		const struct tstate *qs = q->threads[i];
		struct tstate *ps = profile_thread_find(p, qs->tid);

		if (!ps) {
			/* First met in q: its clocks start there. */
			ps = profile_thread_new(p, qs->tid);
			ps->started = 1;
			ps->first = qs->first;
			ps->other_first = qs->other_first;
		}
		if (p->global) {
			/* The correction pass adopts up to the last such exit. */
			if (qs->adopt_to > ps->adopt_to)
				ps->adopt_to = qs->adopt_to;
			/* A frame entered before tracing took all earlier time. */
			ps->top_us = qs->adopted_top ? qs->top_us : ps->top_us + qs->top_us;
			ps->o_top_us = qs->adopted_top ? qs->o_top_us : ps->o_top_us + qs->o_top_us;
			ps->adopted_top |= qs->adopted_top;
		} else {
			/* Exits on qs's empty stack adopted what ps ran, in order. */
			for (k = 0; k < qs->nadopted; k++)
				profile_adopt(p, ps, profile_tm_get(ps, qs->adopted[k]));
			merge_thread(p, ps, qs);
		}
		merge_clocks(ps, qs);
	}
	if (p->global)
		profile_global_merge(p, q);
	for (w = 0; w < CG_W_COUNT; w++)
		p->warn[w] += q->warn[w];
	p->stats.skipped += q->stats.skipped;
	p->stats.unwinds += q->stats.unwinds;
}

int profile_threads_follow(const struct cg_profile *p, const struct cg_profile *q)
{
	size_t i;

	for (i = 0; i < q->nthreads; i++) {
		uint32_t tid = q->threads[i]->tid;

		if (i < p->nthreads ? p->threads[i]->tid != tid : profile_thread_find(p, tid) != NULL)
			return 0;
	}
	return 1;
}

void profile_unpark(struct cg_profile *p, const struct cg_profile *q)
{
	struct cg_seed_frame *fr = NULL;
	size_t cap = 0, i, k;

	for (i = 0; i < q->nthreads; i++) {
		const struct tstate *qs = q->threads[i];

		fr = xgrow(fr, &cap, qs->parked + 1, sizeof(*fr));
		for (k = 0; k < qs->parked; k++) {
			fr[k].id = qs->stack[k].id;
			fr[k].entry = qs->stack[k].entry;
			fr[k].o_entry = qs->stack[k].o_entry;
		}
		push_frames(p, profile_thread_find(p, qs->tid), fr, qs->parked);
	}
	free(fr);
}

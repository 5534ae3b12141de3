/* profile_finish.c - a profile's life (profile.h): made, told its
 * observer, given records (to the replay of its layout), finished (the frames still open closed, each thread's recursive
 * calls and exclusive times worked out from its edges, its lookup tables
 * freed) and freed. */
#include <stdlib.h>
#include <string.h>

#include "model/profile_impl.h"

struct cg_profile *profile_create(struct cg_symtab *st, const struct cg_profile_opts *opts)
{
	struct cg_profile *p = xcalloc(1, sizeof(*p));

	p->st = st;
	p->big_tab.key4 = 1;
	if (opts)
		p->opts = *opts;
	if (!p->opts.max_depth)
		p->opts.max_depth = CG_DEFAULT_MAX_DEPTH;
	p->focusing = p->opts.focus && p->opts.focus[0];
	p->filtering = p->focusing || (p->opts.hide && p->opts.hide[0]);
	p->slow = p->filtering;
	p->global = p->opts.global && !p->filtering;
	p->bare = p->global && (p->opts.no_views || p->opts.views_from_sums);
	if (p->bare)
		p->idcache = xcalloc((size_t)1 << PROFILE_IDCACHE_BITS, sizeof(*p->idcache));
	p->main_named = -1;
	strbuf_init(&p->namebuf);
	return p;
}

void profile_set_observer(struct cg_profile *p, const struct cg_observer *o)
{
	if (o) {
		p->obs_store = *o;
		p->obs = &p->obs_store;
		if (!o->other) {
			/* enter_o and leave_o come with other. */
			p->obs_store.enter_o = NULL;
			p->obs_store.leave_o = NULL;
		}
	} else {
		p->obs = NULL;
	}
	if (!p->slow && p->obs && !p->global) {
		/* From the fast path to the slow one mid-replay: the open frames,
		 * all visible (no filter), get the slot the slow path pops by. */
		size_t i, d;

		for (i = 0; i < p->nthreads; i++)
			for (d = 0; d < p->threads[i]->depth; d++)
				p->threads[i]->stack[d].own = p->threads[i]->stack[d].tm;
	}
	p->slow = p->filtering || p->obs;
}

const struct cg_observer *profile_observer(const struct cg_profile *p)
{
	return p->obs;
}

uint64_t profile_calls_told(const struct cg_profile *p)
{
	return p->told;
}

/* Between batches of records, an observer that only passes events on gives
 * way to the one it passes them to (cg_observer.bypass). */
static void obs_step_aside(struct cg_profile *p)
{
	struct cg_observer o;

	if (!p->obs || !p->obs->bypass)
		return;
	o = *p->obs;
	if (observer_step_aside(&o))
		profile_set_observer(p, &o);
}

/* Records go to the replay of the profile's layout. */
int profile_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
		struct cg_error *err)
{
	obs_step_aside(p);
	if (p->bare)
		return profile_bare_add(p, recs, n, err);
	if (p->global)
		return profile_global_add(p, recs, n, err);
	return profile_thread_add(p, recs, n, err);
}

int profile_add_raw(struct cg_profile *p, const struct cg_raw_layout *l, const unsigned char *bytes,
		    size_t n, uint64_t offset, struct cg_error *err)
{
	obs_step_aside(p);
	if (p->bare)
		return profile_bare_add_raw(p, l, bytes, n, offset, err);
	if (p->global)
		return profile_global_add_raw(p, l, bytes, n, offset, err);
	return profile_thread_add_raw(p, l, bytes, n, offset, err);
}


/* Each method's recursive calls, the calls of the edges into it less its
 * outermost calls, and its exclusive time, the time of the edges into it
 * less that of the edges out of it, stored over its call cache (struct
 * tmeth).  The root's (slot 0) is the time of the edges out of it,
 * negated. */
static void thread_count(struct tstate *ts)
{
	size_t i;

	for (i = 0; i < ts->ntm; i++)
		memset(&ts->tm[i].u, 0, sizeof(ts->tm[i].u));
	for (i = 0; i < ts->nedges; i++) {
		const struct tedge *e = &ts->edges[i];
		struct tmeth *callee = &ts->tm[e->callee], *caller;

		if (e->key == UINT64_MAX)
			continue; /* freed */
		caller = &ts->tm[e->key >> 32];
		profile_count_edge(&callee->u.s, &caller->u.s, e->calls, e->all, e->o_all);
	}
	for (i = 0; i < ts->ntm; i++)
		ts->tm[i].u.s.rec -= ts->tm[i].calls;
}

/* After the replay a thread keeps only what views read: its method and
 * edge arrays (no edges when no view needs them), cut to their length.  The
 * lookup tables, the stack and the root-edge list go (on a trace of a
 * million methods, about 30 bytes per method and per edge). */
static void thread_settle(struct tstate *ts, int no_edges)
{
	itab_free(&ts->tm_tab);
	itab_free(&ts->etab);
	free(ts->root_edges);
	ts->root_edges = NULL;
	ts->nroot = ts->cap_root = 0;
	free(ts->stack);
	ts->stack = NULL;
	ts->cap_stack = 0;
	if (no_edges)
		thread_drop_edges(ts);
	if (ts->cap_tm > ts->ntm && ts->ntm) {
		struct tmeth *tm = ts->tm;
		size_t n = ts->ntm;

		ts->tm = NULL;
		ts->ntm = ts->cap_tm = 0;
		profile_tm_grow(ts, n);
		memcpy(ts->tm, tm, n * sizeof(*tm));
		ts->ntm = n;
		free(tm);
	}
	if (ts->cap_edges > ts->nedges && ts->nedges) {
		ts->edges = xrealloc(ts->edges, ts->nedges * sizeof(*ts->edges));
		ts->cap_edges = ts->nedges;
	}
}


static void thread_free(struct tstate *ts)
{
	if (!ts)
		return;
	free(ts->tm);
	itab_free(&ts->tm_tab);
	free(ts->edges);
	itab_free(&ts->etab);
	free(ts->root_edges);
	free(ts->stack);
	free(ts->adopted);
	free(ts->open);
	free(ts->on);
	free(ts);
}

void profile_free(struct cg_profile *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < 65536; i++)
		thread_free(p->by_tid[i]);
	for (i = 0; i < p->nbig; i++)
		thread_free(p->big[i].ts);
	free(p->big);
	itab_free(&p->big_tab);
	free(p->threads);
	free(p->pthreads);
	profile_view_free(&p->all);
	if (p->per)
		for (i = 0; i < p->npthreads; i++)
			profile_view_free(&p->per[i]);
	free(p->per);
	free(p->mflag);
	free(p->idcache);
	strbuf_free(&p->namebuf);
	profile_global_free(p);
	profile_free(p->fix[0]);
	profile_free(p->fix[1]);
	free(p);
}

void profile_end_observed(struct cg_profile *p)
{
	size_t i;

	if (!p->bare || p->finished || p->observed_end)
		return;
	p->observed_end = 1;
	for (i = 0; i < p->nthreads; i++) {
		p->stats.open_at_end += p->threads[i]->depth;
		profile_bare_close(p, p->threads[i]);
	}
	if (p->obs && p->obs->finish)
		p->obs->finish(p->obs->ctx);
}

void profile_finish(struct cg_profile *p, const struct cg_trace_info *info)
{
	uint64_t same = 0, pairs = 0, small = 0, steps = 0;
	size_t i, w;

	if (p->finished)
		return;
	p->finished = 1;
	p->has_other = info && info->clock == CG_CLOCK_DUAL;
	if (p->has_other || !info)
		p->primary = p->opts.clock;
	else
		p->primary = info->clock == CG_CLOCK_CPU ? CG_USE_CPU : CG_USE_WALL;
	p->pthreads = xcalloc(p->nthreads ? p->nthreads : 1, sizeof(*p->pthreads));
	if (p->global) {
		/* Every thread's frames closed before any line is summed. */
		for (i = 0; i < p->nthreads; i++) {
			p->stats.open_at_end += p->threads[i]->depth;
			if (p->bare)
				profile_bare_close(p, p->threads[i]);
			else
				profile_global_close(p, p->threads[i]);
		}
		profile_global_count(p);
	}
	for (i = 0; i < p->nthreads; i++) {
		struct tstate *ts = p->threads[i];
		struct cg_pthread *pt = &p->pthreads[i];
		const struct cg_thread_info *ti;

		p->stats.open_at_end += ts->depth;
		profile_close_frames(p, ts);
		ti = symtab_thread(p->st, ts->tid);
		pt->tid = ts->tid;
		pt->name = ti->name;
		pt->records = ts->records;
		pt->first_us = ts->first;
		pt->last_us = ts->now;
		pt->incl_us = ts->now - ts->first;
		/* The thread's time less that of its root's edges (hidden frames
		 * directly under the root have none). */
		if (p->bare) {
			pt->excl_us = ts->now - ts->first - ts->top_us;
			pt->other_us = ts->other_now - ts->other_first;
			pt->o_excl_us = pt->other_us - ts->o_top_us;
		} else if (p->global) {
			/* A thread that never entered a method has no root line. */
			const struct gline *root = ts->root == NIL ? NULL : &p->lines[ts->root];

			pt->excl_us = ts->now - ts->first + (root ? root->u.s.excl : 0);
			pt->other_us = ts->other_now - ts->other_first;
			pt->o_excl_us = pt->other_us + (root ? root->u.s.o_excl : 0);
		} else {
			thread_count(ts);
			pt->excl_us = ts->now - ts->first + ts->tm[0].u.s.excl;
			pt->other_us = ts->other_now - ts->other_first;
			pt->o_excl_us = pt->other_us + ts->tm[0].u.s.o_excl;
		}
		if (p->focusing) {
			pt->incl_us = ts->focus_us;
			pt->excl_us = 0;
			pt->other_us = ts->o_focus_us;
			pt->o_excl_us = 0;
		}
		if (!p->has_other)
			pt->other_us = pt->o_excl_us = 0;
		pt->max_depth = ts->max_depth;
		thread_settle(ts, p->opts.no_edges);
		p->stats.records += ts->records;
		p->stats.other_total_us += pt->other_us;
		if (ts->max_depth > p->stats.max_depth)
			p->stats.max_depth = ts->max_depth;
		same += ts->same_ts;
		pairs += ts->pairs;
		small += ts->small_steps;
		steps += ts->pairs - ts->same_ts;
	}
	p->npthreads = p->nthreads;
	if (p->obs && p->obs->finish && !p->observed_end)
		p->obs->finish(p->obs->ctx);
	/* Sampling: most consecutive events of a thread share a timestamp, the
	 * remaining steps are long (the interval), and nothing unwinds. */
	p->sampling = pairs >= 100 && same * 10 >= pairs * 7 && small * 20 <= steps &&
		      p->stats.unwinds == 0 && p->warn[CG_W_EXIT_EMPTY] == 0;
	p->warn[CG_W_SAMPLING] = p->sampling;
	p->warn[CG_W_OVERFLOW] = info && info->overflow;
	p->warn[CG_W_TRUNCATED] = info && info->truncated;
	p->warn[CG_W_UNKNOWN_METHOD] = symtab_unknown_count(p->st);
	for (w = 0; w < CG_W_COUNT; w++) {
		if (!p->warn[w])
			continue;
		profile_warn_message((enum cg_warn)w, p->warn[w], p->messages[w],
				     sizeof(p->messages[w]));
		p->warnings[p->nwarnings].kind = (enum cg_warn)w;
		p->warnings[p->nwarnings].name = profile_warn_name((enum cg_warn)w);
		p->warnings[p->nwarnings].count = p->warn[w];
		p->warnings[p->nwarnings].message = p->messages[w];
		p->nwarnings++;
	}
	p->per = xcalloc(p->npthreads ? p->npthreads : 1, sizeof(*p->per));
	if (p->global) {
		if (p->opts.no_views)
			profile_global_free(p);
	} else if (p->opts.no_views) {
		for (i = 0; i < p->nthreads; i++)
			thread_drop_tables(p->threads[i]);
	} else {
		profile_view_take(p);
	}
}


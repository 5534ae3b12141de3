/* profile_bare.c - the replay of a profile of global tables that no view
 * will read (cg_profile_opts.no_views: folded stacks, pprof, speedscope,
 * the Chrome trace), or whose views all come from the calling-context tree
 * (cg_profile_opts.views_from_sums: the HTML report): every thread's stack,
 * its clocks and the observer, and no method or edge table, since
 * profile_finish would free them unread, or the tree gives the same sums.
 *
 * Of what the tables give, such a profile keeps one thing: each thread's
 * time outside its top-level frames (cg_pthread.excl_us), from the time of
 * its top-level frames, which a frame adds as it returns to an empty stack.
 * A frame entered before tracing (an exit on an empty stack) spans from the
 * thread's first event, and every earlier top-level frame ran inside it: the
 * time of the top-level frames becomes its duration at once, and nothing is
 * left for a correction pass.
 *
 * An entry looks its method up unless the observer finds methods itself
 * (cg_observer.raw_ids): the tree behind folded stacks and pprof finds a
 * context's method once, when the replay ends.  An exit that does
 * not match the top frame searches the stack for its method's frame; a
 * search that finds it costs what the pops it leads to cost, and past a
 * budget of frames searched in vain (a trace of exits matching no frame of
 * a deep stack), the thread marks its methods with an outermost activation
 * open by their symtab index (profile_open.c) from then on, as the frames
 * of global tables are marked by their line, and looks them up there. */

#include "model/profile_impl.h"

/* The method of raw id: from the cache of recent ids (each entry id << 32
 * | method + 1, 0 when empty), else from the symtab, which adds an id
 * missing from the key. */
static __attribute__((noinline)) uint32_t bare_method_slow(struct cg_profile *p, uint32_t id,
							   uint64_t *e)
{
	uint32_t midx = profile_method_index(p, id);

	if (!p->abandoned)
		*e = (uint64_t)id << 32 | (midx + 1u);
	return midx;
}

static inline uint32_t bare_method(struct cg_profile *p, uint32_t id)
{
	uint64_t *e = &p->idcache[(id * 0x9E3779B1u) >> (32 - PROFILE_IDCACHE_BITS)];

	if ((uint32_t)(*e >> 32) == id && (uint32_t)*e)
		return (uint32_t)*e - 1;
	return bare_method_slow(p, id, e);
}

/* Push a frame of raw id, entered at entry (o_entry); its method (NIL
 * when the observer finds methods itself and the thread marks none). */
static inline uint32_t bare_push(struct cg_profile *p, struct tstate *ts, uint32_t id,
				 uint64_t entry, uint64_t o_entry)
{
	uint32_t midx = NIL, own = 0;
	struct frame *f;

	if (!profile_obs_raw(p) || ts->tracked) {
		midx = bare_method(p, id);
		if (ts->tracked)
			own = (uint32_t)profile_open_enter(p, ts, midx); /* before the push */
	}

	if (ts->depth == ts->cap_stack)
		ts->stack = profile_tgrow(ts->stack, &ts->cap_stack, ts->depth + 1,
					  sizeof(*ts->stack));
	f = &ts->stack[ts->depth++];
	f->tm = midx;
	f->edge = NIL;
	f->id = id;
	f->own = own;
	f->entry = entry;
	f->o_entry = o_entry;
	if (ts->depth > ts->max_depth)
		ts->max_depth = (uint32_t)ts->depth;
	return midx;
}

static inline void bare_pop(struct tstate *ts)
{
	const struct frame *f = &ts->stack[--ts->depth];

	if (ts->depth == 0) {
		ts->top_us += ts->now - f->entry;
		ts->o_top_us += ts->other_now - f->o_entry;
	}
	if (f->own)
		profile_open_leave(ts, f->tm);
}

static inline void bare_pop_any(struct cg_profile *p, struct tstate *ts)
{
	bare_pop(ts);
	if (p->obs)
		observer_leave_o(p->obs, ts->index, ts->now, ts->other_first, ts->other_now);
}

/* From now on, ts marks the methods with an outermost activation open:
 * those of its open frames first, bottom up. */
static void bare_track(struct cg_profile *p, struct tstate *ts)
{
	size_t d;

	ts->tracked = 1;
	for (d = 0; d < ts->depth; d++) {
		struct frame *f = &ts->stack[d];

		if (f->tm == NIL)
			f->tm = bare_method(p, f->id);
		f->own = (uint32_t)profile_open_enter(p, ts, f->tm);
	}
}

/* Whether a frame of raw id is open on ts, which marks no method: its
 * stack searched from the top.  Past 8 frames searched for each record of
 * the thread, the thread marks its methods instead. */
static int bare_open_scan(struct cg_profile *p, struct tstate *ts, uint32_t id)
{
	size_t d = ts->depth;

	while (d && ts->stack[d - 1].id != id)
		d--;
	ts->scanned += ts->depth - d + 1;
	if (ts->scanned > 8 * ts->records + 4096)
		bare_track(p, ts);
	return d != 0;
}

static __attribute__((noinline)) void bare_exit_other(struct cg_profile *p, struct tstate *ts,
						      uint32_t id)
{
	int64_t midx;

	if (ts->depth == 0) {
		/* A frame entered before tracing, the caller of all so far. */
		uint32_t m = profile_method_index(p, id);

		p->warn[CG_W_EXIT_EMPTY]++;
		ts->top_us = ts->now - ts->first;
		ts->o_top_us = ts->other_now - ts->other_first;
		ts->adopted_top = 1;
		profile_observe_adopt(p, ts, m, id);
		return;
	}
	if (!ts->tracked) {
		profile_exit_below(p, ts, id, bare_open_scan(p, ts, id), bare_pop_any);
		return;
	}
	midx = symtab_find_method(p->st, id);
	profile_exit_below(p, ts, id, midx >= 0 && profile_open_has(ts, (uint32_t)midx),
			   bare_pop_any);
}

static inline __attribute__((always_inline)) int bare_one(struct cg_profile *p,
							   const struct cg_record *r, uint64_t offset,
							   int cpu, struct cg_error *err)
{
	struct tstate *ts;

	p->fed++;
	ts = profile_tick_on(p, r, cpu);
	if (!ts)
		return 0;
	if (r->action == CG_ENTER) {
		uint32_t midx;

		if (profile_too_deep(p, ts, offset, err) < 0)
			return -1;
		midx = bare_push(p, ts, r->method, ts->now, ts->other_now);
		if (p->obs) {
			p->told++;
			observer_enter_o(p->obs, ts->index, profile_obs_method(p, midx, r->method),
					 ts->now, ts->other_first, ts->other_now);
		}
		return 0;
	}
	profile_count_exit(p, r->action);
	if (ts->depth && ts->stack[ts->depth - 1].id == r->method)
		bare_pop_any(p, ts);
	else
		bare_exit_other(p, ts, r->method);
	return 0;
}

int profile_bare_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
		     struct cg_error *err)
{
	return profile_loop(p, recs, n, bare_one, err);
}

int profile_bare_add_raw(struct cg_profile *p, const struct cg_raw_layout *l,
			 const unsigned char *bytes, size_t n, uint64_t offset, struct cg_error *err)
{
	return profile_loop_raw(p, l, bytes, n, offset, bare_one, err);
}

void profile_bare_close(struct cg_profile *p, struct tstate *ts)
{
	while (ts->depth)
		bare_pop_any(p, ts);
}

/* ---- ranges ------------------------------------------------------------------ */

void profile_bare_push(struct cg_profile *p, struct tstate *ts, uint32_t id, uint64_t entry,
		       uint64_t o_entry)
{
	if (!ts->depth) {
		/* Only its time from now on is this profile's. */
		ts->top_us -= ts->now - entry;
		ts->o_top_us -= ts->other_now - o_entry;
	}
	bare_push(p, ts, id, entry, o_entry);
}

void profile_bare_park(struct tstate *ts)
{
	ts->parked = ts->depth;
	while (ts->depth)
		bare_pop(ts);
}

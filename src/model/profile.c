/* profile.c - exact replay of per-thread call stacks into method and edge
 * statistics kept per thread: the layout for outputs that read a thread's
 * own methods (the HTML report, the graph), --focus and --hide.  (The other
 * layout, one table for all threads, is profile_global.c.)
 *
 * Each thread keeps its own method table and edge table, so that a frame
 * entered before tracing began (an exit on an empty stack) can be inserted
 * under everything that thread has run so far (profile_adopt.c).  An entry
 * looks first in the caller's cache of its last two calls, else in the
 * thread's edge table keyed by (caller, raw callee id); exits need none.  A
 * method slot is one 64-byte line.  A record that returns nothing touches
 * only its thread's clocks: exclusive time is not summed while a frame is
 * on top; a return adds the frame's duration to its edge, and
 * profile_finish.c takes each method's exclusive time as the time of the
 * edges into it less that of the edges out of it.  Records come decoded
 * (profile_add) or as read, decoded where they lie (profile_add_raw); both
 * run the same replay_one.
 *
 * --focus/--hide and the observer (the calling-context tree) take a slow
 * path, chosen by one test per entry and per pop: hidden frames stay on the
 * stack for matching exits but charge their calls to the nearest visible
 * frame below (slot 0, the root), and, having no edge, their time too.
 */
#include "model/profile_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

/* ---- per-thread tables ---------------------------------------------------- */

/* xgrow for per-thread arrays, but starting at 2 elements rather than 16: a
 * trace can have 65536 threads of a record or two each, and 16-element
 * minimums cost about 3 KB per thread (190 MB for all of them). */
void *profile_tgrow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c;

	if (need <= *cap)
		return p;
	if (need > 16)
		return xgrow(p, cap, need, size);
	for (c = *cap ? *cap * 2 : 2; c < need; c *= 2)
		;
	*cap = c;
	return xrealloc(p, c * size);
}

/* Room for need elements of size bytes in *arr (used of them in use,
 * *cap of them now, from `first` up by doubling), 64-byte aligned so that
 * a 64-byte element is one cache line, and on huge pages when large
 * (xmalloc_big): method slots, and the lines of global tables
 * (profile_global.c). */
void profile_grow_aligned(void **arr, size_t *cap, size_t used, size_t need, size_t size,
			  size_t first)
{
	size_t c = *cap ? *cap : first;
	void *m;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	m = xmalloc_big(64, c, size);
	if (used)
		memcpy(m, *arr, used * size);
	free(*arr);
	*arr = m;
	*cap = c;
}

/* Room for need method slots in ts->tm (grown as tgrow grows). */
void profile_tm_grow(struct tstate *ts, size_t need)
{
	void *tm = ts->tm;

	profile_grow_aligned(&tm, &ts->cap_tm, ts->ntm, need, sizeof(*ts->tm), 2);
	ts->tm = tm;
}

static uint32_t tm_find(const struct tstate *ts, uint32_t midx)
{
	uint32_t s = itab_find(&ts->tm_tab, midx, ts->tm, sizeof(*ts->tm));

	return s == ITAB_NONE ? 0 : s;
}

/* The thread's slot for method midx, created when new; may move ts->tm. */
static uint32_t tm_get(struct tstate *ts, uint32_t midx)
{
	uint32_t s = tm_find(ts, midx);

	if (s)
		return s;
	profile_tm_grow(ts, ts->ntm + 1);
	s = (uint32_t)ts->ntm++;
	memset(&ts->tm[s], 0, sizeof(ts->tm[s]));
	ts->tm[s].midx = midx;
	ts->tm[s].u.last[0].edge = ts->tm[s].u.last[1].edge = NIL;
	itab_insert(&ts->tm_tab, s, ts->tm, sizeof(*ts->tm));
	return s;
}

/* The symtab index of raw id, added when missing -- unless other threads
 * read the symtab, when the replay is abandoned instead (index 0 stands in,
 * and the numbers are thrown away). */
uint32_t profile_method_index(struct cg_profile *p, uint32_t id)
{
	int64_t m;

	if (!p->opts.shared_symtab)
		return symtab_method_index(p->st, id);
	m = symtab_find_method(p->st, id);
	if (m < 0) {
		p->abandoned = 1;
		return 0;
	}
	return (uint32_t)m;
}

/* A new edge (caller slot, raw callee id); returns its index, its callee
 * slot in *callee.  May move ts->edges and ts->tm. */
static __attribute__((noinline)) uint32_t edge_new(struct cg_profile *p, struct tstate *ts,
						   uint32_t caller, uint32_t id, uint32_t *callee)
{
	uint64_t key = (uint64_t)caller << 32 | id;
	uint32_t e, c = tm_get(ts, profile_method_index(p, id));

	if (ts->free_edge != NIL) {
		e = ts->free_edge;
		ts->free_edge = ts->edges[e].callee;
	} else {
		ts->edges = profile_tgrow(ts->edges, &ts->cap_edges, ts->nedges + 1, sizeof(*ts->edges));
		e = (uint32_t)ts->nedges++;
	}
	memset(&ts->edges[e], 0, sizeof(ts->edges[e]));
	ts->edges[e].key = key;
	ts->edges[e].callee = c;
	ts->edges[e].epoch = ts->tm[c].epoch;
	itab_insert(&ts->etab, e, ts->edges, sizeof(*ts->edges));
	if (caller == 0) {
		ts->root_edges = profile_tgrow(ts->root_edges, &ts->cap_root, ts->nroot + 1,
				       sizeof(*ts->root_edges));
		ts->root_edges[ts->nroot++] = e;
	}
	*callee = c;
	return e;
}

/* The edge (caller slot, raw callee id), created when new: first the
 * caller's cache of its last call, then the thread's edge table.  Returns its
 * index and its callee slot in *callee; may move ts->edges and ts->tm. */
static inline uint32_t edge_get(struct cg_profile *p, struct tstate *ts, uint32_t caller,
				uint32_t id, uint32_t *callee)
{
	struct tmeth *cm;
	uint32_t e;

	cm = &ts->tm[caller];
	if (cm->u.last[0].id == id && cm->u.last[0].edge != NIL) {
		*callee = cm->u.last[0].callee;
		return cm->u.last[0].edge;
	}
	if (cm->u.last[1].id == id && cm->u.last[1].edge != NIL) {
		struct tcall t = cm->u.last[1];

		cm->u.last[1] = cm->u.last[0];
		cm->u.last[0] = t;
		*callee = t.callee;
		return t.edge;
	}
	e = itab_find(&ts->etab, (uint64_t)caller << 32 | id, ts->edges, sizeof(*ts->edges));
	if (e != ITAB_NONE) {
		*callee = ts->edges[e].callee;
	} else {
		e = edge_new(p, ts, caller, id, callee);
	}
	cm = &ts->tm[caller];
	cm->u.last[1] = cm->u.last[0];
	cm->u.last[0].id = id;
	cm->u.last[0].edge = e;
	cm->u.last[0].callee = *callee;
	return e;
}

/* Remove edge e from the table and free it. */
void profile_edge_delete(struct tstate *ts, uint32_t e)
{
	uint32_t caller = (uint32_t)(ts->edges[e].key >> 32);

	itab_delete(&ts->etab, ts->edges[e].key, ts->edges, sizeof(*ts->edges));
	if (ts->tm[caller].u.last[0].edge == e)
		ts->tm[caller].u.last[0].edge = NIL;
	if (ts->tm[caller].u.last[1].edge == e)
		ts->tm[caller].u.last[1].edge = NIL;
	ts->edges[e].callee = ts->free_edge;
	ts->edges[e].key = UINT64_MAX;
	ts->free_edge = e;
}

/* Add us (primary clock) and o_us (other clock) to edge e's inclusive time. */
void profile_edge_add_incl(struct tstate *ts, struct tedge *e, uint64_t us, uint64_t o_us)
{
	uint32_t ep = ts->tm[e->callee].epoch;

	if (e->epoch != ep) {
		e->incl = 0;
		e->o_incl = 0;
		e->epoch = ep;
	}
	e->incl += us;
	e->o_incl += o_us;
}

/* ---- replay ------------------------------------------------------------------ */

/* Pop the top frame, visible: its method's and edge's sums. */
static inline void pop_visible(struct tstate *ts)
{
	struct frame *f = &ts->stack[--ts->depth];
	struct tmeth *m = &ts->tm[f->tm];
	struct tedge *e = &ts->edges[f->edge];
	uint64_t dur = ts->now - f->entry;
	uint64_t o_dur = ts->other_now - f->o_entry;

	m->active--;
	e->calls++; /* a recursive call counts only here (see struct tmeth) */
	e->all += dur;
	e->o_all += o_dur;
	if (m->active == 0) {
		m->calls++;
		m->incl += dur;
		m->o_incl += o_dur;
		profile_edge_add_incl(ts, e, dur, o_dur);
	}
}

/* ---- slow path: observer, --focus, --hide ---------------------------------------- */

/* A new top frame (uninitialised); may move ts->stack. */
static struct frame *push_frame(struct tstate *ts)
{
	if (ts->depth == ts->cap_stack)
		ts->stack = profile_tgrow(ts->stack, &ts->cap_stack, ts->depth + 1, sizeof(*ts->stack));
	if (ts->depth + 1 > ts->max_depth)
		ts->max_depth = (uint32_t)ts->depth + 1;
	return &ts->stack[ts->depth++];
}

/* Tell the observer the thread's other-clock time, when it asks. */
static void profile_observe_other(struct cg_profile *p, const struct tstate *ts)
{
	if (p->obs->other)
		p->obs->other(p->obs->ctx, ts->index, ts->other_first, ts->other_now);
}

void profile_observe_enter(struct cg_profile *p, const struct tstate *ts, uint32_t midx,
			   uint32_t id)
{
	p->told++;
	observer_enter_o(p->obs, ts->index, profile_obs_method(p, midx, id), ts->now,
			 ts->other_first, ts->other_now);
}

void profile_observe_leave(struct cg_profile *p, const struct tstate *ts)
{
	observer_leave_o(p->obs, ts->index, ts->now, ts->other_first, ts->other_now);
}

void profile_observe_adopt(struct cg_profile *p, const struct tstate *ts, uint32_t midx,
			   uint32_t id)
{
	if (!p->obs)
		return;
	profile_observe_other(p, ts);
	p->told++;
	p->obs->adopt(p->obs->ctx, ts->index, profile_obs_method(p, midx, id), ts->first,
		      ts->now);
}

/* An entry of raw id on the slow path.  A hidden method, or any method
 * outside a focused frame that is not itself focused, gets a hidden frame;
 * the others are entered as on the fast path and reported to the observer. */
static __attribute__((noinline)) void enter_slow(struct cg_profile *p, struct tstate *ts,
						 uint32_t id)
{
	/* Only filters need the method before its edge (the symtab lookup is a
	 * cache miss or two on big traces); the observer alone takes it from
	 * the edge's callee. */
	uint32_t midx = p->filtering ? profile_method_index(p, id) : 0;
	unsigned fl = p->filtering ? profile_method_flags(p, midx) : 0;
	uint32_t below = ts->depth ? ts->stack[ts->depth - 1].tm : 0;
	uint32_t e, callee, focus = 0;
	struct frame *f;

	if ((fl & MF_HIDE) || (p->focusing && !ts->focus && !(fl & MF_FOCUS))) {
		uint32_t own = tm_get(ts, midx);

		ts->tm[own].hactive++;
		f = push_frame(ts);
		f->tm = below;
		f->edge = NIL;
		f->id = id;
		f->own = own;
		f->entry = ts->now;
		f->o_entry = ts->other_now;
		return;
	}
	if (fl & MF_FOCUS) {
		focus = FOCUS_BIT;
		ts->focus++;
	}
	e = edge_get(p, ts, below, id, &callee);
	f = push_frame(ts);
	f->edge = e;
	f->tm = callee;
	f->id = id;
	f->own = f->tm | focus;
	f->entry = ts->now;
	f->o_entry = ts->other_now;
	ts->tm[f->tm].active++;
	if (p->obs)
		profile_observe_enter(p, ts, ts->tm[f->tm].midx, id);
}

/* Pop the top frame on the slow path: hidden frames, focus, observer. */
static __attribute__((noinline)) void pop_frame_slow(struct cg_profile *p, struct tstate *ts)
{
	const struct frame *f;
	uint64_t dur, o_dur;
	uint32_t own;

	f = &ts->stack[ts->depth - 1];
	if (f->edge == NIL) {
		/* Its time on top is the nearest visible frame's below: no edge
		 * takes it out of that frame's. */
		ts->tm[f->own].hactive--;
		ts->depth--;
		return;
	}
	dur = ts->now - f->entry;
	o_dur = ts->other_now - f->o_entry;
	own = f->own;
	pop_visible(ts);
	if ((own & FOCUS_BIT) && --ts->focus == 0) {
		ts->focus_us += dur;
		ts->o_focus_us += o_dur;
	}
	if (p->obs)
		profile_observe_leave(p, ts);
}

/* Pop the top frame.  The fast path is one test, then pop_visible. */
static inline void pop_frame(struct cg_profile *p, struct tstate *ts)
{
	if (p->slow)
		pop_frame_slow(p, ts);
	else
		pop_visible(ts);
}

static void do_exit(struct cg_profile *p, struct tstate *ts, uint32_t id)
{
	int64_t midx;
	uint32_t s;

	if (ts->depth == 0) {
		profile_exit_before_start(p, ts, id);
		return;
	}
	if (ts->stack[ts->depth - 1].id == id) {
		pop_frame(p, ts);
		return;
	}
	midx = symtab_find_method(p->st, id);
	s = midx >= 0 ? tm_find(ts, (uint32_t)midx) : 0;
	if (s && (ts->tm[s].active > 0 || ts->tm[s].hactive > 0)) {
		while (ts->stack[ts->depth - 1].id != id)
			pop_frame(p, ts);
		pop_frame(p, ts);
		p->warn[CG_W_MISMATCH_POP]++;
	} else {
		p->warn[CG_W_MISMATCH_IGNORED]++;
	}
}

struct tstate *profile_thread_new(struct cg_profile *p, uint32_t tid)
{
	struct tstate *ts = xcalloc(1, sizeof(*ts));

	ts->tid = tid;
	ts->free_edge = NIL;
	ts->tm_tab.key4 = 1; /* a method slot's key is its first field, midx */
	ts->selected = profile_thread_selected(p, tid);
	ts->root = NIL; /* a global profile's root line, made on first use */
	if (ts->selected && !p->global) {
		/* Slot 0 stands for the root; hidden frames directly under the
		 * root charge their time there. */
		profile_tm_grow(ts, 1);
		memset(&ts->tm[0], 0, sizeof(ts->tm[0]));
		ts->tm[0].u.last[0].edge = ts->tm[0].u.last[1].edge = NIL;
		ts->ntm = 1;
	}
	if (ts->selected) {
		p->threads = xgrow(p->threads, &p->cap_threads, p->nthreads + 1, sizeof(*p->threads));
		ts->index = (uint32_t)p->nthreads;
		p->threads[p->nthreads++] = ts;
	}
	if (tid <= 0xffff) {
		p->by_tid[tid] = ts;
	} else {
		p->big = xgrow(p->big, &p->cap_big, p->nbig + 1, sizeof(*p->big));
		p->big[p->nbig].tid = tid;
		p->big[p->nbig].ts = ts;
		itab_insert(&p->big_tab, (uint32_t)p->nbig++, p->big, sizeof(*p->big));
	}
	return ts;
}

struct tstate *profile_thread_big(const struct cg_profile *p, uint32_t tid)
{
	uint32_t i = itab_find(&p->big_tab, tid, p->big, sizeof(*p->big));

	return i == ITAB_NONE ? NULL : p->big[i].ts;
}

/* Replay record r (at byte offset `offset`): 0, or -1 with err filled. */
static inline __attribute__((always_inline)) int replay_one(struct cg_profile *p,
							     const struct cg_record *r,
							     uint64_t offset, int cpu,
							     struct cg_error *err)
{
	const int slow = p->slow;
	struct tstate *ts = profile_tick_on(p, r, cpu);

	if (!ts)
		return 0;
	if (r->action == CG_ENTER) {
		uint32_t caller = ts->depth ? ts->stack[ts->depth - 1].tm : 0;
		uint32_t e, callee;
		struct frame *f;

		if (profile_too_deep(p, ts, offset, err) < 0)
			return -1;
		if (slow) {
			enter_slow(p, ts, r->method);
			return 0;
		}
		e = edge_get(p, ts, caller, r->method, &callee);
		/* The return will add to the edge: start loading it now. */
		__builtin_prefetch(&ts->edges[e], 1);
		if (ts->depth == ts->cap_stack)
			ts->stack = profile_tgrow(ts->stack, &ts->cap_stack, ts->depth + 1,
					  sizeof(*ts->stack));
		f = &ts->stack[ts->depth++];
		f->edge = e;
		f->tm = callee;
		f->id = r->method;
		f->entry = ts->now;
		f->o_entry = ts->other_now;
		ts->tm[f->tm].active++;
		if (ts->depth > ts->max_depth)
			ts->max_depth = (uint32_t)ts->depth;
	} else {
		profile_count_exit(p, r->action);
		do_exit(p, ts, r->method);
	}
	return 0;
}

int profile_thread_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
		       struct cg_error *err)
{
	return profile_loop(p, recs, n, replay_one, err);
}

int profile_thread_add_raw(struct cg_profile *p, const struct cg_raw_layout *l,
			   const unsigned char *bytes, size_t n, uint64_t offset,
			   struct cg_error *err)
{
	return profile_loop_raw(p, l, bytes, n, offset, replay_one, err);
}

uint32_t profile_tm_get(struct tstate *ts, uint32_t midx)
{
	return tm_get(ts, midx);
}

uint32_t profile_edge_get(struct cg_profile *p, struct tstate *ts, uint32_t caller, uint32_t id,
			  uint32_t *callee)
{
	return edge_get(p, ts, caller, id, callee);
}

void profile_share_symtab(struct cg_profile *p, int shared)
{
	p->opts.shared_symtab = shared;
}

int profile_abandoned(const struct cg_profile *p)
{
	return p->abandoned;
}

void profile_close_frames(struct cg_profile *p, struct tstate *ts)
{
	while (ts->depth)
		pop_frame(p, ts);
}

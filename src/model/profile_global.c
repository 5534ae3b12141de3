/* profile_global.c - the replay into one method table and one edge table
 * for all threads (cg_profile_opts.global): the layout of a profile whose
 * outputs read no thread's own methods.
 *
 * A method has one line (64 bytes, one cache line) whatever thread runs it,
 * and a thread's root one of its own, so that root edges stay per thread.
 * A line keeps the two callees it called last (raw id, edge, callee line):
 * a repeated call reads no table.  Edges are keyed by (caller line, raw
 * callee id) in one hash table.  Per thread: the stack, and which lines
 * have an outermost activation open there (profile_open.c); a frame notes
 * whether it opened its line, so that its return knows whether its time is
 * its method's inclusive time.  As in the per-thread
 * replay (profile.c), a record that enters or returns nothing touches only
 * its thread's clocks, a return adds the frame's duration to its edge, and
 * a method's exclusive time is worked out when the replay ends.
 *
 * An exit on an empty stack (a frame entered before tracing) is only
 * noted here: the thread's records up to its last such exit are given again
 * to the correction pass (profile_correct.c), which adds what the adoption
 * changes.  A trace without such exits pays nothing for them.
 */
#include <stdlib.h>
#include <string.h>

#include "model/profile_impl.h"

/* ---- tables --------------------------------------------------------------- */

/* Room for need lines: a block that grows without a copy (xbig_grow), so
 * that the table never needs twice its size, as it would while copied. */
static void lines_grow(struct cg_profile *p, size_t need)
{
	p->lines = xbig_grow(p->lines, &p->cap_lines, need, sizeof(*p->lines));
}

static uint32_t line_new(struct cg_profile *p, uint32_t midx, uint32_t id, uint32_t flags)
{
	struct gline *l;

	lines_grow(p, p->nlines + 1);
	l = &p->lines[p->nlines];
	memset(l, 0, sizeof(*l));
	l->midx = midx;
	l->id = id;
	l->flags = flags;
	l->u.last[0].edge = l->u.last[1].edge = NIL;
	return (uint32_t)p->nlines++;
}

uint32_t profile_global_root(struct cg_profile *p, struct tstate *ts)
{
	if (ts->root == NIL)
		ts->root = line_new(p, ts->index, 0, G_ROOT);
	return ts->root;
}

/* The line of method midx, whose records carry raw id. */
static uint32_t line_get(struct cg_profile *p, uint32_t midx, uint32_t id)
{
	if (midx >= p->cap_line_of) {
		size_t old = p->cap_line_of, i;

		p->line_of = xgrow(p->line_of, &p->cap_line_of, (size_t)midx + 1, sizeof(*p->line_of));
		for (i = old; i < p->cap_line_of; i++)
			p->line_of[i] = NIL;
	}
	if (p->line_of[midx] == NIL)
		p->line_of[midx] = line_new(p, midx, id, 0);
	return p->line_of[midx];
}

uint32_t profile_global_line(struct cg_profile *p, uint32_t midx)
{
	return line_get(p, midx, (uint32_t)symtab_method_id(p->st, midx));
}

static inline size_t gslot_home(const struct cg_profile *p, uint64_t key)
{
	return (size_t)hash64(key) & (p->ngslots - 1);
}

/* The slot of key, or the empty slot where it would go. */
static inline struct gslot *gslot_find(const struct cg_profile *p, uint64_t key)
{
	size_t mask = p->ngslots - 1, i;

	for (i = gslot_home(p, key); p->gslots[i].edge != NIL && p->gslots[i].key != key;
	     i = (i + 1) & mask)
		;
	return &p->gslots[i];
}

/* Room for one more edge in the table: doubled when 7/8 full.  Lookups
 * come only after both cached callees missed; 16 bytes a slot at that load
 * keep a table of millions of edges at 18 to 37 bytes an edge. */
static void gslots_reserve(struct cg_profile *p)
{
	struct gslot *old = p->gslots;
	size_t n = p->ngslots, i;

	if ((p->ngedges + 1) * 8 <= p->ngslots * 7)
		return;
	p->ngslots = n ? n * 2 : 1024;
	p->gslots = xmalloc(p->ngslots * sizeof(*p->gslots));
	memset(p->gslots, 0xff, p->ngslots * sizeof(*p->gslots));
	for (i = 0; i < n; i++)
		if (old[i].edge != NIL)
			*gslot_find(p, old[i].key) = old[i];
	free(old);
}

/* A new edge (caller line, raw callee id); its callee line in *callee.
 * May move p->lines and p->gedges. */
static __attribute__((noinline)) uint32_t gedge_new(struct cg_profile *p, uint32_t caller,
						    uint32_t id, uint32_t *callee)
{
	uint32_t c = line_get(p, profile_method_index(p, id), id), e;
	struct gslot *slot;
	struct gedge *g;

	gslots_reserve(p);
	p->gedges = xgrow(p->gedges, &p->cap_gedges, p->ngedges + 1, sizeof(*p->gedges));
	e = (uint32_t)p->ngedges++;
	g = &p->gedges[e];
	memset(g, 0, sizeof(*g));
	g->caller = caller;
	g->callee = c;
	slot = gslot_find(p, (uint64_t)caller << 32 | id);
	slot->key = (uint64_t)caller << 32 | id;
	slot->edge = e;
	slot->callee = c;
	*callee = c;
	return e;
}

/* The edge (caller line, raw callee id), made when new: first the caller's
 * cache of its last two calls, then the table. */
static inline uint32_t gedge_get(struct cg_profile *p, uint32_t caller, uint32_t id,
				 uint32_t *callee)
{
	struct gline *cm = &p->lines[caller];
	uint32_t e;

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
	if (p->ngslots) {
		const struct gslot *slot = gslot_find(p, (uint64_t)caller << 32 | id);

		e = slot->edge;
		*callee = slot->callee;
	} else {
		e = NIL;
	}
	if (e == NIL)
		e = gedge_new(p, caller, id, callee);
	cm = &p->lines[caller];
	cm->u.last[1] = cm->u.last[0];
	cm->u.last[0].id = id;
	cm->u.last[0].edge = e;
	cm->u.last[0].callee = *callee;
	return e;
}

uint32_t profile_global_edge(struct cg_profile *p, uint32_t caller, uint32_t id, uint32_t *callee)
{
	return gedge_get(p, caller, id, callee);
}

/* ---- replay ------------------------------------------------------------------ */

static inline void gpop(struct cg_profile *p, struct tstate *ts)
{
	struct frame *f = &ts->stack[--ts->depth];
	struct gedge *e = &p->gedges[f->edge];
	uint64_t dur = ts->now - f->entry;
	uint64_t o_dur = ts->other_now - f->o_entry;

	e->calls++;
	e->all += dur;
	e->o_all += o_dur;
	if (f->own) {
		struct gline *m = &p->lines[f->tm];

		m->calls++;
		m->incl += dur;
		m->o_incl += o_dur;
		e->incl += dur;
		e->o_incl += o_dur;
		profile_open_leave(ts, f->tm);
	}
}

/* Pop the top frame, and tell the observer. */
static __attribute__((noinline)) void gpop_observed(struct cg_profile *p, struct tstate *ts)
{
	gpop(p, ts);
	profile_observe_leave(p, ts);
}

static inline void gpop_any(struct cg_profile *p, struct tstate *ts)
{
	if (p->obs)
		gpop_observed(p, ts);
	else
		gpop(p, ts);
}

static __attribute__((noinline)) void gexit_other(struct cg_profile *p, struct tstate *ts,
						  uint32_t id)
{
	int64_t midx;
	uint32_t line = NIL;

	if (ts->depth == 0) {
		/* A frame entered before tracing: the correction pass adopts.
		 * Its method is looked up (added when unknown) as a replay of
		 * per-thread tables does at once. */
		uint32_t m = profile_method_index(p, id);

		p->warn[CG_W_EXIT_EMPTY]++;
		ts->adopt_to = p->fed;
		profile_observe_adopt(p, ts, m, id);
		return;
	}
	midx = symtab_find_method(p->st, id);
	if (midx >= 0 && (uint64_t)midx < p->cap_line_of)
		line = p->line_of[midx];
	profile_exit_below(p, ts, id, line != NIL && profile_open_has(ts, line), gpop_any);
}

static inline __attribute__((always_inline)) int greplay_one(struct cg_profile *p,
							      const struct cg_record *r,
							      uint64_t offset, int cpu,
							      struct cg_error *err)
{
	struct tstate *ts;

	p->fed++;
	ts = profile_tick_on(p, r, cpu);
	if (!ts)
		return 0;
	if (r->action == CG_ENTER) {
		uint32_t caller = ts->depth ? ts->stack[ts->depth - 1].tm : profile_global_root(p, ts);
		uint32_t e, callee, own;
		struct frame *f;

		if (profile_too_deep(p, ts, offset, err) < 0)
			return -1;
		e = gedge_get(p, caller, r->method, &callee);
		/* The return will add to the edge: start loading it now. */
		__builtin_prefetch(&p->gedges[e], 1);
		own = (uint32_t)profile_open_enter(p, ts, callee); /* before the push */
		if (ts->depth == ts->cap_stack)
			ts->stack = profile_tgrow(ts->stack, &ts->cap_stack, ts->depth + 1,
						   sizeof(*ts->stack));
		f = &ts->stack[ts->depth++];
		f->edge = e;
		f->tm = callee;
		f->id = r->method;
		f->own = own;
		f->entry = ts->now;
		f->o_entry = ts->other_now;
		if (ts->depth > ts->max_depth)
			ts->max_depth = (uint32_t)ts->depth;
		if (p->obs)
			profile_observe_enter(p, ts, p->lines[callee].midx, r->method);
		return 0;
	}
	profile_count_exit(p, r->action);
	if (ts->depth && ts->stack[ts->depth - 1].id == r->method)
		gpop_any(p, ts);
	else
		gexit_other(p, ts, r->method);
	return 0;
}

/* Once abandoned (a method id missing from a shared symtab, profile.h) the
 * stacks are wrong: the loops replay nothing more, as they stop there. */
int profile_global_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
		       struct cg_error *err)
{
	return profile_loop(p, recs, n, greplay_one, err);
}

int profile_global_add_raw(struct cg_profile *p, const struct cg_raw_layout *l,
			   const unsigned char *bytes, size_t n, uint64_t offset,
			   struct cg_error *err)
{
	return profile_loop_raw(p, l, bytes, n, offset, greplay_one, err);
}

void profile_global_close(struct cg_profile *p, struct tstate *ts)
{
	while (ts->depth)
		gpop_any(p, ts);
	free(ts->open);
	ts->open = NULL;
	ts->nopen = 0;
	free(ts->on);
	ts->on = NULL;
	p->on_bytes -= ts->non / 8;
	ts->non = 0;
}

/* ---- ranges ------------------------------------------------------------------ */

void profile_global_push(struct cg_profile *p, struct tstate *ts, uint32_t id, uint64_t entry,
			 uint64_t o_entry)
{
	uint32_t caller = ts->depth ? ts->stack[ts->depth - 1].tm : profile_global_root(p, ts), callee;
	uint32_t e = gedge_get(p, caller, id, &callee);
	uint32_t own = (uint32_t)profile_open_enter(p, ts, callee);
	struct frame *f;

	ts->stack = profile_tgrow(ts->stack, &ts->cap_stack, ts->depth + 1, sizeof(*ts->stack));
	f = &ts->stack[ts->depth++];
	memset(f, 0, sizeof(*f));
	f->edge = e;
	f->tm = callee;
	f->id = id;
	f->own = own;
	f->entry = entry;
	f->o_entry = o_entry;
	p->gedges[e].all -= ts->now - entry;
	p->gedges[e].o_all -= ts->other_now - o_entry;
	if (ts->depth > ts->max_depth)
		ts->max_depth = (uint32_t)ts->depth;
}

void profile_global_park(struct cg_profile *p, struct tstate *ts)
{
	ts->parked = ts->depth;
	while (ts->depth) {
		const struct frame *f = &ts->stack[--ts->depth];

		p->gedges[f->edge].all += ts->now - f->entry;
		p->gedges[f->edge].o_all += ts->other_now - f->o_entry;
		if (f->own)
			profile_open_leave(ts, f->tm);
	}
}

/* ---- the end ------------------------------------------------------------------ */

void profile_global_count(struct cg_profile *p)
{
	size_t i;

	free(p->gslots);
	p->gslots = NULL;
	p->ngslots = 0;
	for (i = 0; i < p->nlines; i++)
		memset(&p->lines[i].u, 0, sizeof(p->lines[i].u));
	for (i = 0; i < p->ngedges; i++) {
		const struct gedge *e = &p->gedges[i];
		profile_count_edge(&p->lines[e->callee].u.s, &p->lines[e->caller].u.s, e->calls,
				   e->all, e->o_all);
	}
	for (i = 0; i < p->nlines; i++)
		p->lines[i].u.s.rec -= p->lines[i].calls;
}

/* The tables become the view's arrays in place (a view's edge and method
 * are no larger than an edge and a line): edges first, while the lines
 * still say whose they are, each copied out before its place is written. */
_Static_assert(sizeof(struct cg_pedge) <= sizeof(struct gedge), "edge too small");
_Static_assert(sizeof(struct cg_pmethod) <= sizeof(struct gline), "line too small");

void profile_global_view(struct cg_profile *p, struct view_store *vs, size_t *nmeth,
			 size_t *nedges)
{
	size_t i, k = 0;
	struct cg_pedge *pe = (struct cg_pedge *)(void *)p->gedges;
	struct cg_pmethod *pm = (struct cg_pmethod *)(void *)p->lines;

	vs->pos = profile_pos_new(p);
	for (i = 0; i < p->ngedges && !p->opts.no_edges; i++) {
		const struct gedge e = p->gedges[i];
		const struct gline *caller = &p->lines[e.caller];
		struct cg_pedge out;

		if (!e.calls && !e.all && !e.incl)
			continue; /* moved under a frame entered before tracing */
		memset(&out, 0, sizeof(out));
		out.from_root = (caller->flags & G_ROOT) != 0;
		out.caller = caller->midx;
		out.callee = p->lines[e.callee].midx;
		out.calls = e.calls;
		out.incl_us = e.incl;
		if (p->has_other)
			out.o_incl_us = e.o_incl;
		pe[k++] = out;
	}
	*nedges = k;
	for (i = 0, k = 0; i < p->nlines; i++) {
		const struct gline l = p->lines[i];
		struct cg_pmethod out;

		if (l.flags & G_ROOT)
			continue;
		memset(&out, 0, sizeof(out));
		out.index = l.midx;
		profile_pmethod_add(p, &out, l.incl, l.o_incl, l.calls, &l.u.s);
		pm[k++] = out;
	}
	*nmeth = k;
	/* Never empty, as the arrays of a summed view. */
	vs->edges = pe ? xrealloc(pe, (*nedges ? *nedges : 1) * sizeof(*pe)) : xmalloc(sizeof(*pe));
	/* The lines' block, cut to the view's methods (freed with its size). */
	vs->methods_bytes = (k ? k : 1) * sizeof(*pm);
	vs->methods = xbig_resize(pm, p->cap_lines * sizeof(*p->lines), vs->methods_bytes);
	p->gedges = NULL;
	p->lines = NULL;
	profile_global_free(p);
}

void profile_global_free(struct cg_profile *p)
{
	xbig_free(p->lines, p->cap_lines * sizeof(*p->lines));
	p->lines = NULL;
	p->nlines = p->cap_lines = 0;
	free(p->line_of);
	p->line_of = NULL;
	p->cap_line_of = 0;
	free(p->gedges);
	p->gedges = NULL;
	p->ngedges = p->cap_gedges = 0;
	free(p->gslots);
	p->gslots = NULL;
	p->ngslots = 0;
}

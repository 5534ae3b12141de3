/* pagelog.c - the HTML report's call log; see pagelog.h. */
#include "model/pagelog.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct plthread {
	struct cg_pagelog_event *ev;
	size_t n, cap;
	uint64_t o_t;   /* the other clock at the coming event */
};

struct cg_pagelog {
	struct plthread *th;
	size_t nth, cap_th;
	size_t calls, budget;
	int over;
	struct cg_observer next;
	int has_next;
};

struct cg_pagelog *pagelog_create(void)
{
	struct cg_pagelog *pl = xcalloc_lines(sizeof(*pl));

	pl->budget = PAGELOG_CALLS;
	return pl;
}

/* Forget every event (the budget is spent, or the log is freed). */
static void drop_all(struct cg_pagelog *pl)
{
	size_t i;

	for (i = 0; i < pl->nth; i++)
		free(pl->th[i].ev);
	free(pl->th);
	pl->th = NULL;
	pl->nth = pl->cap_th = 0;
}

void pagelog_free(struct cg_pagelog *pl)
{
	if (!pl)
		return;
	drop_all(pl);
	free(pl);
}

void pagelog_set_budget(struct cg_pagelog *pl, size_t calls)
{
	pl->budget = calls;
}

static struct plthread *thread_get(struct cg_pagelog *pl, uint32_t thread)
{
	if (thread >= pl->nth) {
		pl->th = xgrow(pl->th, &pl->cap_th, (size_t)thread + 1, sizeof(*pl->th));
		memset(&pl->th[pl->nth], 0, ((size_t)thread + 1 - pl->nth) * sizeof(*pl->th));
		pl->nth = (size_t)thread + 1;
	}
	return &pl->th[thread];
}

/* Append one event to the thread's log; a call past the budget drops the
 * log for good. */
static void add(struct cg_pagelog *pl, uint32_t thread, uint32_t kind, uint32_t midx, uint64_t t)
{
	struct plthread *th;

	if (kind != PL_LEAVE && ++pl->calls > pl->budget && !pl->over) {
		pl->over = 1;
		drop_all(pl);
	}
	if (pl->over)
		return;
	th = thread_get(pl, thread);
	th->ev = xgrow(th->ev, &th->cap, th->n + 1, sizeof(*th->ev));
	th->ev[th->n].t = t;
	th->ev[th->n].o_t = th->o_t;
	th->ev[th->n].midx = midx;
	th->ev[th->n].kind = kind;
	th->n++;
}

static void on_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	struct cg_pagelog *pl = ctx;

	add(pl, thread, PL_ENTER, midx, t);
	if (pl->has_next && pl->next.enter)
		pl->next.enter(pl->next.ctx, thread, midx, t);
}

static void on_leave(void *ctx, uint32_t thread, uint64_t t)
{
	struct cg_pagelog *pl = ctx;

	add(pl, thread, PL_LEAVE, 0, t);
	if (pl->has_next && pl->next.leave)
		pl->next.leave(pl->next.ctx, thread, t);
}

static void on_adopt(void *ctx, uint32_t thread, uint32_t midx, uint64_t first, uint64_t t)
{
	struct cg_pagelog *pl = ctx;

	add(pl, thread, PL_ADOPT, midx, t);
	if (pl->has_next && pl->next.adopt)
		pl->next.adopt(pl->next.ctx, thread, midx, first, t);
}

static void on_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct cg_pagelog *pl = ctx;

	if (!pl->over)
		thread_get(pl, thread)->o_t = o_t;
	if (pl->has_next && pl->next.other)
		pl->next.other(pl->next.ctx, thread, o_first, o_t);
}

/* An enter or leave with the other clock's times (cg_observer.enter_o):
 * on_other and then on_enter or on_leave, in one call. */
static void on_enter_o(void *ctx, uint32_t thread, uint32_t midx, uint64_t t, uint64_t o_first,
		       uint64_t o_t)
{
	struct cg_pagelog *pl = ctx;

	if (!pl->over)
		thread_get(pl, thread)->o_t = o_t;
	add(pl, thread, PL_ENTER, midx, t);
	if (pl->has_next)
		observer_enter_o(&pl->next, thread, midx, t, o_first, o_t);
}

static void on_leave_o(void *ctx, uint32_t thread, uint64_t t, uint64_t o_first, uint64_t o_t)
{
	struct cg_pagelog *pl = ctx;

	if (!pl->over)
		thread_get(pl, thread)->o_t = o_t;
	add(pl, thread, PL_LEAVE, 0, t);
	if (pl->has_next)
		observer_leave_o(&pl->next, thread, t, o_first, o_t);
}

static void on_finish(void *ctx)
{
	struct cg_pagelog *pl = ctx;

	if (pl->has_next && pl->next.finish)
		pl->next.finish(pl->next.ctx);
}

/* Past the budget the log keeps nothing and passes events on as they come. */
static const struct cg_observer *on_bypass(void *ctx)
{
	struct cg_pagelog *pl = ctx;

	return pl->over && pl->has_next ? &pl->next : NULL;
}

void pagelog_observer(struct cg_pagelog *pl, const struct cg_observer *next, struct cg_observer *o)
{
	pl->has_next = next != NULL;
	if (next)
		pl->next = *next;
	memset(o, 0, sizeof(*o));
	o->ctx = pl;
	o->enter = on_enter;
	o->leave = on_leave;
	o->adopt = on_adopt;
	o->other = on_other;
	o->finish = on_finish;
	o->enter_o = on_enter_o;
	o->leave_o = on_leave_o;
	o->raw_ids = 0; /* gives methods */
	o->bypass = on_bypass;
}

int pagelog_over(const struct cg_pagelog *pl)
{
	return pl->over;
}

void pagelog_count_calls(struct cg_pagelog *pl, uint64_t calls)
{
	if (pl->over)
		pl->calls = (size_t)calls;
}

size_t pagelog_calls(const struct cg_pagelog *pl)
{
	return pl->calls;
}

size_t pagelog_budget(const struct cg_pagelog *pl)
{
	return pl->budget;
}

size_t pagelog_thread(const struct cg_pagelog *pl, size_t i, const struct cg_pagelog_event **ev)
{
	if (pl->over || i >= pl->nth) {
		*ev = NULL;
		return 0;
	}
	*ev = pl->th[i].ev;
	return pl->th[i].n;
}

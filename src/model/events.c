/* events.c - per-thread enter/leave log from the replay (see events.h). */
#include "model/events.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct ethread {
	struct cg_event *ev;
	size_t n, cap;
	struct cg_event *pre;   /* adopted enters, in adoption order */
	size_t npre, cap_pre;
	struct cg_event *rev;   /* pre reversed for readers (outermost first) */
	uint64_t first;
};

struct cg_events {
	struct ethread *th;
	size_t nth, cap_th;
	uint64_t calls;
	struct cg_observer next;
	int has_next;
};

static struct ethread *thread_get(struct cg_events *e, uint32_t thread)
{
	if (thread >= e->nth) {
		e->th = xgrow(e->th, &e->cap_th, (size_t)thread + 1, sizeof(*e->th));
		memset(&e->th[e->nth], 0, ((size_t)thread + 1 - e->nth) * sizeof(*e->th));
		e->nth = (size_t)thread + 1;
	}
	return &e->th[thread];
}

static void push(struct ethread *th, uint64_t t, uint32_t midx)
{
	th->ev = xgrow(th->ev, &th->cap, th->n + 1, sizeof(*th->ev));
	th->ev[th->n].t = t;
	th->ev[th->n].midx = midx;
	th->n++;
}

static void on_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	struct cg_events *e = ctx;

	if (e->has_next && e->next.enter)
		e->next.enter(e->next.ctx, thread, midx, t);
	push(thread_get(e, thread), t, midx);
	e->calls++;
}

static void on_leave(void *ctx, uint32_t thread, uint64_t t)
{
	struct cg_events *e = ctx;

	if (e->has_next && e->next.leave)
		e->next.leave(e->next.ctx, thread, t);
	push(thread_get(e, thread), t, EV_LEAVE);
}

static void on_adopt(void *ctx, uint32_t thread, uint32_t midx, uint64_t first, uint64_t t)
{
	struct cg_events *e = ctx;
	struct ethread *th;

	if (e->has_next && e->next.adopt)
		e->next.adopt(e->next.ctx, thread, midx, first, t);
	th = thread_get(e, thread);
	th->pre = xgrow(th->pre, &th->cap_pre, th->npre + 1, sizeof(*th->pre));
	th->pre[th->npre].t = first;
	th->pre[th->npre].midx = midx;
	th->npre++;
	th->first = first;
	push(th, t, EV_LEAVE);
	e->calls++;
}

struct cg_events *events_create(void)
{
	return xcalloc(1, sizeof(struct cg_events));
}

void events_free(struct cg_events *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->nth; i++) {
		free(e->th[i].ev);
		free(e->th[i].pre);
		free(e->th[i].rev);
	}
	free(e->th);
	free(e);
}

/* The event log keeps one clock; the other clock's times pass through. */
static void on_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct cg_events *e = ctx;

	e->next.other(e->next.ctx, thread, o_first, o_t);
}

void events_observer(struct cg_events *e, const struct cg_observer *next, struct cg_observer *o)
{
	e->has_next = next != NULL;
	if (next)
		e->next = *next;
	o->ctx = e;
	o->enter = on_enter;
	o->leave = on_leave;
	o->adopt = on_adopt;
	o->other = e->has_next && e->next.other ? on_other : NULL;
}

size_t events_thread_count(const struct cg_events *e)
{
	return e->nth;
}

size_t events_thread(const struct cg_events *e, size_t i, const struct cg_event **pre,
		     size_t *n_pre, const struct cg_event **evs, size_t *n)
{
	struct ethread *th;
	size_t k;

	*pre = *evs = NULL;
	*n_pre = *n = 0;
	if (i >= e->nth)
		return 0;
	th = &e->th[i];
	if (th->npre && !th->rev) {
		/* Readers see the last adopted (outermost) first; built once. */
		th->rev = xmalloc(th->npre * sizeof(*th->rev));
		for (k = 0; k < th->npre; k++)
			th->rev[k] = th->pre[th->npre - 1 - k];
	}
	*pre = th->rev;
	*n_pre = th->npre;
	*evs = th->ev;
	*n = th->n;
	return th->npre + th->n;
}

uint64_t events_calls(const struct cg_events *e)
{
	return e->calls;
}

/* The observer run on a thread of its own (observe_async.h): the observer
 * behind it sees every event, in order, with its values, before its finish;
 * a queue freed before finish (a replay cut short) stops cleanly; the last
 * block wakes a sleeping thread. */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "model/observe_async.h"
#include "unit.h"

/* More events than the queue's blocks hold at once (32 of 4096), and not
 * a multiple of a block. */
#define NEV 600000u

struct rec {
	uint32_t kind, thread, midx;
	uint64_t a, b;
};

struct log {
	struct rec *r;
	size_t n;
	size_t at_finish; /* events seen when finish came */
	int finished;
};

static void put(struct log *l, uint32_t kind, uint32_t thread, uint32_t midx, uint64_t a,
		uint64_t b)
{
	if (l->n < NEV) {
		l->r[l->n].kind = kind;
		l->r[l->n].thread = thread;
		l->r[l->n].midx = midx;
		l->r[l->n].a = a;
		l->r[l->n].b = b;
	}
	l->n++;
}

static void log_enter(void *ctx, uint32_t th, uint32_t m, uint64_t t)
{
	put(ctx, 0, th, m, t, 0);
}

static void log_leave(void *ctx, uint32_t th, uint64_t t)
{
	put(ctx, 1, th, 0, t, 0);
}

static void log_adopt(void *ctx, uint32_t th, uint32_t m, uint64_t f, uint64_t t)
{
	put(ctx, 2, th, m, f, t);
}

static void log_other(void *ctx, uint32_t th, uint64_t f, uint64_t t)
{
	put(ctx, 3, th, 0, f, t);
}

static void log_finish(void *ctx)
{
	struct log *l = ctx;

	l->finished++;
	l->at_finish = l->n;
}

/* Event i: its kind cycles through the four, its values follow from i. */
static void send(const struct cg_observer *o, uint32_t i)
{
	switch (i % 4) {
	case 0:
		o->enter(o->ctx, i % 7, i * 3, (uint64_t)i << 20);
		break;
	case 1:
		o->leave(o->ctx, i % 7, (uint64_t)i << 20);
		break;
	case 2:
		o->adopt(o->ctx, i % 7, i * 3, i, (uint64_t)i << 20);
		break;
	default:
		o->other(o->ctx, i % 7, i, (uint64_t)i << 21);
		break;
	}
}

static int check(const struct rec *r, uint32_t i)
{
	uint32_t k = i % 4;

	return r->kind == k && r->thread == i % 7 && r->midx == (k == 0 || k == 2 ? i * 3 : 0) &&
	       r->a == (k == 2 || k == 3 ? i : (uint64_t)i << 20) &&
	       r->b == (k == 2 ? (uint64_t)i << 20 : k == 3 ? (uint64_t)i << 21 : 0);
}

/* A queue in front of the log l (its records allocated), and its end in o. */
static struct cg_observe_async *start(struct log *l, const struct cg_observer *next,
				      struct cg_observer *o)
{
	struct cg_observe_async *a;

	l->r = calloc(NEV, sizeof(*l->r));
	if (!l->r)
		return NULL;
	a = observe_async_create(next);
	observe_async_observer(a, o);
	return a;
}

UNIT_TEST(observe_async_order_and_finish)
{
	struct log l = { 0 };
	struct cg_observer next = { .ctx = &l, .enter = log_enter, .leave = log_leave,
				    .adopt = log_adopt, .other = log_other, .finish = log_finish };
	struct cg_observer o;
	struct cg_observe_async *a = start(&l, &next, &o);
	uint32_t i;
	size_t bad = 0;

	CHECK(a != NULL);
	CHECK(o.other != NULL && o.finish != NULL);
	for (i = 0; i < NEV; i++)
		send(&o, i);
	o.finish(o.ctx);
	/* Finished: everything arrived, in order, and finish came last. */
	CHECK_EQ_U64(l.finished, 1);
	CHECK_EQ_U64(l.at_finish, NEV);
	CHECK_EQ_U64(l.n, NEV);
	for (i = 0; i < NEV; i++)
		bad += !check(&l.r[i], i);
	CHECK_EQ_U64(bad, 0);
	observe_async_free(a);
	CHECK_EQ_U64(l.finished, 1);
	free(l.r);
	return 0;
}

UNIT_TEST(observe_async_freed_early)
{
	struct log l = { 0 };
	struct cg_observer next = { .ctx = &l, .enter = log_enter, .leave = log_leave,
				    .adopt = log_adopt };
	struct cg_observer o;
	struct cg_observe_async *a = start(&l, &next, &o);
	uint32_t i;
	size_t bad = 0;

	CHECK(a != NULL);
	/* No other clock behind it: the profile is told so. */
	CHECK(o.other == NULL);
	for (i = 0; i < NEV / 2; i++)
		if (i % 4 != 3)
			send(&o, i);
	observe_async_free(a);
	/* What arrived is a prefix of what was sent, in order. */
	CHECK(l.n <= NEV / 2);
	for (i = 0; i < l.n; i++) {
		uint32_t sent = i / 3 * 4 + i % 3;

		bad += !check(&l.r[i], sent);
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(l.finished, 0);
	free(l.r);
	return 0;
}

/* A thread asleep on an empty ring waits for several blocks, but the last
 * wakes it whatever its size: one block and a part, a pause in which the
 * thread reads the block and sleeps, then finish.  Were it not woken, the
 * alarm ends the test. */
UNIT_TEST(observe_async_last_block_wakes)
{
	struct log l = { 0 };
	struct cg_observer next = { .ctx = &l, .enter = log_enter, .leave = log_leave,
				    .adopt = log_adopt, .other = log_other, .finish = log_finish };
	struct cg_observer o;
	struct cg_observe_async *a = start(&l, &next, &o);
	struct timespec pause = { 0, 50 * 1000 * 1000 };
	uint32_t i, n = 5000;
	size_t bad = 0;

	CHECK(a != NULL);
	for (i = 0; i < n; i++)
		send(&o, i);
	nanosleep(&pause, NULL);
	alarm(30);
	o.finish(o.ctx);
	alarm(0);
	CHECK_EQ_U64(l.finished, 1);
	CHECK_EQ_U64(l.at_finish, n);
	for (i = 0; i < n; i++)
		bad += !check(&l.r[i], i);
	CHECK_EQ_U64(bad, 0);
	observe_async_free(a);
	free(l.r);
	return 0;
}

/* An observer that passes every event on to next and, from its `after`-th
 * event on, asks to give way to it (cg_observer.bypass). */
struct gate {
	struct cg_observer next;
	size_t seen, after;
};

static void gate_enter(void *ctx, uint32_t th, uint32_t m, uint64_t t)
{
	struct gate *g = ctx;

	g->seen++;
	g->next.enter(g->next.ctx, th, m, t);
}

static void gate_leave(void *ctx, uint32_t th, uint64_t t)
{
	struct gate *g = ctx;

	g->seen++;
	g->next.leave(g->next.ctx, th, t);
}

static void gate_adopt(void *ctx, uint32_t th, uint32_t m, uint64_t f, uint64_t t)
{
	struct gate *g = ctx;

	g->seen++;
	g->next.adopt(g->next.ctx, th, m, f, t);
}

static void gate_other(void *ctx, uint32_t th, uint64_t f, uint64_t t)
{
	struct gate *g = ctx;

	g->seen++;
	g->next.other(g->next.ctx, th, f, t);
}

static void gate_finish(void *ctx)
{
	struct gate *g = ctx;

	g->next.finish(g->next.ctx);
}

static const struct cg_observer *gate_bypass(void *ctx)
{
	struct gate *g = ctx;

	return g->seen >= g->after ? &g->next : NULL;
}

/* The queue's reader lets an observer that asks give way, between blocks,
 * to the one behind it: the gate sees the events up to the end of the
 * block where it asked, fewer than all, and the log behind it still gets
 * every event, in order, then finish. */
UNIT_TEST(observe_async_steps_aside)
{
	struct log l = { 0 };
	struct gate g = { { .ctx = &l, .enter = log_enter, .leave = log_leave, .adopt = log_adopt,
			    .other = log_other, .finish = log_finish },
			  0, 1000 };
	struct cg_observer front = { .ctx = &g, .enter = gate_enter, .leave = gate_leave,
				     .adopt = gate_adopt, .other = gate_other,
				     .finish = gate_finish, .bypass = gate_bypass };
	struct cg_observer o;
	struct cg_observe_async *a = start(&l, &front, &o);
	uint32_t i;
	size_t bad = 0;

	CHECK(a != NULL);
	for (i = 0; i < NEV; i++)
		send(&o, i);
	o.finish(o.ctx);
	CHECK_EQ_U64(l.finished, 1);
	CHECK_EQ_U64(l.n, NEV);
	for (i = 0; i < NEV; i++)
		bad += !check(&l.r[i], i);
	CHECK_EQ_U64(bad, 0);
	CHECK(g.seen >= g.after);
	CHECK(g.seen < NEV / 2);
	observe_async_free(a);
	free(l.r);
	return 0;
}

/* observe_async.c - a replay observer run on a thread of its own (see
 * observe_async.h).
 *
 * A ring of NBLOCK blocks of BLOCK events: the replay fills block w, hands
 * it over and waits only when every block is still being read; the thread
 * reads block r, in order, and hands it back.  One lock and two condition
 * variables, taken once per block. */
#include "model/observe_async.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define BLOCK 4096
#define NBLOCK 4
/* The thread recurses nowhere (see replay.c). */
#define THREAD_STACK (512u << 10)

enum { EV_ENTER, EV_LEAVE, EV_ADOPT, EV_OTHER };

struct aev {
	uint32_t kind, thread, midx, pad;
	uint64_t a, b; /* enter, leave: t; adopt: first, t; other: o_first, o_t */
};

struct cg_observe_async {
	struct cg_observer next;
	pthread_mutex_t mu;
	pthread_cond_t data, room;
	pthread_t thr;
	int sync;             /* the lock and condition variables exist */
	int running;          /* the thread is started and not yet joined */
	int done;             /* no more blocks will come */
	struct aev *blk[NBLOCK];
	size_t count[NBLOCK]; /* events in each handed-over block */
	uint64_t w, r;        /* blocks handed over, blocks read */
	size_t fill;          /* events in block w, being filled */
};

static void dispatch(const struct cg_observer *o, const struct aev *e)
{
	switch (e->kind) {
	case EV_ENTER:
		o->enter(o->ctx, e->thread, e->midx, e->a);
		break;
	case EV_LEAVE:
		o->leave(o->ctx, e->thread, e->a);
		break;
	case EV_ADOPT:
		o->adopt(o->ctx, e->thread, e->midx, e->a, e->b);
		break;
	default:
		o->other(o->ctx, e->thread, e->a, e->b);
		break;
	}
}

static void *reader(void *arg)
{
	struct cg_observe_async *a = arg;

	for (;;) {
		const struct aev *b;
		size_t n, i;

		pthread_mutex_lock(&a->mu);
		while (a->r == a->w && !a->done)
			pthread_cond_wait(&a->data, &a->mu);
		if (a->r == a->w) {
			pthread_mutex_unlock(&a->mu);
			return NULL;
		}
		b = a->blk[a->r % NBLOCK];
		n = a->count[a->r % NBLOCK];
		pthread_mutex_unlock(&a->mu);
		for (i = 0; i < n; i++)
			dispatch(&a->next, &b[i]);
		pthread_mutex_lock(&a->mu);
		a->r++;
		pthread_cond_signal(&a->room);
		pthread_mutex_unlock(&a->mu);
	}
}

/* Hand block w over; wait (unless last) until block w + 1 is free. */
static void hand_over(struct cg_observe_async *a, int last)
{
	pthread_mutex_lock(&a->mu);
	a->count[a->w % NBLOCK] = a->fill;
	a->w++;
	if (last)
		a->done = 1;
	pthread_cond_signal(&a->data);
	while (!last && a->w - a->r == NBLOCK)
		pthread_cond_wait(&a->room, &a->mu);
	pthread_mutex_unlock(&a->mu);
	a->fill = 0;
}

static void put(struct cg_observe_async *a, uint32_t kind, uint32_t thread, uint32_t midx,
		uint64_t x, uint64_t y)
{
	struct aev *e;

	if (!a->running) {
		struct aev now = { kind, thread, midx, 0, x, y };

		dispatch(&a->next, &now);
		return;
	}
	e = &a->blk[a->w % NBLOCK][a->fill];
	e->kind = kind;
	e->thread = thread;
	e->midx = midx;
	e->a = x;
	e->b = y;
	if (++a->fill == BLOCK)
		hand_over(a, 0);
}

static void on_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	put(ctx, EV_ENTER, thread, midx, t, 0);
}

static void on_leave(void *ctx, uint32_t thread, uint64_t t)
{
	put(ctx, EV_LEAVE, thread, 0, t, 0);
}

static void on_adopt(void *ctx, uint32_t thread, uint32_t midx, uint64_t first, uint64_t t)
{
	put(ctx, EV_ADOPT, thread, midx, first, t);
}

static void on_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	put(ctx, EV_OTHER, thread, 0, o_first, o_t);
}

/* Drain the queue and stop the thread. */
static void stop(struct cg_observe_async *a)
{
	if (!a->running)
		return;
	hand_over(a, 1);
	pthread_join(a->thr, NULL);
	a->running = 0;
}

static void on_finish(void *ctx)
{
	struct cg_observe_async *a = ctx;

	stop(a);
	if (a->next.finish)
		a->next.finish(a->next.ctx);
}

struct cg_observe_async *observe_async_create(const struct cg_observer *next)
{
	struct cg_observe_async *a = xcalloc(1, sizeof(*a));
	pthread_attr_t attr;
	int attr_ok, ok = 0;
	size_t i;

	a->next = *next;
	for (i = 0; i < NBLOCK; i++)
		a->blk[i] = xmalloc(BLOCK * sizeof(*a->blk[i]));
	if (pthread_mutex_init(&a->mu, NULL) == 0) {
		if (pthread_cond_init(&a->data, NULL) == 0) {
			if (pthread_cond_init(&a->room, NULL) == 0)
				ok = 1;
			else
				pthread_cond_destroy(&a->data);
		}
		if (!ok)
			pthread_mutex_destroy(&a->mu);
	}
	if (!ok)
		return a; /* events go straight through */
	a->sync = 1;
	attr_ok = pthread_attr_init(&attr) == 0;
	if (attr_ok)
		(void)pthread_attr_setstacksize(&attr, THREAD_STACK);
	a->running = pthread_create(&a->thr, attr_ok ? &attr : NULL, reader, a) == 0;
	if (attr_ok)
		pthread_attr_destroy(&attr);
	return a;
}

void observe_async_free(struct cg_observe_async *a)
{
	size_t i;

	if (!a)
		return;
	/* The replay ended early: the thread reads what was handed over. */
	a->fill = 0;
	stop(a);
	if (a->sync) {
		pthread_cond_destroy(&a->room);
		pthread_cond_destroy(&a->data);
		pthread_mutex_destroy(&a->mu);
	}
	for (i = 0; i < NBLOCK; i++)
		free(a->blk[i]);
	free(a);
}

void observe_async_observer(struct cg_observe_async *a, struct cg_observer *o)
{
	o->ctx = a;
	o->enter = on_enter;
	o->leave = on_leave;
	o->adopt = on_adopt;
	o->other = a->next.other ? on_other : NULL;
	o->finish = on_finish;
}

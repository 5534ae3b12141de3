/* observe_async.c - a replay observer run on a thread of its own (see
 * observe_async.h).
 *
 * A ring of NBLOCK blocks of BLOCK events: the replay fills block w, hands
 * it over and waits only when every block is still being read; the thread
 * reads block r, in order, and hands it back.  One lock and two condition
 * variables, taken once per block.  A thread that finds the ring empty
 * sleeps until WAKE blocks are in (or the last): woken at every block, it
 * drained each at once and slept again, and the replay paid a wake-up per
 * block (HTML report of the 1 GiB program trace of make bench, in the
 * machine's phases where it took 5.1 to 5.5 s: 18 013 sleeps in 18 555
 * blocks; with these, 138 to 540 sleeps and 3.6 to 4.1 s).  The ring is
 * 4 MB: the calling-context outputs of a million methods stay under
 * 256 MB.  The other clock, which a dual-clock replay reports with every
 * enter and leave (enter_o, leave_o) and before every adopt, rides in that
 * event (O_BIT): a thread's first other-clock
 * time, which does not change, goes over once, so an event is one slot of
 * 32 bytes, not two.  The thread hands such an event on in one call too
 * when the next observer takes one. */
#include "model/observe_async.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/thread.h"
#include "util/util.h"

#define BLOCK 4096
#define NBLOCK 32
#define WAKE 8
_Static_assert(WAKE <= NBLOCK, "a full ring wakes the thread");
/* The thread recurses nowhere (see replay.c). */
#define THREAD_STACK (512u << 10)

/* first: a thread's o_first; other: o_t alone (before an adopt). */
enum { EV_ENTER, EV_LEAVE, EV_ADOPT, EV_FIRST, EV_OTHER };

/* In kind: an enter or leave that carries the thread's o_t in b. */
#define O_BIT 0x100u

struct aev {
	uint32_t kind, thread, midx, pad;
	uint64_t a, b; /* enter, leave: t, o_t; adopt: first, t; first, other: a */
};

/* A thread's first other-clock time, as last sent (by the replay's side) or
 * received (by the thread's side). */
struct firsts {
	uint64_t *v;
	size_t n, cap;
};

/* The fields each side writes for every event lie on cache lines of their
 * own: sharing one with the other side's would move it between the cores
 * at every event. */
struct cg_observe_async {
	/* Set before the thread starts, read by both. */
	struct aev *blk[NBLOCK];
	int sync;             /* the lock and condition variables exist */
	int running;          /* the thread is started and not yet joined */
	pthread_t thr;
	/* Under the lock, once per block. */
	pthread_mutex_t mu;
	pthread_cond_t data, room;
	int done;             /* no more blocks will come */
	size_t count[NBLOCK]; /* events in each handed-over block */
	uint64_t w, r;        /* blocks handed over, blocks read */
	/* The replay's side. */
	_Alignas(64) size_t fill; /* events in block w, being filled */
	struct firsts sent;
	int pending;          /* an other-clock time waits for its event: */
	uint32_t pend_thread;
	uint64_t pend_t;
	/* The thread's side. */
	_Alignas(64) struct cg_observer next;
	struct firsts got;
};

/* Slot `thread` of f, made (as UINT64_MAX: none) when new. */
static inline uint64_t *first_of(struct firsts *f, uint32_t thread)
{
	if (thread >= f->n) {
		f->v = xgrow(f->v, &f->cap, (size_t)thread + 1, sizeof(*f->v));
		while (f->n <= thread)
			f->v[f->n++] = UINT64_MAX;
	}
	return &f->v[thread];
}

/* Event e to the next observer; a carried other-clock time first, with the
 * thread's o_first as received. */
static void dispatch(struct cg_observe_async *a, const struct aev *e)
{
	const struct cg_observer *o = &a->next;

	switch (e->kind & ~O_BIT) {
	case EV_ENTER:
		if (e->kind & O_BIT)
			observer_enter_o(o, e->thread, e->midx, e->a, *first_of(&a->got, e->thread), e->b);
		else
			o->enter(o->ctx, e->thread, e->midx, e->a);
		break;
	case EV_LEAVE:
		if (e->kind & O_BIT)
			observer_leave_o(o, e->thread, e->a, *first_of(&a->got, e->thread), e->b);
		else
			o->leave(o->ctx, e->thread, e->a);
		break;
	case EV_ADOPT:
		o->adopt(o->ctx, e->thread, e->midx, e->a, e->b);
		break;
	case EV_FIRST:
		*first_of(&a->got, e->thread) = e->a;
		break;
	default:
		o->other(o->ctx, e->thread, *first_of(&a->got, e->thread), e->a);
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
		if (a->r == a->w)
			while (a->w - a->r < WAKE && !a->done)
				pthread_cond_wait(&a->data, &a->mu);
		if (a->r == a->w) {
			pthread_mutex_unlock(&a->mu);
			return NULL;
		}
		b = a->blk[a->r % NBLOCK];
		n = a->count[a->r % NBLOCK];
		pthread_mutex_unlock(&a->mu);
		for (i = 0; i < n; i++)
			dispatch(a, &b[i]);
		observer_step_aside(&a->next);
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
	/* Without a sleeping thread the signal costs no system call. */
	if (last || a->w - a->r >= WAKE)
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

		dispatch(a, &now);
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

/* An other-clock time still waiting goes on its own. */
static void flush_other(struct cg_observe_async *a)
{
	if (a->pending) {
		a->pending = 0;
		put(a, EV_OTHER, a->pend_thread, 0, a->pend_t, 0);
	}
}

/* Kind, with O_BIT and the waiting o_t in *o_t when it is thread's. */
static uint32_t with_other(struct cg_observe_async *a, uint32_t kind, uint32_t thread,
			   uint64_t *o_t)
{
	if (!a->pending)
		return kind;
	if (a->pend_thread != thread) {
		flush_other(a);
		return kind;
	}
	a->pending = 0;
	*o_t = a->pend_t;
	return kind | O_BIT;
}

static void on_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	uint64_t o_t = 0;
	uint32_t kind = with_other(ctx, EV_ENTER, thread, &o_t);

	put(ctx, kind, thread, midx, t, o_t);
}

static void on_leave(void *ctx, uint32_t thread, uint64_t t)
{
	uint64_t o_t = 0;
	uint32_t kind = with_other(ctx, EV_LEAVE, thread, &o_t);

	put(ctx, kind, thread, 0, t, o_t);
}

static void on_adopt(void *ctx, uint32_t thread, uint32_t midx, uint64_t first, uint64_t t)
{
	flush_other(ctx);
	put(ctx, EV_ADOPT, thread, midx, first, t);
}

/* The thread's o_first, when it is new, before an event of that thread. */
static void send_first(struct cg_observe_async *a, uint32_t thread, uint64_t o_first)
{
	uint64_t *f = first_of(&a->sent, thread);

	if (*f != o_first) {
		*f = o_first;
		put(a, EV_FIRST, thread, 0, o_first, 0);
	}
}

/* An enter or leave with its other-clock time, in one event. */
static void on_enter_o(void *ctx, uint32_t thread, uint32_t midx, uint64_t t, uint64_t o_first,
		       uint64_t o_t)
{
	struct cg_observe_async *a = ctx;

	flush_other(a);
	send_first(a, thread, o_first);
	put(a, EV_ENTER | O_BIT, thread, midx, t, o_t);
}

static void on_leave_o(void *ctx, uint32_t thread, uint64_t t, uint64_t o_first, uint64_t o_t)
{
	struct cg_observe_async *a = ctx;

	flush_other(a);
	send_first(a, thread, o_first);
	put(a, EV_LEAVE | O_BIT, thread, 0, t, o_t);
}

/* The thread's o_first goes over when it is new; o_t waits for the event
 * it comes before. */
static void on_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct cg_observe_async *a = ctx;

	flush_other(a);
	send_first(a, thread, o_first);
	a->pending = 1;
	a->pend_thread = thread;
	a->pend_t = o_t;
}

/* Drain the queue and stop the thread. */
static void stop(struct cg_observe_async *a)
{
	flush_other(a);
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
	struct cg_observe_async *a = xmalloc_aligned(64, 1, sizeof(*a));
	int ok = 0;
	size_t i;

	memset(a, 0, sizeof(*a));
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
	a->running = thread_start_stack(&a->thr, THREAD_STACK, reader, a) == 0;
	return a;
}

void observe_async_free(struct cg_observe_async *a)
{
	size_t i;

	if (!a)
		return;
	/* The replay ended early: the thread reads what was handed over. */
	a->fill = 0;
	a->pending = 0;
	stop(a);
	if (a->sync) {
		pthread_cond_destroy(&a->room);
		pthread_cond_destroy(&a->data);
		pthread_mutex_destroy(&a->mu);
	}
	for (i = 0; i < NBLOCK; i++)
		free(a->blk[i]);
	free(a->sent.v);
	free(a->got.v);
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
	o->enter_o = a->next.other ? on_enter_o : NULL;
	o->leave_o = a->next.other ? on_leave_o : NULL;
	o->raw_ids = 0; /* gives methods */
	o->bypass = NULL;
}

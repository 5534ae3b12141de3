/* writer.c - a strbuf sink run on a thread of its own (see writer.h).
 *
 * A ring of NSLOT slots: the caller fills slot w and hands it over, waiting
 * only when every slot is still being written; the thread writes slot r, in
 * order, and hands it back.  One lock and two condition variables, taken
 * once per chunk (a chunk is about STRBUF_SPILL bytes). */
#include "util/writer.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/thread.h"
#include "util/util.h"

#define NSLOT 3
/* Chunks up to this size are copied into a slot; larger ones (a renderer
 * that spilled nothing before its end) go to the sink from the caller. */
#define SLOT_MAX (4 * STRBUF_SPILL)

struct slot {
	char *p;
	size_t n, cap;
};

struct cg_writer {
	strbuf_sink_fn sink;
	void *ctx;
	pthread_t thr;
	pthread_mutex_t mu;
	pthread_cond_t data, room;
	struct slot slot[NSLOT];
	uint64_t w, r;  /* chunks handed over, chunks written (under mu) */
	int done;       /* no more chunks will come (under mu) */
	int failed;     /* the sink refused a chunk (under mu) */
};

static void *writer_main(void *arg)
{
	struct cg_writer *wr = arg;

	for (;;) {
		struct slot *s;
		int skip, bad = 0;

		pthread_mutex_lock(&wr->mu);
		while (wr->r == wr->w && !wr->done)
			pthread_cond_wait(&wr->data, &wr->mu);
		if (wr->r == wr->w) {
			pthread_mutex_unlock(&wr->mu);
			return NULL;
		}
		s = &wr->slot[wr->r % NSLOT];
		skip = wr->failed;
		pthread_mutex_unlock(&wr->mu);
		if (!skip)
			bad = wr->sink(wr->ctx, s->p, s->n) != 0;
		pthread_mutex_lock(&wr->mu);
		wr->failed |= bad;
		wr->r++;
		pthread_cond_signal(&wr->room);
		pthread_mutex_unlock(&wr->mu);
	}
}

struct cg_writer *writer_create(strbuf_sink_fn sink, void *ctx)
{
	struct cg_writer *wr = xcalloc(1, sizeof(*wr));

	wr->sink = sink;
	wr->ctx = ctx;
	pthread_mutex_init(&wr->mu, NULL);
	pthread_cond_init(&wr->data, NULL);
	pthread_cond_init(&wr->room, NULL);
	if (thread_start(&wr->thr, writer_main, wr) != 0) {
		pthread_mutex_destroy(&wr->mu);
		pthread_cond_destroy(&wr->data);
		pthread_cond_destroy(&wr->room);
		free(wr);
		return NULL;
	}
	return wr;
}

int writer_sink(void *arg, const void *p, size_t n)
{
	struct cg_writer *wr = arg;
	struct slot *s;
	int failed;

	pthread_mutex_lock(&wr->mu);
	if (n > SLOT_MAX) {
		/* In order: after every chunk handed over. */
		while (wr->r != wr->w)
			pthread_cond_wait(&wr->room, &wr->mu);
		failed = wr->failed;
		pthread_mutex_unlock(&wr->mu);
		if (failed || wr->sink(wr->ctx, p, n) == 0)
			return -failed;
		pthread_mutex_lock(&wr->mu);
		wr->failed = 1;
		pthread_mutex_unlock(&wr->mu);
		return -1;
	}
	while (wr->w - wr->r == NSLOT)
		pthread_cond_wait(&wr->room, &wr->mu);
	failed = wr->failed;
	pthread_mutex_unlock(&wr->mu);
	if (failed)
		return -1;
	/* Slot w is the caller's until it is handed over. */
	s = &wr->slot[wr->w % NSLOT];
	if (n > s->cap) {
		free(s->p);
		s->p = xmalloc(n);
		s->cap = n;
	}
	memcpy(s->p, p, n);
	s->n = n;
	pthread_mutex_lock(&wr->mu);
	wr->w++;
	pthread_cond_signal(&wr->data);
	pthread_mutex_unlock(&wr->mu);
	return 0;
}

int writer_close(struct cg_writer *wr)
{
	int failed, i;

	if (!wr)
		return 0;
	pthread_mutex_lock(&wr->mu);
	wr->done = 1;
	pthread_cond_signal(&wr->data);
	pthread_mutex_unlock(&wr->mu);
	pthread_join(wr->thr, NULL);
	failed = wr->failed;
	for (i = 0; i < NSLOT; i++)
		free(wr->slot[i].p);
	pthread_mutex_destroy(&wr->mu);
	pthread_cond_destroy(&wr->data);
	pthread_cond_destroy(&wr->room);
	free(wr);
	return -failed;
}

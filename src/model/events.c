/* events.c - per-thread enter/leave log from the replay (see events.h).
 *
 * Each thread fills a current block, grown up to EV_BLOCK entries while the
 * budget allows.  A full block is kept in memory while the blocks held stay
 * within the budget, else written to the temporary file; the current block
 * is then reused.  Readers walk a thread's blocks in order. */
#include "model/events.h"
#include "util/unnamed.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A finished block: in memory (mem) or at off in the temporary file. */
struct eblock {
	struct cg_event *mem;
	uint64_t off;
	uint32_t n;
};

struct ethread {
	struct cg_event *cur;   /* the block being filled */
	size_t ncur, cap_cur;
	struct eblock *blocks;
	size_t nblocks, cap_blocks;
	struct cg_event *pre;   /* adopted enters, in adoption order */
	size_t npre, cap_pre;
};

struct cg_events {
	struct ethread *th;
	size_t nth, cap_th;
	struct cg_observer next;
	int has_next;
	size_t budget, held;    /* bytes allowed, bytes of blocks held */
	int fd;                 /* the temporary file, -1 until needed */
	uint64_t file_len;
	int failed;
	char msg[200];
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

static void fail(struct cg_events *e, const char *what, int err)
{
	if (!e->failed)
		snprintf(e->msg, sizeof(e->msg), "cannot %s the event log's temporary file: %s", what,
			 strerror(err));
	e->failed = 1;
}

/* Write the thread's current block to the file, as its next block. */
static void spill(struct cg_events *e, struct ethread *th)
{
	const char *p = (const char *)th->cur;
	size_t left = th->ncur * sizeof(*th->cur);
	uint64_t off = e->file_len;

	if (e->fd < 0 && (e->fd = unnamed_open("events")) < 0) {
		fail(e, "create", errno);
		return;
	}
	while (left) {
		ssize_t w = pwrite(e->fd, p, left, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fail(e, "write", w < 0 ? errno : ENOSPC);
			return;
		}
		p += w;
		left -= (size_t)w;
		off += (uint64_t)w;
	}
	th->blocks = xgrow(th->blocks, &th->cap_blocks, th->nblocks + 1, sizeof(*th->blocks));
	th->blocks[th->nblocks].mem = NULL;
	th->blocks[th->nblocks].off = e->file_len;
	th->blocks[th->nblocks].n = (uint32_t)th->ncur;
	th->nblocks++;
	e->file_len = off;
}

/* The current block is full: grow it, keep it, or write it out. */
static void make_room(struct cg_events *e, struct ethread *th)
{
	size_t bytes = th->cap_cur * sizeof(*th->cur);

	if (!th->cap_cur || (th->cap_cur < EV_BLOCK && e->held + bytes <= e->budget)) {
		/* Grown (always made, whatever the budget: 16 entries). */
		size_t cap = th->cap_cur ? th->cap_cur * 2 : 16;

		th->cur = xrealloc(th->cur, cap * sizeof(*th->cur));
		e->held += (cap - th->cap_cur) * sizeof(*th->cur);
		th->cap_cur = cap;
		return;
	}
	if (th->cap_cur == EV_BLOCK && e->held + bytes <= e->budget) {
		/* Kept: it becomes a block (its bytes are counted already), and
		 * a new current block is made. */
		th->blocks = xgrow(th->blocks, &th->cap_blocks, th->nblocks + 1, sizeof(*th->blocks));
		th->blocks[th->nblocks].mem = th->cur;
		th->blocks[th->nblocks].n = (uint32_t)th->ncur;
		th->nblocks++;
		th->cur = xmalloc(bytes);
		e->held += bytes;
	} else if (!e->failed) {
		spill(e, th);
	}
	th->ncur = 0;
}

static void push(struct cg_events *e, struct ethread *th, uint64_t t, uint32_t midx)
{
	if (th->ncur == th->cap_cur)
		make_room(e, th);
	th->cur[th->ncur].t = t;
	th->cur[th->ncur].midx = midx;
	th->ncur++;
}

static void on_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	struct cg_events *e = ctx;

	if (e->has_next && e->next.enter)
		e->next.enter(e->next.ctx, thread, midx, t);
	push(e, thread_get(e, thread), t, midx);
}

static void on_leave(void *ctx, uint32_t thread, uint64_t t)
{
	struct cg_events *e = ctx;

	if (e->has_next && e->next.leave)
		e->next.leave(e->next.ctx, thread, t);
	push(e, thread_get(e, thread), t, EV_LEAVE);
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
	push(e, th, t, EV_LEAVE);
}

struct cg_events *events_create(void)
{
	struct cg_events *e = xcalloc_lines(sizeof(struct cg_events));

	e->budget = EV_BUDGET;
	e->fd = -1;
	return e;
}

void events_set_budget(struct cg_events *e, size_t bytes)
{
	e->budget = bytes;
}

int events_status(const struct cg_events *e, struct cg_error *err)
{
	if (!e->failed)
		return 0;
	cg_error_set(err, -1, "%s", e->msg);
	return -1;
}

void events_free(struct cg_events *e)
{
	size_t i, k;

	if (!e)
		return;
	for (i = 0; i < e->nth; i++) {
		for (k = 0; k < e->th[i].nblocks; k++)
			free(e->th[i].blocks[k].mem);
		free(e->th[i].blocks);
		free(e->th[i].cur);
		free(e->th[i].pre);
	}
	if (e->fd >= 0)
		close(e->fd);
	free(e->th);
	free(e);
}

/* The event log keeps one clock; the other clock's times pass through. */
static void on_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct cg_events *e = ctx;

	e->next.other(e->next.ctx, thread, o_first, o_t);
}

static void on_finish(void *ctx)
{
	struct cg_events *e = ctx;

	e->next.finish(e->next.ctx);
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
	o->finish = e->has_next && e->next.finish ? on_finish : NULL;
	o->enter_o = NULL;
	o->leave_o = NULL;
	o->raw_ids = 0; /* gives methods */
	o->bypass = NULL;
}

void events_open(const struct cg_events *e, size_t i, struct cg_event_reader *rd)
{
	memset(rd, 0, sizeof(*rd));
	rd->ev = e;
	rd->thread = i;
	rd->phase = i < e->nth ? 0 : 3;
}

static long read_block(struct cg_event_reader *rd, const struct eblock *b,
		       const struct cg_event **evs, struct cg_error *err)
{
	char *p;
	size_t left = b->n * sizeof(*rd->buf);
	uint64_t off = b->off;

	if (b->mem) {
		*evs = b->mem;
		return (long)b->n;
	}
	if (!rd->buf)
		rd->buf = xmalloc(EV_BLOCK * sizeof(*rd->buf));
	p = (char *)rd->buf;
	while (left) {
		ssize_t r = pread(rd->ev->fd, p, left, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			cg_error_set(err, -1, "cannot read the event log's temporary file: %s",
				     r < 0 ? strerror(errno) : "it ended early");
			return -1;
		}
		p += r;
		left -= (size_t)r;
		off += (uint64_t)r;
	}
	*evs = rd->buf;
	return (long)b->n;
}

long events_next(struct cg_event_reader *rd, const struct cg_event **evs, struct cg_error *err)
{
	const struct ethread *th;
	size_t k;

	for (;;) {
		if (rd->phase == 3)
			return 0;
		th = &rd->ev->th[rd->thread];
		switch (rd->phase) {
		case 0:
			/* The last adopted (outermost) first; rd->block counts
			 * those given so far. */
			if (rd->block >= th->npre) {
				rd->phase = 1;
				rd->block = 0;
				continue;
			}
			if (!rd->buf)
				rd->buf = xmalloc(EV_BLOCK * sizeof(*rd->buf));
			for (k = 0; rd->block < th->npre && k < EV_BLOCK; k++, rd->block++)
				rd->buf[k] = th->pre[th->npre - 1 - rd->block];
			*evs = rd->buf;
			return (long)k;
		case 1:
			if (rd->block >= th->nblocks) {
				rd->phase = 2;
				continue;
			}
			return read_block(rd, &th->blocks[rd->block++], evs, err);
		default:
			rd->phase = 3;
			if (!th->ncur)
				continue;
			*evs = th->cur;
			return (long)th->ncur;
		}
	}
}

void events_close(struct cg_event_reader *rd)
{
	free(rd->buf);
	rd->buf = NULL;
}

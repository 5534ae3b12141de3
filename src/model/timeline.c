/* timeline.c - bounded span collection through the profile observer; see
 * timeline.h for the bound and why it holds. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/timeline.h"
#include "util/util.h"

struct tl_open {
	uint64_t start, o_start;
	uint32_t midx;
};

struct tl_thread {
	int seen;
	uint64_t first;          /* first time seen on this thread */
	struct tl_open *stack;
	size_t depth, stack_cap;
	struct cg_tl_span *heap; /* min-heap on (dur, later start) while reading */
	size_t nheap, heap_cap;
	uint32_t adopts;
	struct cg_tl_busy *busy;   /* NULL until a span is merged (keeps idle threads small) */
	uint64_t merged;
	/* The other clock of a dual-clock trace, as the profile last reported
	 * it (obs_other): the thread's first event and the current event. */
	int o_seen;
	uint64_t o_first, o_now;
	struct cg_tl_busy *obusy;  /* busy strips on the other clock, or NULL */
};

struct cg_timeline {
	struct tl_thread *th;
	size_t nth, cap_th;
	uint64_t seen, kept, merged;
	int finished;
	int has_other;            /* the profile reported the other clock */
	struct cg_observer next;  /* forwarded to first when has_next */
	int has_next;
};

struct cg_timeline *timeline_create(void)
{
	return xcalloc_lines(sizeof(struct cg_timeline));
}

void timeline_free(struct cg_timeline *tl)
{
	size_t i, d;

	if (!tl)
		return;
	for (i = 0; i < tl->nth; i++) {
		free(tl->th[i].stack);
		free(tl->th[i].heap);
		for (d = 0; d < TL_DEPTHS; d++) {
			if (tl->th[i].busy)
				free(tl->th[i].busy->rows[d]);
			if (tl->th[i].obusy)
				free(tl->th[i].obusy->rows[d]);
		}
		free(tl->th[i].busy);
		free(tl->th[i].obusy);
	}
	free(tl->th);
	free(tl);
}

/* Grow the slots to hold thread i, the new ones zeroed. */
static __attribute__((noinline)) void thread_grow(struct cg_timeline *tl, uint32_t i)
{
	size_t n = (size_t)i + 1;

	/* Doubling: threads appear one by one. */
	tl->th = xgrow(tl->th, &tl->cap_th, n, sizeof(*tl->th));
	memset(tl->th + tl->nth, 0, (n - tl->nth) * sizeof(*tl->th));
	tl->nth = n;
}

/* Thread i's slot, zeroed when new. */
static inline struct tl_thread *thread_slot(struct cg_timeline *tl, uint32_t i)
{
	if (__builtin_expect(i >= tl->nth, 0))
		thread_grow(tl, i);
	return &tl->th[i];
}

static inline struct tl_thread *thread_at(struct cg_timeline *tl, uint32_t i, uint64_t t)
{
	struct tl_thread *th = thread_slot(tl, i);

	if (__builtin_expect(!th->seen, 0)) {
		th->seen = 1;
		th->first = t;
	}
	return th;
}

/* Heap order: a is "smaller" (evicted first) when shorter, or as long and
 * later. */
static int span_less(const struct cg_tl_span *a, const struct cg_tl_span *b)
{
	if (a->dur != b->dur)
		return a->dur < b->dur;
	return a->start > b->start;
}

static void heap_up(struct cg_tl_span *h, size_t k)
{
	while (k > 0) {
		size_t p = (k - 1) / 2;
		struct cg_tl_span t;

		if (!span_less(&h[k], &h[p]))
			break;
		t = h[k], h[k] = h[p], h[p] = t;
		k = p;
	}
}

static void heap_down(struct cg_tl_span *h, size_t n, size_t k)
{
	for (;;) {
		size_t l = 2 * k + 1, r = l + 1, m = k;
		struct cg_tl_span t;

		if (l < n && span_less(&h[l], &h[m]))
			m = l;
		if (r < n && span_less(&h[r], &h[m]))
			m = r;
		if (m == k)
			break;
		t = h[k], h[k] = h[m], h[m] = t;
		k = m;
	}
}

/* A bin's time, v, held in 32 bits: saturated. */
static inline uint32_t bin_time(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* Widen the bins (pairwise merge, width doubles) until t is in range. */
static void busy_cover(struct cg_tl_busy *b, uint64_t t)
{
	size_t d, k;

	while (t - b->origin >= b->width * TL_BINS) {
		for (d = 0; d < TL_DEPTHS; d++) {
			uint32_t *row = b->rows[d];

			if (!row)
				continue;
			for (k = 0; k < TL_BINS / 2; k++)
				row[k] = bin_time((uint64_t)row[2 * k] + row[2 * k + 1]);
			memset(row + TL_BINS / 2, 0, TL_BINS / 2 * sizeof(*row));
		}
		b->width *= 2;
	}
}

/* Add [start, start + dur) to the bins *bp of depth, made on first use
 * with its origin at the thread's first event, origin. */
static __attribute__((noinline)) void busy_put_slow(struct cg_tl_busy **bp, uint64_t origin,
						    uint64_t start, uint64_t dur, uint32_t depth)
{
	uint64_t end = start + dur, k;
	unsigned shift;
	uint32_t *row;
	size_t d = depth < TL_DEPTHS ? depth : TL_DEPTHS - 1;
	struct cg_tl_busy *b;

	if (dur == 0)
		return;
	if (!*bp) {
		*bp = xcalloc(1, sizeof(**bp));
		(*bp)->origin = origin;
		(*bp)->width = 1;
		(*bp)->nbins = TL_BINS;
	}
	b = *bp;
	if (start < b->origin)
		start = b->origin; /* cannot happen: times never precede first */
	busy_cover(b, end - 1);
	if (!b->rows[d]) {
		b->rows[d] = xmalloc(TL_BINS * sizeof(uint32_t));
		memset(b->rows[d], 0, TL_BINS * sizeof(uint32_t));
	}
	row = b->rows[d];
	/* The width is a power of two; most spans fit in one bin. */
	shift = (unsigned)__builtin_ctzll(b->width);
	k = (start - b->origin) >> shift;
	if (k == (end - 1 - b->origin) >> shift) {
		row[k] = bin_time((uint64_t)row[k] + (end - start));
		return;
	}
	for (; k < TL_BINS; k++) {
		uint64_t lo = b->origin + k * b->width, hi = lo + b->width, s, e;

		if (lo >= end)
			break;
		s = start > lo ? start : lo;
		e = end < hi ? end : hi;
		row[k] = bin_time((uint64_t)row[k] + (e - s));
	}
}

/* busy_put_slow, for a span in one bin of a row in use without widening
 * the bins (nearly every span: a replay merges one at each return) at the cost
 * of a few compares. */
static inline void busy_put(struct cg_tl_busy **bp, uint64_t origin, uint64_t start, uint64_t dur,
			    uint32_t depth)
{
	const struct cg_tl_busy *b = *bp;
	uint32_t *row;
	uint64_t k, last;
	unsigned shift;

	if (__builtin_expect(b != NULL, 1) && dur != 0 && start >= b->origin) {
		row = b->rows[depth < TL_DEPTHS ? depth : TL_DEPTHS - 1];
		shift = (unsigned)__builtin_ctzll(b->width);
		k = (start - b->origin) >> shift;
		last = (start + dur - 1 - b->origin) >> shift;
		if (row && k == last && last < TL_BINS) {
			row[k] = bin_time((uint64_t)row[k] + dur);
			return;
		}
	}
	busy_put_slow(bp, origin, start, dur, depth);
}

/* Merge a span into the busy strips of its current depth, on both clocks. */
static void busy_add(struct cg_timeline *tl, struct tl_thread *th, const struct cg_tl_span *s,
		     uint32_t depth)
{
	th->merged++;
	busy_put(&th->busy, th->first, s->start, s->dur, depth);
	if (tl->has_other)
		busy_put(&th->obusy, th->o_first, s->o_start, s->o_dur, depth);
}

/* Current depth of a span recorded with generation gen. */
static uint32_t span_depth(const struct tl_thread *th, const struct cg_tl_span *s)
{
	return s->depth + (th->adopts - s->gen);
}

/* A finished span: into the heap, or merged. */
static void span_done(struct cg_timeline *tl, struct tl_thread *th, uint64_t start, uint64_t end,
		      uint64_t o_start, uint32_t midx, uint32_t depth)
{
	struct cg_tl_span s;

	tl->seen++;
	s.start = start;
	s.dur = end - start;
	s.o_start = o_start;
	s.o_dur = th->o_now > o_start ? th->o_now - o_start : 0;
	s.midx = midx;
	s.depth = depth;
	s.gen = th->adopts;
	if (th->nheap < TL_CAP) {
		if (th->nheap == th->heap_cap) {
			th->heap_cap = th->heap_cap ? th->heap_cap * 2 : 4;
			th->heap = xrealloc(th->heap, th->heap_cap * sizeof(*th->heap));
		}
		th->heap[th->nheap] = s;
		heap_up(th->heap, th->nheap++);
		return;
	}
	if (!span_less(&th->heap[0], &s)) {
		busy_add(tl, th, &s, s.depth);
		return;
	}
	busy_add(tl, th, &th->heap[0], span_depth(th, &th->heap[0]));
	th->heap[0] = s;
	heap_down(th->heap, th->nheap, 0);
}

/* The timeline's own part of an enter, a leave and an other-clock time
 * (the observer's calls pass each on first). */
static void own_enter(struct cg_timeline *tl, uint32_t thread, uint32_t midx, uint64_t t)
{
	struct tl_thread *th = thread_at(tl, thread, t);

	if (th->depth == th->stack_cap) {
		th->stack_cap = th->stack_cap ? th->stack_cap * 2 : 4;
		th->stack = xrealloc(th->stack, th->stack_cap * sizeof(*th->stack));
	}
	th->stack[th->depth].start = t;
	th->stack[th->depth].o_start = th->o_now;
	th->stack[th->depth].midx = midx;
	th->depth++;
}

static void own_leave(struct cg_timeline *tl, uint32_t thread, uint64_t t)
{
	struct tl_thread *th = thread_at(tl, thread, t);
	struct tl_open *o;

	if (th->depth == 0)
		return; /* the profile never leaves an empty stack */
	o = &th->stack[--th->depth];
	span_done(tl, th, o->start, t < o->start ? o->start : t, o->o_start, o->midx,
		  (uint32_t)th->depth);
}

/* The other clock's times at the event about to be reported: kept for the
 * spans' other-clock start and duration. */
static void own_other(struct cg_timeline *tl, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct tl_thread *th = thread_slot(tl, thread);

	tl->has_other = 1;
	th->o_seen = 1;
	th->o_first = o_first;
	th->o_now = o_t < o_first ? o_first : o_t;
}

static void obs_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	struct cg_timeline *tl = ctx;

	if (tl->has_next)
		tl->next.enter(tl->next.ctx, thread, midx, t);
	own_enter(tl, thread, midx, t);
}

static void obs_leave(void *ctx, uint32_t thread, uint64_t t)
{
	struct cg_timeline *tl = ctx;

	if (tl->has_next)
		tl->next.leave(tl->next.ctx, thread, t);
	own_leave(tl, thread, t);
}

/* An enter or leave with the other clock's times (cg_observer.enter_o):
 * obs_other and then obs_enter or obs_leave, in one call. */
static void obs_enter_o(void *ctx, uint32_t thread, uint32_t midx, uint64_t t, uint64_t o_first,
			uint64_t o_t)
{
	struct cg_timeline *tl = ctx;

	if (tl->has_next)
		observer_enter_o(&tl->next, thread, midx, t, o_first, o_t);
	own_other(tl, thread, o_first, o_t);
	own_enter(tl, thread, midx, t);
}

static void obs_leave_o(void *ctx, uint32_t thread, uint64_t t, uint64_t o_first, uint64_t o_t)
{
	struct cg_timeline *tl = ctx;

	if (tl->has_next)
		observer_leave_o(&tl->next, thread, t, o_first, o_t);
	own_other(tl, thread, o_first, o_t);
	own_leave(tl, thread, t);
}

/* Move every row of b one depth deeper (the last row absorbs the one above). */
static void busy_deepen(struct cg_tl_busy *b)
{
	uint32_t *last;
	size_t d, k;

	if (!b)
		return;
	last = b->rows[TL_DEPTHS - 1];
	if (last && b->rows[TL_DEPTHS - 2]) {
		for (k = 0; k < TL_BINS; k++)
			last[k] = bin_time((uint64_t)last[k] + b->rows[TL_DEPTHS - 2][k]);
		free(b->rows[TL_DEPTHS - 2]);
	} else if (!last) {
		last = b->rows[TL_DEPTHS - 2];
	}
	for (d = TL_DEPTHS - 2; d > 0; d--)
		b->rows[d] = b->rows[d - 1];
	b->rows[0] = NULL;
	b->rows[TL_DEPTHS - 1] = last;
}

static void obs_adopt(void *ctx, uint32_t thread, uint32_t midx, uint64_t first, uint64_t t)
{
	struct cg_timeline *tl = ctx;
	struct tl_thread *th;

	if (tl->has_next)
		tl->next.adopt(tl->next.ctx, thread, midx, first, t);
	th = thread_at(tl, thread, first);
	if (first < th->first) {
		/* The thread's first event was not reported (a hidden frame, say):
		 * move the origin back while no bin is used, else clamp. */
		if (!th->busy)
			th->first = first;
		else
			first = th->first;
	}
	/* Everything so far moves one level deeper: heap spans through their
	 * generation, bins by shifting rows. */
	th->adopts++;
	busy_deepen(th->busy);
	busy_deepen(th->obusy);
	span_done(tl, th, first, t < first ? first : t, th->o_first, midx, 0);
}

static void obs_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct cg_timeline *tl = ctx;

	if (tl->has_next && tl->next.other)
		tl->next.other(tl->next.ctx, thread, o_first, o_t);
	own_other(tl, thread, o_first, o_t);
}

static void obs_finish(void *ctx)
{
	struct cg_timeline *tl = ctx;

	tl->next.finish(tl->next.ctx);
}

void timeline_observer(struct cg_timeline *tl, const struct cg_observer *next,
			struct cg_observer *o)
{
	if (next) {
		tl->next = *next;
		tl->has_next = 1;
	}
	o->ctx = tl;
	o->enter = obs_enter;
	o->leave = obs_leave;
	o->adopt = obs_adopt;
	o->other = obs_other;
	o->finish = tl->has_next && tl->next.finish ? obs_finish : NULL;
	o->enter_o = obs_enter_o;
	o->leave_o = obs_leave_o;
	o->raw_ids = 0; /* gives methods */
	o->bypass = NULL;
}

static int cmp_dur_desc(const void *a, const void *b)
{
	const struct cg_tl_span *x = a, *y = b;

	if (span_less(x, y))
		return 1;
	if (span_less(y, x))
		return -1;
	return 0;
}

static int cmp_start(const void *a, const void *b)
{
	const struct cg_tl_span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return (x->midx > y->midx) - (x->midx < y->midx);
}

/* A thread index with its time, for timeline_fold's order. */
struct by_time {
	uint64_t us;
	size_t i;
};

static int cmp_by_time(const void *a, const void *b)
{
	const struct by_time *x = a, *y = b;

	if (x->us != y->us)
		return x->us > y->us ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int32_t *timeline_fold(const struct cg_view *all, size_t *nlisted)
{
	size_t n = all->nthreads, i, j;
	struct by_time *order;
	int32_t *map;

	*nlisted = n;
	if (n <= TL_THREADS_ALL)
		return NULL;
	order = xmalloc(n * sizeof(*order));
	for (i = 0; i < n; i++) {
		order[i].us = all->threads[i].incl_us;
		order[i].i = i;
	}
	qsort(order, n, sizeof(*order), cmp_by_time);
	map = xmalloc(n * sizeof(*map));
	for (i = 0; i < n; i++)
		map[i] = -1;
	for (i = 0; i < n && i < TL_THREADS_MAX; i++) {
		if (order[i].us == 0 || order[i].us < all->total_us / TL_IDLE_SHARE)
			break;
		map[order[i].i] = 0;
	}
	free(order);
	for (i = 0, j = 0; i < n; i++)
		if (map[i] == 0)
			map[i] = (int32_t)j++;
	*nlisted = j;
	return map;
}

/* Drop everything thread th keeps (a folded thread). */
static void thread_drop(struct tl_thread *th)
{
	size_t d;

	th->nheap = 0;
	for (d = 0; d < TL_DEPTHS; d++) {
		if (th->busy)
			free(th->busy->rows[d]);
		if (th->obusy)
			free(th->obusy->rows[d]);
	}
	free(th->busy);
	free(th->obusy);
	th->busy = th->obusy = NULL;
	th->merged = 0;
}

void timeline_finish(struct cg_timeline *tl, struct cg_profile *p)
{
	const struct cg_view *all = profile_view(p, -1);
	size_t i, j, total = 0, cap = TL_CAP, nlisted;
	int32_t *map;

	if (tl->finished)
		return;
	tl->finished = 1;
	map = timeline_fold(all, &nlisted);
	for (i = 0; i < tl->nth; i++) {
		struct tl_thread *th = &tl->th[i];
		uint64_t D = i < all->nthreads ? all->threads[i].incl_us : 0;
		size_t keep = 0;

		if (map && (i >= all->nthreads || map[i] < 0)) {
			thread_drop(th);
			continue;
		}

		/* Final depths; then the longest first so the rules cut a suffix. */
		for (j = 0; j < th->nheap; j++) {
			th->heap[j].depth = span_depth(th, &th->heap[j]);
			th->heap[j].gen = th->adopts;
		}
		qsort(th->heap, th->nheap, sizeof(*th->heap), cmp_dur_desc);
		while (keep < th->nheap && th->heap[keep].dur * TL_FRACTION >= D)
			keep++;
		for (j = keep; j < th->nheap; j++)
			busy_add(tl, th, &th->heap[j], th->heap[j].depth);
		th->nheap = keep;
		total += keep;
	}
	if (total > TL_BUDGET) {
		/* Largest c with sum min(n_i, c) <= budget, by bisection. */
		size_t lo = 0, hi = TL_CAP;

		while (lo < hi) {
			size_t mid = (lo + hi + 1) / 2, s = 0;

			for (i = 0; i < tl->nth; i++)
				s += tl->th[i].nheap < mid ? tl->th[i].nheap : mid;
			if (s <= TL_BUDGET)
				lo = mid;
			else
				hi = mid - 1;
		}
		cap = lo;
	}
	for (i = 0; i < tl->nth; i++) {
		struct tl_thread *th = &tl->th[i];

		for (j = cap; j < th->nheap; j++)
			busy_add(tl, th, &th->heap[j], th->heap[j].depth);
		if (th->nheap > cap)
			th->nheap = cap;
		qsort(th->heap, th->nheap, sizeof(*th->heap), cmp_start);
		tl->kept += th->nheap;
		tl->merged += th->merged;
	}
	free(map);
}

size_t timeline_thread_count(const struct cg_timeline *tl)
{
	return tl->nth;
}

size_t timeline_spans(const struct cg_timeline *tl, size_t i, const struct cg_tl_span **out)
{
	if (i >= tl->nth) {
		*out = NULL;
		return 0;
	}
	*out = tl->th[i].heap;
	return tl->th[i].nheap;
}

const struct cg_tl_busy *timeline_busy(const struct cg_timeline *tl, size_t i)
{
	return i < tl->nth ? tl->th[i].busy : NULL;
}

void timeline_counts(const struct cg_timeline *tl, uint64_t *seen, uint64_t *kept,
		     uint64_t *merged)
{
	*seen = tl->seen;
	*kept = tl->kept;
	*merged = tl->merged;
}

/* A method's key in the report: its position in the all-threads view
 * (inclusive rank, which also picks its colour), or -1. */
static int64_t method_key(const struct cg_view *all, uint32_t midx)
{
	return midx < all->npos && all->method_pos[midx] != UINT32_MAX ? (int64_t)all->method_pos[midx]
								      : -1;
}

/* Busy strips b as JSON ("o" relative to first), rows with a non-zero bin. */
static void busy_json(const struct cg_tl_busy *b, uint64_t first, struct strbuf *out)
{
	int first_row = 1;
	size_t d, k;

	strbuf_printf(out, "{\"o\":%" PRIu64 ",\"w\":%" PRIu64 ",\"rows\":[",
		      b->origin > first ? b->origin - first : 0, b->width);
	for (d = 0; d < TL_DEPTHS; d++) {
		size_t last = 0;

		if (!b->rows[d])
			continue;
		for (k = 0; k < TL_BINS; k++)
			if (b->rows[d][k])
				last = k + 1;
		if (!last)
			continue;
		strbuf_printf(out, "%s[%zu", first_row ? "" : ",", d);
		first_row = 0;
		for (k = 0; k < last; k++) {
			uint64_t v = (uint64_t)b->rows[d][k] * 1000 / b->width;

			strbuf_printf(out, ",%u", (unsigned)(v > 1000 ? 1000 : v));
		}
		strbuf_putc(out, ']');
	}
	strbuf_puts(out, "]}");
}

void timeline_json(const struct cg_timeline *tl, struct cg_profile *p, const int32_t *map,
		   unsigned char *used, size_t nused, struct strbuf *out)
{
	const struct cg_view *all = profile_view(p, -1);
	int other = all->has_other;
	size_t i, j, listed = 0;

	strbuf_printf(out, "{\"fraction\":%d,\"cap\":%d,\"budget\":%d,\"seen\":%" PRIu64
			   ",\"kept\":%" PRIu64 ",\"merged\":%" PRIu64 ",\"other\":%d,\"threads\":[",
		      TL_FRACTION, TL_CAP, TL_BUDGET, tl->seen, tl->kept, tl->merged, other);
	for (i = 0; i < all->nthreads; i++) {
		const struct cg_pthread *t = &all->threads[i];
		const struct cg_tl_span *s;
		const struct cg_tl_busy *b = timeline_busy(tl, i);
		const struct tl_thread *th = i < tl->nth ? &tl->th[i] : NULL;
		uint64_t o_first = th && th->o_seen ? th->o_first : 0;
		size_t n = timeline_spans(tl, i, &s);

		if (map && map[i] < 0)
			continue;
		strbuf_printf(out, "%s{\"i\":%zu,\"first\":%" PRIu64 ",\"dur\":%" PRIu64,
			      listed++ ? "," : "", map ? (size_t)map[i] : i, t->first_us, t->incl_us);
		if (other)
			strbuf_printf(out, ",\"ofirst\":%" PRIu64 ",\"odur\":%" PRIu64, o_first,
				      t->other_us);
		strbuf_puts(out, ",\"spans\":[");
		for (j = 0; j < n; j++) {
			uint64_t rel = s[j].start > t->first_us ? s[j].start - t->first_us : 0;

			strbuf_printf(out, "%s%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRIu32, j ? "," : "",
				      rel, s[j].dur, method_key(all, s[j].midx), s[j].depth);
			if (other)
				strbuf_printf(out, ",%" PRIu64 ",%" PRIu64,
					      s[j].o_start > o_first ? s[j].o_start - o_first : 0,
					      s[j].o_dur);
			if (s[j].midx < nused)
				used[s[j].midx] = 1;
		}
		strbuf_puts(out, "]");
		if (b) {
			strbuf_puts(out, ",\"busy\":");
			busy_json(b, t->first_us, out);
		}
		if (other && th && th->obusy) {
			strbuf_puts(out, ",\"obusy\":");
			busy_json(th->obusy, o_first, out);
		}
		strbuf_putc(out, '}');
	}
	strbuf_puts(out, "]}");
}

/* timeline.c - bounded span collection through the profile observer; see
 * timeline.h for the bound and why it holds. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "util.h"

struct tl_open {
	uint64_t start;
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
	struct cg_tl_busy busy;
	int has_busy;
	uint64_t merged;
};

struct cg_timeline {
	struct tl_thread *th;
	size_t nth;
	uint64_t seen, kept, merged;
	int finished;
	struct cg_observer next;  /* forwarded to first when has_next */
	int has_next;
};

struct cg_timeline *timeline_create(void)
{
	struct cg_timeline *tl = xmalloc(sizeof(*tl));

	memset(tl, 0, sizeof(*tl));
	return tl;
}

void timeline_free(struct cg_timeline *tl)
{
	size_t i, d;

	if (!tl)
		return;
	for (i = 0; i < tl->nth; i++) {
		free(tl->th[i].stack);
		free(tl->th[i].heap);
		for (d = 0; d < TL_DEPTHS; d++)
			free(tl->th[i].busy.rows[d]);
	}
	free(tl->th);
	free(tl);
}

static struct tl_thread *thread_at(struct cg_timeline *tl, uint32_t i, uint64_t t)
{
	struct tl_thread *th;

	if (i >= tl->nth) {
		size_t n = i + 1;

		tl->th = xrealloc(tl->th, n * sizeof(*tl->th));
		memset(tl->th + tl->nth, 0, (n - tl->nth) * sizeof(*tl->th));
		tl->nth = n;
	}
	th = &tl->th[i];
	if (!th->seen) {
		th->seen = 1;
		th->first = t;
		th->busy.origin = t;
		th->busy.width = 1;
		th->busy.nbins = TL_BINS;
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

/* Widen the bins (pairwise merge, width doubles) until t is in range. */
static void busy_cover(struct cg_tl_busy *b, uint64_t t)
{
	size_t d, k;

	while (t - b->origin >= b->width * TL_BINS) {
		for (d = 0; d < TL_DEPTHS; d++) {
			uint32_t *row = b->rows[d];

			if (!row)
				continue;
			for (k = 0; k < TL_BINS / 2; k++) {
				uint64_t s = (uint64_t)row[2 * k] + row[2 * k + 1];

				row[k] = s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
			}
			memset(row + TL_BINS / 2, 0, TL_BINS / 2 * sizeof(*row));
		}
		b->width *= 2;
	}
}

/* Add the span's time to the bins of its current depth. */
static void busy_add(struct tl_thread *th, uint64_t start, uint64_t dur, uint32_t depth)
{
	struct cg_tl_busy *b = &th->busy;
	uint64_t end = start + dur, k;
	uint32_t *row;
	size_t d = depth < TL_DEPTHS ? depth : TL_DEPTHS - 1;

	th->merged++;
	if (dur == 0)
		return;
	if (start < b->origin)
		start = b->origin; /* cannot happen: times never precede first */
	busy_cover(b, end - 1);
	if (!b->rows[d]) {
		b->rows[d] = xmalloc(TL_BINS * sizeof(uint32_t));
		memset(b->rows[d], 0, TL_BINS * sizeof(uint32_t));
	}
	th->has_busy = 1;
	row = b->rows[d];
	for (k = (start - b->origin) / b->width; k < TL_BINS; k++) {
		uint64_t lo = b->origin + k * b->width, hi = lo + b->width, s, e, v;

		if (lo >= end)
			break;
		s = start > lo ? start : lo;
		e = end < hi ? end : hi;
		v = (uint64_t)row[k] + (e - s);
		row[k] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
}

/* Current depth of a span recorded with generation gen. */
static uint32_t span_depth(const struct tl_thread *th, const struct cg_tl_span *s)
{
	return s->depth + (th->adopts - s->gen);
}

/* A finished span: into the heap, or merged. */
static void span_done(struct cg_timeline *tl, struct tl_thread *th, uint64_t start, uint64_t end,
		      uint32_t midx, uint32_t depth)
{
	struct cg_tl_span s;

	tl->seen++;
	s.start = start;
	s.dur = end - start;
	s.midx = midx;
	s.depth = depth;
	s.gen = th->adopts;
	if (th->nheap < TL_CAP) {
		if (th->nheap == th->heap_cap) {
			th->heap_cap = th->heap_cap ? th->heap_cap * 2 : 64;
			th->heap = xrealloc(th->heap, th->heap_cap * sizeof(*th->heap));
		}
		th->heap[th->nheap] = s;
		heap_up(th->heap, th->nheap++);
		return;
	}
	if (!span_less(&th->heap[0], &s)) {
		busy_add(th, s.start, s.dur, s.depth);
		return;
	}
	busy_add(th, th->heap[0].start, th->heap[0].dur, span_depth(th, &th->heap[0]));
	th->heap[0] = s;
	heap_down(th->heap, th->nheap, 0);
}

static void obs_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	struct cg_timeline *tl = ctx;
	struct tl_thread *th;

	if (tl->has_next)
		tl->next.enter(tl->next.ctx, thread, midx, t);
	th = thread_at(tl, thread, t);
	if (th->depth == th->stack_cap) {
		th->stack_cap = th->stack_cap ? th->stack_cap * 2 : 64;
		th->stack = xrealloc(th->stack, th->stack_cap * sizeof(*th->stack));
	}
	th->stack[th->depth].start = t;
	th->stack[th->depth].midx = midx;
	th->depth++;
}

static void obs_leave(void *ctx, uint32_t thread, uint64_t t)
{
	struct cg_timeline *tl = ctx;
	struct tl_thread *th;
	struct tl_open *o;

	if (tl->has_next)
		tl->next.leave(tl->next.ctx, thread, t);
	th = thread_at(tl, thread, t);
	if (th->depth == 0)
		return; /* the profile never leaves an empty stack */
	o = &th->stack[--th->depth];
	span_done(tl, th, o->start, t < o->start ? o->start : t, o->midx, (uint32_t)th->depth);
}

static void obs_adopt(void *ctx, uint32_t thread, uint32_t midx, uint64_t first, uint64_t t)
{
	struct cg_timeline *tl = ctx;
	struct tl_thread *th;
	struct cg_tl_busy *b;
	uint32_t *last;
	size_t d, k;

	if (tl->has_next)
		tl->next.adopt(tl->next.ctx, thread, midx, first, t);
	th = thread_at(tl, thread, first);
	b = &th->busy;
	if (first < th->first) {
		/* The thread's first event was not reported (a hidden frame, say):
		 * move the origin back while no bin is used, else clamp. */
		for (d = 0; d < TL_DEPTHS && !b->rows[d]; d++)
			;
		if (d == TL_DEPTHS)
			th->first = b->origin = first;
		else
			first = th->first;
	}
	/* Everything so far moves one level deeper: heap spans through their
	 * generation, bins by shifting rows (the last row absorbs the one above). */
	th->adopts++;
	last = b->rows[TL_DEPTHS - 1];
	if (last && b->rows[TL_DEPTHS - 2]) {
		for (k = 0; k < TL_BINS; k++) {
			uint64_t v = (uint64_t)last[k] + b->rows[TL_DEPTHS - 2][k];

			last[k] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		}
		free(b->rows[TL_DEPTHS - 2]);
	} else if (!last) {
		last = b->rows[TL_DEPTHS - 2];
	}
	for (d = TL_DEPTHS - 2; d > 0; d--)
		b->rows[d] = b->rows[d - 1];
	b->rows[0] = NULL;
	b->rows[TL_DEPTHS - 1] = last;
	span_done(tl, th, first, t < first ? first : t, midx, 0);
}

/* The timeline keeps one clock; the other clock's times pass through. */
static void obs_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct cg_timeline *tl = ctx;

	tl->next.other(tl->next.ctx, thread, o_first, o_t);
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
	o->other = tl->has_next && tl->next.other ? obs_other : NULL;
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

void timeline_finish(struct cg_timeline *tl, struct cg_profile *p)
{
	const struct cg_view *all = profile_view(p, -1);
	size_t i, j, total = 0, cap = TL_CAP;

	if (tl->finished)
		return;
	tl->finished = 1;
	for (i = 0; i < tl->nth; i++) {
		struct tl_thread *th = &tl->th[i];
		uint64_t D = i < all->nthreads ? all->threads[i].incl_us : 0;
		size_t keep = 0;

		/* Final depths; then the longest first so the rules cut a suffix. */
		for (j = 0; j < th->nheap; j++) {
			th->heap[j].depth = span_depth(th, &th->heap[j]);
			th->heap[j].gen = th->adopts;
		}
		qsort(th->heap, th->nheap, sizeof(*th->heap), cmp_dur_desc);
		while (keep < th->nheap && th->heap[keep].dur * TL_FRACTION >= D)
			keep++;
		for (j = keep; j < th->nheap; j++)
			busy_add(th, th->heap[j].start, th->heap[j].dur, th->heap[j].depth);
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
			busy_add(th, th->heap[j].start, th->heap[j].dur, th->heap[j].depth);
		if (th->nheap > cap)
			th->nheap = cap;
		qsort(th->heap, th->nheap, sizeof(*th->heap), cmp_start);
		tl->kept += th->nheap;
		tl->merged += th->merged;
	}
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
	return i < tl->nth && tl->th[i].has_busy ? &tl->th[i].busy : NULL;
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

void timeline_json(const struct cg_timeline *tl, struct cg_profile *p, unsigned char *used,
		   size_t nused, struct strbuf *out)
{
	const struct cg_view *all = profile_view(p, -1);
	size_t i, j, d;

	strbuf_printf(out, "{\"fraction\":%d,\"cap\":%d,\"budget\":%d,\"seen\":%" PRIu64
			   ",\"kept\":%" PRIu64 ",\"merged\":%" PRIu64 ",\"threads\":[",
		      TL_FRACTION, TL_CAP, TL_BUDGET, tl->seen, tl->kept, tl->merged);
	for (i = 0; i < all->nthreads; i++) {
		const struct cg_pthread *t = &all->threads[i];
		const struct cg_tl_span *s;
		const struct cg_tl_busy *b = timeline_busy(tl, i);
		size_t n = timeline_spans(tl, i, &s);

		strbuf_printf(out, "%s{\"i\":%zu,\"first\":%" PRIu64 ",\"dur\":%" PRIu64 ",\"spans\":[",
			      i ? "," : "", i, t->first_us, t->incl_us);
		for (j = 0; j < n; j++) {
			uint64_t rel = s[j].start > t->first_us ? s[j].start - t->first_us : 0;

			strbuf_printf(out, "%s%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRIu32, j ? "," : "",
				      rel, s[j].dur, method_key(all, s[j].midx), s[j].depth);
			if (s[j].midx < nused)
				used[s[j].midx] = 1;
		}
		strbuf_puts(out, "]");
		if (b) {
			int first_row = 1;

			strbuf_printf(out, ",\"busy\":{\"o\":%" PRIu64 ",\"w\":%" PRIu64 ",\"rows\":[",
				      b->origin > t->first_us ? b->origin - t->first_us : 0, b->width);
			for (d = 0; d < TL_DEPTHS; d++) {
				size_t k, last = 0;

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
		strbuf_putc(out, '}');
	}
	strbuf_puts(out, "]}");
}

/* frames.c - frames found through the replay's observer (see frames.h).
 *
 * Each thread keeps the stack of its visible frames' methods and, while a
 * frame is open, the depth it opened at.  Between two events of a thread
 * the time passes on the top frame: inside a frame it is added to that
 * method's line in the open frame's table.  When a frame closes, its line
 * joins the list; its table is kept only while the frame is among the
 * FRAMES_TOP slowest so far (a min-heap by the primary clock).
 */
#include "model/frames.h"

#include <stdlib.h>
#include <string.h>

#include "util/itab.h"
#include "util/strbuf.h"

const char frames_default_pattern[] = "Choreographer.doFrame";

/* One method's time inside an open or kept frame (the primary clock in
 * p, the other in o). */
struct fline {
	uint32_t midx;
	uint64_t p, o;
};

struct ftable {
	struct fline *lines;
	size_t n, cap;
	struct cg_itab tab;
};

struct fthread {
	uint32_t *stack;          /* method per visible depth */
	size_t depth, cap;
	size_t frame_at;          /* depth + 1 where the open frame began, 0: none */
	int started;
	uint64_t last, o_last;    /* time of the thread's last event */
	uint64_t o_now;           /* other clock at the coming event (obs other) */
	uint64_t o_first;         /* other clock at the thread's first event */
	uint64_t start, o_start;  /* the open frame's start */
	uint32_t frame_midx;
	struct ftable open;       /* the open frame's methods */
};

/* A closed frame on the observer's clocks (p: primary). */
struct fraw {
	uint64_t start, o_start, p, o;
	uint32_t thread, midx, flags;
	uint32_t kept;            /* index into kept[] + 1, or 0 */
};

struct cg_frames {
	const struct cg_symtab *st;
	const char *pattern;
	struct strbuf name;
	unsigned char *match;     /* per midx: 0 unknown, 1 no, 2 yes */
	size_t nmatch;
	struct fthread *th;
	size_t nth;
	struct fraw *raw;
	size_t nraw, cap_raw;
	/* The slowest frames' tables: a min-heap of raw indices. */
	size_t heap[FRAMES_TOP];
	size_t nheap;
	struct ftable kept[FRAMES_TOP];
	int kept_used[FRAMES_TOP];
	struct cg_observer next;
	int has_next;
	/* After frames_finish. */
	struct cg_frame *list;
	struct {
		size_t frame;     /* list index */
		struct cg_frame_method *m;
		size_t n;
	} kept_methods[FRAMES_TOP];
	size_t nkept;
	size_t slow[FRAMES_TOP];
	size_t nslow;
	uint64_t *sorted[2];      /* durations, wall and cpu, ascending */
};

/* 1 when method midx of st is a frame method by pattern; name: scratch. */
static int method_matches(const struct cg_symtab *st, const char *pattern, uint32_t midx,
			  struct strbuf *name)
{
	struct cg_method_info tmp;

	strbuf_reset(name);
	symtab_put_display(name, symtab_method_peek(st, midx, &tmp));
	return profile_pattern_match(pattern, name->len ? name->data : "");
}

int frames_method_in(const struct cg_symtab *st, const char *pattern, size_t *from)
{
	struct strbuf name;
	size_t n = symtab_method_count(st);
	int hit = 0;

	strbuf_init(&name);
	for (; *from < n && !hit; (*from)++)
		hit = method_matches(st, pattern ? pattern : frames_default_pattern, (uint32_t)*from,
				     &name);
	strbuf_free(&name);
	return hit;
}

static int is_frame_method(struct cg_frames *f, uint32_t midx)
{
	if (midx >= f->nmatch) {
		size_t old = f->nmatch;

		f->match = xgrow(f->match, &f->nmatch, (size_t)midx + 1, 1);
		memset(f->match + old, 0, f->nmatch - old);
	}
	if (!f->match[midx])
		f->match[midx] = method_matches(f->st, f->pattern, midx, &f->name) ? 2 : 1;
	return f->match[midx] == 2;
}

static struct fthread *thread_at(struct cg_frames *f, uint32_t i)
{
	if (i >= f->nth) {
		size_t old = f->nth;

		f->th = xgrow(f->th, &f->nth, (size_t)i + 1, sizeof(*f->th));
		memset(f->th + old, 0, (f->nth - old) * sizeof(*f->th));
	}
	return &f->th[i];
}

static void table_add(struct ftable *t, uint32_t midx, uint64_t p, uint64_t o)
{
	uint32_t s;

	if (!t->tab.key4)
		t->tab.key4 = 1; /* a line's key is its first field, midx */
	s = itab_find(&t->tab, midx, t->lines, sizeof(*t->lines));
	if (s == ITAB_NONE) {
		t->lines = xgrow(t->lines, &t->cap, t->n + 1, sizeof(*t->lines));
		s = (uint32_t)t->n++;
		t->lines[s].midx = midx;
		t->lines[s].p = t->lines[s].o = 0;
		itab_insert(&t->tab, s, t->lines, sizeof(*t->lines));
	}
	t->lines[s].p += p;
	t->lines[s].o += o;
}

static void table_clear(struct ftable *t)
{
	t->n = 0;
	if (t->tab.slots)
		memset(t->tab.slots, 0, t->tab.nslots * sizeof(*t->tab.slots));
	t->tab.live = 0;
}

static void table_free(struct ftable *t)
{
	free(t->lines);
	itab_free(&t->tab);
	memset(t, 0, sizeof(*t));
}

/* 1 when raw frame a is slower than b: longer on the primary clock, then
 * earlier, then the lower thread. */
static int slower(const struct fraw *a, const struct fraw *b)
{
	if (a->p != b->p)
		return a->p > b->p;
	if (a->start != b->start)
		return a->start < b->start;
	return a->thread < b->thread;
}

static void heap_down(struct cg_frames *f, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < f->nheap && slower(&f->raw[f->heap[m]], &f->raw[f->heap[l]]))
			m = l;
		if (r < f->nheap && slower(&f->raw[f->heap[m]], &f->raw[f->heap[r]]))
			m = r;
		if (m == i)
			return;
		t = f->heap[i];
		f->heap[i] = f->heap[m];
		f->heap[m] = t;
		i = m;
	}
}

static void heap_up(struct cg_frames *f, size_t i)
{
	while (i > 0) {
		size_t up = (i - 1) / 2, t;

		if (!slower(&f->raw[f->heap[up]], &f->raw[f->heap[i]]))
			return;
		t = f->heap[i];
		f->heap[i] = f->heap[up];
		f->heap[up] = t;
		i = up;
	}
}

/* Keep raw frame r's table when it is among the slowest so far. */
static void keep_slowest(struct cg_frames *f, size_t r, struct ftable *t)
{
	size_t k;

	if (f->nheap == FRAMES_TOP) {
		size_t out = f->heap[0];

		if (!slower(&f->raw[r], &f->raw[out]))
			return;
		k = f->raw[out].kept - 1;
		f->raw[out].kept = 0;
		f->heap[0] = r;
		heap_down(f, 0);
	} else {
		for (k = 0; f->kept_used[k]; k++)
			;
		f->heap[f->nheap++] = r;
		heap_up(f, f->nheap - 1);
	}
	f->kept_used[k] = 1;
	f->raw[r].kept = (uint32_t)k + 1;
	/* Swap the open table into the kept slot: the open frame starts over
	 * with the slot's old (cleared) arrays. */
	{
		struct ftable tmp = f->kept[k];

		f->kept[k] = *t;
		*t = tmp;
		table_clear(t);
	}
}

static size_t raw_push(struct cg_frames *f, uint32_t thread, uint32_t midx, uint64_t start,
		       uint64_t o_start, uint64_t p, uint64_t o, uint32_t flags)
{
	struct fraw *r;

	f->raw = xgrow(f->raw, &f->cap_raw, f->nraw + 1, sizeof(*f->raw));
	r = &f->raw[f->nraw];
	memset(r, 0, sizeof(*r));
	r->start = start;
	r->o_start = o_start;
	r->p = p;
	r->o = o;
	r->thread = thread;
	r->midx = midx;
	r->flags = flags;
	return f->nraw++;
}

/* The time since the thread's last event goes to its top frame's method
 * inside an open frame. */
static void advance(struct fthread *th, uint64_t t)
{
	if (th->started && th->frame_at && th->depth)
		table_add(&th->open, th->stack[th->depth - 1], t - th->last, th->o_now - th->o_last);
	th->started = 1;
	th->last = t;
	th->o_last = th->o_now;
}

static void obs_other(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t)
{
	struct cg_frames *f = ctx;
	struct fthread *th;

	(void)o_first;
	if (f->has_next && f->next.other)
		f->next.other(f->next.ctx, thread, o_first, o_t);
	th = thread_at(f, thread);
	th->o_now = o_t;
	th->o_first = o_first;
}

static void obs_enter(void *ctx, uint32_t thread, uint32_t midx, uint64_t t)
{
	struct cg_frames *f = ctx;
	struct fthread *th;

	if (f->has_next)
		f->next.enter(f->next.ctx, thread, midx, t);
	th = thread_at(f, thread);
	advance(th, t);
	th->stack = xgrow(th->stack, &th->cap, th->depth + 1, sizeof(*th->stack));
	th->stack[th->depth++] = midx;
	if (!th->frame_at && is_frame_method(f, midx)) {
		th->frame_at = th->depth;
		th->start = t;
		th->o_start = th->o_now;
		th->frame_midx = midx;
		table_clear(&th->open);
	}
}

static void obs_leave(void *ctx, uint32_t thread, uint64_t t)
{
	struct cg_frames *f = ctx;
	struct fthread *th;

	if (f->has_next)
		f->next.leave(f->next.ctx, thread, t);
	th = thread_at(f, thread);
	advance(th, t);
	if (!th->depth)
		return;
	if (th->frame_at == th->depth) {
		size_t r = raw_push(f, thread, th->frame_midx, th->start, th->o_start,
				    t - th->start, th->o_now - th->o_start, 0);

		th->frame_at = 0;
		keep_slowest(f, r, &th->open);
	}
	th->depth--;
}

/* Frame method midx spans [first, t] and encloses everything the thread
 * ran: the thread's earlier frames are no longer outermost. */
static void obs_adopt(void *ctx, uint32_t thread, uint32_t midx, uint64_t first, uint64_t t)
{
	struct cg_frames *f = ctx;
	struct fthread *th;
	size_t i, j;

	if (f->has_next)
		f->next.adopt(f->next.ctx, thread, midx, first, t);
	th = thread_at(f, thread);
	advance(th, t);
	if (!is_frame_method(f, midx))
		return;
	for (i = j = 0; i < f->nraw; i++) {
		if (f->raw[i].thread == thread)
			continue;
		f->raw[j++] = f->raw[i];
	}
	if (j != f->nraw) {
		/* Rebuild the heap over what is left (its tables stay kept). */
		size_t k;

		f->nraw = j;
		memset(f->kept_used, 0, sizeof(f->kept_used));
		f->nheap = 0;
		for (i = 0; i < f->nraw; i++) {
			if (!f->raw[i].kept)
				continue;
			k = f->raw[i].kept - 1;
			f->kept_used[k] = 1;
			f->heap[f->nheap++] = i;
			heap_up(f, f->nheap - 1);
		}
		for (k = 0; k < FRAMES_TOP; k++)
			if (!f->kept_used[k])
				table_clear(&f->kept[k]);
	}
	raw_push(f, thread, midx, first, th->o_first, t - first, th->o_now - th->o_first,
		 FRAME_ADOPTED);
}

static void obs_finish(void *ctx)
{
	struct cg_frames *f = ctx;

	if (f->has_next && f->next.finish)
		f->next.finish(f->next.ctx);
}

struct cg_frames *frames_create(const struct cg_symtab *st, const char *pattern)
{
	struct cg_frames *f = xcalloc_lines(sizeof(*f));

	f->st = st;
	f->pattern = pattern ? pattern : frames_default_pattern;
	return f;
}

void frames_free(struct cg_frames *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nth; i++) {
		free(f->th[i].stack);
		table_free(&f->th[i].open);
	}
	for (i = 0; i < FRAMES_TOP; i++)
		table_free(&f->kept[i]);
	for (i = 0; i < f->nkept; i++)
		free(f->kept_methods[i].m);
	free(f->list);
	free(f->sorted[0]);
	free(f->sorted[1]);
	free(f->th);
	free(f->raw);
	free(f->match);
	strbuf_free(&f->name);
	free(f);
}

void frames_observer(struct cg_frames *f, const struct cg_observer *next, struct cg_observer *o)
{
	if (next) {
		f->next = *next;
		f->has_next = 1;
	}
	memset(o, 0, sizeof(*o));
	o->ctx = f;
	o->enter = obs_enter;
	o->leave = obs_leave;
	o->adopt = obs_adopt;
	o->other = obs_other;
	o->finish = obs_finish;
	o->enter_o = NULL;
	o->leave_o = NULL;
	o->raw_ids = 0; /* gives methods */
}

static int by_start(const void *a, const void *b)
{
	const struct fraw *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return 0;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int primary_is_p;

/* Lines by primary time descending, then method index. */
static int by_line(const void *a, const void *b)
{
	const struct cg_frame_method *x = a, *y = b;
	uint64_t px = primary_is_p ? x->wall_us : x->cpu_us, py = primary_is_p ? y->wall_us : y->cpu_us;

	if (px != py)
		return px > py ? -1 : 1;
	return x->midx < y->midx ? -1 : x->midx > y->midx;
}

void frames_finish(struct cg_frames *f, const struct cg_profile *p)
{
	int has_other = profile_has_other(p);
	int p_wall = profile_primary(p) == CG_USE_WALL;
	size_t i, k;

	/* Frames in order of start; then threads: a thread's frames never
	 * overlap, so start alone orders them within a thread. */
	if (f->nraw)
		qsort(f->raw, f->nraw, sizeof(*f->raw), by_start);
	f->list = xcalloc(f->nraw ? f->nraw : 1, sizeof(*f->list));
	f->sorted[0] = xcalloc(f->nraw ? f->nraw : 1, sizeof(uint64_t));
	f->sorted[1] = xcalloc(f->nraw ? f->nraw : 1, sizeof(uint64_t));
	for (i = 0; i < f->nraw; i++) {
		const struct fraw *r = &f->raw[i];
		struct cg_frame *fr = &f->list[i];

		fr->thread = r->thread;
		fr->midx = r->midx;
		fr->flags = r->flags;
		fr->wall_us = p_wall ? r->p : has_other ? r->o : 0;
		fr->cpu_us = !p_wall ? r->p : has_other ? r->o : 0;
		fr->start = p_wall || !has_other ? r->start : r->o_start;
		f->sorted[0][i] = fr->wall_us;
		f->sorted[1][i] = fr->cpu_us;
		if (r->kept) {
			const struct ftable *t = &f->kept[r->kept - 1];
			struct cg_frame_method *m = xcalloc(t->n ? t->n : 1, sizeof(*m));

			for (k = 0; k < t->n; k++) {
				m[k].midx = t->lines[k].midx;
				m[k].wall_us = p_wall ? t->lines[k].p : has_other ? t->lines[k].o : 0;
				m[k].cpu_us = !p_wall ? t->lines[k].p : has_other ? t->lines[k].o : 0;
			}
			primary_is_p = p_wall;
			qsort(m, t->n, sizeof(*m), by_line);
			f->kept_methods[f->nkept].frame = i;
			f->kept_methods[f->nkept].m = m;
			f->kept_methods[f->nkept++].n = t->n;
		}
	}
	qsort(f->sorted[0], f->nraw, sizeof(uint64_t), by_u64);
	qsort(f->sorted[1], f->nraw, sizeof(uint64_t), by_u64);
	/* The slowest, by insertion into a short sorted list: the kept
	 * frames are the slowest of those not adopted. */
	for (i = 0; i < f->nraw; i++) {
		if (f->nslow == FRAMES_TOP && !slower(&f->raw[i], &f->raw[f->slow[FRAMES_TOP - 1]]))
			continue;
		k = f->nslow < FRAMES_TOP ? f->nslow++ : FRAMES_TOP - 1;
		for (; k > 0 && slower(&f->raw[i], &f->raw[f->slow[k - 1]]); k--)
			f->slow[k] = f->slow[k - 1];
		f->slow[k] = i;
	}
	/* The list, sorted, is all that is read from here on. */
	free(f->raw);
	f->raw = NULL;
}

const char *frames_pattern(const struct cg_frames *f)
{
	return f->pattern;
}

size_t frames_count(const struct cg_frames *f)
{
	return f->nraw;
}

const struct cg_frame *frames_list(const struct cg_frames *f)
{
	return f->list;
}

size_t frames_slowest(const struct cg_frames *f, const size_t **idx)
{
	*idx = f->slow;
	return f->nslow;
}

size_t frames_methods(const struct cg_frames *f, size_t i, const struct cg_frame_method **out)
{
	size_t k;

	for (k = 0; k < f->nkept; k++) {
		if (f->kept_methods[k].frame == i) {
			*out = f->kept_methods[k].m;
			return f->kept_methods[k].n;
		}
	}
	*out = NULL;
	return 0;
}

uint64_t frames_percentile(const struct cg_frames *f, int cpu, unsigned q)
{
	size_t rank;

	if (!f->nraw)
		return 0;
	/* nearest rank: the ceil(q/100 * n)-th smallest */
	rank = ((size_t)q * f->nraw + 99) / 100;
	if (rank < 1)
		rank = 1;
	if (rank > f->nraw)
		rank = f->nraw;
	return f->sorted[cpu ? 1 : 0][rank - 1];
}

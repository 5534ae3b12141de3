/* window.c - the records of a time window (see window.h). */
#include "model/window.h"

#include <stdlib.h>
#include <string.h>

#include "model/tick.h"
#include "util/itab.h"
#include "util/util.h"

enum { BEFORE, INSIDE, AFTER };

struct wthread {
	uint32_t tid;             /* first: the table's key */
	int phase;
	uint32_t prev_wall;       /* raw wall time of the last record */
	uint64_t ext;             /* wall time since the thread's first record */
	int64_t base;             /* the first record's place on the axis */
	uint32_t last_cpu;        /* raw cpu time of the last record kept or, before
				   * FROM, seen */
	uint64_t last_off;        /* its offset */
	uint32_t *stack;          /* method ids: the shadow stack, then the open frames */
	size_t depth, cap;
	uint64_t made;
};

struct cg_window {
	struct cg_window_spec spec;
	int started;
	uint32_t origin;          /* raw wall time of the first record */
	struct wthread *th;
	size_t nth, cap_th;
	struct cg_itab tab;
	struct cg_record *out;
	size_t nout, cap_out;
	uint64_t kept, seen, made_all;
	struct cg_window_thread *made;
};

/* Parse a decimal number of milliseconds with at most three decimals into
 * microseconds; the end in *end.  0, or -1. */
static int parse_ms(const char *s, const char **end, int64_t *us)
{
	uint64_t whole = 0, frac = 0;
	int digits = 0, fd = 0;

	while (*s >= '0' && *s <= '9') {
		if (whole > (uint64_t)INT64_MAX / 10000)
			return -1;
		whole = whole * 10 + (uint64_t)(*s++ - '0');
		digits++;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (++fd > 3)
				return -1;
			frac = frac * 10 + (uint64_t)(*s++ - '0');
		}
		if (!fd && !digits)
			return -1;
	}
	if (!digits && !fd)
		return -1;
	while (fd++ < 3)
		frac *= 10;
	*us = (int64_t)(whole * 1000 + frac);
	*end = s;
	return 0;
}

int window_parse(const char *text, struct cg_window_spec *spec, uint64_t *frame)
{
	const char *s = text, *end;

	spec->from_us = WINDOW_OPEN_FROM;
	spec->to_us = WINDOW_OPEN_TO;
	if (strncmp(s, "frame:", 6) == 0) {
		uint64_t n = 0;

		s += 6;
		if (!*s)
			return -1;
		for (; *s; s++) {
			if (*s < '0' || *s > '9' || n > UINT64_MAX / 10 - 1)
				return -1;
			n = n * 10 + (uint64_t)(*s - '0');
		}
		if (n == 0)
			return -1;
		*frame = n;
		return 1;
	}
	if (*s != ':') {
		if (parse_ms(s, &end, &spec->from_us) < 0)
			return -1;
		s = end;
	}
	if (*s++ != ':')
		return -1;
	if (*s) {
		if (parse_ms(s, &end, &spec->to_us) < 0 || *end)
			return -1;
	}
	if (spec->from_us != WINDOW_OPEN_FROM && spec->to_us != WINDOW_OPEN_TO &&
	    spec->from_us > spec->to_us)
		return -1;
	return 0;
}

struct cg_window *window_create(const struct cg_window_spec *spec)
{
	struct cg_window *w = xcalloc(1, sizeof(*w));

	w->spec = *spec;
	w->tab.key4 = 1;
	return w;
}

void window_free(struct cg_window *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nth; i++)
		free(w->th[i].stack);
	free(w->th);
	itab_free(&w->tab);
	free(w->out);
	free(w->made);
	free(w);
}

static struct wthread *thread_of(struct cg_window *w, uint32_t tid, uint32_t wall)
{
	uint32_t i = itab_find(&w->tab, tid, w->th, sizeof(*w->th));
	struct wthread *t;

	if (i != ITAB_NONE)
		return &w->th[i];
	w->th = xgrow(w->th, &w->cap_th, w->nth + 1, sizeof(*w->th));
	t = &w->th[w->nth];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->prev_wall = wall;
	t->base = (int64_t)(int32_t)(wall - w->origin);
	itab_insert(&w->tab, (uint32_t)w->nth++, w->th, sizeof(*w->th));
	return t;
}

/* Append a record of thread t made at axis time at with raw cpu time cpu. */
static void emit(struct cg_window *w, struct wthread *t, uint32_t method, uint8_t action,
		 int64_t at, uint32_t cpu, uint64_t off)
{
	struct cg_record *r;

	w->out = xgrow(w->out, &w->cap_out, w->nout + 1, sizeof(*w->out));
	r = &w->out[w->nout++];
	memset(r, 0, sizeof(*r));
	r->tid = t->tid;
	r->method = method;
	r->action = action;
	r->t_wall = (uint32_t)((uint64_t)w->origin + (uint64_t)at);
	r->t_cpu = cpu;
	r->offset = off;
	t->made++;
	w->made_all++;
}

static void keep(struct cg_window *w, const struct cg_record *r)
{
	w->out = xgrow(w->out, &w->cap_out, w->nout + 1, sizeof(*w->out));
	w->out[w->nout++] = *r;
	w->kept++;
}

/* Track the frames of thread t as the replay does: an exit of a method on
 * the stack pops down to it, any other exit is left alone. */
static void track(struct wthread *t, const struct cg_record *r)
{
	size_t d;

	if (r->action == CG_ENTER) {
		t->stack = xgrow(t->stack, &t->cap, t->depth + 1, sizeof(*t->stack));
		t->stack[t->depth++] = r->method;
		return;
	}
	for (d = t->depth; d > 0; d--) {
		if (t->stack[d - 1] == r->method) {
			t->depth = d - 1;
			return;
		}
	}
}

static void open_frames(struct cg_window *w, struct wthread *t, uint32_t cpu, uint64_t off)
{
	size_t d;

	for (d = 0; d < t->depth; d++)
		emit(w, t, t->stack[d], CG_ENTER, w->spec.from_us, cpu, off);
}

static void close_frames(struct cg_window *w, struct wthread *t, uint64_t off)
{
	while (t->depth > 0)
		emit(w, t, t->stack[--t->depth], CG_EXIT, w->spec.to_us, t->last_cpu, off);
}

size_t window_add(struct cg_window *w, const struct cg_record *in, size_t n,
		  const struct cg_record **out)
{
	size_t i;

	w->nout = 0;
	w->seen += n;
	for (i = 0; i < n; i++) {
		const struct cg_record *r = &in[i];
		struct wthread *t;
		int64_t at;

		if (!w->started) {
			w->started = 1;
			w->origin = r->t_wall;
		}
		t = thread_of(w, r->tid, r->t_wall);
		if (t->phase == AFTER)
			continue;
		tick_step(&t->prev_wall, &t->ext, r->t_wall);
		at = t->base + (int64_t)t->ext;
		if (at < w->spec.from_us) {
			track(t, r);
			t->last_cpu = r->t_cpu;
			t->last_off = r->offset;
			continue;
		}
		if (at > w->spec.to_us) {
			if (t->phase == BEFORE && t->depth)
				open_frames(w, t, t->last_cpu, r->offset);
			close_frames(w, t, r->offset);
			t->phase = AFTER;
			continue;
		}
		if (t->phase == BEFORE) {
			open_frames(w, t, r->t_cpu, r->offset);
			t->phase = INSIDE;
		}
		track(t, r);
		t->last_cpu = r->t_cpu;
		t->last_off = r->offset;
		keep(w, r);
	}
	*out = w->out;
	return w->nout;
}

size_t window_made(struct cg_window *w, const struct cg_window_thread **out)
{
	size_t i, n = 0;

	free(w->made);
	w->made = xcalloc(w->nth ? w->nth : 1, sizeof(*w->made));
	for (i = 0; i < w->nth; i++) {
		if (!w->th[i].made)
			continue;
		w->made[n].tid = w->th[i].tid;
		w->made[n++].made = w->th[i].made;
	}
	*out = w->made;
	return n;
}

uint64_t window_kept(const struct cg_window *w)
{
	return w->kept;
}

int window_cuts(const struct cg_window *w)
{
	return w->made_all || w->kept < w->seen;
}

uint64_t window_origin(const struct cg_window *w)
{
	return w->origin;
}

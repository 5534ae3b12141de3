/* stitch.c - range scans and their composition (see stitch.h). */
#include "model/stitch.h"

#include <stdlib.h>
#include <string.h>

#include "model/tick.h"
#include "util/util.h"

/* Past this many exits below a range's start on one thread, the range is
 * not worth cutting (and its scan would grow with records). */
#define MAX_EXITS (1u << 20)

/* One thread in one range.  Times are relative to its first record there. */
struct sthread {
	uint32_t tid;
	uint32_t first_raw, first_other;
	uint32_t prev_raw, prev_other, prev_wall;
	/* The clocks (relative to the first record) are the last raw times
	 * plus these offsets, which move only when a clock wraps or steps
	 * back (tick_step's rule): a record that moves forward changes none. */
	uint64_t off, o_off;
	struct cg_seed_frame *stack;   /* frames entered in the range, still open:
	                                * frames + 1, below which lies a frame
	                                * whose id no record has */
	struct cg_seed_frame *frames;
	size_t depth, cap;             /* cap: of stack */
	uint32_t *exits;               /* exits that reached below the range's start */
	size_t nexits, cap_exits;
};

struct cg_scan {
	int cpu;
	int cut_fails;                 /* the range cannot be replayed apart */
	uint32_t max_depth;
	uint32_t *by_tid;              /* 1 + index into threads, 0 when unseen */
	struct sthread *threads;
	size_t n, cap;
};

struct cg_scan *scan_create(int cpu, uint32_t max_depth)
{
	struct cg_scan *s = xcalloc(1, sizeof(*s));

	s->cpu = cpu;
	s->max_depth = max_depth;
	s->by_tid = xcalloc(65536, sizeof(*s->by_tid));
	return s;
}

void scan_free(struct cg_scan *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->threads[i].frames);
		free(s->threads[i].exits);
	}
	free(s->threads);
	free(s->by_tid);
	free(s);
}

int scan_cut_fails(const struct cg_scan *s)
{
	return s->cut_fails;
}

/* A thread first met in this range. */
static __attribute__((noinline)) struct sthread *scan_thread_new(struct cg_scan *s, uint32_t tid,
								  uint32_t raw, uint32_t other,
								  uint32_t wall)
{
	struct sthread *t;

	s->threads = xgrow(s->threads, &s->cap, s->n + 1, sizeof(*s->threads));
	t = &s->threads[s->n++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->first_raw = t->prev_raw = raw;
	t->first_other = t->prev_other = other;
	t->off = (uint64_t)0 - raw;
	t->o_off = (uint64_t)0 - other;
	t->prev_wall = wall;
	s->by_tid[tid] = (uint32_t)s->n;
	return t;
}

/* A record's method id has its two low bits clear (they hold the action):
 * the frame below a scan's stack has this one, which none matches. */
#define ID_BELOW 1u

/* Room for frame `depth` of t's stack, the frame below it kept. */
static void stack_grow(struct sthread *t, size_t depth)
{
	size_t cap = t->cap + 1;

	t->frames = xgrow(t->frames, &cap, depth + 2, sizeof(*t->frames));
	t->frames[0].id = ID_BELOW;
	t->stack = t->frames + 1;
	t->cap = cap - 1;
}

/* 1 + the index of the topmost of the depth frames whose method is id, or 0
 * when none is. */
static size_t frame_find(const struct cg_seed_frame *f, size_t depth, uint32_t id)
{
	while (depth > 0 && f[depth - 1].id != id)
		depth--;
	return depth;
}

/* An exit of raw id on thread t, as the replay's do_exit treats it. */
static void scan_exit(struct cg_scan *s, struct sthread *t, uint32_t id)
{
	size_t i;

	if (t->depth == 0) {
		if (t->nexits == MAX_EXITS) {
			s->cut_fails = 1;
			return;
		}
		t->exits = xgrow(t->exits, &t->cap_exits, t->nexits + 1, sizeof(*t->exits));
		t->exits[t->nexits++] = id;
		return;
	}
	/* With frames of this range open and none of them id's, the exit
	 * pops frames of earlier ranges, or is ignored, as they decide. */
	i = frame_find(t->stack, t->depth, id);
	if (i > 0)
		t->depth = i - 1;
	else
		s->cut_fails = 1;
}

/* How a clock's offset (struct sthread) moves when raw time raw < prev
 * follows prev: tick_step's rule, a backward step of more than 2^31 is a
 * wrap (the clock goes on from raw + 2^32), a smaller one counts as zero
 * (the clock stays at prev). */
static uint64_t scan_offset(uint32_t prev, uint32_t raw)
{
	return prev - raw > 0x80000000u ? 0x100000000ULL : (uint64_t)(prev - raw);
}

/* The records of one thread's run from p (at most n, of layout size, tb
 * tid bytes, dual), in order: the thread's depth, clocks and stack stay in
 * registers for the run, so that a record waits on no store of the one
 * before it.  Everything done per record is here, inline: a scan has to
 * cost a small part of a replay for ranges to pay.  Returns the records
 * taken; s->cut_fails set when the range cannot be cut. */
static inline __attribute__((always_inline)) size_t scan_run(struct cg_scan *s,
							      struct sthread *t, uint32_t tid,
							      const unsigned char *p, size_t n,
							      size_t size, unsigned tb, int dual,
							      int cpu)
{
	uint64_t off = t->off, o_off = t->o_off;
	uint32_t prev_raw = t->prev_raw, prev_other = t->prev_other, wall = t->prev_wall;
	const size_t max_depth = s->max_depth;
	size_t depth = t->depth, i;
	/* One test for both a full stack and one too deep. */
	size_t room = t->cap < max_depth ? t->cap : max_depth;
	struct cg_seed_frame *stack = t->stack;

	for (i = 0; i < n; i++, p += size) {
		uint32_t mv, c, raw, other, id;
		size_t enter, odd, back;
		struct cg_seed_frame *f;

		if ((tb == 1 ? p[0] : get_le16(p)) != tid)
			break;
		mv = get_le32(p + tb);
		c = get_le32(p + tb + 4);
		wall = dual ? get_le32(p + tb + 8) : c;
		raw = cpu ? c : wall;
		other = cpu ? wall : c;
		id = mv & ~3u;
		enter = (mv & 3) == CG_ENTER;
		back = (size_t)(raw < prev_raw) | (size_t)(other < prev_other);
		__asm__("" : "+r"(back));
		if (__builtin_expect(back != 0, 0)) {
			if (raw < prev_raw)
				off += scan_offset(prev_raw, raw);
			if (other < prev_other)
				o_off += scan_offset(prev_other, other);
		}
		prev_raw = raw;
		prev_other = other;
		if (__builtin_expect(depth >= room, 0)) {
			if (depth >= max_depth) {
				s->cut_fails = 1;
				i++;
				break;
			}
			stack_grow(t, depth);
			stack = t->stack;
			room = t->cap < max_depth ? t->cap : max_depth;
		}
		/* Enters and exits alternate at random: the common cases (an
		 * entry, the exit of the top frame) take no branch on which,
		 * and the next depth is worked out from the record alone, so
		 * that no record waits on the load of the frame below: only
		 * an exit that is not the top frame's (or meets an empty
		 * stack), seldom met and so predicted, takes the branch. */
		f = &stack[depth];
		f->id = id;
		f->entry = raw + off;
		f->o_entry = other + o_off;
		/* At depth 0 the frame below is ID_BELOW's. */
		odd = (enter ^ 1) & (size_t)(f[-1].id != id);
		__asm__("" : "+r"(odd));
		if (__builtin_expect(odd != 0, 0)) {
			t->depth = depth;
			scan_exit(s, t, id);
			depth = t->depth;
			if (s->cut_fails) {
				i++;
				break;
			}
			continue;
		}
		depth = depth + 2 * enter - 1;
	}
	t->off = off;
	t->o_off = o_off;
	t->prev_raw = prev_raw;
	t->prev_other = prev_other;
	t->prev_wall = wall;
	t->depth = depth;
	return i;
}

/* n records of layout (size, tb tid bytes, dual) into the scan, a thread's
 * run at a time (threads write in runs of records): inlined with constants
 * for the common layouts, so that nothing but the records is read in the
 * loop. */
static inline __attribute__((always_inline)) void scan_raw(struct cg_scan *s,
							    const unsigned char *p, size_t n,
							    size_t size, unsigned tb, int dual,
							    int cpu)
{
	while (n > 0 && !s->cut_fails) {
		uint32_t tid = tb == 1 ? p[0] : get_le16(p);
		uint32_t k = s->by_tid[tid];
		struct sthread *t;
		size_t took;

		if (k) {
			t = &s->threads[k - 1];
		} else {
			uint32_t c = get_le32(p + tb + 4), w = dual ? get_le32(p + tb + 8) : c;

			t = scan_thread_new(s, tid, cpu ? c : w, cpu ? w : c, w);
		}
		took = scan_run(s, t, tid, p, n, size, tb, dual, cpu);
		p += took * size;
		n -= took;
	}
}

void scan_add_raw(struct cg_scan *s, const struct cg_raw_layout *l, const unsigned char *p,
		  size_t n)
{
	if (s->cut_fails)
		return;
	if (l->tid_bytes == 2 && l->dual && l->size == 14)
		/* v3 with both clocks: what Android writes */
		if (s->cpu)
			scan_raw(s, p, n, 14, 2, 1, 1);
		else
			scan_raw(s, p, n, 14, 2, 1, 0);
	else
		scan_raw(s, p, n, l->size, l->tid_bytes, l->dual, s->cpu);
}

/* ---- composition ----------------------------------------------------------- */

/* A thread's state while the ranges are composed; seed.stack is frames. */
struct gthread {
	struct cg_seed seed;
	struct cg_seed_frame *frames;
	size_t cap;
};

struct range_seeds {
	struct cg_seed *seeds;
	size_t n;
};

struct cg_stitch {
	struct range_seeds *ranges;
	size_t nranges;
	struct gthread **by_tid;       /* 65536 */
	uint32_t *order;               /* tids in the order the trace meets them */
	size_t norder, cap_order;
	struct cg_seed_frame *pool;    /* every seed's copied frames */
	size_t npool, cap_pool;
};

/* Copy g's state into seed (frames into the pool, as an offset until the
 * pool stops moving). */
static void seed_copy(struct cg_stitch *st, const struct gthread *g, struct cg_seed *seed)
{
	*seed = g->seed;
	st->pool = xgrow(st->pool, &st->cap_pool, st->npool + g->seed.depth + 1, sizeof(*st->pool));
	if (g->seed.depth)
		memcpy(&st->pool[st->npool], g->frames, g->seed.depth * sizeof(*g->frames));
	seed->stack = (const struct cg_seed_frame *)(uintptr_t)st->npool;
	st->npool += g->seed.depth;
}

/* Apply range thread t to g, which ran before it when started. */
static void compose_thread(struct gthread *g, const struct sthread *t, int started)
{
	uint64_t base = t->first_raw, o_base = t->first_other;
	size_t i, k;

	if (started) {
		base = g->seed.now;
		o_base = g->seed.other_now;
		tick_step(&g->seed.prev_raw, &base, t->first_raw);
		tick_step(&g->seed.prev_other, &o_base, t->first_other);
	} else {
		g->seed.first = base;
		g->seed.other_first = o_base;
	}
	for (i = 0; i < t->nexits; i++) {
		uint32_t id = t->exits[i];

		if (g->seed.depth == 0)
			continue; /* a frame entered before tracing began */
		k = frame_find(g->frames, g->seed.depth, id);
		if (k > 0)
			g->seed.depth = k - 1; /* else the exit is ignored */
	}
	g->frames = xgrow(g->frames, &g->cap, g->seed.depth + t->depth + 1, sizeof(*g->frames));
	for (i = 0; i < t->depth; i++) {
		struct cg_seed_frame *f = &g->frames[g->seed.depth++];

		f->id = t->stack[i].id;
		f->entry = base + t->stack[i].entry;
		f->o_entry = o_base + t->stack[i].o_entry;
	}
	g->seed.now = base + (t->prev_raw + t->off);
	g->seed.other_now = o_base + (t->prev_other + t->o_off);
	g->seed.prev_raw = t->prev_raw;
	g->seed.prev_other = t->prev_other;
	g->seed.prev_wall = t->prev_wall;
}

/* Turn the pool offsets of n seeds into pointers. */
static void seeds_fix(struct cg_stitch *st, struct cg_seed *seeds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		seeds[i].stack = st->pool + (uintptr_t)seeds[i].stack;
}

/* A thread met before the first scan, in state sd (the frames copied). */
static void thread_from_seed(struct cg_stitch *st, const struct cg_seed *sd)
{
	struct gthread *g = xcalloc(1, sizeof(*g));

	g->seed = *sd;
	g->seed.stack = NULL;
	g->frames = xgrow(g->frames, &g->cap, sd->depth + 1, sizeof(*g->frames));
	if (sd->depth)
		memcpy(g->frames, sd->stack, sd->depth * sizeof(*g->frames));
	st->by_tid[sd->tid & 0xffff] = g;
	st->order = xgrow(st->order, &st->cap_order, st->norder + 1, sizeof(*st->order));
	st->order[st->norder++] = sd->tid & 0xffff;
}

struct cg_stitch *stitch_create(struct cg_scan *const *scans, size_t n)
{
	return stitch_create_from(NULL, 0, scans, n);
}

struct cg_stitch *stitch_create_from(const struct cg_seed *start, size_t nstart,
				     struct cg_scan *const *scans, size_t n)
{
	struct cg_stitch *st = xcalloc(1, sizeof(*st));
	size_t r, i;

	st->by_tid = xcalloc(65536, sizeof(*st->by_tid));
	st->ranges = xcalloc(n ? n : 1, sizeof(*st->ranges));
	for (i = 0; i < nstart; i++)
		thread_from_seed(st, &start[i]);
	for (r = 0; r < n && !scans[r]->cut_fails; r++) {
		const struct cg_scan *s = scans[r];
		struct range_seeds *rsd = &st->ranges[r];

		for (i = 0; i < s->n; i++) {
			const struct sthread *t = &s->threads[i];
			struct gthread *g = st->by_tid[t->tid];
			int started = g != NULL;

			if (!g) {
				g = st->by_tid[t->tid] = xcalloc(1, sizeof(*g));
				g->seed.tid = t->tid;
				st->order = xgrow(st->order, &st->cap_order, st->norder + 1,
						  sizeof(*st->order));
				st->order[st->norder++] = t->tid;
			}
			compose_thread(g, t, started);
		}
		/* Every thread met so far, as the next range starts. */
		rsd->seeds = xcalloc(st->norder ? st->norder : 1, sizeof(*rsd->seeds));
		for (i = 0; i < st->norder; i++)
			seed_copy(st, st->by_tid[st->order[i]], &rsd->seeds[rsd->n++]);
		st->nranges++;
	}
	for (r = 0; r < st->nranges; r++)
		seeds_fix(st, st->ranges[r].seeds, st->ranges[r].n);
	/* The seeds are copies: the state they were taken from can go. */
	for (i = 0; i < st->norder; i++) {
		free(st->by_tid[st->order[i]]->frames);
		st->by_tid[st->order[i]]->frames = NULL;
	}
	return st;
}

void stitch_free(struct cg_stitch *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nranges; i++)
		free(st->ranges[i].seeds);
	free(st->ranges);
	for (i = 0; i < st->norder; i++) {
		free(st->by_tid[st->order[i]]->frames);
		free(st->by_tid[st->order[i]]);
	}
	free(st->by_tid);
	free(st->order);
	free(st->pool);
	free(st);
}

size_t stitch_ranges(const struct cg_stitch *st)
{
	return st->nranges;
}

size_t stitch_seeds(const struct cg_stitch *st, size_t r, const struct cg_seed **seeds)
{
	*seeds = st->ranges[r - 1].seeds;
	return st->ranges[r - 1].n;
}

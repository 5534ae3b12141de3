/* profile_impl.h - the profile model's private state, shared by its parts:
 * profile.c (the replay's hot path), profile_adopt.c (frames entered before
 * tracing), profile_merge.c (ranges replayed apart), profile_finish.c (the
 * end of the replay), profile_view.c (views: summing the threads' tables,
 * sorting), profile_select.c (--thread, --focus, --hide) and
 * profile_warn.c (warning texts).  Nothing else includes it. */
#ifndef CG_PROFILE_IMPL_H
#define CG_PROFILE_IMPL_H

#include "util/itab.h"
#include "model/profile.h"
#include "util/strbuf.h"
#include "model/tick.h"

#define NIL UINT32_MAX

/* A caller's cache entry: raw callee id, its edge and the callee's slot (so
 * an entry reads neither the edge nor the table before it touches the
 * callee). */
struct tcall {
	uint32_t id, edge, callee;
};

/* A method's sums that the replay does not keep as it goes: its recursive
 * calls and exclusive time (both clocks), worked out from its edges when
 * the replay ends (profile_count_edge). */
struct msums {
	uint64_t rec;
	uint64_t excl, o_excl;
};

/* Edge (calls, all, o_all; struct tedge) from caller to callee: its calls
 * count toward the callee's recursive calls (less its outermost ones,
 * later), its time toward the callee's exclusive time and out of the
 * caller's. */
static inline void profile_count_edge(struct msums *callee, struct msums *caller, uint64_t calls,
				      uint64_t all, uint64_t o_all)
{
	callee->rec += calls;
	callee->excl += all;
	callee->o_excl += o_all;
	caller->excl -= all;
	caller->o_excl -= o_all;
}

/* One method on one thread, one cache line (slots are 64-byte aligned):
 * what an entry and a return touch.  During the replay, last holds the two
 * callees this method called last (edge NIL when unused), a cache in front
 * of the edge table, as calls from one method repeat; most methods call one
 * or two others.  Exclusive time is not summed here during the replay: it
 * is the time of the edges into the method less that of the edges out of it
 * (struct tedge's all), worked out by profile_finish into s.excl.  Its
 * recursive calls are not counted here either: every visible return adds
 * one call to exactly one edge into the method, so they are the edges'
 * calls less its outermost calls, and profile_finish stores them in s.rec,
 * over the cache it no longer needs. */
struct tmeth {
	uint32_t midx;     /* symtab index; first: the key of the thread's tm_tab */
	uint32_t active;   /* activations on the stack now */
	uint32_t epoch;
	uint32_t hactive;  /* hidden (--hide/--focus) activations on the stack now */
	union {
		struct tcall last[2]; /* replay: last[0] the most recent */
		struct msums s;       /* after profile_finish */
	} u;
	uint64_t incl, calls; /* calls: outermost ones */
	uint64_t o_incl;      /* incl on the other clock */
};

_Static_assert(sizeof(struct tmeth) == 64, "a method slot is one cache line");

/* One caller -> callee edge of one thread, keyed in the thread's edge table
 * by caller slot << 32 | raw callee id (slot 0 = the root). */
struct tedge {
	uint64_t key;      /* UINT64_MAX when on the free list */
	uint32_t callee;   /* tmeth slot; next free index when on the free list */
	uint32_t epoch;    /* callee epoch for which incl is valid */
	uint64_t calls, incl;
	uint64_t o_incl;   /* incl on the other clock */
	/* The time of every activation through the edge, recursive ones
	 * included, on both clocks: a frame's duration, added when it returns
	 * (within a range replayed apart, the part inside the range).  Summed
	 * in unsigned arithmetic, where a frame pushed with time before it is
	 * first subtracted (profile_seed). */
	uint64_t all, o_all;
};

/* A hidden frame (--hide, or outside --focus) has edge NIL, tm the slot of
 * the nearest visible frame below (0 = root) so its calls go there, and own
 * its method's slot; its time on top is that frame's, as it has no edge of
 * its own (struct tedge's all).  A visible frame has own == tm, plus
 * FOCUS_BIT when it counts as a focused frame. */
struct frame {
	uint32_t tm;
	uint32_t edge;
	uint32_t id;
	uint32_t own;
	uint64_t entry;
	uint64_t o_entry; /* the same on the other clock */
};

#define FOCUS_BIT 0x80000000u

struct tstate {
	uint32_t tid;
	uint32_t index;       /* position among threads with events */
	int selected;
	uint64_t records;

	int started;
	int seeded;           /* profile_seed: the thread ran before this range */
	uint32_t prev_raw, prev_other;
	uint64_t now, first, other_now, other_first;
	uint32_t prev_wall;   /* raw wall time, for sampling detection */

	struct tmeth *tm;     /* slot 0: the root (64-byte aligned, see tm_grow) */
	size_t ntm, cap_tm;
	struct cg_itab tm_tab; /* midx -> tmeth slot (midx is a slot's first field) */

	struct tedge *edges;
	size_t nedges, cap_edges;
	uint32_t free_edge;
	struct cg_itab etab;  /* edge key -> edge index (the key is the edge's first field) */
	uint32_t *root_edges;
	size_t nroot, cap_root;

	struct frame *stack;
	size_t depth, cap_stack;
	uint32_t max_depth;
	size_t parked;        /* frames open when profile_park ended the range */
	uint32_t *adopted;    /* seeded: methods whose exits on an empty stack */
	size_t nadopted, cap_adopted; /* adopted earlier ranges' history, in order */

	uint64_t same_ts, pairs, small_steps;
	/* Global tables (cg_profile_opts.global): the thread root's line, the
	 * lines with an outermost activation open on this thread (a bit per
	 * line, non of them; or, in set_mode, a set of open_mask + 1 slots, NIL
	 * when empty, at most half full: bounded by the stack's depth), and 1 +
	 * the index among the records given of its last exit on an empty stack
	 * (0: none). */
	uint32_t root;
	unsigned char *on;
	size_t non;
	int set_mode;
	uint32_t *open;
	uint32_t open_mask, open_shift;
	size_t nopen;
	uint64_t adopt_to;
	/* A profile without tables (profile_bare.c): the time of the thread's
	 * top-level frames on both clocks, and whether a frame entered before
	 * tracing has taken all of it so far. */
	uint64_t top_us, o_top_us;
	int adopted_top;
	int tracked;          /* marks its open methods (profile_bare.c) */
	uint64_t scanned;     /* frames its exits below the top searched */
	uint32_t focus;       /* focused frames on the stack */
	uint64_t focus_us;    /* time inside outermost focused frames */
	uint64_t o_focus_us;  /* the same on the other clock */
};

/* A profile without tables finds a method id's symtab index in a direct
 * cache of 1 << PROFILE_IDCACHE_BITS ids: at 8192 entries, 1.3 million of
 * the 38 million entries of the 1 GiB program trace of make bench (30 000
 * methods) missed it and looked the symtab up; at 65 536, 24 000. */
#define PROFILE_IDCACHE_BITS 16

/* Up to this many threads, a profile whose threads' views will be asked
 * for builds them all with the view of all threads (profile_view.c,
 * sums_waits); the HTML report lists each thread up to as many. */
#define PROFILE_VIEWS_AT_ONCE 64

/* Global tables: one line per method that ran (by symtab index, through
 * cg_profile.line_of) and one per thread root (G_ROOT in flags, midx the
 * thread's index), one cache line each; as struct tmeth without what a
 * thread keeps for itself (active, epoch): a frame knows whether it is its
 * method's outermost activation on its thread (struct frame's own). */
struct gline {
	union {
		struct tcall last[2];
		struct msums s;
	} u;
	uint32_t midx;
	uint32_t flags;
	uint64_t calls, incl, o_incl;
	uint32_t id;       /* the raw id records carry (not a root's) */
	uint32_t pad;
};

#define G_ROOT 1u

_Static_assert(sizeof(struct gline) == 64, "a line is one cache line");

/* One caller -> callee edge of all threads: as struct tedge, without key
 * (the table's slots hold it) and epoch (after the correction pass every
 * inclusive time added holds). */
struct gedge {
	uint32_t caller, callee; /* lines */
	uint64_t calls, incl, o_incl;
	uint64_t all, o_all;
};

/* A slot of the edge table: the key (caller line << 32 | raw callee id),
 * the edge and its callee line, so that a lookup reads one line; edge NIL
 * when empty. */
struct gslot {
	uint64_t key;
	uint32_t edge, callee;
};

/* A thread whose tid is 65536 or more; tid first, as big_tab reads it. */
struct big_tid {
	uint32_t tid;
	struct tstate *ts;
};

struct view_store {
	struct cg_view v;
	struct cg_pmethod *methods;
	size_t methods_bytes;  /* methods from xbig_resize (its size), else 0 */
	uint32_t *pos;
	struct cg_pedge *edges;
	size_t ntaken_methods, ntaken_edges; /* profile_view_take's arrays, unsorted */
	int built;
};

struct cg_profile {
	struct cg_symtab *st;
	struct cg_profile_opts opts;
	struct tstate *by_tid[65536];  /* tids below 65536 (every v1-v3 tid) */
	struct big_tid *big;           /* the others (V2 tids are 32-bit) */
	size_t nbig, cap_big;
	struct cg_itab big_tab;        /* tid -> index into big */
	struct tstate **threads;
	size_t nthreads, cap_threads;
	uint64_t warn[CG_W_COUNT];
	struct cg_warning warnings[CG_W_COUNT];
	char messages[CG_W_COUNT][200];
	size_t nwarnings;
	struct cg_profile_stats stats;
	int sampling;
	int finished;
	int observed_end;              /* profile_end_observed ran */
	int abandoned;                 /* see profile_abandoned */
	int has_other;                 /* dual clock: the o_* sums are kept in views */
	enum cg_clock_sel primary;     /* the clock the primary numbers are on */
	/* Slow path (observer, --focus, --hide); the fast path tests only `slow`. */
	int slow;
	int filtering, focusing;
	int main_named;  /* a thread is named "main" (-1: not looked up yet) */
	struct cg_observer obs_store;
	const struct cg_observer *obs;
	unsigned char *mflag;          /* MF_* by symtab index, computed on first sight */
	size_t nmflag;
	struct strbuf namebuf;

	/* Global tables (cg_profile_opts.global); see profile_global.c. */
	int global;
	int bare;                      /* global, no view: no tables (profile_bare.c) */
	uint64_t *idcache;             /* bare: recent method ids and their methods,
	                                * 1 << PROFILE_IDCACHE_BITS of them (512 KB) */
	int no_adopt;                  /* exits on an empty stack adopt nothing */
	struct gline *lines;
	size_t nlines, cap_lines;
	uint32_t *line_of;             /* symtab index -> line, NIL when none */
	size_t cap_line_of;
	struct gedge *gedges;
	size_t ngedges, cap_gedges;
	struct gslot *gslots;
	size_t ngslots;                /* a power of two, at most 7/8 full */
	uint64_t fed;                  /* records given so far */
	uint64_t told;                 /* enters and adopts told to obs */
	size_t on_bytes;               /* the threads' bytes of bits of open lines */
	uint64_t refed;                /* records given again to the correction */
	struct cg_profile *fix[2];     /* the correction's replays: adopting, not */
	cg_thread_sums_fn tsums;       /* the threads' own sums (profile_set_thread_sums) */
	void *tsums_src;
	void *tsums_src2;              /* a second source, or NULL */

	struct cg_pthread *pthreads;   /* selected threads with events */
	size_t npthreads;
	struct view_store all;
	struct view_store *per;        /* one per pthread, built on demand */
};

/* Whether edge e's inclusive times are valid (its callee's epoch has not
 * moved on); invalid ones count as zero. */
static inline int profile_edge_valid(const struct tstate *ts, const struct tedge *e)
{
	return e->epoch == ts->tm[e->callee].epoch;
}

/* profile.c, for the other parts: a thread's method slot for midx and its
 * edge (caller slot, raw callee id), both created when new; room for need
 * method slots (64-byte aligned); an edge removed; an edge's inclusive time
 * grown (reset first when its callee's epoch moved on); the symtab index of
 * raw id; a new thread; the observer told the other clock; the thread's
 * open frames popped at its current time. */
uint32_t profile_tm_get(struct tstate *ts, uint32_t midx);
/* Room for need elements in a 64-byte aligned array (profile.c). */
void profile_grow_aligned(void **arr, size_t *cap, size_t used, size_t need, size_t size,
			  size_t first);
/* xgrow for per-thread arrays, from 2 elements rather than 16. */
void *profile_tgrow(void *p, size_t *cap, size_t need, size_t size);
uint32_t profile_edge_get(struct cg_profile *p, struct tstate *ts, uint32_t caller, uint32_t id,
			  uint32_t *callee);
void profile_tm_grow(struct tstate *ts, size_t need);
void profile_edge_delete(struct tstate *ts, uint32_t e);
void profile_edge_add_incl(struct tstate *ts, struct tedge *e, uint64_t us, uint64_t o_us);
uint32_t profile_method_index(struct cg_profile *p, uint32_t id);
struct tstate *profile_thread_new(struct cg_profile *p, uint32_t tid);
/* Fill pt's busy_excl_us and wait_incl_us from the method table of ts, a
 * finished thread (profile.h); the all-threads view does it for each
 * thread while it sums the thread's table. */
void thread_waits(const struct cg_profile *p, const struct tstate *ts, struct cg_pthread *pt);
/* The thread of a tid of 65536 or more, NULL when not met yet. */
struct tstate *profile_thread_big(const struct cg_profile *p, uint32_t tid);

/* The thread of tid, NULL when not met yet: an array for 16-bit tids (all
 * of v1-v3's), the table of larger ones behind one compare.  The compare is
 * marked unlikely: laid out this way it costs the replay about 2
 * instructions a record (callgrind), against 4.5 for the plain ?:. */
static inline struct tstate *profile_thread_find(const struct cg_profile *p, uint32_t tid)
{
	if (__builtin_expect(tid > 0xffff, 0))
		return profile_thread_big(p, tid);
	return p->by_tid[tid];
}
/* What the observer is told of a method, midx or its raw id: the raw id
 * when the observer finds methods itself (cg_observer.raw_ids).  Without
 * such an observer a replay without tables looks every entry's method up,
 * which adds the ids the key lacks to the symtab (the unknown-method
 * warning counts them). */
static inline int profile_obs_raw(const struct cg_profile *p)
{
	return p->obs && p->obs->raw_ids;
}

static inline uint32_t profile_obs_method(const struct cg_profile *p, uint32_t midx, uint32_t id)
{
	return profile_obs_raw(p) ? id : midx;
}

/* Tell the observer that midx (raw id id) was entered on ts (with the
 * other clock, when it asks), or that ts's top frame returned. */
void profile_observe_enter(struct cg_profile *p, const struct tstate *ts, uint32_t midx,
			   uint32_t id);
void profile_observe_leave(struct cg_profile *p, const struct tstate *ts);
/* Tell the observer, if there is one, that midx (raw id id) was entered
 * before tracing on ts (an exit on its empty stack, now): the frame spans
 * from ts's first event. */
void profile_observe_adopt(struct cg_profile *p, const struct tstate *ts, uint32_t midx,
			   uint32_t id);

/* Advance a thread's clock; count: a wrap or backward step is a warning. */
static inline void profile_clock_step(struct cg_profile *p, uint32_t *prev, uint64_t *now,
				      uint32_t raw, int count)
{
	enum tick_kind k = tick_step(prev, now, raw);

	if (count && k != TICK_FORWARD)
		p->warn[k == TICK_WRAP ? CG_W_CLOCK_WRAP : CG_W_CLOCK_BACK]++;
}

/* Record r's thread, its clocks moved to r's times (cpu: the primary clock
 * is thread-CPU, a constant where the caller's loop makes it one); NULL
 * (the record counted as skipped) when the thread is not selected. */
static inline __attribute__((always_inline)) struct tstate *
profile_tick_on(struct cg_profile *p, const struct cg_record *r, int cpu)
{
	uint32_t raw = cpu ? r->t_cpu : r->t_wall;
	uint32_t other = cpu ? r->t_wall : r->t_cpu;
	struct tstate *ts = profile_thread_find(p, r->tid);

	if (!ts)
		ts = profile_thread_new(p, r->tid);
	if (!ts->selected) {
		p->stats.skipped++;
		return NULL;
	}
	ts->records++;
	if (!ts->started) {
		ts->started = 1;
		ts->prev_raw = raw;
		ts->now = ts->first = raw;
		ts->prev_other = other;
		ts->other_now = ts->other_first = other;
		ts->prev_wall = r->t_wall;
	} else {
		uint32_t step = r->t_wall - ts->prev_wall;

		profile_clock_step(p, &ts->prev_raw, &ts->now, raw, 1);
		profile_clock_step(p, &ts->prev_other, &ts->other_now, other, 0);
		/* Sampling's signs, without a branch: steps of zero, and steps
		 * of 1 to 49 us (the steps are pairs less the zero ones). */
		ts->pairs++;
		ts->same_ts += step == 0;
		ts->small_steps += step - 1 < 49;
		ts->prev_wall = r->t_wall;
	}
	return ts;
}

/* An exit record of action `action`: unwinds and action-3 records counted. */
static inline void profile_count_exit(struct cg_profile *p, unsigned action)
{
	if (action == CG_UNWIND)
		p->stats.unwinds++;
	else if (action == CG_ACTION3)
		p->warn[CG_W_ACTION3]++;
}

static inline __attribute__((always_inline)) struct tstate *profile_tick(struct cg_profile *p,
									   const struct cg_record *r)
{
	return profile_tick_on(p, r, p->opts.clock == CG_USE_CPU);
}
void profile_close_frames(struct cg_profile *p, struct tstate *ts);

/* profile_adopt.c: method slot s of ts adopts all ts ran so far: its
 * outermost calls become recursive, the root's callees become its callees
 * (with their time, so that the root's time before now is its exclusive
 * time); an exit on an empty stack, without the exit itself.  And that
 * exit of raw id, with the exit. */
void profile_adopt(struct cg_profile *p, struct tstate *ts, uint32_t s);
void profile_exit_before_start(struct cg_profile *p, struct tstate *ts, uint32_t id);
/* Past this many such exits in one range, it is replayed in order. */
#define MAX_ADOPTED 65536

/* An entry on ts would pass the depth limit: -1 with err filled for the
 * record at offset; else 0. */
static inline int profile_too_deep(const struct cg_profile *p, const struct tstate *ts,
				   uint64_t offset, struct cg_error *err)
{
	if (__builtin_expect(ts->depth < p->opts.max_depth, 1))
		return 0;
	cg_error_set(err, (int64_t)offset, "call stack of thread %u deeper than %u frames (hard limit)",
		     ts->tid, p->opts.max_depth);
	return -1;
}

/* An exit of raw id that does not name ts's top frame, in global tables
 * or none: when its method has an outermost activation open on ts (open),
 * every frame down to the top one of id returns (pop, which tells the
 * observer); else it is passed over.  A warning either way. */
static inline void profile_exit_below(struct cg_profile *p, struct tstate *ts, uint32_t id,
				      int open, void (*pop)(struct cg_profile *, struct tstate *))
{
	if (open) {
		while (ts->stack[ts->depth - 1].id != id)
			pop(p, ts);
		pop(p, ts);
		p->warn[CG_W_MISMATCH_POP]++;
	} else {
		p->warn[CG_W_MISMATCH_IGNORED]++;
	}
}

/* A record replayed by a layout's replay (profile.c's replay_one,
 * profile_global.c's greplay_one), at byte offset `offset`, on clock cpu:
 * 0, or -1 with err filled.  The loops below are always inlined with the
 * replay as a constant, so that it is inlined in turn. */
typedef int (*profile_one_fn)(struct cg_profile *p, const struct cg_record *r, uint64_t offset,
			      int cpu, struct cg_error *err);

/* profile_add's loop: n records, until the replay is abandoned. */
static inline __attribute__((always_inline)) int profile_loop(struct cg_profile *p,
							       const struct cg_record *recs,
							       size_t n, profile_one_fn one,
							       struct cg_error *err)
{
	const int cpu = p->opts.clock == CG_USE_CPU;
	size_t i;

	for (i = 0; i < n && !p->abandoned; i++)
		if (one(p, &recs[i], recs[i].offset, cpu, err) < 0)
			return -1;
	return 0;
}

/* n records of layout (size, tb tid bytes, dual) on clock cpu, decoded
 * where they lie, until the replay is abandoned. */
static inline __attribute__((always_inline)) int
profile_loop_raw_as(struct cg_profile *p, const unsigned char *bytes, size_t n, uint64_t offset,
		    size_t size, unsigned tb, int dual, int cpu, profile_one_fn one,
		    struct cg_error *err)
{
	const struct cg_raw_layout l = { size, tb, dual };
	struct cg_record r;
	size_t i;

	for (i = 0; i < n && !p->abandoned; i++, bytes += size, offset += size) {
		trace_raw_decode(&l, bytes, &r);
		if (one(p, &r, offset, cpu, err) < 0)
			return -1;
	}
	return 0;
}

/* profile_add_raw's loop: inlined with constants for the layout Android
 * writes (v3, both clocks) and the clock, so that the loop reads nothing but
 * the records and the tables. */
static inline __attribute__((always_inline)) int
profile_loop_raw(struct cg_profile *p, const struct cg_raw_layout *l, const unsigned char *bytes,
		 size_t n, uint64_t offset, profile_one_fn one, struct cg_error *err)
{
	const int cpu = p->opts.clock == CG_USE_CPU;

	if (l->size == 14 && l->tid_bytes == 2 && l->dual)
		return cpu ? profile_loop_raw_as(p, bytes, n, offset, 14, 2, 1, 1, one, err)
			   : profile_loop_raw_as(p, bytes, n, offset, 14, 2, 1, 0, one, err);
	return profile_loop_raw_as(p, bytes, n, offset, l->size, l->tid_bytes, l->dual, cpu, one,
				   err);
}

/* profile.c's replay into per-thread tables: profile_add and
 * profile_add_raw of a profile of that layout. */
int profile_thread_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
		       struct cg_error *err);
int profile_thread_add_raw(struct cg_profile *p, const struct cg_raw_layout *l,
			   const unsigned char *bytes, size_t n, uint64_t offset,
			   struct cg_error *err);

/* profile_global.c, the replay into global tables: a thread's root line
 * (made on first use); records replayed (the other parts of profile_add and
 * profile_add_raw); a thread's open frames closed; each line's recursive
 * calls and exclusive times from the edges (after the last record); the
 * line of method midx and the edge (caller line, raw callee id), both made
 * when new; the view of all threads; the tables freed. */
uint32_t profile_global_root(struct cg_profile *p, struct tstate *ts);
int profile_global_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
		       struct cg_error *err);
int profile_global_add_raw(struct cg_profile *p, const struct cg_raw_layout *l,
			   const unsigned char *bytes, size_t n, uint64_t offset,
			   struct cg_error *err);
void profile_global_close(struct cg_profile *p, struct tstate *ts);
void profile_global_count(struct cg_profile *p);
uint32_t profile_global_line(struct cg_profile *p, uint32_t midx);
uint32_t profile_global_edge(struct cg_profile *p, uint32_t caller, uint32_t id, uint32_t *callee);
void profile_global_view(struct cg_profile *p, struct view_store *vs, size_t *nmeth,
			 size_t *nedges);
void profile_global_free(struct cg_profile *p);
/* Ranges (profile_seed, profile_park, profile_unpark): a frame of raw id
 * entered at entry (o_entry on the other clock) pushed onto ts, of which
 * only the time from now on is this profile's; ts's frames parked, their
 * time so far added, left in ts->stack for profile_unpark. */
void profile_global_push(struct cg_profile *p, struct tstate *ts, uint32_t id, uint64_t entry,
			 uint64_t o_entry);
void profile_global_park(struct cg_profile *p, struct tstate *ts);
/* profile_bare.c, the replay of a global profile without tables (bare): as
 * profile_global_add and _add_raw, profile_global_close, profile_global_push
 * and profile_global_park. */
int profile_bare_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
		     struct cg_error *err);
int profile_bare_add_raw(struct cg_profile *p, const struct cg_raw_layout *l,
			 const unsigned char *bytes, size_t n, uint64_t offset, struct cg_error *err);
void profile_bare_close(struct cg_profile *p, struct tstate *ts);
void profile_bare_push(struct cg_profile *p, struct tstate *ts, uint32_t id, uint64_t entry,
		       uint64_t o_entry);
void profile_bare_park(struct tstate *ts);
/* profile_global_merge.c: q, a global profile of the next range, added to
 * p (profile_merge). */
void profile_global_merge(struct cg_profile *p, const struct cg_profile *q);

/* profile_open.c: whether a line has an outermost activation open on a
 * thread of a global profile.  profile_open_slow opens line on ts beyond
 * its bytes (they grow to every line there is, or past a budget the thread
 * moves to a set, with the lines its open frames opened: the frame about to
 * be pushed must not be on the stack yet); profile_open_leave_set closes
 * one in set mode; profile_open_has: 1 when line is open. */
int profile_open_slow(struct cg_profile *p, struct tstate *ts, uint32_t line);
void profile_open_leave_set(struct tstate *ts, uint32_t line);
int profile_open_has(const struct tstate *ts, uint32_t line);

/* Open line on ts: 1 when it was not open (an outermost activation). */
static inline int profile_open_enter(struct cg_profile *p, struct tstate *ts, uint32_t line)
{
	if (__builtin_expect(line < ts->non, 1)) {
		unsigned char *b = &ts->on[line >> 3], bit = (unsigned char)(1u << (line & 7));

		if (*b & bit)
			return 0;
		*b |= bit;
		return 1;
	}
	return profile_open_slow(p, ts, line);
}

static inline void profile_open_leave(struct tstate *ts, uint32_t line)
{
	if (__builtin_expect(!ts->set_mode, 1))
		ts->on[line >> 3] &= (unsigned char)~(1u << (line & 7));
	else
		profile_open_leave_set(ts, line);
}

/* profile_select.c: MF_* flags of method midx (--hide/--focus), computed
 * on first sight; whether thread tid is selected (--thread). */
enum { MF_SEEN = 1, MF_HIDE = 2, MF_FOCUS = 4 };
unsigned profile_method_flags(struct cg_profile *p, uint32_t midx);
int profile_thread_selected(struct cg_profile *p, uint32_t tid);

/* profile_view.c: an array over the symtab's methods (never empty), every
 * entry UINT32_MAX: a view's places of its methods, before any is placed. */
uint32_t *profile_pos_new(const struct cg_profile *p);
/* profile_view.c: a method's sums (outermost incl on both clocks and calls,
 * and the rest in s) added to a view method; build the view of all threads
 * (thread < 0) or of one. */
void profile_pmethod_add(const struct cg_profile *p, struct cg_pmethod *pm, uint64_t incl,
			 uint64_t o_incl, uint64_t calls, const struct msums *s);
void profile_view_build(struct cg_profile *p, struct view_store *vs, int thread);
void profile_view_free(struct view_store *vs);
/* Of a profile of one thread: turn that thread's tables into the arrays of
 * a view (held in p->all until a view takes them); nothing otherwise. */
void profile_view_take(struct cg_profile *p);
/* Free a thread's method and edge tables, or its edge table alone (its
 * numbers stay in pthreads): what no view will read. */
void thread_drop_tables(struct tstate *ts);
void thread_drop_edges(struct tstate *ts);

/* profile_warn.c: a warning's stable name, and its one-line message for
 * count occurrences written into m (n bytes). */
const char *profile_warn_name(enum cg_warn w);
void profile_warn_message(enum cg_warn w, uint64_t count, char *m, size_t n);

#endif

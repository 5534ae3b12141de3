/* profile.h - the exact profile model: per-thread stack replay, per-method
 * inclusive/exclusive time and calls, per caller->callee edge calls and time.
 *
 * Semantics are those of "Model" in spec.md: times are integer microseconds;
 * inclusive time counts only the outermost activation; exclusive time is
 * summed over all activations; an exit on an empty stack is a frame entered
 * before tracing began (it spans from the thread's first event and becomes the
 * caller of everything before it on that thread); a mismatched exit pops down
 * to its frame when that frame is on the stack, else is ignored; frames open
 * at the end close at the thread's last event.
 *
 * Memory is bounded by methods, edges, threads and stack depth, never by the
 * number of records.  The profile borrows the symtab (which must outlive it)
 * and owns everything else; views returned by profile_view are owned by the
 * profile and valid until profile_free.  Renderers borrow views.
 */
#ifndef CG_PROFILE_H
#define CG_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "model/stitch.h"
#include "read/symtab.h"
#include "read/trace.h"
#include "util/util.h"

enum cg_clock_sel { CG_USE_WALL, CG_USE_CPU };

/* Warning kinds, counted; each is reported once with its count. */
enum cg_warn {
	CG_W_OVERFLOW,        /* the trace filled its buffer */
	CG_W_SAMPLING,        /* sampling-mode trace: calls are stack changes */
	CG_W_UNKNOWN_METHOD,  /* records whose method id is not in the key */
	CG_W_EXIT_EMPTY,      /* exits of frames entered before tracing began */
	CG_W_MISMATCH_POP,    /* exits that popped down to a deeper frame */
	CG_W_MISMATCH_IGNORED,/* exits of methods not on the stack, ignored */
	CG_W_CLOCK_BACK,      /* time went backwards on a thread (clamped) */
	CG_W_CLOCK_WRAP,      /* 32-bit time wrapped (+2^32) */
	CG_W_ACTION3,         /* records with the undefined action 3 (treated as exit) */
	CG_W_TRUNCATED,       /* data ended mid-record or without a summary */
	CG_W_COUNT
};

struct cg_warning {
	enum cg_warn kind;
	const char *name;     /* stable identifier, e.g. "exit-without-entry" */
	uint64_t count;
	const char *message;  /* one line, no trailing newline */
};

struct cg_pmethod {
	uint32_t index;       /* symtab method index: profile_method gives its
			       * definition */
	uint64_t incl_us;     /* outermost activations only */
	uint64_t excl_us;     /* all activations */
	uint64_t calls;       /* calls made while not already on the stack */
	uint64_t rec_calls;   /* recursive calls */
	/* The other clock of a dual-clock trace (cpu when the primary clock is
	 * wall, and the reverse), same semantics; 0 when view->has_other is 0. */
	uint64_t o_incl_us;
	uint64_t o_excl_us;
};

/* caller is a method index, or, when from_root, a thread index into the
 * view's thread array. */
struct cg_pedge {
	uint32_t caller;
	uint32_t callee;      /* method index */
	int from_root;
	uint64_t calls;       /* every call, recursive ones included */
	uint64_t incl_us;     /* calls in which the callee was not already on the stack */
	uint64_t o_incl_us;   /* the same on the other clock (0 without one) */
};

struct cg_pthread {
	uint32_t tid;
	const char *name;
	uint64_t records;
	uint64_t incl_us;     /* last - first event time */
	uint64_t excl_us;     /* time between top-level calls */
	uint64_t first_us, last_us;  /* event times on the clock used */
	uint64_t other_us;    /* last - first on the other clock of a dual trace, else 0 */
	uint64_t o_excl_us;   /* exclusive on the other clock, else 0 */
	uint32_t max_depth;
	/* Of the thread's methods (clock used; waiting.h decides per method,
	 * on this thread's times): the largest exclusive time of one that was
	 * not waiting, and the largest inclusive time of one that was when
	 * it is at least WAITING_THREAD_PCT % of the thread's (else 0).  Set
	 * when the view of all threads of several is built; 0 before. */
	uint64_t busy_excl_us;
	uint64_t wait_incl_us;
};

/* A finished profile restricted to all selected threads or to one thread.
 * methods[] lists only methods that ran, sorted by inclusive desc, then
 * exclusive desc, then id; method_pos maps a symtab index to its position in
 * methods[] (or UINT32_MAX).  edges[] sorted by inclusive desc, then caller,
 * then callee (roots first).  threads[] in order of first event. */
struct cg_view {
	const struct cg_symtab *st; /* the profile's symtab: method definitions */
	uint64_t total_us;
	const struct cg_pmethod *methods;
	size_t nmethods;
	const uint32_t *method_pos;
	size_t npos;
	const struct cg_pedge *edges;
	size_t nedges;
	const struct cg_pthread *threads;
	size_t nthreads;
	int thread;           /* -1 for all threads, else the thread index */
	/* Dual-clock traces carry the other clock beside the primary one: every
	 * o_* field is the o-less field's twin on the other clock, computed in
	 * the same pass with the same rules (outermost activation, frames
	 * entered before tracing, open frames, unwinds, wrap and backward steps
	 * clamped per clock, --focus/--hide, --thread).  So the o_* numbers of a
	 * default (wall) run are exactly the primary numbers of a --clock cpu
	 * run, and the reverse.  Sort order and everything derived from times
	 * (thresholds, percentages, colour) use the primary clock. */
	int has_other;        /* 1 when the trace has both clocks */
	enum cg_clock_sel primary; /* the clock of total_us, incl_us, excl_us: the
	                            * --clock choice on dual traces, else the
	                            * trace's one clock (thread-cpu: CPU; wall
	                            * and global: WALL) */
	uint64_t o_total_us;  /* total on the other clock (0 without one) */
};

/* The definition of a view's method, read from the symtab without keeping a
 * copy per method: as symtab_method_peek, *tmp may be filled and must not be
 * reused while the result is read; its strings live as long as the symtab
 * (an unknown id's name and id text as long as *tmp). */
static inline const struct cg_method_info *profile_method(const struct cg_view *v,
							  const struct cg_pmethod *m,
							  struct cg_method_info *tmp)
{
	return symtab_method_peek(v->st, m->index, tmp);
}

/* A thread's stack depth at most, unless cg_profile_opts.max_depth says. */
#define CG_DEFAULT_MAX_DEPTH (1u << 20)

struct cg_profile_opts {
	enum cg_clock_sel clock;
	const char *const *threads; /* --thread filters (id or name), NULL-terminated or NULL */
	uint32_t max_depth;         /* hard cap on a thread's stack depth; 0 = default */
	/* --focus / --hide: fnmatch globs on "Class.method" ('/' shown as '.'),
	 * as profile_pattern_match,
	 * NULL-terminated or NULL.  A hidden method's frame stays on the stack
	 * but is invisible: its time is its caller's exclusive time and its
	 * callees are called by its caller.  With focus patterns, only time
	 * while a focused (and not hidden) frame is on the stack counts: the
	 * outermost focused frame is called by the thread root, a thread's
	 * inclusive time is the sum of its outermost focused frames and its
	 * root exclusive time is 0.  A method matching both is hidden. */
	const char *const *focus;
	const char *const *hide;
	/* The trace's process id (0 or less: unknown): --thread main also
	 * selects the thread whose id is the pid when no thread is named
	 * "main" (ART's main thread has tid == pid). */
	int64_t pid;
	/* 1 when no view will be asked for (outputs that read only the threads,
	 * the calling-context tree or the event log): the per-method and
	 * per-edge tables go at profile_finish (with global tables, none is
	 * built: profile_bare.c), and profile_view gives views with the
	 * threads only, no methods and no edges. */
	int no_views;
	/* 1 when the views need no edges (outputs that read methods only, as
	 * -d does): the edge tables go at profile_finish and views have none. */
	int no_edges;
	/* 1 when only the all-threads view will be asked for: building it frees
	 * each thread's tables once they are summed into it, so a view of one
	 * thread of several asked for after it has no methods and no edges. */
	int no_thread_views;
	/* 1 when other threads read the symtab while this profile replays
	 * (profile_seed): a method id missing from it, which the replay would
	 * add, abandons the replay instead (profile_abandoned). */
	int shared_symtab;
	/* 1: one method table and one edge table for all threads, the fastest
	 * layout (profile_global.c), for a profile whose outputs ask only for
	 * the view of all threads and read no thread's own methods, without
	 * --focus or --hide (ignored with either); an observer is set before
	 * the first record, if at all.  When an exit on an empty stack was
	 * met, the replay is only exact once the records up to the last such
	 * exit have been given again to the correction pass
	 * (profile_correct_count). */
	int global;
	/* 1, with global: the replay builds no table either (profile_bare.c),
	 * and the view of all threads is summed from the threads' own sums
	 * (profile_set_thread_sums, set before the first view is asked for),
	 * as their views are: for a replay whose calling-context tree sees
	 * every record, which then gives the same numbers as the tables. */
	int views_from_sums;
};

/* 1 when --focus/--hide pattern pat matches the display name "pkg.Class.method":
 * the glob on the whole name, or on any part after a dot ("Class.method",
 * "method"), as users type names. */
int profile_pattern_match(const char *pat, const char *name);

/* 1 when --thread pattern pat selects thread tid named name: its id, its
 * name, or "main" for the thread whose id is pid when main_named is 0. */
int profile_thread_match(const char *pat, uint32_t tid, const char *name, int64_t pid,
			 int main_named);

/* 1 when a thread of st is named "main". */
int profile_main_named(const struct cg_symtab *st);

/* Sees the visible frames of the replay as they happen (hidden and
 * unfocused frames are not reported).  thread is the profile's thread
 * index (as in views); t is the thread's time in us on the clock used,
 * never decreasing per thread.  enter: midx was called by the frame on top
 * (or by the root).  leave: the top frame returned (also for frames closed
 * at the end by profile_finish).  adopt: an exit on an empty stack; midx
 * was entered before tracing, its frame spans [first, t] and becomes the
 * caller of everything the thread ran so far.  The callbacks must not call
 * back into the profile. */
struct cg_observer {
	void *ctx;
	void (*enter)(void *ctx, uint32_t thread, uint32_t midx, uint64_t t);
	void (*leave)(void *ctx, uint32_t thread, uint64_t t);
	void (*adopt)(void *ctx, uint32_t thread, uint32_t midx, uint64_t first, uint64_t t);
	/* Optional (NULL when unused): called just before each enter, leave and
	 * adopt with the thread's time on the other clock of a dual-clock trace
	 * at that event (o_t) and at the thread's first event (o_first), so an
	 * observer can keep both clocks.  On a single-clock trace the values
	 * carry no meaning (see cg_view.has_other). */
	void (*other)(void *ctx, uint32_t thread, uint64_t o_first, uint64_t o_t);
	/* Optional: called once by profile_finish, after the last leave. */
	void (*finish)(void *ctx);
	/* Optional, with other: other and then enter (leave) in one call,
	 * which the replay makes in their place. */
	void (*enter_o)(void *ctx, uint32_t thread, uint32_t midx, uint64_t t, uint64_t o_first,
			uint64_t o_t);
	void (*leave_o)(void *ctx, uint32_t thread, uint64_t t, uint64_t o_first, uint64_t o_t);
	/* Nonzero: enter and adopt get the record's raw method id where they
	 * would get midx, and the observer finds the methods itself (a tree
	 * finds each context's once, where the replay would find each
	 * entry's).  Only an observer the profile calls itself may ask it:
	 * the observers that pass events on give them the method. */
	int raw_ids;
	/* Optional: NULL, or once the observer keeps nothing more and passes
	 * every event on unchanged, the observer it passes them to.  Whoever
	 * calls the observer may ask between batches of events, and call that
	 * one in its place from then on (observer_step_aside). */
	const struct cg_observer *(*bypass)(void *ctx);
};

/* o replaced by the observer it passes events on to, for as long as it
 * asks to give way (bypass) to one that takes the same ids (raw_ids) and
 * the other clock's times when o does.  Returns 1 when o changed. */
static inline int observer_step_aside(struct cg_observer *o)
{
	const struct cg_observer *n;
	int moved = 0;

	while (o->bypass && (n = o->bypass(o->ctx)) != NULL && n->raw_ids == o->raw_ids &&
	       (n->other || !o->other)) {
		*o = *n;
		moved = 1;
	}
	return moved;
}

/* Tell o an enter (leave) with the other clock's times: in one call when o
 * takes one (enter_o, leave_o), else other (when o has it) and then enter
 * (leave).  For the replay and for observers that pass events on. */
static inline void observer_enter_o(const struct cg_observer *o, uint32_t thread, uint32_t midx,
				    uint64_t t, uint64_t o_first, uint64_t o_t)
{
	if (o->enter_o) {
		o->enter_o(o->ctx, thread, midx, t, o_first, o_t);
		return;
	}
	if (o->other)
		o->other(o->ctx, thread, o_first, o_t);
	o->enter(o->ctx, thread, midx, t);
}

static inline void observer_leave_o(const struct cg_observer *o, uint32_t thread, uint64_t t,
				    uint64_t o_first, uint64_t o_t)
{
	if (o->leave_o) {
		o->leave_o(o->ctx, thread, t, o_first, o_t);
		return;
	}
	if (o->other)
		o->other(o->ctx, thread, o_first, o_t);
	o->leave(o->ctx, thread, t);
}

struct cg_profile;

struct cg_profile *profile_create(struct cg_symtab *st, const struct cg_profile_opts *opts);
void profile_free(struct cg_profile *p);

/* Report replay events to o (copied; o->ctx is borrowed and must outlive
 * the replay), or stop reporting when o is NULL.  Set before profile_add;
 * or, without --focus and --hide, between two profile_add, for an observer
 * that can take the leaves of frames opened before it without their
 * enters (the frames observer, once a trace defines a frame method among
 * its records).  profile_observer: the observer set now, or NULL. */
void profile_set_observer(struct cg_profile *p, const struct cg_observer *o);
const struct cg_observer *profile_observer(const struct cg_profile *p);
/* The enters and adopts told to p's observers so far (not a range's seed
 * frames, profile_seed). */
uint64_t profile_calls_told(const struct cg_profile *p);

/* Replay n records.  Returns 0, or -1 when a hard limit is hit (err says
 * which, with the record's offset). */
int profile_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
		struct cg_error *err);
/* The same for n records read undecoded into bytes (trace_read_raw_at),
 * the first at byte offset `offset`: decoded where they lie. */
int profile_add_raw(struct cg_profile *p, const struct cg_raw_layout *l, const unsigned char *bytes,
		    size_t n, uint64_t offset, struct cg_error *err);

/* The correction pass of a global profile (cg_profile_opts.global):
 * profile_correct_count is how many records, from the first given, must be
 * given again (0: none); profile_correct_add gives them again, in order (as
 * profile_add; profile_correct_add_raw as profile_add_raw);
 * profile_correct_end adds what the frames entered before tracing change.
 * All before profile_finish. */
uint64_t profile_correct_count(const struct cg_profile *p);
int profile_correct_add(struct cg_profile *p, const struct cg_record *recs, size_t n,
			struct cg_error *err);
int profile_correct_add_raw(struct cg_profile *p, const struct cg_raw_layout *l,
			    const unsigned char *bytes, size_t n, uint64_t offset,
			    struct cg_error *err);
void profile_correct_end(struct cg_profile *p);

/* n of the records given to thread tid were not the trace's own (the
 * enters and exits a time window makes at its edges, window.h): they are
 * not counted among its records.  Before profile_finish. */
void profile_discount(struct cg_profile *p, uint32_t tid, uint64_t n);

/* Close open frames and build the views.  `info` supplies overflow/clock
 * facts for the warnings.  Call once, after the last profile_add. */
void profile_finish(struct cg_profile *p, const struct cg_trace_info *info);
/* What profile_finish does first for a profile without tables
 * (cg_profile_opts.no_views, global): every thread's open frames closed,
 * in order, and the observer finished; profile_finish then does neither
 * again.  It reads nothing the symtab holds, so a replay beside another
 * (replay_beside) ends its observers on its own thread while the other
 * runs on.  Nothing for any other profile. */
void profile_end_observed(struct cg_profile *p);

/* Replaying a trace in ranges at the same time (stitch.h), each range into
 * its own profile, without --focus, --hide or --thread, and with no
 * observer but a calling-context tree of the range's own (cct_merge):
 * profile_seed gives a range's profile every thread met before it, in its
 * state then (before the range's first profile_add), and tells the
 * observer of its open frames as entries; profile_park ends a
 * range's replay: frames still open give their time on top so far to their
 * methods and leave the stacks; profile_merge adds the parked profile q of
 * the next range to p (q keeps its parked frames, for profile_free); and
 * profile_unpark gives p's threads the frames open at the end of q, the
 * last range, merged last: profile_finish then closes them as a replay in
 * one piece does.  profile_share_symtab sets cg_profile_opts.shared_symtab
 * between two profile_add. */
void profile_seed(struct cg_profile *p, const struct cg_seed *seeds, size_t n);
/* The first record the range's profile is given is the span's k-th (a
 * global profile's correction pass counts records from the span's start). */
void profile_first_record(struct cg_profile *p, uint64_t k);
void profile_park(struct cg_profile *p);
/* The state of p's threads between two records, as seeds: every thread in
 * the order met, its clocks and open frames (held in *frames; the caller
 * frees both arrays).  Their number. */
size_t profile_snapshot(const struct cg_profile *p, struct cg_seed **seeds,
			struct cg_seed_frame **frames);
void profile_merge(struct cg_profile *p, struct cg_profile *q);
/* 1 when q's threads are p's, in p's order, and then threads p never met:
 * what the observers of the two were told of thread i is of one thread. */
int profile_threads_follow(const struct cg_profile *p, const struct cg_profile *q);
void profile_unpark(struct cg_profile *p, const struct cg_profile *q);
void profile_share_symtab(struct cg_profile *p, int shared);
/* 1 when a replay with shared_symtab met a method id missing from the
 * symtab: its numbers are wrong and the trace must be replayed in one piece. */
int profile_abandoned(const struct cg_profile *p);

/* The view of all selected threads (thread < 0) or of thread index `thread`. */
const struct cg_view *profile_view(struct cg_profile *p, int thread);

/* A profile replayed into global tables keeps no thread's own sums: its
 * thread views, and each thread's busy_excl_us and wait_incl_us, come from
 * a source set once the replay is over (the calling-context tree,
 * cct_sums.h); without one, a thread's view is empty and those two are 0.
 * fn(src, thread, sink) gives thread index `thread`'s sums: parts of its
 * methods' sums, which add up by index (sink->method: times on both clocks,
 * calls, rec_calls), and each caller -> callee pair once (sink->edge;
 * from_root with caller 0 for the thread's root).  src2, when not NULL, is
 * a second source of the same sums with scratch of its own: two threads
 * then build the threads' views at once.  A profile of per-thread tables
 * ignores both.  With cg_profile_opts.views_from_sums the view of all
 * threads comes from the same source: each thread's sums, added up by
 * method and by caller -> callee pair, and its root's edges by thread. */
struct cg_sums_sink {
	void *ctx;
	void (*method)(void *ctx, const struct cg_pmethod *m);
	void (*edge)(void *ctx, const struct cg_pedge *e);
};
typedef void (*cg_thread_sums_fn)(void *src, uint32_t thread, const struct cg_sums_sink *sink);
void profile_set_thread_sums(struct cg_profile *p, cg_thread_sums_fn fn, void *src, void *src2);
size_t profile_thread_count(const struct cg_profile *p);
/* The selected threads with events (profile_thread_count of them), as the
 * view of all threads lists them, without building that view. */
const struct cg_pthread *profile_threads(const struct cg_profile *p);
/* As a view gives them: whether the trace has both clocks, and the clock
 * of the primary numbers. */
int profile_has_other(const struct cg_profile *p);
enum cg_clock_sel profile_primary(const struct cg_profile *p);

/* Warnings with a non-zero count, in enum order. */
size_t profile_warnings(const struct cg_profile *p, const struct cg_warning **out);
int profile_sampling(const struct cg_profile *p);
/* The --focus and --hide patterns in effect (NULL-terminated), each NULL
 * when none; for legends and headers.  With focus patterns the view totals
 * are the focused time (see cg_profile_opts). */
void profile_filters(const struct cg_profile *p, const char *const **focus,
		     const char *const **hide);

/* Facts gathered while replaying, for summaries. */
struct cg_profile_stats {
	uint64_t records;       /* records of selected threads */
	uint64_t skipped;       /* records of threads not selected */
	uint64_t unwinds;       /* frames popped by exception unwinding */
	uint64_t open_at_end;   /* frames still open at the end, closed there */
	uint64_t other_total_us;/* dual clock: total on the clock not used (view o_total_us) */
	uint32_t max_depth;
};
const struct cg_profile_stats *profile_stats(const struct cg_profile *p);

/* "wall" or "cpu".  The other clock of a view with has_other is
 * profile_clock_name(profile_other_clock(v->primary)). */
const char *profile_clock_name(enum cg_clock_sel c);
static inline enum cg_clock_sel profile_other_clock(enum cg_clock_sel c)
{
	return c == CG_USE_CPU ? CG_USE_WALL : CG_USE_CPU;
}

/* The off-CPU share of an inclusive time of a view with both clocks,
 * 1 - cpu / wall, in [0, 1]: the part of the wall time the frame spent not
 * running (waiting, sleeping, parked, blocked).  0 when cpu exceeds wall
 * (the clocks tick at different granularities); -1 when wall is 0.  From a
 * view's numbers: cpu = primary == CG_USE_CPU ? incl_us : o_incl_us, wall
 * the other. */
double profile_off_cpu(uint64_t cpu_us, uint64_t wall_us);

#endif

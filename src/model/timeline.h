/* timeline.h - bounded span collection for the HTML timeline (Traceview's
 * timeline panel), gathered in the single reading pass through the profile
 * observer.
 *
 * Bound.  A thread's final duration D is unknown until the end, so while
 * reading each thread keeps (a) a stack of its open frames, (b) the
 * TL_CAP longest finished spans in a min-heap (ties: the earlier start
 * wins), and (c) TL_DEPTHS x TL_BINS "busy" bins over time, one row per
 * depth (deeper frames share the last row); when a time falls beyond the
 * bins' range, pairs of bins are merged and the bin width doubles.  A span
 * that does not enter the heap, or is evicted from it, is added to the bins
 * of its depth.  Memory is O(threads x (TL_CAP + TL_DEPTHS x TL_BINS) +
 * stack depth), never O(records).  At the end (timeline_finish) a kept span
 * shorter than D / TL_FRACTION (under a pixel of a 2000-px row at full
 * zoom-out) is merged too, and when all threads together keep more than
 * TL_BUDGET spans, one per-thread cap c (the largest with sum min(kept, c)
 * <= TL_BUDGET) drops each thread's shortest spans into its bins.
 *
 * An adopted frame (exit on an empty stack) is a span [first, t] at depth 0;
 * everything the thread ran before it moves one level deeper.
 *
 * The timeline owns its spans and bins; it borrows nothing after
 * timeline_finish except what timeline_json is given.
 */
#ifndef CG_TIMELINE_H
#define CG_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "util/strbuf.h"

#define TL_CAP 1024      /* longest spans kept per thread while reading */
#define TL_FRACTION 2000 /* keep spans >= thread duration / TL_FRACTION */
#define TL_BUDGET 60000  /* spans kept over all threads */
#define TL_DEPTHS 32     /* busy rows per thread; deeper frames share the last */
#define TL_BINS 256      /* busy bins per row */

/* Many threads.  Up to TL_THREADS_ALL threads the HTML report lists each
 * one.  With more, it lists at most TL_THREADS_MAX, the busiest, and only
 * those with at least 1/TL_IDLE_SHARE of the total time; the others are
 * folded into one "N idle threads" entry with their totals (render_html.c).
 * timeline_finish drops a folded thread's spans and strips, so the
 * timeline's memory after it, and its data in the page, are bounded by
 * TL_THREADS_MAX whatever the number of threads. */
#define TL_THREADS_ALL 64
#define TL_THREADS_MAX 256
#define TL_IDLE_SHARE 1000

/* The listed threads of the all-threads view `all` by the rule above: NULL
 * when every thread is listed, else a map (caller frees) from thread index
 * to its index among the listed threads (in thread order), -1 for a folded
 * thread; *nlisted is the number listed. */
int32_t *timeline_fold(const struct cg_view *all, size_t *nlisted);

struct cg_tl_span {
	uint64_t start;   /* absolute time on the clock used, us */
	uint64_t dur;     /* us */
	uint64_t o_start; /* the same on the other clock of a dual-clock trace */
	uint64_t o_dur;
	uint32_t midx;    /* symtab method index */
	uint32_t depth;   /* 0 = called by the thread root */
	uint32_t gen;     /* internal: adopts seen when the span ended */
};

/* One thread's busy strips: row d bin b covers
 * [origin + b*width, origin + (b+1)*width) and holds the microseconds of
 * merged spans at depth d (capped rows: may exceed width). */
struct cg_tl_busy {
	uint64_t origin, width;
	uint32_t nbins;            /* TL_BINS */
	uint32_t *rows[TL_DEPTHS]; /* NULL where nothing was merged */
};

struct cg_timeline;

struct cg_timeline *timeline_create(void);
void timeline_free(struct cg_timeline *tl);

/* Fill *o with an observer feeding tl (tl must outlive the replay) that
 * first forwards every event to next when next is not NULL (copied; its
 * ctx is borrowed), so the timeline and e.g. the calling-context tree
 * share the profile's one observer. */
void timeline_observer(struct cg_timeline *tl, const struct cg_observer *next,
		       struct cg_observer *o);

/* Apply the final rules (folded threads dropped, D / TL_FRACTION per
 * thread, TL_BUDGET over the listed threads) using the finished profile's
 * thread durations; sorts kept spans by start, then depth.  Call once,
 * after profile_finish. */
void timeline_finish(struct cg_timeline *tl, struct cg_profile *p);

/* Threads seen, by profile thread index. */
size_t timeline_thread_count(const struct cg_timeline *tl);
/* Kept spans of thread i (sorted after timeline_finish); borrowed. */
size_t timeline_spans(const struct cg_timeline *tl, size_t i, const struct cg_tl_span **out);
/* Busy strips of thread i, or NULL; borrowed. */
const struct cg_tl_busy *timeline_busy(const struct cg_timeline *tl, size_t i);
/* Totals: spans finished, kept, merged into busy strips. */
void timeline_counts(const struct cg_timeline *tl, uint64_t *seen, uint64_t *kept,
		     uint64_t *merged);

/* Append the timeline as a JSON object: {"fraction","cap","budget","seen",
 * "kept","merged","other","threads":[{"i","first","dur","spans":[start -
 * first, dur, k, depth, ...],"busy":{"o","w","rows":[[depth, permille x
 * bins]...]}}]} (times in us, relative to the thread's first event; k is the
 * method's position in the all-threads view, -1 if absent).  On a
 * dual-clock trace "other" is 1, each span has two more numbers, its start
 * (relative to the thread's first event) and duration on the other clock,
 * and each thread has "ofirst", "odur" and "obusy", its first event,
 * duration and busy strips on the other clock; else "other" is 0.  Which
 * spans are kept is decided on the primary clock.
 * map (NULL: every thread as itself) gives the "i" written for thread i,
 * and leaves out the threads it maps to -1 (report.h thread_map).  Sets used[midx]
 * (size nused) for every method it names.  p is the finished profile the
 * timeline observed. */
void timeline_json(const struct cg_timeline *tl, struct cg_profile *p, const int32_t *map,
		   unsigned char *used, size_t nused, struct strbuf *out);

#endif

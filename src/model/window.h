/* window.h - a time window of the trace (--range FROM:TO): the records
 * read as a trace that started at FROM and stopped at TO would hold them,
 * fed to the replay in their place.
 *
 * The axis is the wall clock in microseconds from the origin, the wall
 * time of the trace's first record (of any thread).  Per thread, in record
 * order (times are the thread's clocks as the replay extends them):
 * - a record before FROM is not replayed; it keeps a shadow stack of the
 *   frames entered before FROM (an enter pushes, an exit of a method on the
 *   shadow stack pops down to and including it, any other exit is ignored);
 * - at the thread's first record in [FROM, TO], the frames on its shadow
 *   stack are entered, outermost first, at wall time FROM and at that
 *   record's CPU time; records in [FROM, TO] follow as they are;
 * - at the thread's first record after TO, its open frames are closed,
 *   innermost first, at wall time TO and at the CPU time of the last record
 *   replayed on the thread (with none in the window: its last record before
 *   FROM), and the thread's later records are dropped;
 * - a thread whose records end before TO keeps the whole trace's rule:
 *   frames open at its end close at its last event.
 * So a thread's CPU time in the window runs from its first record in the
 * window to its last one, and its wall time is cut exactly at FROM and TO
 * for frames open across an edge.  A window holding the whole trace passes
 * every record through unchanged.
 *
 * Memory: per thread, the shadow stack (its depth at FROM) and the open
 * frames' method ids; never the records.
 */
#ifndef CG_WINDOW_H
#define CG_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "read/trace.h"

#define WINDOW_OPEN_FROM INT64_MIN
#define WINDOW_OPEN_TO INT64_MAX

struct cg_window_spec {
	int64_t from_us, to_us;   /* from the origin; WINDOW_OPEN_* for an open side */
};

/* Parse "FROM:TO", "FROM:" or ":TO" (decimal milliseconds, at most three
 * decimals, FROM <= TO) into *spec: 0, or -1 when it is not one.  "frame:N"
 * sets *frame to N (>= 1) and returns 1. */
int window_parse(const char *text, struct cg_window_spec *spec, uint64_t *frame);

struct cg_window;

struct cg_window *window_create(const struct cg_window_spec *spec);
void window_free(struct cg_window *w);

/* The records of in[0..n) as the window holds them, in *out (valid until
 * the next call); their count. */
size_t window_add(struct cg_window *w, const struct cg_record *in, size_t n,
		  const struct cg_record **out);

/* After the last window_add: the records the window made at its edges,
 * per thread (for profile_discount), and how many of the trace's records
 * it kept. */
struct cg_window_thread {
	uint32_t tid;
	uint64_t made;
};
size_t window_made(struct cg_window *w, const struct cg_window_thread **out);
uint64_t window_kept(const struct cg_window *w);
/* 1 when the window left out or made a record: 0 when it holds the whole
 * trace, whose outputs are then those of no window. */
int window_cuts(const struct cg_window *w);
/* The origin: the wall time of the trace's first record (0 before one). */
uint64_t window_origin(const struct cg_window *w);

#endif

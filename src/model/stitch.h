/* stitch.h - what each range of a trace's records starts from, so that the
 * ranges can be replayed at the same time and summed exactly.
 *
 * A scan of one range follows every thread's stack as far as the range
 * alone can tell: the exits that reach below the range's first record, the
 * frames still open at its end, and the thread's clocks at both ends (times
 * relative to its first record in the range).  Composing the scans in file
 * order gives each range the stacks and clocks its threads start with.
 *
 * Some traces cannot be cut everywhere, and stitch_create stops where a
 * range has an exit that names no frame of the range's own stack while
 * frames of it are open (it may pop frames of earlier ranges, or be
 * ignored, as they decide), or a stack deeper than its scan follows.
 * The scans own their memory; a stitch owns its seeds, which borrow nothing.
 */
#ifndef CG_STITCH_H
#define CG_STITCH_H

#include <stddef.h>
#include <stdint.h>

#include "read/trace.h"

struct cg_scan;

/* A scan of one range; cpu: the primary clock is the thread-CPU one (as in
 * cg_profile_opts.clock == CG_USE_CPU).  A stack deeper than max_depth
 * frames within the range keeps it from being replayed apart (and bounds
 * the memory of the scan and of the seeds). */
struct cg_scan *scan_create(int cpu, uint32_t max_depth);
void scan_free(struct cg_scan *s);
/* Follow n more records of the range, in order, read undecoded into p
 * (trace_read_raw_at). */
void scan_add_raw(struct cg_scan *s, const struct cg_raw_layout *l, const unsigned char *p,
		  size_t n);

/* 1 once the scan has met what keeps its range from being replayed apart
 * (see above). */
int scan_cut_fails(const struct cg_scan *s);

/* One open frame: its raw method id and entry times on both clocks. */
struct cg_seed_frame {
	uint32_t id;
	uint64_t entry, o_entry;
};

/* A thread's state between two records: 64-bit clocks as the replay keeps
 * them, the raw values they last read, and the open frames, bottom first. */
struct cg_seed {
	uint32_t tid;
	uint32_t prev_raw, prev_other, prev_wall;
	uint64_t now, first, other_now, other_first;
	const struct cg_seed_frame *stack;
	size_t depth;
};

struct cg_stitch;

/* Compose scans[0..n) of the first n ranges, in file order, up to the
 * first range that cannot be replayed apart from those before it (see
 * above). */
struct cg_stitch *stitch_create(struct cg_scan *const *scans, size_t n);
/* The same from the state of the threads met before the first scan's range
 * (start[0..nstart), in the order the trace met them, tids below 65536; as
 * profile_snapshot gives it), instead of from the start of the trace. */
struct cg_stitch *stitch_create_from(const struct cg_seed *start, size_t nstart,
				     struct cg_scan *const *scans, size_t n);
void stitch_free(struct cg_stitch *st);
/* How many scans were composed: ranges 1 .. that count have seeds. */
size_t stitch_ranges(const struct cg_stitch *st);
/* The state of every thread met before range r (1 <= r <= stitch_ranges)
 * as range r starts, in the order the trace first meets them. */
size_t stitch_seeds(const struct cg_stitch *st, size_t r, const struct cg_seed **seeds);

#endif

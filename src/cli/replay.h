/* replay.h - a trace's records replayed by several threads at once.
 *
 * The records of a regular trace on disk are cut into ranges.  Each thread
 * first scans a range (stitch.h), the scans are composed in order, then each
 * thread replays its range from the stacks and clocks it starts with, and
 * the ranges' profiles are summed in order: the result is the profile a
 * replay in one piece gives, number for number.
 */
#ifndef CG_REPLAY_H
#define CG_REPLAY_H

#include "model/cct.h"
#include "model/profile.h"
#include "read/trace.h"

/* The number of cores this process may run on (at least 1). */
unsigned replay_cores(void);

/* Told, from the calling thread, how many of the total records have been
 * replayed. */
struct cg_progress {
	void (*fn)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
};

/* Replay records first .. first+count-1 of t's span (trace_span) in `ranges`
 * ranges (2 or more, at most count) into a new profile with options po,
 * which must have no --focus, --hide or --thread.  Its observer is cct's,
 * when cct is not NULL (a tree not yet fed), and no other: each range
 * builds a tree of its own as it replays, and the trees are summed into
 * cct (cct_merge); a NULL return with *failed = 0 leaves cct fed with
 * part of the trace (free it).
 * On success the reader is past the span and the profile is returned,
 * records added but not finished.  NULL with *failed = 0 when the trace
 * cannot be cut (the reader has not moved: replay it in order), NULL with
 * *failed = 1 and err filled on a read error or an error of the replay
 * (the first in file order, as a replay in order reports).  progress, when
 * not NULL, is told as the records are replayed. */
struct cg_profile *replay_split(struct cg_trace *t, const struct cg_profile_opts *po,
				struct cg_cct *cct, uint64_t count, unsigned ranges,
				const struct cg_progress *progress, int *failed, struct cg_error *err);

/* Where two ranges stand while range 1's thread scans range 0, in records
 * counted from the span's start: the scan has come to record at, range 0's
 * replay has replayed `done`, the span has count; later_cost is what a
 * record of range 1 costs, in thousandths of one of range 0. */
struct replay_pace {
	uint64_t at, done, count;
	unsigned later_cost;
};

/* 1 when range 0 should end at pc->at: what is left of it, from done to
 * at, weighs at least as much as the rest of the span, from at to count,
 * at later_cost a record -- both threads then have as much left to
 * replay, whatever their speeds so far. */
int replay_cut_due(const struct replay_pace *pc);

/* Replay the count records of t's span (trace_span) in order into p, on
 * this thread, decoded where they were read: what profile_add of every
 * record would do.  0 with the reader past the span, or -1 (err filled) on
 * a read error or an error of the replay.  progress as for replay_split. */
int replay_span(struct cg_trace *t, struct cg_profile *p, uint64_t count,
		const struct cg_progress *progress, struct cg_error *err);

/* replay_span of p on this thread while a thread of its own replays the
 * same records into side (a profile without tables that feeds observers):
 * two replays at once instead of one that hands every call over.  Both
 * take the symtab as it is (cg_profile_opts.shared_symtab).  When side's
 * replay runs to its end, its observers end on its thread
 * (profile_end_observed): the caller needs only free it.  0 with the
 * reader past the span and *side_done set when both replays ran to the
 * end; 0 with *side_done clear when either was abandoned or side failed
 * (both stop there, the reader has not moved, and the caller starts again
 * in another way); -1 (err filled) when p's replay failed. */
int replay_beside(struct cg_trace *t, struct cg_profile *p, struct cg_profile *side,
		  uint64_t count, const struct cg_progress *progress, int *side_done,
		  struct cg_error *err);

#endif

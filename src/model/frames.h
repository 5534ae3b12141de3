/* frames.h - frames: the outermost activations of a frame method on each
 * thread (Choreographer.doFrame by default), found during the single replay
 * through the profile's observer.
 *
 * A frame is one activation of a frame method that was not already on its
 * thread's stack, as the replay sees it: visible frames only, mismatched
 * exits and unwinds as in the model, frames open at the end closed at the
 * thread's last event, a frame method entered before tracing (observer
 * adopt) a frame from the thread's first event.  Times are kept on the wall
 * clock and the thread-CPU clock of the trace (a clock the trace lacks
 * reads 0).
 *
 * For the FRAMES_TOP slowest frames (frames_slowest) the methods' exclusive
 * time inside the frame is kept on both clocks.  Memory: 48 bytes per frame
 * while the replay goes on, about 100 while they are sorted and 56 after
 * (the count of frames grows with the trace's duration, never with its
 * records), and, while a frame is open or among the slowest, one entry per
 * distinct method it runs.
 *
 * The frames own their arrays; readers borrow them until frames_free.
 */
#ifndef CG_FRAMES_H
#define CG_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "read/symtab.h"

#define FRAMES_TOP 10

/* "Choreographer.doFrame": the default frame method, as a --focus pattern. */
extern const char frames_default_pattern[];

struct cg_frame {
	uint64_t start;     /* us, on the thread's wall clock (its cpu clock on a
			     * trace without one) as the profile's first_us:
			     * the raw time of the thread's first record, then
			     * extended */
	uint64_t wall_us;   /* duration on the wall clock (0 without one) */
	uint64_t cpu_us;    /* duration on the thread-CPU clock (0 without one) */
	uint32_t thread;    /* profile thread index */
	uint32_t midx;      /* the frame method's symtab index */
	uint32_t flags;     /* FRAME_* */
};

#define FRAME_ADOPTED 1u    /* entered before tracing began */

/* Exclusive time of a method inside one frame. */
struct cg_frame_method {
	uint32_t midx;
	uint64_t wall_us, cpu_us;
};

struct cg_frames;

/* Frames of methods matching pattern (profile_pattern_match on the display
 * name; NULL: frames_default_pattern), over symtab st. */
struct cg_frames *frames_create(const struct cg_symtab *st, const char *pattern);

/* 1 when a method of st from index *from on is a frame method by pattern
 * (NULL: the default); *from moves past the methods read. */
int frames_method_in(const struct cg_symtab *st, const char *pattern, size_t *from);
void frames_free(struct cg_frames *f);

/* Fill *o with an observer recording into f that first forwards every event
 * to next when next is not NULL (copied; its ctx is borrowed). */
void frames_observer(struct cg_frames *f, const struct cg_observer *next, struct cg_observer *o);

/* After profile_finish(p): the clocks of the observer's times are known
 * (profile_primary, profile_has_other); the frames are sorted.  "Slowest"
 * is by the primary clock (wall unless --clock cpu). */
void frames_finish(struct cg_frames *f, const struct cg_profile *p);

/* The frame method's pattern. */
const char *frames_pattern(const struct cg_frames *f);

/* Frames, in order of start (then thread index): valid after
 * frames_finish.  Frame k of --range frame:k is frames_list()[k - 1]. */
size_t frames_count(const struct cg_frames *f);
const struct cg_frame *frames_list(const struct cg_frames *f);

/* The slowest frames (at most FRAMES_TOP) by the primary clock, slowest
 * first (then earlier start, then thread index), as indices into
 * frames_list. */
size_t frames_slowest(const struct cg_frames *f, const size_t **idx);
/* The methods with exclusive time inside slow frame frames_list()[i] (i
 * from frames_slowest), by time on the primary clock descending, then
 * symtab index; 0 for a frame that is not among them, or entered before
 * tracing (FRAME_ADOPTED: what it ran before the trace began is unknown, so
 * it has no breakdown). */
size_t frames_methods(const struct cg_frames *f, size_t i, const struct cg_frame_method **out);

/* Nearest-rank percentile q (in hundredths: 50, 90, 99, 100) of the
 * frames' durations on the wall (cpu = 0) or thread-CPU (cpu = 1) clock;
 * 0 without frames. */
uint64_t frames_percentile(const struct cg_frames *f, int cpu, unsigned q);

#endif

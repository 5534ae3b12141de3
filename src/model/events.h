/* events.h - every visible call's enter and leave in time order, per thread,
 * recorded during the single reading pass through the profile's observer,
 * for the exporters that need the real timeline (speedscope's evented
 * profiles, Chrome trace events).
 *
 * One 16-byte entry per enter and per leave, in blocks of EV_BLOCK entries.
 * Memory is bounded: once the blocks held reach the budget (EV_BUDGET bytes
 * by default), full blocks go to an unnamed temporary file in $TMPDIR (or
 * /tmp), read back a block at a time when an export walks a thread.  So an
 * export of a trace of any length needs the budget in memory and about 32
 * bytes of disk per call.  The log is built only when such an export is
 * asked for.
 *
 * A frame entered before tracing (observer adopt) spans [first, t] and is
 * the caller of everything its thread ran before t: its enter is listed
 * before the thread's recorded events, at time `first`; when a thread has
 * several, the one adopted last is the outermost.  Read a thread's events
 * with events_open and events_next: the adopted enters (outermost first)
 * followed by the recorded stream.  Enters and leaves nest properly; every enter has its
 * leave.
 *
 * The recorder owns its arrays; readers borrow them until events_free.
 */
#ifndef CG_EVENTS_H
#define CG_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "util/util.h"

#define EV_LEAVE UINT32_MAX

struct cg_event {
	uint64_t t;     /* time in us on the clock used */
	uint32_t midx;  /* method entered, or EV_LEAVE */
};

struct cg_events;

struct cg_events *events_create(void);
void events_free(struct cg_events *ev);

/* Fill *o with an observer recording into ev that first forwards every
 * event to next when next is not NULL (copied; its ctx is borrowed). */
void events_observer(struct cg_events *ev, const struct cg_observer *next,
		     struct cg_observer *o);

/* Memory held before blocks go to the temporary file (for tests; the
 * default is EV_BUDGET).  Call before the replay. */
#define EV_BLOCK 4096
#define EV_BUDGET ((size_t)32 << 20)
void events_set_budget(struct cg_events *ev, size_t bytes);

/* 0, or -1 with err set when the log could not be written to its
 * temporary file (the events after the failure are lost). */
int events_status(const struct cg_events *ev, struct cg_error *err);

/* A reader of thread i's events: the adopted enters (outermost first, all at
 * time `first`), then the recorded stream. */
struct cg_event_reader {
	const struct cg_events *ev;
	size_t thread, block;
	int phase;                /* 0 adopted enters, 1 blocks, 2 current, 3 end */
	struct cg_event *buf;     /* a block read back from the file */
};

/* Start reading thread i (any i: a thread that recorded nothing has no
 * events). */
void events_open(const struct cg_events *ev, size_t i, struct cg_event_reader *rd);

/* The next batch of events into *evs (valid until the next call): their
 * count, 0 at the end, or -1 with err set when the temporary file cannot
 * be read. */
long events_next(struct cg_event_reader *rd, const struct cg_event **evs, struct cg_error *err);

void events_close(struct cg_event_reader *rd);

#endif

/* events.h - every visible call's enter and leave in time order, per thread,
 * recorded during the single reading pass through the profile's observer,
 * for the exporters that need the real timeline (speedscope's evented
 * profiles, Chrome trace events).
 *
 * Memory is one 16-byte entry per enter and per leave: proportional to the
 * calls of the selected threads, like the exports made from it (whose text
 * is several times larger), so it is built only when such an export is
 * asked for.
 *
 * A frame entered before tracing (observer adopt) spans [first, t] and is
 * the caller of everything its thread ran before t: its enter is listed
 * before the thread's recorded events, at time `first`; when a thread has
 * several, the one adopted last is the outermost.  Read a thread's events
 * with events_thread: the adopted enters (outermost first) followed by the
 * recorded stream.  Enters and leaves nest properly; every enter has its
 * leave.
 *
 * The recorder owns its arrays; readers borrow them until events_free.
 */
#ifndef CG_EVENTS_H
#define CG_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

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

/* Profile thread indexes seen (threads beyond it recorded nothing). */
size_t events_thread_count(const struct cg_events *ev);

/* Thread i's events: *pre (n_pre adopted enters, outermost first, all at
 * time *first) then *evs (n).  Returns n_pre + n. */
size_t events_thread(const struct cg_events *ev, size_t i, const struct cg_event **pre,
		     size_t *n_pre, const struct cg_event **evs, size_t *n);

/* Enters recorded over all threads (adopted frames included). */
uint64_t events_calls(const struct cg_events *ev);

#endif

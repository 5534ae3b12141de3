/* observe_async.h - a replay observer run on a thread of its own.
 *
 * The observers that build the calling-context tree and the HTML timeline
 * cost about as much as the replay that feeds them.  Put
 * between the profile and them, this observer queues each event (in blocks,
 * 4 MB at most) and a second thread hands the events to the
 * observer behind it, in the same order: replay and observers then run at
 * the same time, and see exactly what they would in one thread.  Its
 * finish waits for the queue to drain, then finishes the observer behind.
 *
 * When the thread cannot be started, events go straight through.
 * Ownership: the queue borrows next's context, which must outlive it.
 */
#ifndef CG_OBSERVE_ASYNC_H
#define CG_OBSERVE_ASYNC_H

#include "model/profile.h"

struct cg_observe_async;

struct cg_observe_async *observe_async_create(const struct cg_observer *next);
/* Waits for the thread (if finish was not reached: an error ended the
 * replay), then frees. */
void observe_async_free(struct cg_observe_async *a);
/* Fill *o with the queue's end (pass it to profile_set_observer). */
void observe_async_observer(struct cg_observe_async *a, struct cg_observer *o);

#endif

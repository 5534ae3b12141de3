/* pagelog.h - the HTML report's call log: every enter and leave of every
 * thread in replay order, each with the thread's time on both clocks, so
 * the page can replay any time window of the trace itself.
 *
 * Recorded during the single reading pass through the profile's observer.
 * An enter is a record that entered a method, a leave a record that left
 * the top frame, an adopt a record that left a frame entered before
 * tracing (an exit on an empty stack); the leaves the profile makes when
 * the replay ends, for frames still open, follow a thread's last record.
 *
 * Memory is bounded by the budget: one 24-byte entry per event, at most
 * PAGELOG_CALLS calls (enters and adopts) over all threads.  Past it the
 * log is dropped (pagelog_over) and the page offers only what needs no
 * log.  The log owns its arrays; readers borrow them until pagelog_free.
 */
#ifndef CG_PAGELOG_H
#define CG_PAGELOG_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

#define PAGELOG_CALLS 250000
/* The page replays windows of traces with at most this many threads (each
 * costs its log's header in the page, called or not). */
#define PAGELOG_THREADS 4096

enum { PL_ENTER, PL_LEAVE, PL_ADOPT };

struct cg_pagelog_event {
	uint64_t t;      /* the thread's time on the primary clock */
	uint64_t o_t;    /* on the other clock of a dual-clock trace, else 0 */
	uint32_t midx;   /* method entered or adopted (symtab index); 0 for a leave */
	uint32_t kind;   /* PL_* */
};

struct cg_pagelog;

struct cg_pagelog *pagelog_create(void);
void pagelog_free(struct cg_pagelog *pl);

/* Calls allowed before the log is dropped (for tests; the default is
 * PAGELOG_CALLS).  Call before the replay. */
void pagelog_set_budget(struct cg_pagelog *pl, size_t calls);

/* Fill *o with an observer recording into pl that forwards every event to
 * next when next is not NULL (copied; its ctx is borrowed).  Past the
 * budget it gives way to next (cg_observer.bypass) and stops counting:
 * pagelog_count_calls then gives the count. */
void pagelog_observer(struct cg_pagelog *pl, const struct cg_observer *next, struct cg_observer *o);
/* The calls of a whole replay of the records the log saw
 * (profile_calls_told), once it has ended: the count of a log over its
 * budget. */
void pagelog_count_calls(struct cg_pagelog *pl, uint64_t calls);

/* 1 when the calls went past the budget (the log holds nothing then). */
int pagelog_over(const struct cg_pagelog *pl);
/* Calls logged, or seen when over the budget; the budget. */
size_t pagelog_calls(const struct cg_pagelog *pl);
size_t pagelog_budget(const struct cg_pagelog *pl);

/* Thread i's events (profile thread index), in order; 0 and NULL for a
 * thread with none. */
size_t pagelog_thread(const struct cg_pagelog *pl, size_t i, const struct cg_pagelog_event **ev);

#endif

/* waiting.h - which methods were waiting rather than working.
 *
 * With both clocks (view->has_other), a method is waiting when its
 * inclusive time is at least 90 % off-CPU: its cpu time is at most 10 % of
 * its wall time (wall time above 0).  A single-clock trace cannot tell, so
 * there the known blocking methods are waiting: the methods that park or
 * sleep the calling thread (Object.wait, Thread.sleep, Unsafe.park,
 * LockSupport.park*, Thread.join, MessageQueue.nativePollOnce, a binder
 * transaction's BinderProxy.transact(Native), ...; see waiting.c for the
 * list and the reason for each).
 *
 * Renderers use this to keep waits off the hot end of their colour scales.
 * Nothing is allocated; the view and method are borrowed.
 */
#ifndef CG_WAITING_H
#define CG_WAITING_H

#include "model/profile.h"
#include "read/symtab.h"

/* Off-CPU share at or above which a method is waiting, in percent. */
#define WAITING_OFF_CPU_PCT 90
/* Share of a thread's time spent waiting at or above which the thread is
 * idle (roots.h), in percent. */
#define WAITING_THREAD_PCT 90

/* 1 when m is one of the known blocking methods. */
int waiting_known(const struct cg_method_info *m);

/* 1 when an inclusive time of wall and cpu us was waiting by the off-CPU
 * rule above (wall above 0, cpu at most 10 % of it). */
int waiting_off_cpu(uint64_t wall, uint64_t cpu);

/* 1 when pm (a method of v) was waiting, by the rule above. */
int waiting_method(const struct cg_view *v, const struct cg_pmethod *pm);

/* Wall and cpu inclusive time of pm; 0 and the method's cpu or wall time
 * when v has only one clock.  Returns 1 when both are known. */
int waiting_clocks(const struct cg_view *v, const struct cg_pmethod *pm, uint64_t *wall,
		   uint64_t *cpu);

/* The rule in effect for v, plain text for legends: ">= 90% off-CPU
 * (cpu <= 10% of wall)" or "known blocking methods (wait, ...)". */
const char *waiting_rule(const struct cg_view *v);

#endif

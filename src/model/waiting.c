/* waiting.c - waiting methods: off-CPU share with both clocks, else a list
 * of the methods known to block the calling thread. */
#include "model/waiting.h"

#include <string.h>

/* Known blocking methods, as "class" (slashes or dots) and a method name;
 * a name ending in '*' matches as a prefix.  Each parks, sleeps or blocks
 * the calling thread in the kernel, so its time on a wall clock is time the
 * thread was not running:
 *   Object.wait            monitor wait (also behind Thread.join)
 *   Thread.sleep/VMThread.sleep/SystemClock.sleep   timed sleep
 *   Thread.join            waits for another thread to end
 *   Unsafe.park/LockSupport.park*   j.u.c locks, queues, futures
 *   Thread.parkFor$        ART's implementation of park on older releases
 *   MessageQueue.nativePollOnce     the Looper idling in epoll
 *   BinderProxy.transact(Native)    a synchronous binder call: the caller
 *                          sleeps until the other process replies
 *   Linux.poll/accept/recvfrom/read, SocketInputStream.socketRead0: blocking
 *                          I/O through libcore */
static const struct {
	const char *klass;
	const char *name;
} known[] = {
	{ "java.lang.Object", "wait" },
	{ "java.lang.Thread", "sleep" },
	{ "java.lang.Thread", "join" },
	{ "java.lang.Thread", "parkFor$" },
	{ "java.lang.VMThread", "sleep" },
	{ "android.os.SystemClock", "sleep" },
	{ "sun.misc.Unsafe", "park" },
	{ "jdk.internal.misc.Unsafe", "park" },
	{ "java.util.concurrent.locks.LockSupport", "park*" },
	{ "android.os.MessageQueue", "nativePollOnce" },
	{ "android.os.BinderProxy", "transactNative" },
	{ "android.os.BinderProxy", "transact" },
	{ "libcore.io.Linux", "poll" },
	{ "libcore.io.Linux", "accept" },
	{ "libcore.io.Linux", "recvfrom" },
	{ "java.net.SocketInputStream", "socketRead0" },
};

/* 1 when klass (with '/' or '.') is the dotted name want. */
static int class_is(const char *klass, const char *want)
{
	for (; *klass && *want; klass++, want++)
		if (*klass != *want && !(*klass == '/' && *want == '.'))
			return 0;
	return *klass == '\0' && *want == '\0';
}

static int name_is(const char *name, const char *want)
{
	size_t n = strlen(want);

	if (n && want[n - 1] == '*')
		return strncmp(name, want, n - 1) == 0;
	return strcmp(name, want) == 0;
}

int waiting_known(const struct cg_method_info *m)
{
	size_t i;

	/* First characters first: nearly every method differs from every
	 * listed one there, so most lookups compare no string (the profile
	 * asks once per method of the key). */
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (m->klass[0] == known[i].klass[0] && m->name[0] == known[i].name[0] &&
		    class_is(m->klass, known[i].klass) && name_is(m->name, known[i].name))
			return 1;
	return 0;
}

int waiting_clocks(const struct cg_view *v, const struct cg_pmethod *pm, uint64_t *wall,
		   uint64_t *cpu)
{
	if (!v->has_other) {
		*wall = v->primary == CG_USE_WALL ? pm->incl_us : 0;
		*cpu = v->primary == CG_USE_CPU ? pm->incl_us : 0;
		return 0;
	}
	*wall = v->primary == CG_USE_WALL ? pm->incl_us : pm->o_incl_us;
	*cpu = v->primary == CG_USE_WALL ? pm->o_incl_us : pm->incl_us;
	return 1;
}

int waiting_off_cpu(uint64_t wall, uint64_t cpu)
{
	/* cpu <= (100 - 90) % of wall, in integers: cpu * 100 <= wall * 10.
	 * Times are far below 2^57 us, so neither product overflows. */
	return wall > 0 && cpu * 100 <= wall * (100 - WAITING_OFF_CPU_PCT);
}

int waiting_method(const struct cg_view *v, const struct cg_pmethod *pm)
{
	uint64_t wall, cpu;
	struct cg_method_info tmp;

	if (!waiting_clocks(v, pm, &wall, &cpu))
		return waiting_known(profile_method(v, pm, &tmp));
	return waiting_off_cpu(wall, cpu);
}

const char *waiting_rule(const struct cg_view *v)
{
	if (v->has_other)
		return ">= 90% off-CPU (cpu <= 10% of wall)";
	return "known blocking methods (wait, sleep, park, join, poll, binder)";
}

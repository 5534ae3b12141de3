/* thread.c - a helper thread for output work (see thread.h). */
#include "util/thread.h"

#include <signal.h>

int thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc, attr_ok = pthread_attr_init(&attr) == 0;

	if (attr_ok)
		(void)pthread_attr_setstacksize(&attr, THREAD_HELPER_STACK);
	sigfillset(&all);
	sigdelset(&all, SIGPIPE);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(t, attr_ok ? &attr : NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (attr_ok)
		pthread_attr_destroy(&attr);
	return rc;
}

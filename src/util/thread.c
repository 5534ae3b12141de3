/* thread.c - a helper thread for output work (see thread.h). */
#include "util/thread.h"

#include <signal.h>

int thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	return thread_start_stack(t, THREAD_HELPER_STACK, fn, arg);
}

int thread_start_stack(pthread_t *t, size_t stack, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc, attr_ok = pthread_attr_init(&attr) == 0;

	if (attr_ok)
		(void)pthread_attr_setstacksize(&attr, stack);
	sigfillset(&all);
	sigdelset(&all, SIGPIPE);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(t, attr_ok ? &attr : NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (attr_ok)
		pthread_attr_destroy(&attr);
	return rc;
}

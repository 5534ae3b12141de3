/* thread.h - a helper thread: output work (writing, compressing), the
 * replay's ranges, the observers' hand-over and the HTML report's parts.
 *
 * The thread gets a small stack (it recurses nowhere) and every signal
 * blocked but SIGPIPE: the fatal-signal handler (temporary files) runs on
 * the caller's thread, and a write to a closed pipe still ends the run as
 * it would there.
 */
#ifndef CG_THREAD_H
#define CG_THREAD_H

#include <pthread.h>
#include <stddef.h>

/* Start fn(arg) on *t with a stack of THREAD_HELPER_STACK bytes (fn recurses
 * nowhere and writes through the C library at most): 0, or an error number
 * (then no thread runs). */
#define THREAD_HELPER_STACK (256u << 10)
int thread_start(pthread_t *t, void *(*fn)(void *), void *arg);
/* thread_start with a stack of `stack` bytes. */
int thread_start_stack(pthread_t *t, size_t stack, void *(*fn)(void *), void *arg);

#endif

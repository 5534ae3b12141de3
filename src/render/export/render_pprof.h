/* render_pprof.h - the profile as pprof's profile.proto, gzip-compressed,
 * as `go tool pprof` reads it.
 *
 * One sample per distinct stack of the calling-context tree (r->cct, which
 * must be set) with values [calls, time on the clock used] and the thread
 * as labels "thread" (name) and "tid" (number).  Time is in microseconds
 * and calls are the stack's activations, so pprof's flat and cum of a
 * function are its exclusive and inclusive time (inclusive counting the
 * outermost activation only, as callgraph does) and its flat calls are all
 * its calls, recursive ones included.  A thread's time outside any method
 * is a sample of one frame named "[NAME]" after the thread.  Functions are
 * named as exportname.h says, with the class, method and JVM descriptor as
 * the system name and the source file as the file name.  Stacks deeper than
 * PPROF_MAX_DEPTH frames end in one frame "[deeper frames]" that holds all
 * the time and calls below.  No time stamp is written: the same trace gives
 * the same bytes.  The renderer borrows r. */
#ifndef CG_RENDER_PPROF_H
#define CG_RENDER_PPROF_H

#include "render/report.h"

#define PPROF_MAX_DEPTH 512

extern const struct cg_renderer render_pprof;

#endif

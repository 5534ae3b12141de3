/* writer.h - a strbuf sink run on a thread of its own.
 *
 * A renderer formats while the bytes it has spilled are written: writing a
 * large file (hundreds of megabytes of folded stacks or speedscope JSON) is
 * mostly the kernel's copying into the page cache, which then runs on
 * another core instead of after each chunk.  writer_sink copies a chunk into
 * one of a few slots and returns; the thread hands the slots to the sink
 * behind it, in order.  A chunk larger than a slot may hold is handed over by
 * the caller once the slots are written, so memory stays bounded.  Once the
 * sink refuses a chunk, later chunks are dropped and writer_sink and
 * writer_close return -1.  Signals stay with the caller's thread, except
 * SIGPIPE, which a write raises on the thread that made it.
 */
#ifndef CG_WRITER_H
#define CG_WRITER_H

#include <stddef.h>

#include "util/strbuf.h"

struct cg_writer;

/* A writer onto sink(ctx, ...), or NULL when no thread can be started (the
 * caller then writes through sink itself). */
struct cg_writer *writer_create(strbuf_sink_fn sink, void *ctx);
/* A strbuf_sink_fn onto writer w: 0, or -1 once the sink has refused a
 * chunk (this one or an earlier one). */
int writer_sink(void *w, const void *p, size_t n);
/* Wait until every chunk is written, stop the thread and free w.  0, or -1
 * when the sink refused a chunk.  NULL is fine (0). */
int writer_close(struct cg_writer *w);

#endif

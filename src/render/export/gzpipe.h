/* gzpipe.h - a gzip stream (level 1, no name, time 0) that a renderer
 * feeds as it goes, compressed on a thread of its own when asked.
 *
 * The renderer appends to a buffer of its own and hands it over with
 * gzpipe_pump, which takes it once it holds GZPIPE_PIECE bytes (or all of
 * it at the end); the compressed bytes go to out, which is spilled to its
 * sink as they come.  With a thread, the renderer fills its next piece
 * while the last one is compressed: deflate is given the same pieces in
 * the same order either way, so the bytes are the same.  Without one, or
 * when it cannot be started, gzpipe_pump compresses at once.
 * Ownership: the pipe borrows out until gzpipe_end.
 */
#ifndef CG_GZPIPE_H
#define CG_GZPIPE_H

#include "util/util.h"
#include "util/strbuf.h"

#define GZPIPE_PIECE ((size_t)1 << 20)

struct cg_gzpipe;

struct cg_gzpipe *gzpipe_create(struct strbuf *out, int threaded);
/* Take in's bytes (in is left empty) when it holds a piece, or when
 * finish ends the stream with them. */
void gzpipe_pump(struct cg_gzpipe *g, struct strbuf *in, int finish);
/* Wait for the thread and free g: 0, or -1 with err filled when the
 * stream could not be compressed (out then holds no valid stream). */
int gzpipe_end(struct cg_gzpipe *g, struct cg_error *err);

#endif

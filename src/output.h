/* output.h - write a finished output atomically: to a temporary file beside
 * the target, then rename, so a failure never leaves a partial or empty
 * file and never clobbers the input.  "-" is standard output. */
#ifndef CG_OUTPUT_H
#define CG_OUTPUT_H

#include <stddef.h>

#include "util.h"

/* Two phases, so that several outputs appear together or not at all:
 * output_stage writes a temporary file beside path (standard output, a
 * device or a FIFO is only opened) and returns a handle, or NULL with err
 * filled; output_commit renames it into place (or writes it) and frees the
 * handle, returning 0 or -1 with err filled; output_abort removes the
 * temporary file and frees the handle (NULL is fine).  data is borrowed
 * until the commit or abort. */
struct cg_staged;
struct cg_staged *output_stage(const char *path, const void *data, size_t len,
			       struct cg_error *err);
int output_commit(struct cg_staged *s, struct cg_error *err);
void output_abort(struct cg_staged *s);
/* 1 when path and other name the same existing file. */
int output_same_file(const char *path, const char *other);

#endif

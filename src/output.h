/* output.h - write a finished output atomically: to a temporary file beside
 * the target, then rename, so a failure never leaves a partial or empty
 * file and never clobbers the input.  "-" is standard output. */
#ifndef CG_OUTPUT_H
#define CG_OUTPUT_H

#include <stddef.h>

#include "util.h"

/* Write len bytes to path.  Returns 0, or -1 with err filled (no offset). */
int output_write(const char *path, const void *data, size_t len, struct cg_error *err);
/* 1 when path and other name the same existing file. */
int output_same_file(const char *path, const char *other);

#endif

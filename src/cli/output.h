/* output.h - output files that appear whole or not at all.
 *
 * An output is opened before the trace is read (so that an unwritable path
 * fails at once), written while or after rendering, and committed at the
 * end: a regular file is written to an unnamed temporary file (O_TMPFILE)
 * in the target's directory and linked into place at commit, so that no run
 * -- not even one killed by SIGKILL -- leaves a partial file.  Where the file
 * system has no O_TMPFILE, a named temporary file beside the target is used
 * instead; output_signal_cleanup removes those on a fatal signal.  "-" is
 * standard output; a device, FIFO or socket is written in place.  Output to
 * a terminal is filtered by termsafe.h; files keep their bytes.
 *
 * Existing targets keep their mode; a symlink (even a dangling one) is
 * written through to the file it names.  The handle owns its descriptors
 * and names; output_commit and output_abort free it.
 */
#ifndef CG_OUTPUT_H
#define CG_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "util/util.h"

/* Outputs one run may have open at once (one per output kind). */
#define OUTPUT_MAX_OPEN 16

struct cg_staged;
/* Open path for writing.  NULL and err filled ("cannot create ...", "cannot
 * write ...: is a directory") on failure; nothing is created then. */
struct cg_staged *output_open(const char *path, struct cg_error *err);
/* Append len bytes.  0, or -1 with err filled (EFBIG, ENOSPC, EPIPE...). */
int output_write(struct cg_staged *s, const void *data, size_t len, struct cg_error *err);
/* 1 when s is a regular file (staged), 0 for standard output, a device or
 * a FIFO (written in place: no atomicity to keep). */
int output_is_staged(const struct cg_staged *s);
/* Put the file in place (or flush standard output) and free s.  0, or -1
 * with err filled; the target is then unchanged. */
int output_commit(struct cg_staged *s, struct cg_error *err);
/* Drop the output: the target is unchanged.  NULL is fine. */
void output_abort(struct cg_staged *s);

/* A strbuf sink (strbuf.h) onto the output s (an output_open handle):
 * output_write, with the first failure's message kept for output_failure. */
int output_sink(void *s, const void *data, size_t len);
/* The message of the write through output_sink that failed, or NULL. */
const char *output_failure(const struct cg_staged *s);
/* A stdio stream onto s, for writers that print (the -o dump): standard
 * output itself when s is standard output and no terminal.  Close it with
 * output_stream_close before s is committed; 0, or -1 with errno set. */
FILE *output_stream(struct cg_staged *s);
int output_stream_close(struct cg_staged *s, FILE *f);

/* The outputs of one run, opened together before the trace is read and
 * committed together at the end: every file appears, or none does. */
struct cg_output_set;
struct cg_output_set *output_set_create(void);
/* Open path (output_open) as the set's next output; the set owns the
 * handle.  NULL with err filled on failure, or when OUTPUT_MAX_OPEN are
 * already open. */
struct cg_staged *output_set_open(struct cg_output_set *set, const char *path,
				  struct cg_error *err);
/* Commit every output in the order opened and free set.  After the first
 * failure the rest are dropped; 0, or -1 with err filled. */
int output_set_commit(struct cg_output_set *set, struct cg_error *err);
/* Drop every output (no target changes) and free set.  NULL is fine. */
void output_set_abort(struct cg_output_set *set);

/* 1 when path and other name the same existing file. */
int output_same_file(const char *path, const char *other);
/* 1 when path names the file open on descriptor fd (e.g. 0, standard input). */
int output_same_as_fd(const char *path, int fd);
/* Remove every named temporary file still open.  Async-signal-safe: for a
 * fatal-signal handler. */
void output_signal_cleanup(void);

#endif

/* source.h - the bytes of a trace: a file, standard input, a gzip stream, or
 * the legacy NAME.key + NAME.data pair read as one stream.
 *
 * The format is sniffed from the bytes (gzip magic 1f 8b), never from the
 * name.  Offsets reported are offsets in the decompressed stream.
 * The source owns its file descriptors and buffers.
 */
#ifndef CG_SOURCE_H
#define CG_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/util.h"

struct cg_source;

/* Open path ("-" = standard input).  When path does not exist but
 * path.key and path.data do (or path ends in .key/.data and its twin exists),
 * the pair is opened as one stream.  NULL and err filled on failure. */
struct cg_source *source_open(const char *path, struct cg_error *err);
/* The legacy pair a path names: NAME.key and NAME.data, where path is NAME,
 * NAME.key or NAME.data.  Both strings are the caller's to free. */
void source_pair_names(const char *path, char **key, char **data);
/* A source over bytes in memory (not copied; must outlive the source). */
struct cg_source *source_open_mem(const void *data, size_t len);
void source_free(struct cg_source *src);

/* Read up to n bytes; returns the count, 0 at end, -1 on error (err filled). */
ssize_t source_read(struct cg_source *src, void *buf, size_t n, struct cg_error *err);
/* Compressed bytes consumed so far and total input size for progress; the
 * total is 0 when unknown (pipes). */
void source_progress(const struct cg_source *src, uint64_t *done, uint64_t *total);
/* 1 when the input was gzip-compressed, 2 when it was a legacy split pair. */
int source_kind(const struct cg_source *src);
/* Whether any byte of the stream can be read at any time (source_pread):
 * a regular file, a pair of them, or bytes in memory; not gzip, not
 * standard input, no byte limit.  1 with the stream's size in *size, or 0. */
int source_span(const struct cg_source *src, uint64_t *size);
/* Read up to n bytes at stream offset off of a source_span source, without
 * moving its position; safe from several threads at once.  Returns the
 * count (short only at the end), or -1 (err filled). */
ssize_t source_pread(const struct cg_source *src, void *buf, size_t n, uint64_t off,
		     struct cg_error *err);
/* Go on reading a source_span source at stream offset off. */
void source_seek(struct cg_source *src, uint64_t off);
/* The n bytes of head (what was read of src so far) and the rest of src,
 * copied to an unnamed temporary file: a new source that source_span
 * accepts, positioned after head.  src is read to its end and stays the
 * caller's.  NULL (err filled) on a read error of src or when the copy
 * cannot be written. */
struct cg_source *source_spool(struct cg_source *src, const void *head, size_t n,
			       struct cg_error *err);
/* Cap on decompressed bytes (gzip bombs); 0 = none.  Exceeding it is an error. */
void source_set_limit(struct cg_source *src, uint64_t max_bytes);

#endif

/* source_spool.c - a copy of the input in an unnamed temporary file, for a
 * reader that must seek in an input that cannot (standard input, gzip). */
#include "read/source_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/unnamed.h"

struct cg_source *source_spool(struct cg_source *src, const void *head, size_t n,
			       struct cg_error *err)
{
	struct cg_source *s = source_new();
	unsigned char *buf = NULL;
	uint64_t size = n;
	ssize_t r;

	s->owns_fds = 1;
	s->nfds = 1;
	s->fds[0] = unnamed_open("input");
	if (s->fds[0] < 0) {
		cg_error_set(err, -1, "cannot create a temporary copy of the input: %s",
			     strerror(errno));
		goto fail;
	}
	if (unnamed_write(s->fds[0], head, n))
		goto write_fail;
	buf = xmalloc(SLOT);
	while ((r = source_read(src, buf, SLOT, err)) > 0) {
		if (unnamed_write(s->fds[0], buf, (size_t)r))
			goto write_fail;
		size += (uint64_t)r;
	}
	if (r < 0)
		goto fail;
	free(buf);
	s->in_total = size;
	source_seek(s, n);
	return s;
write_fail:
	cg_error_set(err, (int64_t)size, "cannot write a temporary copy of the input: %s",
		     strerror(errno));
fail:
	free(buf);
	source_free(s);
	return NULL;
}


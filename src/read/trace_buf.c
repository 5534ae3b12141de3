/* trace_buf.c - the reader's window on its input: the bytes from t->pos
 * that trace.c, trace_key.c, trace_v2.c and trace_v2meta.c decode, read
 * from the source as they are needed. */
#include "read/trace_int.h"

#include <string.h>

#include "read/source.h"
#include "util/util.h"

/* Make at least `need` bytes available from t->pos.  Returns the number
 * available (less than need only at end of input), or -1 on a read error.
 * The buffer grows with the data actually read, never with a claimed size. */
ssize_t trace_ensure(struct cg_trace *t, size_t need, struct cg_error *err)
{
	while (t->len - t->pos < need && !t->eof) {
		ssize_t r;

		if (t->pos > 0 && (t->pos >= t->len / 2 || t->len == t->cap)) {
			memmove(t->buf, t->buf + t->pos, t->len - t->pos);
			t->base += t->pos;
			t->len -= t->pos;
			t->pos = 0;
		}
		if (t->len == t->cap)
			t->buf = xgrow(t->buf, &t->cap, t->cap + 1, 1);
		r = source_read(t->src, t->buf + t->len, t->cap - t->len, err);
		if (r < 0)
			return -1;
		if (r == 0)
			t->eof = 1;
		t->len += (size_t)r;
	}
	return (ssize_t)(t->len - t->pos);
}

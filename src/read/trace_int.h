/* trace_int.h - the reader's state, shared by trace.c (binary header,
 * v1-v3 records, streaming items), trace_buf.c (the input window),
 * trace_key.c (key and summary text), trace_v2.c (the V2 packet layout:
 * header, event blocks) and trace_v2meta.c (its method, thread and summary
 * packets).  Private to the reader: nothing else includes it.
 */
#ifndef CG_TRACE_INT_H
#define CG_TRACE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"
#include "read/trace.h"

enum { ST_RECORDS, ST_DONE };

struct cg_v2;

struct cg_trace {
	struct cg_source *src;
	struct cg_source *spool; /* owned: src copied to a temporary file (V2) */
	struct cg_symtab *st;
	struct cg_trace_info info;
	char *vm;
	struct strbuf key;     /* a V2 summary's text, while it is checked */

	unsigned char *buf;
	size_t cap, len, pos;
	uint64_t base;         /* stream offset of buf[0] */
	int eof;

	int rec_size;
	int tid_bytes;         /* 1 (v1) or 2 */
	int dual;              /* records carry thread-CPU then wall time */
	int state;
	struct cg_v2 *v2;      /* V2 packet reader, NULL for v1-v3 */
};

static inline uint64_t trace_off(const struct cg_trace *t, size_t pos)
{
	return t->base + pos;
}

/* trace_buf.c: make at least `need` bytes available from t->pos (fewer
 * only at the end of input).  Returns the number available, or -1 on a
 * read error. */
ssize_t trace_ensure(struct cg_trace *t, size_t need, struct cg_error *err);
/* Parse a key section or summary text from t->pos through "*end" (the
 * caller confines t->len to the text).  `summary` selects summary rules. */
int trace_parse_key(struct cg_trace *t, int summary, struct cg_error *err);
/* Parse the len bytes at t->pos as a summary (a key section confined to
 * its own bytes: *version and the threads and methods it names); t->len
 * and t->eof are restored after.  Returns 0 or -1 (err filled). */
int trace_parse_summary(struct cg_trace *t, size_t len, struct cg_error *err);
/* One *methods line (also a streaming NEW METHOD item's text), split in
 * place; `off` is where it starts. */
int trace_parse_method_line(struct cg_trace *t, char *line, uint64_t off, struct cg_error *err);
/* At most n-1 bytes of s, control and non-ASCII bytes shown as '?'. */
const char *trace_excerpt(const char *s, char *buf, size_t n);

/* trace_v2.c: the V2 packet layout (header versions 4, 5, 0xF4, 0xF5). */
int v2_open(struct cg_trace *t, struct cg_error *err);
int v2_next(struct cg_trace *t, struct cg_record *recs, size_t max, size_t *n,
	    struct cg_error *err);
void v2_free(struct cg_v2 *v);

#endif

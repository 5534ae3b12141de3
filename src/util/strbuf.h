/* strbuf.h - a growable byte buffer and the escapers every output needs.
 *
 * Renderers append their output to a strbuf.  A buffer may have a sink
 * (strbuf_set_sink): then a renderer's strbuf_spill, called where it no
 * longer looks back at what it appended, hands the bytes held to the sink
 * once there are STRBUF_SPILL of them, so a large output is written in
 * bounded chunks rather than built whole.  The output file behind a sink is
 * staged (output.h), so a failure still leaves no partial file.  The buffer
 * owns its bytes; strbuf_free releases them.
 */
#ifndef CG_STRBUF_H
#define CG_STRBUF_H

#include <stddef.h>
#include <stdint.h>

/* Bytes held before strbuf_spill hands them to the sink. */
#define STRBUF_SPILL ((size_t)1 << 20)

/* Where a buffer's bytes go: 0, or nonzero when they could not be written. */
typedef int (*strbuf_sink_fn)(void *ctx, const void *p, size_t n);

struct strbuf {
	char *data; /* always NUL-terminated when len > 0 or after strbuf_init */
	size_t len;
	size_t cap;
	strbuf_sink_fn sink; /* NULL: everything stays in the buffer */
	void *sink_ctx;
	size_t spill_at;     /* strbuf_spill hands over this many (STRBUF_SPILL) */
	int sink_failed;     /* the sink refused once; later bytes are dropped */
};

void strbuf_init(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const void *p, size_t n);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_grow_slow(struct strbuf *sb, size_t extra);
/* Room for extra more bytes and the NUL.  Inline: names, escapes and
 * varints append a few bytes at a time. */
static inline void strbuf_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 > sb->cap)
		strbuf_grow_slow(sb, extra);
}
static inline void strbuf_putc(struct strbuf *sb, char c)
{
	strbuf_grow(sb, 1);
	sb->data[sb->len++] = c;
	sb->data[sb->len] = '\0';
}
void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* s padded with spaces to width: on the left as printf's "%*s"
 * (strbuf_put_right), on the right as "%-*s" (strbuf_put_left).  For the
 * rows of large tables, where printf's parsing costs more than the row. */
void strbuf_put_right(struct strbuf *sb, size_t width, const char *s);
void strbuf_put_left(struct strbuf *sb, size_t width, const char *s);
/* v in decimal ("%" PRIu64) and in lower-case hex ("%" PRIx64). */
void strbuf_put_u64(struct strbuf *sb, uint64_t v);
void strbuf_put_hex(struct strbuf *sb, uint64_t v);
/* Send what sb holds, now and at every strbuf_spill, to sink(ctx, ...). */
void strbuf_set_sink(struct strbuf *sb, strbuf_sink_fn sink, void *ctx);
/* With a sink and at least spill_at bytes held: hand them over and
 * empty sb.  Call it only where nothing appended so far is looked at again. */
void strbuf_spill(struct strbuf *sb);
/* Hand everything held to the sink (if any).  0, or -1 when the sink failed
 * now or at an earlier spill. */
int strbuf_flush(struct strbuf *sb);
/* Detach the bytes: the caller owns the returned pointer; sb is emptied. */
char *strbuf_detach(struct strbuf *sb, size_t *len);

/* Length of the well-formed UTF-8 sequence at s (1 to 4), or 0 when s does
 * not start one (overlong forms, surrogates, > U+10FFFF).  s is
 * NUL-terminated, so a truncated sequence stops at the NUL. */
size_t strbuf_utf8_len(const unsigned char *s);

/* Escapers append s (NUL-terminated bytes, possibly invalid UTF-8) escaped. */
/* HTML text and attribute values: & < > " ' as entities; invalid UTF-8 and
 * control characters other than tab, LF and CR become U+FFFD, so the page
 * stays valid UTF-8 whatever the trace holds. */
void strbuf_put_html(struct strbuf *sb, const char *s);
/* JSON string body (no quotes): \" \\ control chars; invalid UTF-8 bytes are
 * replaced by U+FFFD so the document stays valid JSON. */
void strbuf_put_json(struct strbuf *sb, const char *s);
/* The same in quotes: a whole JSON string. */
void strbuf_put_json_string(struct strbuf *sb, const char *s);

#endif

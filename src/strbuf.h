/* strbuf.h - a growable byte buffer and the escapers every output needs.
 *
 * Renderers build their whole output in a strbuf and hand it to an output
 * file only when it is complete, so a failure never leaves a partial file.
 * The buffer owns its bytes; strbuf_free releases them.
 */
#ifndef CG_STRBUF_H
#define CG_STRBUF_H

#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char *data; /* always NUL-terminated when len > 0 or after strbuf_init */
	size_t len;
	size_t cap;
};

void strbuf_init(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const void *p, size_t n);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_putc(struct strbuf *sb, char c);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
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

#endif

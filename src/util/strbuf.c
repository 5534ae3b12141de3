/* strbuf.c - growable byte buffer and output escapers. */
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

void strbuf_init(struct strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void strbuf_set_sink(struct strbuf *sb, strbuf_sink_fn sink, void *ctx)
{
	sb->sink = sink;
	sb->sink_ctx = ctx;
	sb->spill_at = STRBUF_SPILL;
	sb->sink_failed = 0;
}

int strbuf_flush(struct strbuf *sb)
{
	if (sb->sink && sb->len) {
		if (!sb->sink_failed && sb->sink(sb->sink_ctx, sb->data, sb->len) != 0)
			sb->sink_failed = 1;
		strbuf_reset(sb);
	}
	return sb->sink_failed ? -1 : 0;
}

void strbuf_spill(struct strbuf *sb)
{
	if (sb->sink && sb->len >= sb->spill_at)
		strbuf_flush(sb);
}

void strbuf_free(struct strbuf *sb)
{
	if (!sb)
		return;
	free(sb->data);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->data)
		sb->data[0] = '\0';
}

static void reserve(struct strbuf *sb, size_t extra)
{
	sb->data = xgrow(sb->data, &sb->cap, sb->len + extra + 1, 1);
}

void strbuf_add(struct strbuf *sb, const void *p, size_t n)
{
	reserve(sb, n);
	memcpy(sb->data + sb->len, p, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_grow_slow(struct strbuf *sb, size_t extra)
{
	reserve(sb, extra);
}

/* n spaces. */
static void put_spaces(struct strbuf *sb, size_t n)
{
	reserve(sb, n);
	memset(sb->data + sb->len, ' ', n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void strbuf_put_right(struct strbuf *sb, size_t width, const char *s)
{
	size_t n = strlen(s);

	if (n < width)
		put_spaces(sb, width - n);
	strbuf_add(sb, s, n);
}

void strbuf_put_left(struct strbuf *sb, size_t width, const char *s)
{
	size_t n = strlen(s);

	strbuf_add(sb, s, n);
	if (n < width)
		put_spaces(sb, width - n);
}

void strbuf_put_u64(struct strbuf *sb, uint64_t v)
{
	char buf[24];

	strbuf_add(sb, buf, fmt_u64(buf, v));
}

void strbuf_put_hex(struct strbuf *sb, uint64_t v)
{
	char buf[17];

	strbuf_add(sb, buf, fmt_hex(buf, v));
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	reserve(sb, 64);
	va_start(ap, fmt);
	n = vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sb->cap - sb->len) {
		reserve(sb, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *p;

	reserve(sb, 0);
	sb->data[sb->len] = '\0'; /* also when nothing was ever added */
	p = sb->data;
	if (len)
		*len = sb->len;
	strbuf_init(sb);
	return p;
}

void strbuf_put_html(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)str, *run = s;

	while (*s) {
		const char *rep;
		size_t k = 1;

		switch (*s) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default:
			/* Invalid UTF-8 and control characters would make the page
			 * invalid: each becomes U+FFFD. */
			if ((*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r') || *s == 0x7f ||
			    (k = strbuf_utf8_len(s)) == 0) {
				rep = "\xef\xbf\xbd";
				k = 1;
				break;
			}
			s += k;
			continue;
		}
		strbuf_add(sb, run, (size_t)(s - run));
		strbuf_puts(sb, rep);
		s += k;
		run = s;
	}
	strbuf_add(sb, run, (size_t)(s - run));
}

size_t strbuf_utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n, i;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void strbuf_put_json(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)str, *run = s;

	for (;;) {
		unsigned c = *s;
		size_t n;

		/* Bytes that need no escape are copied a run at a time. */
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			s++;
			continue;
		}
		if (c >= 0x80 && (n = strbuf_utf8_len(s)) != 0) {
			s += n;
			continue;
		}
		strbuf_add(sb, run, (size_t)(s - run));
		if (!c)
			return;
		if (c == '"' || c == '\\')
			strbuf_add(sb, (const char[]){ '\\', (char)c }, 2);
		else if (c < 0x20 || c == 0x7f)
			strbuf_printf(sb, "\\u%04x", c);
		else /* invalid UTF-8 */
			strbuf_add(sb, "\xef\xbf\xbd", 3);
		run = ++s;
	}
}

void strbuf_put_json_string(struct strbuf *sb, const char *s)
{
	strbuf_putc(sb, '"');
	strbuf_put_json(sb, s);
	strbuf_putc(sb, '"');
}

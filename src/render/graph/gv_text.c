/* gv_text.c - the text and colours of the call graph: names made valid
 * UTF-8 and escaped for dot, and the temperature scale.  No Graphviz here:
 * these are plain strings and numbers.
 */
#include "render/graph/gv_text.h"

#include <stdio.h>
#include <string.h>

/* 1 for U+FFFE and U+FFFF (n == 3): well-formed UTF-8, but characters XML
 * (so SVG) does not allow. */
static int xml_forbidden(const unsigned char *p, size_t n)
{
	return n == 3 && p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf);
}

/* Append s made valid: a byte that does not start a well-formed sequence,
 * a control character and U+FFFE/U+FFFF each become U+FFFD; with
 * slash_dot, '/' becomes '.' (JVM class names). */
static void put_clean(struct strbuf *sb, const char *s, int slash_dot)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = strbuf_utf8_len(p);

		if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f)) || xml_forbidden(p, n)) {
			strbuf_puts(sb, "\xef\xbf\xbd");
			p += n ? n : 1;
		} else if (n == 1 && slash_dot && *p == '/') {
			strbuf_putc(sb, '.');
			p++;
		} else {
			strbuf_add(sb, p, n);
			p += n;
		}
	}
}

/* Append n bytes of clean text escaped for a dot label or tooltip: '\'
 * would start an escString escape (\n, \N, \l ...), '&' an entity. */
static void put_esc_n(struct strbuf *sb, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\')
			strbuf_puts(sb, "\\\\");
		else if (s[i] == '&')
			strbuf_puts(sb, "&amp;");
		else
			strbuf_putc(sb, s[i]);
	}
}

void gv_text_put_label(struct strbuf *sb, struct strbuf *tmp, const char *s)
{
	const char *p, *cut1 = NULL, *cut2 = NULL;
	size_t chars = 0, k = 0;

	strbuf_reset(tmp);
	put_clean(tmp, s, 0);
	p = tmp->data ? tmp->data : "";
	/* Clean text is valid UTF-8: count lead bytes. */
	for (; *p; p++)
		chars += ((unsigned char)*p & 0xc0) != 0x80;
	p = tmp->data ? tmp->data : "";
	if (chars <= GV_LABEL_MAX) {
		put_esc_n(sb, p, tmp->len);
		return;
	}
	for (; *p; p++) {
		if (((unsigned char)*p & 0xc0) == 0x80)
			continue;
		if (k == GV_LABEL_MAX / 2)
			cut1 = p;
		if (k == chars - (GV_LABEL_MAX / 2 - 1))
			cut2 = p;
		k++;
	}
	put_esc_n(sb, tmp->data, (size_t)(cut1 - tmp->data));
	strbuf_puts(sb, "\xe2\x80\xa6");
	put_esc_n(sb, cut2, tmp->len - (size_t)(cut2 - tmp->data));
}

void gv_text_put(struct strbuf *sb, struct strbuf *tmp, const char *s, int slash_dot)
{
	strbuf_reset(tmp);
	put_clean(tmp, s, slash_dot);
	put_esc_n(sb, tmp->data ? tmp->data : "", tmp->len);
}

/* floor(1000 * part / whole), at most 1000; 0 when whole is 0. */
static unsigned permille(uint64_t part, uint64_t whole)
{
	if (whole == 0)
		return 0;
	if (part >= whole)
		return 1000;
	if (part <= UINT64_MAX / 1000)
		return (unsigned)(part * 1000 / whole);
	return (unsigned)(part / (whole / 1000));
}

/* Temperature colour for a share of the total: hue from blue (0 %) to red
 * (100 %) at saturation 0.55 and full value, in integer steps so it is the
 * same everywhere.  buf holds 8 bytes. */
static void temp_color(char *buf, uint64_t part, uint64_t whole)
{
	const unsigned c = 140, m = 255 - 140;
	unsigned h = 240 - 240 * permille(part, whole) / 1000;  /* degrees */
	unsigned t = h % 120, x = c * (60 - (t > 60 ? t - 60 : 60 - t)) / 60;
	unsigned r, g, b;

	switch (h / 60) {
	case 0: r = c, g = x, b = 0; break;
	case 1: r = x, g = c, b = 0; break;
	case 2: r = 0, g = c, b = x; break;
	case 3: r = 0, g = x, b = c; break;
	default: r = x, g = 0, b = c; break;
	}
	snprintf(buf, 8, "#%02x%02x%02x", r + m, g + m, b + m);
}

unsigned gv_text_scale_pos(uint64_t part, uint64_t whole)
{
	unsigned p = permille(part, whole) * 1000, r = 0;

	/* Integer square root of p (at most 10^6): the same bytes everywhere. */
	while ((r + 1) * (r + 1) <= p)
		r++;
	return r;
}

void gv_text_scale_color(char *buf, unsigned pos)
{
	temp_color(buf, pos, 1000);
}
void gv_text_put_pct(struct strbuf *sb, double pct)
{
	strbuf_printf(sb, "%g%%", pct);
}

/* mapping_line.c - the syntax of one line of a mapping file. */
#include "read/mapping_line.h"

#include <string.h>

#include "util/strbuf.h"

static const char ARROW[] = " -> ";

/* The first " -> " in s[0..n), or NULL. */
static const char *find_arrow(const char *s, size_t n)
{
	const char *e = s + n, *p = s;

	while (p + 4 <= e && (p = memchr(p, ' ', (size_t)(e - p - 3))) != NULL) {
		if (memcmp(p, ARROW, 4) == 0)
			return p;
		p++;
	}
	return NULL;
}

/* 1 when s[0..n) holds a space or a tab. */
static int has_blank(const char *s, size_t n)
{
	return memchr(s, ' ', n) || memchr(s, '\t', n);
}

/* Shorten *n past the blanks that end s[0..*n). */
static void trim_right(const char *s, size_t *n)
{
	while (*n && (s[*n - 1] == ' ' || s[*n - 1] == '\t'))
		(*n)--;
}

int mapline_class(const char *s, size_t n, struct mspan *orig, struct mspan *obf,
		  const char **why)
{
	const char *a = find_arrow(s, n), *r;
	size_t nr;

	if (!a) {
		*why = "expected 'original.Class -> obfuscated.Class:'";
		return -1;
	}
	orig->p = s;
	orig->n = (size_t)(a - s);
	r = a + 4;
	nr = (size_t)(s + n - r);
	trim_right(r, &nr);
	if (!nr || r[nr - 1] != ':') {
		*why = "class line does not end with ':'";
		return -1;
	}
	nr--;
	trim_right(r, &nr);
	obf->p = r;
	obf->n = nr;
	if (!orig->n || !obf->n || has_blank(orig->p, orig->n) || has_blank(obf->p, obf->n)) {
		*why = "malformed class line: expected 'original.Class -> obfuscated.Class:'";
		return -1;
	}
	return 0;
}

/* Digits at *p (before e) into *v; 0, or -1 when there are none or too
 * many. */
static int read_num(const char **p, const char *e, int64_t *v)
{
	const char *s = *p;

	*v = 0;
	while (*p < e && **p >= '0' && **p <= '9' && *p - s < 10)
		*v = *v * 10 + (**p - '0'), (*p)++;
	return *p > s && (*p == e || **p < '0' || **p > '9') ? 0 : -1;
}

int mapline_member(const char *s, size_t n, struct mmember *m, const char **why)
{
	const char *e = s + n, *a, *p, *q;
	int64_t c;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	memset(m, 0, sizeof(*m));
	m->lo = m->hi = -1;
	a = find_arrow(s, (size_t)(e - s));
	if (!a) {
		*why = "expected ' -> ' between the original and the obfuscated name";
		return -1;
	}
	m->obf.p = a + 4;
	m->obf.n = (size_t)(e - m->obf.p);
	trim_right(m->obf.p, &m->obf.n);
	if (!m->obf.n || has_blank(m->obf.p, m->obf.n)) {
		*why = "expected one obfuscated name after ' -> '";
		return -1;
	}
	p = s;
	if (p < a && *p >= '0' && *p <= '9') {
		if (read_num(&p, a, &m->lo) || p >= a || *p++ != ':' || read_num(&p, a, &m->hi) ||
		    p >= a || *p++ != ':') {
			*why = "malformed line range: expected 'first:last:'";
			return -1;
		}
	}
	q = memchr(p, ' ', (size_t)(a - p));
	if (!q || q == p) {
		*why = "expected 'type name' before ' -> '";
		return -1;
	}
	m->ret.p = p;
	m->ret.n = (size_t)(q - p);
	p = q + 1;
	q = memchr(p, '(', (size_t)(a - p));
	if (!q) {
		m->qname.p = p;
		m->qname.n = (size_t)(a - p);
		if (!m->qname.n || has_blank(p, m->qname.n)) {
			*why = "malformed field line: expected 'type name -> obfuscated'";
			return -1;
		}
		return 0;
	}
	m->method = 1;
	m->qname.p = p;
	m->qname.n = (size_t)(q - p);
	m->args.p = q + 1;
	p = memchr(q, ')', (size_t)(a - q));
	if (!p || !m->qname.n || has_blank(m->qname.p, m->qname.n)) {
		*why = "malformed method: expected 'name(types)'";
		return -1;
	}
	m->args.n = (size_t)(p - m->args.p);
	p++;
	/* The original line range, or an inlined frame's caller line. */
	if (p < a && *p == ':') {
		p++;
		m->orig_lines = 1 + (p < a && memchr(p, ':', (size_t)(a - p)) != NULL);
		if (read_num(&p, a, &c) || (p < a && (*p++ != ':' || read_num(&p, a, &c)))) {
			*why = "malformed original line range after the method";
			return -1;
		}
	}
	if (p != a) {
		*why = "unexpected text after the method's argument list";
		return -1;
	}
	return 0;
}

int mapline_json_str(const char *s, size_t n, const char *key, struct mspan *val)
{
	size_t k = strlen(key), i;
	const char *e = s + n, *p, *q;

	for (i = 0; i + k + 2 <= n; i++) {
		if (s[i] != '"' || memcmp(s + i + 1, key, k) || s[i + k + 1] != '"')
			continue;
		p = s + i + k + 2;
		while (p < e && (*p == ' ' || *p == ':'))
			p++;
		if (p >= e || *p != '"')
			return -1;
		p++;
		q = memchr(p, '"', (size_t)(e - p));
		if (!q)
			return -1;
		val->p = p;
		val->n = (size_t)(q - p);
		return 0;
	}
	return -1;
}

/* The descriptor letter of a primitive type name, or 0. */
static char prim(const char *t, size_t n)
{
	static const char *const names[] = { "int", "void", "boolean", "byte", "char",
					     "short", "long", "float", "double" };
	static const char codes[] = "IVZBCSJFD";
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && memcmp(names[i], t, n) == 0)
			return codes[i];
	return 0;
}

void mapline_put_type(struct strbuf *sb, const char *t, size_t n)
{
	size_t i;
	char c;

	while (n && (*t == ' '))
		t++, n--;
	trim_right(t, &n);
	while (n >= 2 && t[n - 2] == '[' && t[n - 1] == ']') {
		strbuf_putc(sb, '[');
		n -= 2;
	}
	if ((c = prim(t, n)) != 0) {
		strbuf_putc(sb, c);
		return;
	}
	strbuf_putc(sb, 'L');
	for (i = 0; i < n; i++)
		strbuf_putc(sb, t[i] == '.' ? '/' : t[i]);
	strbuf_putc(sb, ';');
}

void mapline_put_desc(struct strbuf *sb, const struct mmember *m)
{
	const char *p = m->args.p, *e = p + m->args.n, *c;

	strbuf_putc(sb, '(');
	while (p < e) {
		c = memchr(p, ',', (size_t)(e - p));
		if (!c)
			c = e;
		mapline_put_type(sb, p, (size_t)(c - p));
		p = c + 1;
	}
	strbuf_putc(sb, ')');
	mapline_put_type(sb, m->ret.p, m->ret.n);
}

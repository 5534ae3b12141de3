/* mapping_rename.c - a class's members, read back from the mapping file
 * on first use, and the original of a traced method (the rule is in
 * mapping.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/mapping_int.h"
#include "read/mapping_line.h"

/* sb's text; "" before anything was added. */
static const char *text(const struct strbuf *sb)
{
	return sb->data ? sb->data : "";
}

/* s[0..n) stored once in the mapping's pool; valid for the mapping's life. */
static const char *intern(struct cg_mapping *map, const char *s, size_t n)
{
	strbuf_reset(&map->tmp);
	strbuf_add(&map->tmp, s, n);
	return strpool_str(map->pool, strpool_intern(map->pool, text(&map->tmp)));
}

/* The bytes [off, end) of the mapping, in a new buffer; NULL when they
 * cannot be read (the file changed since it was checked). */
static char *read_span(const struct cg_mapping *map, uint64_t off, uint64_t end)
{
	size_t n = (size_t)(end - off), got = 0;
	char *buf = xmalloc(n + 1);
	ssize_t r;

	if (map->mem) {
		memcpy(buf, map->mem + off, n);
		return buf;
	}
	while (got < n) {
		r = pread(map->fd, buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(buf);
			return NULL;
		}
		got += (size_t)r;
	}
	return buf;
}

/* Append the method line m of class c to the members (its class, name and
 * descriptor interned, a residual signature carried over from the line
 * above when it is the same method). */
static void add_member(struct cg_mapping *map, const struct mclass *c, const struct mmember *m)
{
	struct member *x, *prev;
	const char *dot = NULL, *p;

	for (p = m->qname.p; p < m->qname.p + m->qname.n; p++)
		if (*p == '.')
			dot = p;
	map->members = xgrow(map->members, &map->cap_members, map->nmembers + 1, sizeof(*x));
	x = &map->members[map->nmembers];
	memset(x, 0, sizeof(*x));
	/* A method moved from another class names it: "com.x.Y.method(...)". */
	if (dot) {
		x->klass = intern(map, m->qname.p, (size_t)(dot - m->qname.p));
		x->name = intern(map, dot + 1, (size_t)(m->qname.p + m->qname.n - dot - 1));
	} else {
		x->klass = intern(map, c->orig, strlen(c->orig));
		x->name = intern(map, m->qname.p, m->qname.n);
	}
	strbuf_reset(&map->desc);
	mapline_put_desc(&map->desc, m);
	x->desc = intern(map, map->desc.data, map->desc.len);
	x->obf = intern(map, m->obf.p, m->obf.n);
	x->lo = m->lo;
	x->hi = m->hi;
	x->caller = m->orig_lines == 1;
	/* R8 writes a residual signature once, on a method's first range. */
	if (map->nmembers > c->first) {
		prev = x - 1;
		if (prev->obf == x->obf && prev->name == x->name && prev->desc == x->desc &&
		    prev->klass == x->klass)
			x->residual = prev->residual;
	}
	map->nmembers++;
}

/* Read class c's members.  A span that cannot be read leaves it none. */
static void load_class(struct cg_mapping *map, struct mclass *c)
{
	char *buf = read_span(map, c->off, c->end), *p, *e, *nl, *q;
	struct mmember m;
	struct mspan v;
	const char *why;
	size_t len;

	c->first = (uint32_t)map->nmembers;
	c->n = 0;
	if (!buf)
		return;
	e = buf + (c->end - c->off);
	for (p = buf; p < e; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			nl = e;
		len = (size_t)(nl - p);
		if (len && p[len - 1] == '\r')
			len--;
		for (q = p; q < p + len && (*q == ' ' || *q == '\t'); q++)
			;
		if (q == p + len || q == p)
			continue;
		if (*q == '#') {
			if (map->nmembers > c->first &&
			    mapline_json_str(q, len - (size_t)(q - p), "id", &v) == 0 &&
			    v.n == 38 && memcmp(v.p, "com.android.tools.r8.residualsignature", 38) == 0 &&
			    mapline_json_str(q, len - (size_t)(q - p), "signature", &v) == 0)
				map->members[map->nmembers - 1].residual = intern(map, v.p, v.n);
			continue;
		}
		if (mapline_member(p, len, &m, &why) == 0 && m.method)
			add_member(map, c, &m);
	}
	c->n = (uint32_t)(map->nmembers - c->first);
	free(buf);
}

/* Append the descriptor sig to sb with its class types mapped back. */
static void map_desc(struct cg_mapping *map, const char *sig, struct strbuf *sb)
{
	const char *p = sig, *semi;
	const struct mclass *c;
	size_t i, n;

	while (*p) {
		if (*p != 'L' || !(semi = strchr(p, ';'))) {
			strbuf_putc(sb, *p++);
			continue;
		}
		n = (size_t)(semi - p - 1);
		strbuf_reset(&map->tmp);
		for (i = 0; i < n; i++)
			strbuf_putc(&map->tmp, p[1 + i] == '/' ? '.' : p[1 + i]);
		c = mapping_class_find(map, text(&map->tmp), n);
		strbuf_putc(sb, 'L');
		if (c) {
			for (i = 0; c->orig[i]; i++)
				strbuf_putc(sb, c->orig[i] == '.' ? '/' : c->orig[i]);
		} else {
			strbuf_add(sb, p + 1, n);
		}
		strbuf_putc(sb, ';');
		p = semi + 1;
	}
}

/* A class name written as the trace writes them: with '/' when slash. */
static void put_class(struct strbuf *sb, const char *k, int slash)
{
	for (; *k; k++)
		strbuf_putc(sb, slash && *k == '.' ? '/' : *k);
}

/* Append "pkg.Class.name(descriptor)" of x to sb. */
static void put_frame(struct strbuf *sb, const struct member *x)
{
	strbuf_puts(sb, x->klass);
	strbuf_putc(sb, '.');
	strbuf_puts(sb, x->name);
	strbuf_puts(sb, x->desc);
}

/* 1 when a and b are the same original method. */
static int same(const struct member *a, const struct member *b)
{
	return a->klass == b->klass && a->name == b->name && a->desc == b->desc;
}

/* Add member index k to list (n entries) unless an equal one is there. */
static void add_unique(const struct cg_mapping *map, uint32_t **list, size_t *cap, size_t *n,
		       uint32_t k)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (same(&map->members[(*list)[i]], &map->members[k]))
			return;
	*list = xgrow(*list, cap, *n + 1, sizeof(**list));
	(*list)[(*n)++] = k;
}

/* The outermost frames of class c's inline chains named obf into map->cand
 * (their inner frames into map->inl), keeping those whose descriptor is
 * desc or whose residual signature is sig when want is set.  Their count. */
static size_t candidates(struct cg_mapping *map, const struct mclass *c, const char *obf,
			 const char *desc, const char *sig, int want, size_t *ninl)
{
	const struct member *ms = map->members;
	size_t k, j, end = (size_t)c->first + c->n, n = 0, i;

	*ninl = 0;
	for (k = c->first; k < end; k = j + 1) {
		j = k;
		if (strcmp(ms[k].obf, obf) != 0)
			continue;
		/* An inline chain: the same minified range, each frame below the
		 * first naming its caller's line. */
		while (ms[k].lo >= 0 && j + 1 < end && ms[j + 1].obf == ms[k].obf &&
		       ms[j + 1].lo == ms[k].lo && ms[j + 1].hi == ms[k].hi && ms[j + 1].caller)
			j++;
		if (want && strcmp(ms[j].desc, desc) != 0 &&
		    !(ms[j].residual && strcmp(ms[j].residual, sig) == 0))
			continue;
		add_unique(map, &map->cand, &map->cap_cand, &n, (uint32_t)j);
		for (i = k; i < j; i++)
			add_unique(map, &map->inl, &map->cap_inl, ninl, (uint32_t)i);
	}
	return n;
}

int mapping_rename(void *ctx, const char *klass, const char *name, const char *sig,
		   const char *source, struct cg_renamed *out)
{
	struct cg_mapping *map = ctx;
	/* Classes as the trace writes them: "a/b/C" (ART), "a.b.C" (early
	 * Dalvik); a class without a package, ART's way. */
	int slash = strchr(klass, '/') != NULL || strchr(klass, '.') == NULL;
	const struct member *x;
	struct mclass *c;
	size_t n, ninl, i;

	strbuf_reset(&map->obf);
	for (i = 0; klass[i]; i++)
		strbuf_putc(&map->obf, klass[i] == '/' ? '.' : klass[i]);
	c = mapping_class_find(map, text(&map->obf), map->obf.len);
	strbuf_reset(&map->sig);
	map_desc(map, sig, &map->sig);
	strbuf_reset(&map->klass);
	strbuf_reset(&map->name);
	strbuf_reset(&map->note);
	memset(out, 0, sizeof(*out));
	out->source = source;
	if (!c) {
		if (strcmp(text(&map->sig), sig) == 0)
			return 0;
		out->klass = klass;
		out->name = name;
		out->sig = text(&map->sig);
		return 1;
	}
	if (c->first == NONE) {
		load_class(map, c);
		map->used++;
	}
	n = candidates(map, c, name, text(&map->sig), sig, sig[0] != '\0', &ninl);
	if (!n && sig[0]) {
		n = candidates(map, c, name, "", "", 0, &ninl);
		if (n)
			strbuf_puts(&map->note, "no original has the traced descriptor; ");
	}
	if (!n) {
		put_class(&map->klass, c->orig, slash);
		strbuf_puts(&map->name, name);
		if (c->source)
			out->source = c->source;
	} else {
		x = &map->members[map->cand[0]];
		put_class(&map->klass, x->klass, slash);
		strbuf_puts(&map->name, x->name);
		if (c->source && strcmp(x->klass, c->orig) == 0)
			out->source = c->source;
		if (n == 1) {
			strbuf_reset(&map->sig);
			strbuf_puts(&map->sig, x->desc);
		} else {
			strbuf_puts(&map->note, "ambiguous: ");
			for (i = 0; i < n; i++) {
				const struct member *y = &map->members[map->cand[i]];

				if (i) {
					strbuf_puts(&map->name, " | ");
					strbuf_puts(&map->name, y->klass);
					strbuf_putc(&map->name, '.');
					strbuf_puts(&map->name, y->name);
					strbuf_puts(&map->note, " | ");
				}
				put_frame(&map->note, y);
			}
			strbuf_puts(&map->note, "; ");
		}
		if (ninl) {
			strbuf_puts(&map->note, "inlined: ");
			for (i = 0; i < ninl; i++) {
				if (i)
					strbuf_puts(&map->note, ", ");
				put_frame(&map->note, &map->members[map->inl[i]]);
			}
			strbuf_puts(&map->note, "; ");
		}
	}
	if (map->note.len >= 2)
		map->note.data[map->note.len -= 2] = '\0';
	/* A kept method of a kept class: nothing to show. */
	if (!map->note.len && strcmp(text(&map->klass), klass) == 0 &&
	    strcmp(text(&map->name), name) == 0 && strcmp(text(&map->sig), sig) == 0 &&
	    strcmp(out->source, source) == 0)
		return 0;
	out->klass = text(&map->klass);
	out->name = text(&map->name);
	out->sig = text(&map->sig);
	out->note = map->note.len ? map->note.data : NULL;
	return 1;
}

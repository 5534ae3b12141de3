/* javaname.c - display forms of Java class names and method descriptors. */
#include "render/javaname.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Length of the UTF-8 sequence starting at s (1 for a stray or ASCII byte),
 * never past the end of the string. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = 1, i;

	if (s[0] >= 0xf0 && s[0] < 0xf8)
		n = 4;
	else if (s[0] >= 0xe0)
		n = s[0] < 0xf0 ? 3 : 1;
	else if (s[0] >= 0xc2)
		n = 2;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 1;
	return n;
}

void javaname_put_class(struct strbuf *sb, const char *klass, unsigned flags)
{
	const char *p = klass, *last = klass, *s;
	char sep = flags & JN_SLASH ? '/' : '.';

	for (s = klass; *s; s++)
		if (*s == '/' || *s == '.')
			last = s + 1;
	if (flags & JN_SHORT) {
		/* Each package component before `last` becomes its first character. */
		while (p < last) {
			const char *end = p;

			while (end < last && *end != '/' && *end != '.')
				end++;
			if (end > p) {
				size_t n = utf8_len((const unsigned char *)p);

				strbuf_add(sb, p, n < (size_t)(end - p) ? n : (size_t)(end - p));
			}
			strbuf_putc(sb, sep);
			p = end + 1;
		}
		p = last;
	}
	for (; *p; p++)
		strbuf_putc(sb, *p == '/' || *p == '.' ? sep : *p);
}

static const char *primitive(char c)
{
	switch (c) {
	case 'B': return "byte";
	case 'C': return "char";
	case 'D': return "double";
	case 'F': return "float";
	case 'I': return "int";
	case 'J': return "long";
	case 'S': return "short";
	case 'Z': return "boolean";
	default: return NULL;
	}
}

size_t javaname_put_type(struct strbuf *sb, const char *desc, int allow_void)
{
	size_t dims = 0, i, used;
	const char *p = desc, *prim;

	while (*p == '[') {
		dims++;
		p++;
	}
	if (*p == 'L') {
		const char *end = strchr(p, ';'), *simple = p + 1, *s;

		if (!end || end == p + 1)
			return 0;
		for (s = p + 1; s < end; s++)
			if (*s == '/' || *s == '.')
				simple = s + 1;
		if (simple == end)
			return 0;
		strbuf_add(sb, simple, (size_t)(end - simple));
		used = (size_t)(end + 1 - desc);
	} else if (*p == 'V' && allow_void && dims == 0) {
		strbuf_puts(sb, "void");
		used = 1;
	} else if ((prim = primitive(*p)) != NULL) {
		strbuf_puts(sb, prim);
		used = (size_t)(p + 1 - desc);
	} else {
		return 0;
	}
	for (i = 0; i < dims; i++)
		strbuf_puts(sb, "[]");
	return used;
}

int javaname_put_sig(struct strbuf *sb, const char *sig, unsigned flags)
{
	size_t start = sb->len, n, ret;
	const char *p = sig;
	int first = 1;

	if (!sig[0])
		return 0;
	if (*p++ != '(')
		goto bad;
	strbuf_putc(sb, '(');
	while (*p != ')') {
		if (!first)
			strbuf_puts(sb, ", ");
		n = javaname_put_type(sb, p, 0);
		if (!n)
			goto bad;
		p += n;
		first = 0;
	}
	p++;
	strbuf_putc(sb, ')');
	ret = sb->len;
	strbuf_puts(sb, ": ");
	n = javaname_put_type(sb, p, 1);
	if (!n || p[n])
		goto bad;
	if (!(flags & JN_RETURN)) {
		/* The return type was decoded only to validate the descriptor. */
		sb->len = ret;
		sb->data[ret] = '\0';
	}
	return 0;
bad:
	sb->len = start;
	if (sb->data)
		sb->data[start] = '\0';
	strbuf_puts(sb, sig);
	return -1;
}

void javaname_put_method(struct strbuf *sb, const struct cg_method_info *m, unsigned flags)
{
	const char *s;

	javaname_put_class(sb, m->klass, flags);
	if (m->name[0]) {
		strbuf_putc(sb, '.');
		for (s = m->name; *s; s++)
			strbuf_putc(sb, *s == '/' ? '.' : *s);
	}
	if ((flags & JN_SIG) && m->sig[0])
		javaname_put_sig(sb, m->sig, flags);
}

/* Hash of the class (with '/' as '.') and the method name. */
static uint64_t overload_hash(const char *klass, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *klass; klass++)
		h = (h ^ (unsigned char)(*klass == '/' ? '.' : *klass)) * 0x100000001b3ULL;
	h = (h ^ 0xff) * 0x100000001b3ULL;
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ULL;
	return hash64(h);
}

/* Every method of the key counts, ran or not, and none is built for it: one
 * pass with a table of method indexes, first of each class and name. */
unsigned char *javaname_overloads(const struct cg_symtab *st)
{
	size_t n = symtab_method_count(st), i, nslots = 16, mask;
	unsigned char *over = xcalloc(n ? n : 1, 1);
	uint32_t *slots;

	while (nslots < n * 2)
		nslots *= 2;
	mask = nslots - 1;
	slots = xcalloc(nslots, sizeof(*slots));
	for (i = 0; i < n; i++) {
		const char *klass, *name, *k2, *n2;
		struct cg_method_info t1, t2;
		size_t s;

		symtab_method_names(st, (uint32_t)i, &klass, &name, &t1);
		for (s = (size_t)overload_hash(klass, name) & mask; slots[s]; s = (s + 1) & mask) {
			symtab_method_names(st, slots[s] - 1, &k2, &n2, &t2);
			if (symtab_class_cmp(klass, k2) == 0 && strcmp(name, n2) == 0)
				break;
		}
		if (slots[s])
			over[i] = over[slots[s] - 1] = 1;
		else
			slots[s] = (uint32_t)i + 1;
	}
	free(slots);
	return over;
}

void javaname_put_label(struct strbuf *sb, const struct cg_method_info *m, unsigned flags,
			int overloaded)
{
	flags &= ~(unsigned)(JN_SIG | JN_RETURN);
	javaname_put_method(sb, m, flags | (overloaded ? JN_SIG : 0));
}

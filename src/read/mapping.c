/* mapping.c - an R8/ProGuard mapping file: an index of its classes, their
 * members read back on first use, and the original of a traced method. */
#include "read/mapping.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read/mapping_int.h"
#include "read/mapping_line.h"
#include "util/strbuf.h"
#include "util/strpool.h"
#include "util/unnamed.h"

#define CHUNK (1u << 20)

/* ---- the class index ------------------------------------------------------------ */

/* The hash of a class name (FNV-1a, mixed). */
static uint64_t hash_name(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return hash64(h);
}

/* The slot of the class named s[0..n) (hash h), or the empty slot where it
 * would go. */
static size_t slot_of(const struct cg_mapping *map, const char *s, size_t n, uint64_t h)
{
	size_t mask = map->nslots - 1, i = (size_t)h & mask;
	const struct mclass *c;

	while (map->slots[i]) {
		c = &map->classes[map->slots[i] - 1];
		if (c->hash == h && strncmp(c->obf, s, n) == 0 && c->obf[n] == '\0')
			break;
		i = (i + 1) & mask;
	}
	return i;
}

/* Double the table (1024 slots the first time) and place every class again. */
static void grow_slots(struct cg_mapping *map)
{
	size_t i;

	free(map->slots);
	map->nslots = map->nslots ? map->nslots * 2 : 1024;
	map->slots = xcalloc(map->nslots, sizeof(*map->slots));
	for (i = 0; i < map->nclasses; i++) {
		const struct mclass *c = &map->classes[i];

		map->slots[slot_of(map, c->obf, strlen(c->obf), c->hash)] = (uint32_t)i + 1;
	}
}

struct mclass *mapping_class_find(const struct cg_mapping *map, const char *s, size_t n)
{
	size_t i;

	if (!map->nslots)
		return NULL;
	i = slot_of(map, s, n, hash_name(s, n));
	return map->slots[i] ? &map->classes[map->slots[i] - 1] : NULL;
}

/* ---- reading the file once ---------------------------------------------------- */

struct scan {
	struct cg_mapping *map;
	uint64_t line;
	struct mclass *cur;      /* the class being read, NULL before the first */
	int any_member;          /* cur has a member line */
	int unterminated;        /* the line has no newline: the file's last */
	struct cg_error *err;
};

/* 1 when s[0..n) holds a control byte other than a tab: not text. */
static int is_binary(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t')
			return 1;
	return 0;
}

/* Fill the error: "line N: what", "(truncated?)" after it on a last line
 * without its newline.  Returns -1. */
static int fail(struct scan *sc, const char *what)
{
	cg_error_set(sc->err, -1, "line %llu: %s%s", (unsigned long long)sc->line, what,
		     sc->unterminated ? " (truncated?)" : "");
	return -1;
}

/* A class line s[0..n) at byte off (next: the byte after its newline):
 * a new entry of the index, its members from next on.  0, or -1 with the
 * error filled (malformed, or a name mapped twice). */
static int scan_class(struct scan *sc, const char *s, size_t n, uint64_t off, uint64_t next)
{
	struct cg_mapping *map = sc->map;
	struct mspan orig, obf;
	const char *why;
	struct mclass *c;
	uint64_t h;
	size_t i, k;
	char buf[160], name[101];

	if (mapline_class(s, n, &orig, &obf, &why))
		return fail(sc, sc->cur || memmem(s, n, " -> ", 4) ? why
			    : "not a mapping file: expected 'original.Class -> obfuscated.Class:'");
	if (sc->cur)
		sc->cur->end = off;
	h = hash_name(obf.p, obf.n);
	if ((map->nclasses + 1) * 2 > map->nslots)
		grow_slots(map);
	i = slot_of(map, obf.p, obf.n, h);
	if (map->slots[i]) {
		/* The name as text a terminal shows as it is. */
		for (k = 0; k < obf.n && k < sizeof(name) - 1; k++)
			name[k] = (unsigned char)obf.p[k] < 0x20 || (unsigned char)obf.p[k] >= 0x7f
					  ? '?' : obf.p[k];
		name[k] = '\0';
		snprintf(buf, sizeof(buf), "class '%s' is mapped twice (first at line %u)", name,
			 map->classes[map->slots[i] - 1].line);
		return fail(sc, buf);
	}
	map->classes = xgrow(map->classes, &map->cap_classes, map->nclasses + 1, sizeof(*c));
	c = &map->classes[map->nclasses];
	memset(c, 0, sizeof(*c));
	c->obf = strpool_dup(map->pool, obf.p, obf.n);
	c->orig = strpool_dup(map->pool, orig.p, orig.n);
	c->hash = h;
	c->off = c->end = next;
	c->line = (uint32_t)sc->line;
	c->first = NONE;
	map->slots[i] = (uint32_t)++map->nclasses;
	sc->cur = c;
	sc->any_member = 0;
	return 0;
}

/* One line (without its newline) starting at byte off; next is the offset
 * of the line after it. */
static int scan_line(struct scan *sc, const char *s, size_t n, uint64_t off, uint64_t next)
{
	struct mmember m;
	struct mspan v;
	const char *why, *p, *e;

	sc->unterminated = next == off + n;
	/* A byte-order mark, as editors on Windows write one. */
	if (sc->line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3, n -= 3, off += 3;
	if (n && s[n - 1] == '\r')
		n--;
	if (memchr(s, '\0', n))
		return fail(sc, "binary data: not a mapping file");
	e = s + n;
	for (p = s; p < e && (*p == ' ' || *p == '\t'); p++)
		;
	if (p == e)
		return 0;
	if (*p == '#') {
		if (sc->cur)
			sc->cur->end = next;  /* a member's metadata belongs to it */
		/* A class's source file: metadata right below its line. */
		if (p == s && sc->cur && !sc->any_member && !sc->cur->source &&
		    mapline_json_str(p, (size_t)(e - p), "id", &v) == 0 && v.n == 10 &&
		    memcmp(v.p, "sourceFile", 10) == 0 &&
		    mapline_json_str(p, (size_t)(e - p), "fileName", &v) == 0)
			sc->cur->source = strpool_dup(sc->map->pool, v.p, v.n);
		return 0;
	}
	if (p == s) {
		if (scan_class(sc, s, n, off, next) == 0)
			return 0;
		if (is_binary(s, n))
			fail(sc, "binary data: not a mapping file");
		return -1;
	}
	if (mapline_member(s, n, &m, &why))
		return fail(sc, is_binary(s, n) ? "binary data: not a mapping file" : why);
	if (!sc->cur)
		return fail(sc, "not a mapping file: a member line before any class line");
	sc->any_member = 1;
	sc->cur->end = next;
	return 0;
}

/* Feed buf[0..n) (after *carry bytes kept from the last call at the front
 * of buf) line by line; the unfinished last line is moved to the front
 * and its length left in *carry.  base: the file offset of buf[0]. */
static int scan_buf(struct scan *sc, char *buf, size_t n, size_t *carry, uint64_t base, int last)
{
	char *p = buf, *e = buf + n, *nl;

	while (p < e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl) {
			if (!last)
				break;
			nl = e;
		}
		sc->line++;
		if (scan_line(sc, p, (size_t)(nl - p), base + (uint64_t)(p - buf),
			      base + (uint64_t)(nl - buf) + (nl < e)))
			return -1;
		p = nl + (nl < e);
	}
	*carry = (size_t)(e - p);
	memmove(buf, p, *carry);
	return 0;
}

/* After the last line: a file without a class line is no mapping.  0 or -1. */
static int scan_end(struct scan *sc)
{
	if (!sc->map->nclasses) {
		sc->line = sc->line ? sc->line : 1;
		sc->unterminated = 0;
		return fail(sc, "not a mapping file: no 'original.Class -> obfuscated.Class:' line");
	}
	return 0;
}

/* An empty mapping: no file, no class. */
static struct cg_mapping *mapping_new(void)
{
	struct cg_mapping *map = xcalloc(1, sizeof(*map));

	map->fd = -1;
	map->pool = strpool_create();
	strbuf_init(&map->obf);
	strbuf_init(&map->klass);
	strbuf_init(&map->name);
	strbuf_init(&map->sig);
	strbuf_init(&map->note);
	strbuf_init(&map->tmp);
	strbuf_init(&map->desc);
	return map;
}

struct cg_mapping *mapping_open(const char *path, struct cg_error *err)
{
	struct cg_mapping *map = mapping_new();
	struct scan sc = { .map = map, .err = err };
	struct stat stt;
	char *buf = NULL;
	size_t carry = 0, cap = CHUNK;
	uint64_t total = 0, base;
	int spool = -1;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cg_error_set(err, -1, "cannot open the mapping file: %s", strerror(errno));
		goto fail;
	}
	map->fd = fd;
	if (fstat(fd, &stt) == 0 && S_ISDIR(stt.st_mode)) {
		cg_error_set(err, -1, "cannot read the mapping file: %s", strerror(EISDIR));
		goto fail;
	}
	/* Members are read back by offset: a pipe is copied as it is read. */
	if (fstat(fd, &stt) || !S_ISREG(stt.st_mode)) {
		spool = unnamed_open("mapping");
		if (spool < 0) {
			cg_error_set(err, -1, "cannot make a temporary file: %s", strerror(errno));
			goto fail;
		}
	}
	buf = xmalloc(cap);
	for (;;) {
		if (carry == cap)
			buf = xrealloc(buf, cap *= 2);  /* a line longer than the buffer */
		r = read(fd, buf + carry, cap - carry);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			cg_error_set(err, -1, "cannot read the mapping file: %s", strerror(errno));
			goto fail;
		}
		if (spool >= 0 && r > 0 && unnamed_write(spool, buf + carry, (size_t)r)) {
			cg_error_set(err, -1, "cannot write a temporary file: %s", strerror(errno));
			goto fail;
		}
		base = total - carry;
		total += (uint64_t)r;
		if (scan_buf(&sc, buf, carry + (size_t)r, &carry, base, r == 0))
			goto fail;
		if (r == 0)
			break;
	}
	if (scan_end(&sc))
		goto fail;
	if (spool >= 0) {
		close(map->fd);
		map->fd = spool;
	}
	free(buf);
	return map;
fail:
	if (spool >= 0 && spool != map->fd)
		close(spool);
	free(buf);
	mapping_free(map);
	return NULL;
}

struct cg_mapping *mapping_open_mem(const void *data, size_t n, struct cg_error *err)
{
	struct cg_mapping *map = mapping_new();
	struct scan sc = { .map = map, .err = err };
	char *copy = xmalloc(n + 1);
	size_t carry;

	memcpy(copy, data, n);
	map->mem = (const unsigned char *)copy;
	map->nmem = n;
	if (scan_buf(&sc, copy, n, &carry, 0, 1) || scan_end(&sc)) {
		mapping_free(map);
		return NULL;
	}
	return map;
}

void mapping_free(struct cg_mapping *map)
{
	if (!map)
		return;
	if (map->fd >= 0)
		close(map->fd);
	free((void *)map->mem);
	free(map->classes);
	free(map->slots);
	free(map->members);
	free(map->cand);
	free(map->inl);
	strpool_free(map->pool);
	strbuf_free(&map->obf);
	strbuf_free(&map->klass);
	strbuf_free(&map->name);
	strbuf_free(&map->sig);
	strbuf_free(&map->note);
	strbuf_free(&map->tmp);
	strbuf_free(&map->desc);
	free(map);
}

size_t mapping_class_count(const struct cg_mapping *map)
{
	return map->nclasses;
}

size_t mapping_classes_used(const struct cg_mapping *map)
{
	return map->used;
}


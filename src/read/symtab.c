/* symtab.c - method and thread tables of one trace. */
#include "read/symtab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/itab.h"
#include "util/strbuf.h"
#include "util/strpool.h"
#include "util/util.h"


/* A method as its definition gave it, kept compact until someone asks for
 * its cg_method_info: class, signature and source are interned (they repeat
 * across a class's methods), the id text and name follow the fixed part. */
struct def {
	uint32_t klass, sig, source;
	int32_t line;
	uint8_t flags;
	char rest[];   /* [u8 x 8 full id] [id text NUL] name NUL
			* [obfuscated name pointer, mapping note pointer] */
};
enum { DEF_ID64 = 1, DEF_IDTEXT = 2, DEF_RENAMED = 4 };

struct cg_symtab {
	/* By method index: the key, and a tagged reference: 0 for an id never
	 * defined and not asked for yet, (struct def * | 1) for a definition
	 * not asked for yet, else the cg_method_info built on first request. */
	uint32_t *keys;
	uintptr_t *refs;
	size_t nmethods, cap_methods;
	uint32_t *slots;     /* open addressing: method index + 1, 0 = empty */
	size_t nslots;       /* power of two */
	size_t unknown;
	struct cg_strpool *pool;

	struct cg_thread_info *threads;
	size_t nthreads, cap_threads;
	struct cg_itab tids; /* tid -> thread index (a thread's first field is its tid) */

	cg_rename_fn rename;
	void *rename_ctx;
	struct strbuf obf;   /* scratch: the name the trace wrote */
};

struct cg_symtab *symtab_create(void)
{
	struct cg_symtab *st = xcalloc(1, sizeof(*st));

	st->nslots = 1024;
	st->slots = xcalloc(st->nslots, sizeof(*st->slots));
	st->tids.key4 = 1;
	st->pool = strpool_create();
	return st;
}

void symtab_free(struct cg_symtab *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nthreads; i++)
		free((char *)st->threads[i].name);
	strpool_free(st->pool);
	strbuf_free(&st->obf);
	free(st->keys);
	free(st->refs);
	free(st->slots);
	free(st->threads);
	itab_free(&st->tids);
	free(st);
}

static size_t slot_of(const struct cg_symtab *st, uint32_t key)
{
	size_t mask = st->nslots - 1;
	size_t i = (size_t)hash64(key) & mask;

	while (st->slots[i] && st->keys[st->slots[i] - 1] != key)
		i = (i + 1) & mask;
	return i;
}

static void rehash(struct cg_symtab *st)
{
	size_t i;

	free(st->slots);
	st->nslots *= 2;
	st->slots = xcalloc(st->nslots, sizeof(*st->slots));
	for (i = 0; i < st->nmethods; i++)
		st->slots[slot_of(st, st->keys[i])] = (uint32_t)i + 1;
}

static uint32_t add_method(struct cg_symtab *st, uint32_t key)
{
	size_t index = st->nmethods, cap = st->cap_methods;

	if ((st->nmethods + 1) * 2 > st->nslots)
		rehash(st);
	/* Both arrays grow from the same capacity to the same capacity. */
	st->keys = xgrow(st->keys, &cap, st->nmethods + 1, sizeof(*st->keys));
	st->refs = xgrow(st->refs, &st->cap_methods, st->nmethods + 1, sizeof(*st->refs));
	st->keys[index] = key;
	st->refs[index] = 0;
	st->nmethods++;
	st->slots[slot_of(st, key)] = (uint32_t)index + 1;
	return (uint32_t)index;
}

static int is_info(uintptr_t r)
{
	return r && !(r & 1);
}

static struct def *def_of(uintptr_t r)
{
	return (r & 1) ? (struct def *)(r - 1) : NULL;
}

/* Point m at d's strings; the full id only when d carries one. */
static void fill_from_def(const struct cg_symtab *st, struct cg_method_info *m,
			  const struct def *d)
{
	const char *p = d->rest;

	m->klass = strpool_str(st->pool, d->klass);
	m->sig = strpool_str(st->pool, d->sig);
	m->source = strpool_str(st->pool, d->source);
	m->line = d->line;
	m->unknown = 0;
	if (d->flags & DEF_ID64) {
		memcpy(&m->id, p, sizeof(m->id));
		p += sizeof(m->id);
	}
	m->id_text = NULL;
	if (d->flags & DEF_IDTEXT) {
		m->id_text = p;
		p += strlen(p) + 1;
	}
	m->name = p;
	m->obfuscated = m->mapping_note = NULL;
	if (d->flags & DEF_RENAMED) {
		p += strlen(p) + 1;
		memcpy(&m->obfuscated, p, sizeof(m->obfuscated));
		memcpy(&m->mapping_note, p + sizeof(m->obfuscated), sizeof(m->mapping_note));
	}
}

/* Fill m for method index, not built: from its definition, or as an
 * unknown id whose name and id text are m's own text. */
static void fill_info(const struct cg_symtab *st, struct cg_method_info *m, uint32_t index)
{
	const struct def *d = def_of(st->refs[index]);

	memset(m, 0, sizeof(*m));
	m->id = st->keys[index];
	if (d) {
		fill_from_def(st, m, d);
		return;
	}
	memcpy(m->text, "0x", 2);
	fmt_hex(m->text + 2, st->keys[index]);
	m->klass = "unknown";
	m->name = m->id_text = m->text;
	m->sig = "";
	m->source = "";
	m->unknown = 1;
}

static struct cg_method_info *info_of(struct cg_symtab *st, uint32_t index)
{
	uintptr_t r = st->refs[index];
	struct cg_method_info *m;

	if (is_info(r))
		return (struct cg_method_info *)r;
	m = strpool_alloc(st->pool, sizeof(*m), sizeof(void *));
	fill_info(st, m, index);
	st->refs[index] = (uintptr_t)m;
	return m;
}

static struct def *make_def(struct cg_symtab *st, const uint64_t *id, const char *id_text,
			    const char *klass, const char *name, const char *sig,
			    const char *source, int line, const char *const *renamed)
{
	size_t nid = id_text ? strlen(id_text) + 1 : 0, nname = strlen(name) + 1;
	size_t rest = (id ? sizeof(*id) : 0) + nid + nname + (renamed ? 2 * sizeof(char *) : 0);
	struct def *d = strpool_alloc(st->pool, sizeof(*d) + rest, 4);
	char *p = d->rest;

	d->klass = strpool_intern(st->pool, klass);
	d->sig = strpool_intern(st->pool, sig);
	d->source = strpool_intern(st->pool, source);
	d->line = line;
	d->flags = (uint8_t)((id ? DEF_ID64 : 0) | (id_text ? DEF_IDTEXT : 0) |
			     (renamed ? DEF_RENAMED : 0));
	if (id) {
		memcpy(p, id, sizeof(*id));
		p += sizeof(*id);
	}
	if (id_text) {
		memcpy(p, id_text, nid);
		p += nid;
	}
	memcpy(p, name, nname);
	if (renamed)
		memcpy(p + nname, renamed, 2 * sizeof(char *));
	return d;
}

/* 1 when text is "0x" and id in lowercase hex without leading zeros, the
 * form readers print when a method has no id text: such a text is not
 * kept. */
static int canonical_id_text(const char *text, uint64_t id)
{
	char buf[2 + 16 + 1], *p = buf + sizeof(buf) - 1;

	*p = '\0';
	do {
		*--p = "0123456789abcdef"[id & 15];
		id >>= 4;
	} while (id);
	*--p = 'x';
	*--p = '0';
	return strcmp(p, text) == 0;
}

static uint32_t define(struct cg_symtab *st, uint32_t key, const uint64_t *id,
		       const char *id_text, const char *klass, const char *name, const char *sig,
		       const char *source, int line)
{
	size_t s = slot_of(st, key);
	uint32_t index;
	uintptr_t r = 0;
	uint64_t old_id;
	struct def *d;
	struct cg_renamed rn;
	const char *renamed[2] = { NULL, NULL };

	if (st->slots[s]) {
		index = st->slots[s] - 1;
		r = st->refs[index];
		if (!r || (is_info(r) && ((struct cg_method_info *)r)->unknown))
			st->unknown--;
		/* A redefinition keeps the full id it had. */
		if (!id && def_of(r) && (def_of(r)->flags & DEF_ID64)) {
			memcpy(&old_id, def_of(r)->rest, sizeof(old_id));
			id = &old_id;
		}
	} else {
		index = add_method(st, key);
	}
	if (id_text && !is_info(r) && canonical_id_text(id_text, id ? *id : key))
		id_text = NULL;
	klass = klass ? klass : "";
	name = name ? name : "";
	sig = sig ? sig : "";
	source = source ? source : "";
	if (st->rename && klass[0] &&
	    st->rename(st->rename_ctx, klass, name, sig, source, &rn)) {
		strbuf_reset(&st->obf);
		strbuf_printf(&st->obf, "%s.%s%s", klass, name, sig);
		renamed[0] = strpool_dup(st->pool, st->obf.data, st->obf.len);
		renamed[1] = rn.note ? strpool_dup(st->pool, rn.note, strlen(rn.note)) : NULL;
		klass = rn.klass;
		name = rn.name;
		sig = rn.sig;
		source = rn.source ? rn.source : source;
	}
	d = make_def(st, id, id_text, klass, name, sig, source, line, renamed[0] ? renamed : NULL);
	if (is_info(r))
		fill_from_def(st, (struct cg_method_info *)r, d);
	else
		st->refs[index] = (uintptr_t)d | 1;
	return index;
}

uint32_t symtab_define_method(struct cg_symtab *st, uint32_t key, const char *klass,
			      const char *name, const char *sig, const char *source, int line)
{
	return define(st, key, NULL, NULL, klass, name, sig, source, line);
}

uint32_t symtab_define_key_method(struct cg_symtab *st, uint32_t key, const char *id_text,
				  const char *klass, const char *name, const char *sig,
				  const char *source, int line)
{
	return define(st, key, NULL, id_text, klass, name, sig, source, line);
}

uint32_t symtab_define_method_id(struct cg_symtab *st, uint32_t key, uint64_t id,
				 const char *klass, const char *name, const char *sig,
				 const char *source, int line)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, id);
	return define(st, key, &id, buf, klass, name, sig, source, line);
}

void symtab_set_id_text(struct cg_symtab *st, uint32_t index, const char *text)
{
	info_of(st, index)->id_text = strpool_dup(st->pool, text, strlen(text));
}

void symtab_set_id(struct cg_symtab *st, uint32_t index, uint64_t id)
{
	struct cg_method_info *m = info_of(st, index);
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "0x%" PRIx64, id);

	m->id = id;
	m->id_text = strpool_dup(st->pool, buf, (size_t)n);
	if (m->unknown)
		m->name = m->id_text;
}

void symtab_set_rename(struct cg_symtab *st, cg_rename_fn fn, void *ctx)
{
	st->rename = fn;
	st->rename_ctx = ctx;
}

int64_t symtab_find_method(const struct cg_symtab *st, uint32_t key)
{
	size_t s = slot_of(st, key);

	return st->slots[s] ? (int64_t)st->slots[s] - 1 : -1;
}

uint32_t symtab_method_index(struct cg_symtab *st, uint32_t key)
{
	size_t s = slot_of(st, key);

	if (st->slots[s])
		return st->slots[s] - 1;
	st->unknown++;
	return add_method(st, key);
}

size_t symtab_method_count(const struct cg_symtab *st)
{
	return st->nmethods;
}

const struct cg_method_info *symtab_method(const struct cg_symtab *st, uint32_t index)
{
	return info_of((struct cg_symtab *)st, index);
}

const struct cg_method_info *symtab_method_peek(const struct cg_symtab *st, uint32_t index,
						struct cg_method_info *tmp)
{
	if (is_info(st->refs[index]))
		return (const struct cg_method_info *)st->refs[index];
	fill_info(st, tmp, index);
	return tmp;
}

const char *symtab_method_id_text(const struct cg_symtab *st, uint32_t index, uint64_t *id)
{
	uintptr_t r = st->refs[index];
	const struct def *d = def_of(r);
	const char *p;

	if (is_info(r)) {
		const struct cg_method_info *m = (const struct cg_method_info *)r;

		*id = m->id;
		return m->unknown ? NULL : m->id_text;
	}
	*id = st->keys[index];
	if (!d)
		return NULL;
	p = d->rest;
	if (d->flags & DEF_ID64) {
		memcpy(id, p, sizeof(*id));
		p += sizeof(*id);
	}
	return (d->flags & DEF_IDTEXT) ? p : NULL;
}

uint64_t symtab_method_id(const struct cg_symtab *st, uint32_t index)
{
	uint64_t id;

	(void)symtab_method_id_text(st, index, &id);
	return id;
}

int symtab_method_cmp_id(const struct cg_symtab *st, uint32_t a, uint32_t b)
{
	uint64_t x = symtab_method_id(st, a), y = symtab_method_id(st, b);

	if (x != y)
		return x < y ? -1 : 1;
	return a < b ? -1 : a > b;
}

int symtab_class_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned char x = (unsigned char)(*a == '/' ? '.' : *a);
		unsigned char y = (unsigned char)(*b == '/' ? '.' : *b);

		if (x != y)
			return x < y ? -1 : 1;
		if (!x)
			return 0;
	}
}

void symtab_method_names(const struct cg_symtab *st, uint32_t index, const char **klass,
			 const char **name, struct cg_method_info *tmp)
{
	uintptr_t r = st->refs[index];
	const struct def *d = def_of(r);
	const char *p;

	if (!d) {
		const struct cg_method_info *m = symtab_method_peek(st, index, tmp);

		*klass = m->klass;
		*name = m->name;
		return;
	}
	p = d->rest + ((d->flags & DEF_ID64) ? sizeof(uint64_t) : 0);
	if (d->flags & DEF_IDTEXT)
		p += strlen(p) + 1;
	*klass = strpool_str(st->pool, d->klass);
	*name = p;
}

size_t symtab_unknown_count(const struct cg_symtab *st)
{
	return st->unknown;
}

static struct cg_thread_info *add_thread(struct cg_symtab *st, uint32_t tid, const char *name,
					 int named)
{
	struct cg_thread_info *t;

	st->threads = xgrow(st->threads, &st->cap_threads, st->nthreads + 1, sizeof(*t));
	t = &st->threads[st->nthreads];
	t->tid = tid;
	t->name = xstrdup(name);
	t->named = named;
	itab_insert(&st->tids, (uint32_t)st->nthreads++, st->threads, sizeof(*t));
	return t;
}

void symtab_define_thread(struct cg_symtab *st, uint32_t tid, const char *name, int replace)
{
	uint32_t i = itab_find(&st->tids, tid, st->threads, sizeof(*st->threads));
	struct cg_thread_info *t;

	if (i == ITAB_NONE) {
		add_thread(st, tid, name, 1);
		return;
	}
	t = &st->threads[i];
	if (t->named && !replace)
		return;
	free((char *)t->name);
	t->name = xstrdup(name);
	t->named = 1;
}

const struct cg_thread_info *symtab_thread(struct cg_symtab *st, uint32_t tid)
{
	uint32_t i = itab_find(&st->tids, tid, st->threads, sizeof(*st->threads));
	char buf[32];

	if (i != ITAB_NONE)
		return &st->threads[i];
	snprintf(buf, sizeof(buf), "thread %u", tid);
	return add_thread(st, tid, buf, 0);
}

size_t symtab_thread_count(const struct cg_symtab *st)
{
	return st->nthreads;
}

const struct cg_thread_info *symtab_thread_at(const struct cg_symtab *st, size_t i)
{
	return &st->threads[i];
}

void symtab_put_display(struct strbuf *sb, const struct cg_method_info *m)
{
	size_t start = sb->len;

	strbuf_puts(sb, m->klass);
	if (m->name[0]) {
		strbuf_putc(sb, '.');
		strbuf_puts(sb, m->name);
	}
	if (sb->len > start)
		mem_replace(sb->data + start, sb->len - start, '/', '.');
}

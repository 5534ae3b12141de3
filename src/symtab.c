/* symtab.c - method and thread tables of one trace. */
#include "symtab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "util.h"

#define NO_THREAD UINT32_MAX

struct cg_symtab {
	struct cg_method_info *methods;
	size_t nmethods, cap_methods;
	uint32_t *slots;     /* open addressing: method index + 1, 0 = empty */
	size_t nslots;       /* power of two */
	size_t unknown;

	struct cg_thread_info *threads;
	size_t nthreads, cap_threads;
	uint32_t *by_tid;    /* 65536 entries: thread index or NO_THREAD */
};

struct cg_symtab *symtab_create(void)
{
	struct cg_symtab *st = xcalloc(1, sizeof(*st));

	st->nslots = 1024;
	st->slots = xcalloc(st->nslots, sizeof(*st->slots));
	st->by_tid = xmalloc(65536 * sizeof(*st->by_tid));
	memset(st->by_tid, 0xff, 65536 * sizeof(*st->by_tid));
	return st;
}

static void free_method(struct cg_method_info *m)
{
	free((char *)m->klass);
	free((char *)m->name);
	free((char *)m->sig);
	free((char *)m->source);
	free((char *)m->id_text);
}

void symtab_free(struct cg_symtab *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nmethods; i++)
		free_method(&st->methods[i]);
	for (i = 0; i < st->nthreads; i++)
		free((char *)st->threads[i].name);
	free(st->methods);
	free(st->slots);
	free(st->threads);
	free(st->by_tid);
	free(st);
}

static size_t slot_of(const struct cg_symtab *st, uint32_t key)
{
	size_t mask = st->nslots - 1;
	size_t i = (size_t)hash64(key) & mask;

	while (st->slots[i] && st->methods[st->slots[i] - 1].key != key)
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
		st->slots[slot_of(st, st->methods[i].key)] = (uint32_t)i + 1;
}

static uint32_t add_method(struct cg_symtab *st, uint32_t key)
{
	struct cg_method_info *m;
	size_t index = st->nmethods;

	if ((st->nmethods + 1) * 2 > st->nslots)
		rehash(st);
	st->methods = xgrow(st->methods, &st->cap_methods, st->nmethods + 1, sizeof(*m));
	m = &st->methods[st->nmethods++];
	memset(m, 0, sizeof(*m));
	m->id = key;
	m->key = key;
	st->slots[slot_of(st, key)] = (uint32_t)index + 1;
	return (uint32_t)index;
}

uint32_t symtab_define_method(struct cg_symtab *st, uint32_t key, const char *klass,
			      const char *name, const char *sig, const char *source, int line)
{
	size_t s = slot_of(st, key);
	uint32_t index;
	struct cg_method_info *m;

	if (st->slots[s]) {
		index = st->slots[s] - 1;
		m = &st->methods[index];
		if (m->unknown)
			st->unknown--;
		free_method(m);
	} else {
		index = add_method(st, key);
		m = &st->methods[index];
	}
	m->id_text = NULL;
	m->klass = xstrdup(klass ? klass : "");
	m->name = xstrdup(name ? name : "");
	m->sig = xstrdup(sig ? sig : "");
	m->source = xstrdup(source ? source : "");
	m->line = line;
	m->unknown = 0;
	return index;
}

void symtab_set_id_text(struct cg_symtab *st, uint32_t index, const char *text)
{
	struct cg_method_info *m = &st->methods[index];

	free((char *)m->id_text);
	m->id_text = xstrdup(text);
}

void symtab_set_id(struct cg_symtab *st, uint32_t index, uint64_t id)
{
	struct cg_method_info *m = &st->methods[index];
	char buf[32];

	m->id = id;
	snprintf(buf, sizeof(buf), "0x%" PRIx64, id);
	free((char *)m->id_text);
	m->id_text = xstrdup(buf);
	if (m->unknown) {
		free((char *)m->name);
		m->name = xstrdup(buf);
	}
}

int64_t symtab_find_method(const struct cg_symtab *st, uint32_t key)
{
	size_t s = slot_of(st, key);

	return st->slots[s] ? (int64_t)st->slots[s] - 1 : -1;
}

uint32_t symtab_method_index(struct cg_symtab *st, uint32_t key)
{
	size_t s = slot_of(st, key);
	struct cg_method_info *m;
	char buf[32];
	uint32_t index;

	if (st->slots[s])
		return st->slots[s] - 1;
	index = add_method(st, key);
	m = &st->methods[index];
	snprintf(buf, sizeof(buf), "0x%x", key);
	m->klass = xstrdup("unknown");
	m->name = xstrdup(buf);
	m->id_text = xstrdup(buf);
	m->sig = xstrdup("");
	m->source = xstrdup("");
	m->unknown = 1;
	st->unknown++;
	return index;
}

size_t symtab_method_count(const struct cg_symtab *st)
{
	return st->nmethods;
}

const struct cg_method_info *symtab_method(const struct cg_symtab *st, uint32_t index)
{
	return &st->methods[index];
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
	st->by_tid[tid & 0xffff] = (uint32_t)st->nthreads;
	t = &st->threads[st->nthreads++];
	t->tid = tid;
	t->name = xstrdup(name);
	t->named = named;
	return t;
}

void symtab_define_thread(struct cg_symtab *st, uint32_t tid, const char *name, int replace)
{
	uint32_t i = st->by_tid[tid & 0xffff];
	struct cg_thread_info *t;

	if (i == NO_THREAD) {
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
	uint32_t i = st->by_tid[tid & 0xffff];
	char buf[32];

	if (i != NO_THREAD)
		return &st->threads[i];
	snprintf(buf, sizeof(buf), "thread %u", tid & 0xffff);
	return add_thread(st, tid & 0xffff, buf, 0);
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
	size_t start = sb->len, i;

	strbuf_puts(sb, m->klass);
	if (m->name[0]) {
		strbuf_putc(sb, '.');
		strbuf_puts(sb, m->name);
	}
	for (i = start; i < sb->len; i++)
		if (sb->data[i] == '/')
			sb->data[i] = '.';
}

/* strpool.c - block-allocated strings and an intern table. */
#include "util/strpool.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define BLOCK (256u << 10)

struct cg_strpool {
	char **blocks;
	size_t nblocks, cap_blocks;
	char *cur;          /* free space of the newest block */
	size_t left;

	const char **strs;  /* interned strings by id */
	size_t nstrs, cap_strs;
	uint32_t *slots;    /* open addressing: id + 1, 0 = empty */
	size_t nslots;      /* power of two */
};

struct cg_strpool *strpool_create(void)
{
	return xcalloc(1, sizeof(struct cg_strpool));
}

void strpool_free(struct cg_strpool *sp)
{
	size_t i;

	if (!sp)
		return;
	for (i = 0; i < sp->nblocks; i++)
		free(sp->blocks[i]);
	free(sp->blocks);
	free(sp->strs);
	free(sp->slots);
	free(sp);
}

void *strpool_alloc(struct cg_strpool *sp, size_t n, size_t align)
{
	size_t pad = (size_t)(-(uintptr_t)sp->cur & (align - 1));
	char *p;

	if (!sp->cur || pad + n > sp->left) {
		size_t size = n + 8 > BLOCK ? n + 8 : BLOCK;

		sp->blocks = xgrow(sp->blocks, &sp->cap_blocks, sp->nblocks + 1, sizeof(char *));
		sp->cur = sp->blocks[sp->nblocks++] = xmalloc(size);
		sp->left = size;
		pad = 0;  /* malloc memory is aligned for any type */
	}
	p = sp->cur + pad;
	sp->cur = p + n;
	sp->left -= pad + n;
	return p;
}

char *strpool_dup(struct cg_strpool *sp, const char *s, size_t n)
{
	char *p = strpool_alloc(sp, n + 1, 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* Eight bytes at a time (class names and signatures run to tens of
 * bytes), the last word zero-padded, then the length. */
static uint64_t hash_str(const char *s)
{
	size_t n = strlen(s), i;
	uint64_t h = 0xcbf29ce484222325ULL, w;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s + i, n - i);
	h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
	return hash64(h ^ n);
}

static size_t intern_slot(const struct cg_strpool *sp, const char *s, uint64_t h)
{
	size_t mask = sp->nslots - 1, i = (size_t)h & mask;

	while (sp->slots[i] && strcmp(sp->strs[sp->slots[i] - 1], s) != 0)
		i = (i + 1) & mask;
	return i;
}

uint32_t strpool_intern(struct cg_strpool *sp, const char *s)
{
	uint64_t h = hash_str(s);
	size_t i;

	if ((sp->nstrs + 1) * 2 > sp->nslots) {
		size_t j;

		free(sp->slots);
		sp->nslots = sp->nslots ? sp->nslots * 2 : 64;
		sp->slots = xcalloc(sp->nslots, sizeof(*sp->slots));
		for (j = 0; j < sp->nstrs; j++)
			sp->slots[intern_slot(sp, sp->strs[j], hash_str(sp->strs[j]))] = (uint32_t)j + 1;
	}
	i = intern_slot(sp, s, h);
	if (!sp->slots[i]) {
		sp->strs = xgrow(sp->strs, &sp->cap_strs, sp->nstrs + 1, sizeof(*sp->strs));
		sp->strs[sp->nstrs] = strpool_dup(sp, s, strlen(s));
		sp->slots[i] = (uint32_t)++sp->nstrs;
	}
	return sp->slots[i] - 1;
}

const char *strpool_str(const struct cg_strpool *sp, uint32_t id)
{
	return sp->strs[id];
}

/* itab.h - an open-addressing hash set of 32-bit indices into an array the
 * owner keeps, whose records start with their key: the model's one hash
 * table (methods and edges of a thread, children in the calling-context
 * tree).
 *
 * A slot is 4 bytes (index + 1; 0 = empty): the key is read from the
 * record to compare, so a table of millions of edges costs about 11 bytes
 * per edge, where (key, value) slots cost 43.  Linear probing, at most
 * half full, grown by doubling, deletion by backward shift.  Keys are
 * 64-bit, or 32-bit when the owner sets key4 (before the first insert).
 * Every call takes the array as it is now (recs, and the size of a
 * record), since the owner may move it.  Zero-initialised, freed with
 * itab_free.
 */
#ifndef CG_ITAB_H
#define CG_ITAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/util.h"

#define ITAB_NONE UINT32_MAX

struct cg_itab {
	uint32_t *slots;
	size_t nslots, live;
	int key4;          /* set by the owner: keys are a uint32_t, not a uint64_t */
};

/* The key of record i. */
static inline uint64_t itab_key(const struct cg_itab *t, const void *recs, size_t size,
				uint32_t i)
{
	const char *p = (const char *)recs + (size_t)i * size;
	uint64_t k;
	uint32_t k4;

	if (t->key4) {
		memcpy(&k4, p, sizeof(k4));
		return k4;
	}
	memcpy(&k, p, sizeof(k));
	return k;
}

/* The index of the record with this key, or ITAB_NONE. */
static inline uint32_t itab_find(const struct cg_itab *t, uint64_t key, const void *recs,
				 size_t size)
{
	size_t mask = t->nslots - 1, i;
	uint32_t v;

	if (!t->nslots)
		return ITAB_NONE;
	for (i = (size_t)hash64(key) & mask; (v = t->slots[i]) != 0; i = (i + 1) & mask)
		if (itab_key(t, recs, size, v - 1) == key)
			return v - 1;
	return ITAB_NONE;
}

/* Add record index (absent), whose key the record already holds. */
void itab_insert(struct cg_itab *t, uint32_t index, const void *recs, size_t size);

/* Remove the record with this key (present); its record must still hold it. */
void itab_delete(struct cg_itab *t, uint64_t key, const void *recs, size_t size);

void itab_free(struct cg_itab *t);

#endif

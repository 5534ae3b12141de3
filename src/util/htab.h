/* htab.h - an open-addressing hash table from 64-bit keys to 32-bit values,
 * shared by the model's tables (profile, views, calling-context tree).
 *
 * Linear probing over one array of (key, value) slots, at most half full,
 * grown by doubling; deletion by backward shift, so no tombstones.  Lookups
 * are inline: they sit on the per-record path.  The table is a plain struct
 * embedded in its owner (zero-initialised, or htab_init), freed with
 * htab_free.  Values are any uint32_t except HTAB_NONE.
 */
#ifndef CG_HTAB_H
#define CG_HTAB_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define HTAB_NONE UINT32_MAX

struct cg_hslot {
	uint64_t key;
	uint32_t val;      /* value + 1; 0 = empty */
	uint32_t aux;      /* free for the owner: kept beside the value */
};

struct cg_htab {
	struct cg_hslot *slots;
	size_t nslots, live;
};

void htab_init(struct cg_htab *h);
void htab_free(struct cg_htab *h);

/* The slot of key, or NULL when absent. */
static inline struct cg_hslot *htab_slot(const struct cg_htab *h, uint64_t key)
{
	size_t mask = h->nslots - 1, i;

	if (!h->nslots)
		return NULL;
	for (i = (size_t)hash64(key) & mask; h->slots[i].val; i = (i + 1) & mask)
		if (h->slots[i].key == key)
			return &h->slots[i];
	return NULL;
}

/* The value of key, or HTAB_NONE. */
static inline uint32_t htab_find(const struct cg_htab *h, uint64_t key)
{
	const struct cg_hslot *s = htab_slot(h, key);

	return s ? s->val - 1 : HTAB_NONE;
}

/* Add key (absent) with value val and aux; returns its slot, valid until
 * the next insert or delete. */
struct cg_hslot *htab_insert(struct cg_htab *h, uint64_t key, uint32_t val, uint32_t aux);

/* Remove key (present). */
void htab_delete(struct cg_htab *h, uint64_t key);

#endif

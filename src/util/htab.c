/* htab.c - open-addressing hash table (see htab.h). */
#include "util/htab.h"

#include <stdlib.h>

void htab_init(struct cg_htab *h)
{
	h->slots = NULL;
	h->nslots = h->live = 0;
}

void htab_free(struct cg_htab *h)
{
	free(h->slots);
	htab_init(h);
}

/* Double the table (first size 8: a trace can have 65536 threads with a
 * table each, most of them tiny). */
static void grow(struct cg_htab *h)
{
	struct cg_hslot *old = h->slots;
	size_t oldn = h->nslots, i, j, mask;

	h->nslots = oldn ? oldn * 2 : 8;
	h->slots = xcalloc(h->nslots, sizeof(*h->slots));
	mask = h->nslots - 1;
	for (i = 0; i < oldn; i++) {
		if (!old[i].val)
			continue;
		for (j = (size_t)hash64(old[i].key) & mask; h->slots[j].val; j = (j + 1) & mask)
			;
		h->slots[j] = old[i];
	}
	free(old);
}

struct cg_hslot *htab_insert(struct cg_htab *h, uint64_t key, uint32_t val, uint32_t aux)
{
	size_t mask, i;

	if ((h->live + 1) * 2 > h->nslots)
		grow(h);
	mask = h->nslots - 1;
	for (i = (size_t)hash64(key) & mask; h->slots[i].val; i = (i + 1) & mask)
		;
	h->slots[i].key = key;
	h->slots[i].val = val + 1;
	h->slots[i].aux = aux;
	h->live++;
	return &h->slots[i];
}

void htab_delete(struct cg_htab *h, uint64_t key)
{
	size_t mask = h->nslots - 1, i = (size_t)hash64(key) & mask, j;

	while (h->slots[i].key != key || !h->slots[i].val)
		i = (i + 1) & mask;
	for (j = (i + 1) & mask; h->slots[j].val; j = (j + 1) & mask) {
		size_t k = (size_t)hash64(h->slots[j].key) & mask;

		/* Move j into the hole at i unless its home lies in (i, j]. */
		if (i <= j ? (k <= i || k > j) : (k <= i && k > j)) {
			h->slots[i] = h->slots[j];
			i = j;
		}
	}
	h->slots[i].val = 0;
	h->live--;
}

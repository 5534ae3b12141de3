/* itab.c - growth, insertion and deletion of the index set (itab.h). */
#include "util/itab.h"

#include <stdlib.h>

static void place(uint32_t *slots, size_t mask, uint64_t key, uint32_t v)
{
	size_t i;

	for (i = (size_t)hash64(key) & mask; slots[i]; i = (i + 1) & mask)
		;
	slots[i] = v;
}

/* Whether one more record would make the table more than half full. */
static int full(const struct cg_itab *t)
{
	return (t->live + 1) * 2 > t->nslots;
}

/* Empty slots, twice as many (first size 8); the old ones are the
 * caller's. */
static void new_slots(struct cg_itab *t)
{
	t->nslots = t->nslots ? t->nslots * 2 : 8;
	t->slots = xcalloc(t->nslots, sizeof(*t->slots));
}

/* Double the table. */
static void grow(struct cg_itab *t, const void *recs, size_t size)
{
	uint32_t *old = t->slots;
	size_t oldn = t->nslots, i;

	new_slots(t);
	for (i = 0; i < oldn; i++)
		if (old[i])
			place(t->slots, t->nslots - 1, itab_key(t, recs, size, old[i] - 1), old[i]);
	free(old);
}

void itab_insert(struct cg_itab *t, uint32_t index, const void *recs, size_t size)
{
	if (full(t))
		grow(t, recs, size);
	place(t->slots, t->nslots - 1, itab_key(t, recs, size, index), index + 1);
	t->live++;
}

void itab_delete(struct cg_itab *t, uint64_t key, const void *recs, size_t size)
{
	size_t mask = t->nslots - 1, i = (size_t)hash64(key) & mask, j;

	while (itab_key(t, recs, size, t->slots[i] - 1) != key)
		i = (i + 1) & mask;
	for (j = (i + 1) & mask; t->slots[j]; j = (j + 1) & mask) {
		size_t k = (size_t)hash64(itab_key(t, recs, size, t->slots[j] - 1)) & mask;

		/* Move j into the hole at i unless its home lies in (i, j]. */
		if (i <= j ? (k <= i || k > j) : (k <= i && k > j)) {
			t->slots[i] = t->slots[j];
			i = j;
		}
	}
	t->slots[i] = 0;
	t->live--;
}

void itab_free(struct cg_itab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->nslots = t->live = 0;
}

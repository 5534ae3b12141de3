/* The index set (itab.h): records found by key after growth by insertion,
 * records left out not found, deletion, a key that changes. */
#include <stdlib.h>

#include "util/itab.h"
#include "unit.h"

struct rec {
	uint64_t key;
	uint32_t payload;
};

#define N 5000u

/* Record i's key: distinct, spread, never all ones. */
static uint64_t key_of(uint32_t i)
{
	return (uint64_t)i * 0x9e3779b97f4a7c15ULL >> 1;
}

UNIT_TEST(itab_grows_by_insertion)
{
	struct rec *r = calloc(N, sizeof(*r));
	struct cg_itab t = { 0 };
	uint32_t i;
	size_t bad = 0, slots;

	CHECK(r != NULL);
	/* Every third record is not in the table: all-ones key. */
	for (i = 0; i < N; i++) {
		r[i].key = i % 3 == 2 ? UINT64_MAX : key_of(i);
		if (r[i].key == UINT64_MAX)
			continue;
		itab_insert(&t, i, r, sizeof(*r));
		/* Never more than half full. */
		bad += t.live * 2 > t.nslots;
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(t.live, N - N / 3);
	/* Each record in one slot: none twice, none with an all-ones key. */
	for (i = 0; i < t.nslots; i++)
		bad += t.slots[i] != 0;
	CHECK_EQ_U64(bad, t.live);
	bad = 0;
	for (i = 0; i < N; i++) {
		uint32_t want = i % 3 == 2 ? ITAB_NONE : i;

		bad += itab_find(&t, key_of(i), r, sizeof(*r)) != want;
	}
	CHECK_EQ_U64(bad, 0);
	/* A key that changes (delete, rewrite, insert): found under the new
	 * one only, through later growth too. */
	itab_delete(&t, key_of(0), r, sizeof(*r));
	r[0].key = key_of(N + 7);
	itab_insert(&t, 0, r, sizeof(*r));
	CHECK(itab_find(&t, key_of(0), r, sizeof(*r)) == ITAB_NONE);
	CHECK(itab_find(&t, key_of(N + 7), r, sizeof(*r)) == 0);
	CHECK(itab_find(&t, key_of(1), r, sizeof(*r)) == 1);
	CHECK_EQ_U64(t.live, N - N / 3);
	/* The records left out go in now, which doubles the table. */
	slots = t.nslots;
	for (i = 2; i < N; i += 3) {
		r[i].key = key_of(i);
		itab_insert(&t, i, r, sizeof(*r));
	}
	CHECK_EQ_U64(t.live, N);
	CHECK(t.nslots > slots);
	CHECK(itab_find(&t, key_of(0), r, sizeof(*r)) == ITAB_NONE);
	CHECK(itab_find(&t, key_of(N + 7), r, sizeof(*r)) == 0);
	CHECK(itab_find(&t, key_of(2), r, sizeof(*r)) == 2);
	itab_free(&t);
	free(r);
	return 0;
}

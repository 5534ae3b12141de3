/* sort_inplace: the result is the order qsort gives under the same total
 * order, for short and long arrays, elements of 4, 40 and 100 bytes (the
 * last swapped in pieces), runs of equal keys, sorted, reversed and
 * organ-pipe inputs (quicksort's bad cases, which the heapsort bound
 * covers), and the context reaches the comparator. */
#include <stdint.h>
#include <stdlib.h>

#include "util/sort.h"
#include "unit.h"

struct big {
	uint32_t key, tag;
	unsigned char pad[92];
};

static int cmp_u32(const void *a, const void *b, void *ctx)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	(void)ctx;
	return x < y ? -1 : x > y;
}

static int cmp_u32_q(const void *a, const void *b)
{
	return cmp_u32(a, b, NULL);
}

/* Descending key through a rank table given as the context, tag on ties. */
static int cmp_big(const void *a, const void *b, void *ctx)
{
	const struct big *x = a, *y = b;
	const uint32_t *rank = ctx;

	if (rank[x->key] != rank[y->key])
		return rank[x->key] > rank[y->key] ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

static uint32_t rank_table[64];

static int cmp_big_q(const void *a, const void *b)
{
	return cmp_big(a, b, rank_table);
}

static uint32_t next(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Fill n values by shape: 0 random, 1 few distinct, 2 sorted, 3 reversed,
 * 4 organ pipe, 5 all equal. */
static uint32_t value(int shape, size_t i, size_t n, uint32_t *seed)
{
	switch (shape) {
	case 0: return next(seed);
	case 1: return next(seed) % 5;
	case 2: return (uint32_t)i;
	case 3: return (uint32_t)(n - i);
	case 4: return (uint32_t)(i < n / 2 ? i : n - i);
	default: return 7;
	}
}

UNIT_TEST(sort_inplace_matches_qsort)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 15, 16, 17, 100, 1000, 20000 };
	uint32_t seed = 1;
	size_t si, i;
	int shape;

	for (i = 0; i < 64; i++)
		rank_table[i] = (uint32_t)((i * 37) % 64);
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		size_t n = sizes[si];

		for (shape = 0; shape < 6; shape++) {
			uint32_t *a = malloc((n + 1) * sizeof(*a)), *b = malloc((n + 1) * sizeof(*b));
			struct big *x = calloc(n + 1, sizeof(*x)), *y = calloc(n + 1, sizeof(*y));

			for (i = 0; i < n; i++) {
				a[i] = b[i] = value(shape, i, n, &seed);
				x[i].key = a[i] % 64;
				x[i].tag = (uint32_t)i;
				x[i].pad[91] = (unsigned char)i;
			}
			memcpy(y, x, n * sizeof(*x));
			sort_inplace(a, n, sizeof(*a), cmp_u32, NULL);
			qsort(b, n, sizeof(*b), cmp_u32_q);
			CHECK(memcmp(a, b, n * sizeof(*a)) == 0);
			sort_inplace(x, n, sizeof(*x), cmp_big, rank_table);
			qsort(y, n, sizeof(*y), cmp_big_q);
			CHECK(memcmp(x, y, n * sizeof(*x)) == 0);
			free(a);
			free(b);
			free(x);
			free(y);
		}
	}
	return 0;
}

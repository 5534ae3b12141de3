/* sort.c - introsort: quicksort with a median-of-three pivot, heapsort once
 * the recursion is deeper than twice log2 n (so no input is quadratic), and
 * insertion sort for runs of 16 or fewer.  Elements are swapped eight bytes
 * at a time when their size allows, else through a 64-byte buffer, in
 * pieces when they are larger. */
#include "util/sort.h"

#include <stdint.h>
#include <string.h>

struct sorter {
	char *base;
	size_t size;
	sort_cmp cmp;
	void *ctx;
};

static char *at(const struct sorter *s, size_t i)
{
	return s->base + i * s->size;
}

static int less(const struct sorter *s, size_t i, size_t j)
{
	return s->cmp(at(s, i), at(s, j), s->ctx) < 0;
}

static void swap(const struct sorter *s, size_t i, size_t j)
{
	unsigned char t[64];
	char *a = at(s, i), *b = at(s, j);
	size_t left = s->size, k;

	if (left % 8 == 0) {
		/* Most element types: eight bytes at a time, inlined. */
		for (; left; left -= 8, a += 8, b += 8) {
			uint64_t x, y;

			memcpy(&x, a, 8);
			memcpy(&y, b, 8);
			memcpy(a, &y, 8);
			memcpy(b, &x, 8);
		}
		return;
	}
	while (left) {
		k = left < sizeof(t) ? left : sizeof(t);
		memcpy(t, a, k);
		memcpy(a, b, k);
		memcpy(b, t, k);
		a += k;
		b += k;
		left -= k;
	}
}

/* [lo, hi) */
static void insertion(const struct sorter *s, size_t lo, size_t hi)
{
	size_t i, j;

	for (i = lo + 1; i < hi; i++)
		for (j = i; j > lo && less(s, j, j - 1); j--)
			swap(s, j, j - 1);
}

/* Sift element root of the heap [lo, lo + n) down. */
static void sift(const struct sorter *s, size_t lo, size_t root, size_t n)
{
	for (;;) {
		size_t c = 2 * root + 1;

		if (c >= n)
			return;
		if (c + 1 < n && less(s, lo + c, lo + c + 1))
			c++;
		if (!less(s, lo + root, lo + c))
			return;
		swap(s, lo + root, lo + c);
		root = c;
	}
}

static void heapsort_range(const struct sorter *s, size_t lo, size_t hi)
{
	size_t n = hi - lo, i;

	for (i = n / 2; i-- > 0;)
		sift(s, lo, i, n);
	for (i = n; i-- > 1;) {
		swap(s, lo, lo + i);
		sift(s, lo, 0, i);
	}
}

static void intro(const struct sorter *s, size_t lo, size_t hi, unsigned depth)
{
	while (hi - lo > 16) {
		size_t mid = lo + (hi - lo) / 2, i, j;

		if (depth-- == 0) {
			heapsort_range(s, lo, hi);
			return;
		}
		/* Median of lo, mid and hi - 1 as the pivot, kept at lo. */
		if (less(s, mid, lo))
			swap(s, mid, lo);
		if (less(s, hi - 1, lo))
			swap(s, hi - 1, lo);
		if (less(s, hi - 1, mid))
			swap(s, hi - 1, mid);
		swap(s, lo, mid);
		/* Hoare's partition: both scans stop on elements equal to the
		 * pivot, so runs of equal elements split evenly. */
		i = lo;
		j = hi;
		for (;;) {
			do
				i++;
			while (i < hi && less(s, i, lo));
			do
				j--;
			while (less(s, lo, j));
			if (i >= j)
				break;
			swap(s, i, j);
		}
		swap(s, lo, j);
		/* Recurse into the smaller side, loop on the larger. */
		if (j - lo < hi - j - 1) {
			intro(s, lo, j, depth);
			lo = j + 1;
		} else {
			intro(s, j + 1, hi, depth);
			hi = j;
		}
	}
	insertion(s, lo, hi);
}

void sort_inplace(void *base, size_t n, size_t size, sort_cmp cmp, void *ctx)
{
	struct sorter s = { base, size, cmp, ctx };
	unsigned depth = 0;
	size_t k;

	if (n < 2 || !size)
		return;
	for (k = n; k > 1; k >>= 1)
		depth += 2;
	intro(&s, 0, n, depth);
}

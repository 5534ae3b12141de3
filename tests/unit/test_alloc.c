/* xmalloc_big: a small block is an aligned block like any other; a large
 * one starts on a 2 MiB boundary, holds what is written to all of it, and
 * (where the kernel has transparent huge pages) lies in a mapping marked
 * for them: "hg" in its VmFlags in /proc/self/smaps.  xbig_resize keeps a
 * block's bytes through every change of size: small to large, large to
 * larger (its pages moved), large to smaller, large to small.  xcalloc_lines
 * gives zeroed whole cache lines that the next allocations stay out of. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "unit.h"

/* 1 when the mapping holding p has flag in its VmFlags, 0 when not, -1
 * when smaps cannot be read. */
static int smaps_flag(const void *p, const char *flag)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in && strncmp(line, "VmFlags:", 8) == 0) {
			char want[8];

			snprintf(want, sizeof(want), " %s", flag);
			found = strstr(line, want) != NULL;
			break;
		}
	}
	fclose(f);
	return found;
}

UNIT_TEST(alloc_big_small_block)
{
	size_t n = 1000;
	unsigned char *p = xmalloc_big(64, n, 64);

	CHECK((uintptr_t)p % 64 == 0);
	memset(p, 0xab, n * 64);
	CHECK(p[0] == 0xab && p[n * 64 - 1] == 0xab);
	free(p);
	return 0;
}

/* 1 when the kernel offers transparent huge pages and smaps can be read. */
static int have_thp(const void *p)
{
	FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (!thp)
		return 0;
	fclose(thp);
	return smaps_flag(p, "hg") >= 0;
}

static void fill(uint64_t *p, size_t from, size_t to)
{
	for (; from < to; from++)
		p[from] = from * 0x9e3779b97f4a7c15u + 7;
}

static int filled(const uint64_t *p, size_t to)
{
	size_t i;

	for (i = 0; i < to; i++)
		if (p[i] != i * 0x9e3779b97f4a7c15u + 7)
			return 0;
	return 1;
}

UNIT_TEST(alloc_big_resize)
{
	size_t small = 4096, big = XBIG_MIN + 4096, bigger = 3 * (size_t)XBIG_MIN + 64;
	uint64_t *p = xbig_resize(NULL, 0, small);
	int thp;

	CHECK((uintptr_t)p % 64 == 0);
	fill(p, 0, small / 8);
	p = xbig_resize(p, small, big);
	CHECK((uintptr_t)p % ((size_t)2 << 20) == 0);
	CHECK(filled(p, small / 8));
	fill(p, small / 8, big / 8);
	p = xbig_resize(p, big, bigger);
	CHECK((uintptr_t)p % ((size_t)2 << 20) == 0);
	CHECK(filled(p, big / 8));
	fill(p, big / 8, bigger / 8);
	thp = have_thp(p);
	if (thp)
		CHECK(smaps_flag(p, "hg") == 1);
	p = xbig_resize(p, bigger, big);
	CHECK(filled(p, big / 8));
	p = xbig_resize(p, big, small);
	CHECK((uintptr_t)p % 64 == 0);
	CHECK(filled(p, small / 8));
	xbig_free(p, small);
	p = xbig_resize(NULL, 0, bigger);
	fill(p, 0, bigger / 8);
	CHECK(filled(p, bigger / 8));
	xbig_free(p, bigger);
	if (!thp)
		UNIT_SKIP("no transparent huge pages or no /proc/self/smaps here");
	return 0;
}

/* xbig_grow: 64 elements at first, doubled to fit, nothing grown when the
 * room is there, the contents kept across the small-to-mapping boundary. */
UNIT_TEST(alloc_big_grow)
{
	size_t cap = 0, n, need = XBIG_MIN / 8 * 3;
	uint64_t *p = xbig_grow(NULL, &cap, 1, 8), *q;

	CHECK_EQ_U64(cap, 64);
	CHECK((uintptr_t)p % 64 == 0);
	fill(p, 0, 64);
	q = xbig_grow(p, &cap, 64, 8);
	CHECK(q == p);
	CHECK_EQ_U64(cap, 64);
	p = xbig_grow(p, &cap, 65, 8);
	CHECK_EQ_U64(cap, 128);
	CHECK(filled(p, 64));
	for (n = 128; n < need; n = cap) {
		fill(p, n / 2, n);
		p = xbig_grow(p, &cap, n + 1, 8);
		CHECK_EQ_U64(cap, 2 * n);
	}
	CHECK((uintptr_t)p % ((size_t)2 << 20) == 0);
	CHECK(filled(p, n / 2));
	xbig_free(p, cap * 8);
	return 0;
}

UNIT_TEST(alloc_big_huge_pages)
{
	size_t n = (XBIG_MIN / 64) * 2 + 3, i;
	uint64_t *p = xmalloc_big(64, n, 64);
	FILE *thp;
	int flag;

	CHECK((uintptr_t)p % ((size_t)2 << 20) == 0);
	for (i = 0; i < n * 8; i++)
		p[i] = i * 0x9e3779b97f4a7c15u;
	for (i = 0; i < n * 8; i++)
		CHECK(p[i] == i * 0x9e3779b97f4a7c15u);
	flag = smaps_flag(p, "hg");
	free(p);
	thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (!thp || flag < 0) {
		if (thp)
			fclose(thp);
		UNIT_SKIP("no transparent huge pages or no /proc/self/smaps here");
	}
	fclose(thp);
	CHECK(flag == 1);
	return 0;
}

/* Blocks of every size around a line: 64-byte aligned, zero over whole
 * lines, and the small allocation made right after each (which malloc
 * would put at the first free bytes) outside its lines. */
UNIT_TEST(alloc_lines_own)
{
	static const size_t sizes[] = { 1, 8, 63, 64, 65, 100, 127, 128, 200, 4000 };
	size_t i, k;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t lines = (sizes[i] + 63) / 64 * 64;
		unsigned char *p = xcalloc_lines(sizes[i]);
		unsigned char *q = malloc(16);
		int zero = 1;

		CHECK(q != NULL);
		CHECK_EQ_U64((uintptr_t)p % 64, 0);
		for (k = 0; k < lines; k++)
			zero &= p[k] == 0;
		CHECK(zero);
		CHECK((uintptr_t)q + 16 <= (uintptr_t)p || (uintptr_t)q >= (uintptr_t)p + lines);
		memset(p, 0xff, lines);
		memset(q, 0xff, 16);
		free(q);
		free(p);
	}
	return 0;
}

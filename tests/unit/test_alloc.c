/* xmalloc_big: a small block is an aligned block like any other; a large
 * one starts on a 2 MiB boundary, holds what is written to all of it, and
 * (where the kernel has transparent huge pages) lies in a mapping marked
 * for them: "hg" in its VmFlags in /proc/self/smaps. */
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

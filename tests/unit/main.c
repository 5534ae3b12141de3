/* Unit-test runner: runs every registered test (or those named on the
 * command line) and closes with "N passed, N failed". */
#include <stdlib.h>

#include "unit.h"

#define MAX_TESTS 1024

struct unit_test {
	const char *name;
	unit_fn fn;
};

static struct unit_test tests[MAX_TESTS];
static int ntests;

void unit_register(const char *name, unit_fn fn)
{
	if (ntests < MAX_TESTS) {
		tests[ntests].name = name;
		tests[ntests].fn = fn;
		ntests++;
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct unit_test *)a)->name, ((const struct unit_test *)b)->name);
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, i, j;

	qsort(tests, (size_t)ntests, sizeof(tests[0]), by_name);
	for (i = 0; i < ntests; i++) {
		int want = argc < 2;

		for (j = 1; j < argc && !want; j++)
			want = strcmp(argv[j], tests[i].name) == 0;
		if (!want)
			continue;
		if (tests[i].fn() == 0) {
			passed++;
		} else {
			printf("FAIL unit %s\n", tests[i].name);
			failed++;
		}
	}
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

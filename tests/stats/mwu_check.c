/* mwu_check - the Mann-Whitney U test of stats.c on samples read from
 * standard input, for tests/stats/check.py to compare with SciPy.  Each
 * line holds the first sample's whole numbers, a '|', then the second's;
 * each answer line is "U P exact|asymptotic" with P to 17 digits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/stats.h"

#define MAXN 256

int main(void)
{
	char line[65536];

	while (fgets(line, sizeof(line), stdin)) {
		uint64_t v[2][MAXN];
		size_t n[2] = { 0, 0 }, side = 0;
		struct cg_mwu t;
		char *tok;

		for (tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
			if (strcmp(tok, "|") == 0)
				side = 1;
			else if (n[side] < MAXN)
				v[side][n[side]++] = strtoull(tok, NULL, 10);
		}
		if (!n[0] || !n[1]) {
			fprintf(stderr, "mwu_check: a line needs values on both sides of '|'\n");
			return 2;
		}
		stats_mwu(v[0], n[0], v[1], n[1], &t);
		printf("%.1f %.17g %s\n", t.u, t.p, t.exact ? "exact" : "asymptotic");
	}
	return 0;
}

/* stats.c - median, range and the Mann-Whitney U test (see stats.h).
 *
 * The exact null distribution of U for sizes m and n = N - m is the list
 * of coefficients of the Gaussian binomial coefficient [N choose m] in q
 * (the number of splits of the ranks with each U).  It is built as the
 * product over i = 1..m of (1 - q^(n + i)) / (1 - q^i): after step i the
 * polynomial is [n + i choose i], so every coefficient is a whole number
 * at most C(N, m) < 2^127 for N <= STATS_EXACT_MAX. */
#include "model/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void stats_spread(const uint64_t *v, size_t n, struct cg_spread *out)
{
	uint64_t *s = xmalloc(n * sizeof(*s));

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_u64);
	out->min = s[0];
	out->max = s[n - 1];
	out->median2 = n % 2 ? 2 * s[n / 2] : s[n / 2 - 1] + s[n / 2];
	free(s);
}

/* The tie term sum (t^3 - t) over groups of t equal values of a and b;
 * *ties gets 1 when some group has t > 1. */
static double tie_term(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, int *ties)
{
	size_t n = na + nb, i, j;
	uint64_t *s = xmalloc(n * sizeof(*s));
	double sum = 0;

	memcpy(s, a, na * sizeof(*s));
	memcpy(s + na, b, nb * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_u64);
	*ties = 0;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && s[j] == s[i]; j++)
			;
		if (j - i > 1) {
			double t = (double)(j - i);

			*ties = 1;
			sum += t * t * t - t;
		}
	}
	free(s);
	return sum;
}

/* P(U >= k) for sizes m and n without ties, exactly counted. */
static double exact_sf(size_t m, size_t n, size_t k)
{
	size_t top = m * n, i, j, deg = 0;
	__int128 *c = xcalloc(top + 1, sizeof(*c));
	__int128 total = 0, above = 0;

	c[0] = 1;
	for (i = 1; i <= m; i++) {
		size_t up = n + i, ndeg = deg + n;

		/* times (1 - q^up), from the top down */
		for (j = ndeg + i < top ? ndeg + i : top; j >= up; j--)
			c[j] -= c[j - up];
		/* divided by (1 - q^i): a running sum with stride i */
		for (j = i; j <= top; j++)
			c[j] += c[j - i];
		deg = ndeg;
	}
	for (j = 0; j <= top; j++) {
		total += c[j];
		if (j >= k)
			above += c[j];
	}
	free(c);
	return (double)above / (double)total;
}

void stats_mwu(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, struct cg_mwu *out)
{
	size_t i, j, n = na + nb;
	uint64_t twice = 0;  /* 2 U, counted pair by pair */
	double mn = (double)na * (double)nb, ties_sum, u, big;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			twice += a[i] > b[j] ? 2 : a[i] == b[j];
	u = (double)twice / 2;
	ties_sum = tie_term(a, na, b, nb, &out->ties);
	out->u = u;
	big = u > mn - u ? u : mn - u;
	if (!out->ties && n <= STATS_EXACT_MAX) {
		out->exact = 1;
		out->p = 2 * exact_sf(na, nb, (size_t)big);
	} else {
		double var = mn / 12 * (((double)n + 1) - ties_sum / ((double)n * ((double)n - 1)));

		out->exact = 0;
		if (var <= 0)
			out->p = 1;
		else
			out->p = erfc((big - mn / 2 - 0.5) / sqrt(var) / sqrt(2.0));
	}
	if (out->p > 1)
		out->p = 1;
}

double stats_min_p(size_t na, size_t nb)
{
	double c = 1;
	size_t i;

	/* C(na + nb, na), built as a product of exact quotients */
	for (i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return 2 / c > 1 ? 1 : 2 / c;
}

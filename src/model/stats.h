/* stats.h - the statistics of a comparison of repeated runs: the median
 * and range of one side's values, and the two-sided Mann-Whitney U test of
 * two sides.
 *
 * The U statistic is that of the first sample: the number of pairs (a, b)
 * with a > b, plus half the pairs with a == b (its rank sum, mid-ranks for
 * ties, less n1 (n1 + 1) / 2), as scipy.stats.mannwhitneyu reports it.
 * The p-value is two-sided:
 *   - exact when no value is tied and n1 + n2 <= STATS_EXACT_MAX: twice the
 *     probability, over every equally likely split of the ranks, of a U at
 *     least as far from n1 n2 / 2 (at most 1), counted exactly in 128-bit
 *     integers (SciPy's method="exact");
 *   - otherwise the normal approximation with the tie correction of the
 *     variance and a continuity correction of 1/2 (SciPy's
 *     method="asymptotic", use_continuity=True); when every value is equal
 *     the variance is 0 and p is 1.
 * Nothing allocates outside the call; the functions never fail. */
#ifndef CG_STATS_H
#define CG_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The largest n1 + n2 whose p-value is exact (without ties). */
#define STATS_EXACT_MAX 100

struct cg_mwu {
	double u;      /* U of the first sample (a multiple of 1/2) */
	double p;      /* two-sided p-value, in (0, 1] */
	int exact;     /* 1 when p is exact, 0 when approximated */
	int ties;      /* 1 when some value appears more than once */
};

/* The test of a (na values) against b (nb values), na, nb >= 1. */
void stats_mwu(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, struct cg_mwu *out);

/* One side's summary: twice its median (the middle value, or the sum of the
 * two middle ones: exact for any n), its least and greatest value.  n >= 1. */
struct cg_spread {
	uint64_t median2, min, max;
};
void stats_spread(const uint64_t *v, size_t n, struct cg_spread *out);

/* The smallest p-value a two-sided exact test of na against nb values can
 * give (2 / C(na + nb, na), at most 1): below the level, a side has runs
 * enough for a significant result. */
double stats_min_p(size_t na, size_t nb);

#endif

/* The statistics of repeated runs (stats.h) on samples whose answers are
 * counted by hand: exact p-values are 2 k / C(n1 + n2, n1); the tie case
 * is worked out from the normal approximation's formula (and agrees with
 * SciPy, as tests/stats/check.py checks on many more). */
#include <math.h>

#include "model/stats.h"
#include "unit.h"

#define CHECK_NEAR(a, b)                                                         \
	do {                                                                     \
		double a_ = (a), b_ = (b);                                       \
		if (fabs(a_ - b_) > 1e-12 * (fabs(b_) > 1 ? fabs(b_) : 1)) {     \
			fprintf(stderr, "  %s:%d: %s == %s failed: %.17g != %.17g\n", \
				__FILE__, __LINE__, #a, #b, a_, b_);             \
			return 1;                                                \
		}                                                                \
	} while (0)

UNIT_TEST(stats_mwu_exact_small)
{
	static const uint64_t a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	static const uint64_t lo[] = { 10, 11, 12, 13, 14 }, hi[] = { 20, 21, 22, 23, 24 };
	struct cg_mwu t;

	/* {1,2,3} below {4,5,6}: U = 0; one split of 20 as extreme each way */
	stats_mwu(a, 3, b, 3, &t);
	CHECK_NEAR(t.u, 0);
	CHECK_NEAR(t.p, 2.0 / 20);
	CHECK(t.exact && !t.ties);
	/* the other way round: U = 9, the same p */
	stats_mwu(b, 3, a, 3, &t);
	CHECK_NEAR(t.u, 9);
	CHECK_NEAR(t.p, 2.0 / 20);
	stats_mwu(lo, 5, hi, 5, &t);
	CHECK_NEAR(t.p, 2.0 / 252);
	CHECK_NEAR(stats_min_p(5, 5), 2.0 / 252);
	CHECK_NEAR(stats_min_p(3, 3), 2.0 / 20);
	CHECK_NEAR(stats_min_p(1, 1), 1);
	/* U = 2 of 9 with n = 3 + 3: splits with U <= 2 are 1 + 1 + 2 of 20 */
	{
		static const uint64_t x[] = { 1, 3, 4 }, y[] = { 2, 5, 6 };

		stats_mwu(x, 3, y, 3, &t);
		CHECK_NEAR(t.u, 2);
		CHECK_NEAR(t.p, 2 * 4.0 / 20);
	}
	return 0;
}

UNIT_TEST(stats_mwu_one_against_one)
{
	static const uint64_t a[] = { 5 }, b[] = { 7 };
	struct cg_mwu t;

	stats_mwu(a, 1, b, 1, &t);
	CHECK_NEAR(t.u, 0);
	CHECK_NEAR(t.p, 1);
	CHECK(t.exact);
	/* equal: no variance, p = 1 */
	stats_mwu(a, 1, a, 1, &t);
	CHECK_NEAR(t.u, 0.5);
	CHECK_NEAR(t.p, 1);
	CHECK(!t.exact && t.ties);
	return 0;
}

UNIT_TEST(stats_mwu_ties)
{
	static const uint64_t a[] = { 1, 2, 2 }, b[] = { 2, 3 };
	struct cg_mwu t;
	/* U = 1; variance 3 * 2 / 12 * (6 - (27 - 3) / 20) = 2.4; z = (5 - 3 - 1/2) / sqrt 2.4 */
	double z = 1.5 / sqrt(2.4);

	stats_mwu(a, 3, b, 2, &t);
	CHECK_NEAR(t.u, 1);
	CHECK(!t.exact && t.ties);
	CHECK_NEAR(t.p, erfc(z / sqrt(2.0)));
	CHECK_NEAR(t.p, 0.3329216080655659); /* SciPy 1.10, method="asymptotic" */
	return 0;
}

UNIT_TEST(stats_mwu_exact_large)
{
	uint64_t a[40], b[60];
	struct cg_mwu t;
	size_t i;

	/* fully separated 40 against 60: 2 / C(100, 40), counted in 128 bits */
	for (i = 0; i < 40; i++)
		a[i] = i;
	for (i = 0; i < 60; i++)
		b[i] = 100 + i;
	stats_mwu(a, 40, b, 60, &t);
	CHECK(t.exact);
	CHECK(fabs(t.p - stats_min_p(40, 60)) <= 1e-9 * stats_min_p(40, 60));
	return 0;
}

UNIT_TEST(stats_spread)
{
	static const uint64_t odd[] = { 9, 1, 5 }, even[] = { 5, 1, 3, 2 };
	struct cg_spread s;

	stats_spread(odd, 3, &s);
	CHECK_EQ_U64(s.median2, 10);
	CHECK_EQ_U64(s.min, 1);
	CHECK_EQ_U64(s.max, 9);
	stats_spread(even, 4, &s);
	CHECK_EQ_U64(s.median2, 5); /* (2 + 3) / 2 = 2.5, kept whole as 5 */
	CHECK_EQ_U64(s.max, 5);
	return 0;
}

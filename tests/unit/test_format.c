/* test_format.c - the number formatters every report uses (util.h) and the
 * padded and numeric appends of strbuf.h: each must give printf's text. */
#include <stdlib.h>

#include "unit.h"
#include "util/strbuf.h"
#include "util/util.h"

/* xorshift64: the same numbers on every run. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A value of a random magnitude: small, large, and everything between. */
static uint64_t any_size(uint64_t *s)
{
	return next(s) >> (next(s) % 64);
}

UNIT_TEST(fmt_pct_matches_printf)
{
	uint64_t s = 88172645463325252ull;
	char got[32], want[64];
	long i;

	/* Exact ties (printf rounds them to even), near ties, part > whole. */
	static const uint64_t pairs[][2] = {
		{ 1, 800 }, { 3, 800 }, { 5, 800 }, { 1, 8 }, { 1, 3 }, { 2, 3 }, { 0, 7 },
		{ 7, 7 }, { 9, 7 }, { 1, 1 }, { 999949, 1000000 }, { 999950, 1000000 },
		{ 999951, 1000000 }, { 12345, 100000000 }, { UINT64_MAX, UINT64_MAX },
		{ UINT64_MAX / 3, UINT64_MAX }, { UINT64_MAX, 1 }, { 1, UINT64_MAX },
	};

	for (i = 0; i < (long)(sizeof(pairs) / sizeof(pairs[0])); i++) {
		snprintf(want, sizeof(want), "%.2f",
			 100.0 * (double)pairs[i][0] / (double)pairs[i][1]);
		CHECK_EQ_STR(fmt_pct(got, pairs[i][0], pairs[i][1]), want);
	}
	CHECK_EQ_STR(fmt_pct(got, 5, 0), "0.00");
	for (i = 0; i < 2000000; i++) {
		uint64_t whole, part;

		if (i % 3 == 0) {
			/* Small wholes: many exact ties. */
			whole = 1 + next(&s) % 100000;
			part = next(&s) % (2 * whole + 1);
		} else if (i % 3 == 1) {
			whole = any_size(&s) | 1;
			part = next(&s) % (whole / 2 + 2) + whole / 2 - 1; /* near half */
		} else {
			whole = any_size(&s) | 1;
			part = any_size(&s);
		}
		snprintf(want, sizeof(want), "%.2f", 100.0 * (double)part / (double)whole);
		fmt_pct(got, part, whole);
		if (strcmp(got, want) != 0) {
			fprintf(stderr, "  fmt_pct(%" PRIu64 ", %" PRIu64 ")\n", part, whole);
			CHECK_EQ_STR(got, want);
		}
	}
	return 0;
}

/* fmt_hundredths with a value computed in two roundings, as the off-CPU
 * share is: the integer quotient must still give printf's digits. */
UNIT_TEST(fmt_hundredths_matches_printf)
{
	uint64_t s = 0x9E3779B97F4A7C15ull;
	char got[32], want[64];
	long i;

	for (i = 0; i < 2000000; i++) {
		uint64_t wall = (i % 2 ? 1 + next(&s) % 200000 : any_size(&s)) | 1;
		uint64_t cpu = next(&s) % wall;
		double d = 100.0 * ((double)(wall - cpu) / (double)wall);

		snprintf(want, sizeof(want), "%.2f", d);
		fmt_hundredths(got, wall - cpu, wall, d);
		if (strcmp(got, want) != 0) {
			fprintf(stderr, "  fmt_hundredths(%" PRIu64 ", %" PRIu64 ")\n", wall - cpu,
				wall);
			CHECK_EQ_STR(got, want);
		}
	}
	return 0;
}

UNIT_TEST(fmt_ms_u64_and_hex_match_printf)
{
	uint64_t s = 1;
	char got[32], want[64];
	long i;

	CHECK_EQ_STR(fmt_ms(got, 0), "0.000");
	CHECK_EQ_STR(fmt_ms(got, 1), "0.001");
	CHECK_EQ_STR(fmt_ms(got, 1234567), "1234.567");
	CHECK_EQ_STR(fmt_ms(got, UINT64_MAX), "18446744073709551.615");
	CHECK_EQ_STR(fmt_ms_signed(got, -250), "-0.250");
	CHECK_EQ_STR(fmt_ms_signed(got, INT64_MIN), "-9223372036854775.808");
	CHECK_EQ_U64(fmt_u64(got, 0), 1);
	CHECK_EQ_STR(got, "0");
	for (i = 0; i < 1000000; i++) {
		uint64_t v = any_size(&s);
		int64_t sv = (int64_t)any_size(&s) * (i % 2 ? -1 : 1);
		uint64_t mag = sv < 0 ? (uint64_t)0 - (uint64_t)sv : (uint64_t)sv;

		snprintf(want, sizeof(want), "%" PRIu64 ".%03" PRIu64, v / 1000, v % 1000);
		CHECK_EQ_STR(fmt_ms(got, v), want);
		snprintf(want, sizeof(want), "%s%" PRIu64 ".%03" PRIu64, sv < 0 ? "-" : "",
			 mag / 1000, mag % 1000);
		CHECK_EQ_STR(fmt_ms_signed(got, sv), want);
		snprintf(want, sizeof(want), "%" PRIu64, v);
		CHECK_EQ_U64(fmt_u64(got, v), strlen(want));
		CHECK_EQ_STR(got, want);
		snprintf(want, sizeof(want), "%" PRIx64, v);
		CHECK_EQ_U64(fmt_hex(got, v), strlen(want));
		CHECK_EQ_STR(got, want);
	}
	CHECK_EQ_U64(fmt_hex(got, 0), 1);
	CHECK_EQ_STR(got, "0");
	CHECK_EQ_U64(fmt_hex(got, UINT64_MAX), 16);
	CHECK_EQ_STR(got, "ffffffffffffffff");
	return 0;
}

UNIT_TEST(strbuf_numbers_and_padding_match_printf)
{
	struct strbuf a, b;
	uint64_t s = 7;
	int i, ok;

	strbuf_init(&a);
	strbuf_init(&b);
	for (i = 0; i < 100000; i++) {
		uint64_t v = any_size(&s);
		size_t w = (size_t)(next(&s) % 24);
		char text[24];

		snprintf(text, sizeof(text), "%" PRIu64, v >> (next(&s) % 64));
		strbuf_put_u64(&a, v);
		strbuf_putc(&a, ' ');
		strbuf_put_hex(&a, v);
		strbuf_put_right(&a, w, text);
		strbuf_put_left(&a, w, text);
		strbuf_putc(&a, '|');
		strbuf_printf(&b, "%" PRIu64 " %" PRIx64 "%*s%-*s|", v, v, (int)w, text, (int)w,
			      text);
	}
	ok = a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
	strbuf_free(&a);
	strbuf_free(&b);
	CHECK(ok);
	return 0;
}

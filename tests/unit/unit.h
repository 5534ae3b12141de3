/* unit.h - a tiny unit-test harness: tests register themselves with
 * UNIT_TEST(name) and fail through CHECK macros that print both operands. */
#ifndef CG_UNIT_H
#define CG_UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef int (*unit_fn)(void);
void unit_register(const char *name, unit_fn fn);

/* A test returns 0 when it passes, 1 when it fails, and UNIT_SKIPPED
 * (through UNIT_SKIP) when what it needs is not here; the runner counts
 * and prints skips. */
#define UNIT_SKIPPED 77
#define UNIT_SKIP(reason)                                                        \
	do {                                                                     \
		fprintf(stderr, "%s\n", reason);                                 \
		return UNIT_SKIPPED;                                             \
	} while (0)

#define UNIT_TEST(name)                                                          \
	static int test_##name(void);                                            \
	__attribute__((constructor)) static void register_##name(void)           \
	{                                                                        \
		unit_register(#name, test_##name);                               \
	}                                                                        \
	static int test_##name(void)

#define CHECK(cond)                                                              \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, \
				__LINE__, #cond);                                \
			return 1;                                                \
		}                                                                \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                       \
	do {                                                                     \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                 \
		if (a_ != b_) {                                                  \
			fprintf(stderr, "  %s:%d: %s == %s failed: %" PRIu64     \
					" != %" PRIu64 "\n",                     \
				__FILE__, __LINE__, #a, #b, a_, b_);             \
			return 1;                                                \
		}                                                                \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                       \
	do {                                                                     \
		const char *a_ = (a), *b_ = (b);                                 \
		if (!a_ || !b_ || strcmp(a_, b_) != 0) {                         \
			fprintf(stderr, "  %s:%d: %s == %s failed: \"%s\" != \"%s\"\n", \
				__FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)",  \
				b_ ? b_ : "(null)");                             \
			return 1;                                                \
		}                                                                \
	} while (0)

#endif

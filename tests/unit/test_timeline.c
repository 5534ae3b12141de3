/* Timeline span selection (timeline.h): records fed through profile_add with
 * the timeline observer attached; the kept and merged spans are worked out
 * by hand above each test. */
#include <stdlib.h>

#include "model/profile.h"
#include "read/symtab.h"
#include "model/timeline.h"
#include "unit.h"

#define A 0x10u
#define B 0x20u
#define C 0x30u
#define EN 0u
#define EX 1u

struct tfx {
	struct cg_symtab *st;
	struct cg_profile *p;
	struct cg_timeline *tl;
	uint32_t ia, ib, ic;
	uint64_t forwarded;
};

static void count_enter(void *ctx, uint32_t th, uint32_t m, uint64_t t)
{
	(void)th, (void)m, (void)t;
	((struct tfx *)ctx)->forwarded++;
}

static void count_leave(void *ctx, uint32_t th, uint64_t t)
{
	(void)th, (void)t;
	((struct tfx *)ctx)->forwarded++;
}

static void count_adopt(void *ctx, uint32_t th, uint32_t m, uint64_t f, uint64_t t)
{
	(void)th, (void)m, (void)f, (void)t;
	((struct tfx *)ctx)->forwarded++;
}

static void tfx_init(struct tfx *f)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL };
	struct cg_observer next = { .ctx = f, .enter = count_enter, .leave = count_leave,
				    .adopt = count_adopt }, obs;

	f->st = symtab_create();
	f->ia = symtab_define_method(f->st, A, "com/ex/Foo", "a", "()V", "Foo.java", 0);
	f->ib = symtab_define_method(f->st, B, "com/ex/Foo", "<init>", "()V", "Foo.java", 0);
	f->ic = symtab_define_method(f->st, C, "com/ex/Bar", "c", "(I)V", "Bar.java", 0);
	symtab_define_thread(f->st, 1, "main", 0);
	symtab_define_thread(f->st, 2, "worker", 0);
	f->p = profile_create(f->st, &o);
	f->tl = timeline_create();
	f->forwarded = 0;
	timeline_observer(f->tl, &next, &obs);
	profile_set_observer(f->p, &obs);
}

static int tfx_feed(struct tfx *f, uint32_t tid, uint32_t action, uint32_t id, uint32_t t)
{
	struct cg_record r = { tid, id, t, t, (uint8_t)action, 0 };
	struct cg_error err;

	return profile_add(f->p, &r, 1, &err);
}

static void tfx_finish(struct tfx *f)
{
	struct cg_trace_info info = { 0 };

	info.clock = CG_CLOCK_DUAL;
	profile_finish(f->p, &info);
	timeline_finish(f->tl, f->p);
}

static void tfx_free(struct tfx *f)
{
	timeline_free(f->tl);
	profile_free(f->p);
	symtab_free(f->st);
}

#define CHECK_SPAN(s, m, st, du, de)              \
	do {                                      \
		CHECK_EQ_U64((s).midx, (m));      \
		CHECK_EQ_U64((s).start, (st));    \
		CHECK_EQ_U64((s).dur, (du));      \
		CHECK_EQ_U64((s).depth, (de));    \
	} while (0)

/* main: A [0,10000) holding B [100,1100), C [2000,2004), C [3000,3005).
 * D = 10000, so a span is kept when dur * 2000 >= 10000, i.e. dur >= 5:
 * A, B and the 5-us C are kept (the boundary is inclusive); the 4-us C is
 * merged into depth 1's busy strip.  Bins grow only as merges need them:
 * the merge ends at 2003 < 8 * 256, so the width is 8 and bin 250
 * ([2000, 2008)) holds 4 us. */
UNIT_TEST(timeline_fraction_rule)
{
	struct tfx f;
	const struct cg_tl_span *s;
	const struct cg_tl_busy *b;
	uint64_t seen, kept, merged;
	size_t n, k;

	tfx_init(&f);
	CHECK(tfx_feed(&f, 1, EN, A, 0) == 0);
	CHECK(tfx_feed(&f, 1, EN, B, 100) == 0);
	CHECK(tfx_feed(&f, 1, EX, B, 1100) == 0);
	CHECK(tfx_feed(&f, 1, EN, C, 2000) == 0);
	CHECK(tfx_feed(&f, 1, EX, C, 2004) == 0);
	CHECK(tfx_feed(&f, 1, EN, C, 3000) == 0);
	CHECK(tfx_feed(&f, 1, EX, C, 3005) == 0);
	CHECK(tfx_feed(&f, 1, EX, A, 10000) == 0);
	tfx_finish(&f);
	CHECK_EQ_U64(f.forwarded, 8);
	CHECK_EQ_U64(timeline_thread_count(f.tl), 1);
	n = timeline_spans(f.tl, 0, &s);
	CHECK_EQ_U64(n, 3);
	CHECK_SPAN(s[0], f.ia, 0, 10000, 0);
	CHECK_SPAN(s[1], f.ib, 100, 1000, 1);
	CHECK_SPAN(s[2], f.ic, 3000, 5, 1);
	b = timeline_busy(f.tl, 0);
	CHECK(b != NULL);
	CHECK_EQ_U64(b->origin, 0);
	CHECK_EQ_U64(b->width, 8);
	CHECK(b->rows[0] == NULL);
	CHECK(b->rows[1] != NULL);
	for (k = 0; k < TL_BINS; k++)
		CHECK_EQ_U64(b->rows[1][k], k == 250 ? 4 : 0);
	timeline_counts(f.tl, &seen, &kept, &merged);
	CHECK_EQ_U64(seen, 4);
	CHECK_EQ_U64(kept, 3);
	CHECK_EQ_U64(merged, 1);
	tfx_free(&f);
	return 0;
}

/* worker: 1100 back-to-back top-level calls of C, the i-th (i = 0..1099)
 * lasting i + 1 us and starting at i(i+1)/2.  D = 1100*1101/2 = 605550.
 * While reading, the heap keeps the TL_CAP = 1024 longest (77..1100 us);
 * 76 are merged then.  At the end dur * 2000 >= 605550 needs dur >= 303,
 * so 798 spans (303..1100 us) are kept and 302 merged in all.  The first
 * kept one starts at 302 * 303 / 2 = 45753, the last at 1099 * 1100 / 2. */
UNIT_TEST(timeline_cap_and_fraction)
{
	struct tfx f;
	const struct cg_tl_span *s;
	const struct cg_tl_busy *b;
	uint64_t seen, kept, merged, sum = 0;
	uint32_t i, t = 0;
	size_t n, k;

	tfx_init(&f);
	for (i = 0; i < 1100; i++) {
		CHECK(tfx_feed(&f, 2, EN, C, t) == 0);
		t += i + 1;
		CHECK(tfx_feed(&f, 2, EX, C, t) == 0);
	}
	tfx_finish(&f);
	n = timeline_spans(f.tl, 0, &s);
	CHECK_EQ_U64(n, 798);
	CHECK_SPAN(s[0], f.ic, 45753, 303, 0);
	CHECK_SPAN(s[797], f.ic, 1099u * 1100 / 2, 1100, 0);
	for (k = 1; k < n; k++)
		CHECK_EQ_U64(s[k].dur, s[k - 1].dur + 1);
	timeline_counts(f.tl, &seen, &kept, &merged);
	CHECK_EQ_U64(seen, 1100);
	CHECK_EQ_U64(kept, 798);
	CHECK_EQ_U64(merged, 302);
	/* The merged time (1 + ... + 302 us) is all in the depth-0 strip. */
	b = timeline_busy(f.tl, 0);
	CHECK(b != NULL);
	for (k = 0; k < TL_BINS; k++)
		sum += b->rows[0][k];
	CHECK_EQ_U64(sum, 302u * 303 / 2);
	CHECK(b->rows[1] == NULL);
	tfx_free(&f);
	return 0;
}

/* main: B [0,10), then an exit of A on the empty stack at 100 (A adopted:
 * [0,100] at depth 0, B moves to depth 1), then C [100,200) at depth 0.
 * D = 200: everything is kept (dur * 2000 >= 200). */
UNIT_TEST(timeline_adopt_span)
{
	struct tfx f;
	const struct cg_tl_span *s;
	size_t n;

	tfx_init(&f);
	CHECK(tfx_feed(&f, 1, EN, B, 0) == 0);
	CHECK(tfx_feed(&f, 1, EX, B, 10) == 0);
	CHECK(tfx_feed(&f, 1, EX, A, 100) == 0);
	CHECK(tfx_feed(&f, 1, EN, C, 100) == 0);
	CHECK(tfx_feed(&f, 1, EX, C, 200) == 0);
	tfx_finish(&f);
	n = timeline_spans(f.tl, 0, &s);
	CHECK_EQ_U64(n, 3);
	CHECK_SPAN(s[0], f.ia, 0, 100, 0);
	CHECK_SPAN(s[1], f.ib, 0, 10, 1);
	CHECK_SPAN(s[2], f.ic, 100, 100, 0);
	CHECK(timeline_busy(f.tl, 0) == NULL);
	tfx_free(&f);
	return 0;
}

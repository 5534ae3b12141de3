/* The HTML report's call log (pagelog.h): records fed through profile_add
 * with the log's observer attached; the events expected are worked out by
 * hand above each test. */
#include <stdlib.h>

#include "model/pagelog.h"
#include "model/profile.h"
#include "read/symtab.h"
#include "unit.h"

#define A 0x10u
#define B 0x20u
#define C 0x30u
#define EN 0u
#define EX 1u

struct pfx {
	struct cg_symtab *st;
	struct cg_profile *p;
	struct cg_pagelog *pl;
	uint32_t ia, ib, ic;
	uint64_t forwarded, others;
};

static void count_enter(void *ctx, uint32_t th, uint32_t m, uint64_t t)
{
	(void)th, (void)m, (void)t;
	((struct pfx *)ctx)->forwarded++;
}

static void count_leave(void *ctx, uint32_t th, uint64_t t)
{
	(void)th, (void)t;
	((struct pfx *)ctx)->forwarded++;
}

static void count_adopt(void *ctx, uint32_t th, uint32_t m, uint64_t f, uint64_t t)
{
	(void)th, (void)m, (void)f, (void)t;
	((struct pfx *)ctx)->forwarded++;
}

static void count_other(void *ctx, uint32_t th, uint64_t o_first, uint64_t o_t)
{
	(void)th, (void)o_first, (void)o_t;
	((struct pfx *)ctx)->others++;
}

/* other: the next observer takes the other clock's times too. */
static void pfx_init_as(struct pfx *f, size_t budget, int other)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL };
	struct cg_observer next = { .ctx = f, .enter = count_enter, .leave = count_leave,
				    .adopt = count_adopt, .other = other ? count_other : NULL }, obs;

	f->st = symtab_create();
	f->ia = symtab_define_method(f->st, A, "com/ex/Foo", "a", "()V", "Foo.java", 0);
	f->ib = symtab_define_method(f->st, B, "com/ex/Foo", "b", "()V", "Foo.java", 0);
	f->ic = symtab_define_method(f->st, C, "com/ex/Bar", "c", "(I)V", "Bar.java", 0);
	symtab_define_thread(f->st, 1, "main", 0);
	symtab_define_thread(f->st, 2, "worker", 0);
	f->p = profile_create(f->st, &o);
	f->pl = pagelog_create();
	if (budget)
		pagelog_set_budget(f->pl, budget);
	f->forwarded = f->others = 0;
	pagelog_observer(f->pl, &next, &obs);
	profile_set_observer(f->p, &obs);
}

static void pfx_init(struct pfx *f, size_t budget)
{
	pfx_init_as(f, budget, 0);
}

/* One record: wall time w, thread-CPU time c. */
static int pfx_feed(struct pfx *f, uint32_t tid, uint32_t action, uint32_t id, uint32_t w, uint32_t c)
{
	struct cg_record r = { tid, id, c, w, (uint8_t)action, 0 };
	struct cg_error err;

	return profile_add(f->p, &r, 1, &err);
}

static void pfx_finish(struct pfx *f)
{
	struct cg_trace_info info = { 0 };

	info.clock = CG_CLOCK_DUAL;
	profile_finish(f->p, &info);
}

static void pfx_free(struct pfx *f)
{
	pagelog_free(f->pl);
	profile_free(f->p);
	symtab_free(f->st);
}

#define CHECK_EV(e, k, m, w, c)                   \
	do {                                      \
		CHECK_EQ_U64((e).kind, (k));      \
		CHECK_EQ_U64((e).midx, (m));      \
		CHECK_EQ_U64((e).t, (w));         \
		CHECK_EQ_U64((e).o_t, (c));       \
	} while (0)

/* main: a (wall 10-40, cpu 5-9) holds b (20-30, cpu 7-8); c leaves at
 * (50, 12) on an empty stack (entered before tracing: an adopt); a enters
 * again at (60, 13) and is still open at the end, where the profile
 * closes it at the thread's last event (60, 13).  worker: b at (5, 1),
 * left open, closed at (5, 1).  Each event carries both clocks; every
 * event reaches the next observer. */
UNIT_TEST(pagelog_both_clocks)
{
	struct pfx f;
	const struct cg_pagelog_event *e;
	size_t n;

	pfx_init(&f, 0);
	CHECK(pfx_feed(&f, 1, EN, A, 10, 5) == 0);
	CHECK(pfx_feed(&f, 1, EN, B, 20, 7) == 0);
	CHECK(pfx_feed(&f, 2, EN, B, 5, 1) == 0);
	CHECK(pfx_feed(&f, 1, EX, B, 30, 8) == 0);
	CHECK(pfx_feed(&f, 1, EX, A, 40, 9) == 0);
	CHECK(pfx_feed(&f, 1, EX, C, 50, 12) == 0);
	CHECK(pfx_feed(&f, 1, EN, A, 60, 13) == 0);
	pfx_finish(&f);
	CHECK(!pagelog_over(f.pl));
	CHECK_EQ_U64(pagelog_calls(f.pl), 5);
	CHECK_EQ_U64(pagelog_budget(f.pl), PAGELOG_CALLS);
	n = pagelog_thread(f.pl, 0, &e);
	CHECK_EQ_U64(n, 7);
	CHECK_EV(e[0], PL_ENTER, f.ia, 10, 5);
	CHECK_EV(e[1], PL_ENTER, f.ib, 20, 7);
	CHECK_EV(e[2], PL_LEAVE, 0, 30, 8);
	CHECK_EV(e[3], PL_LEAVE, 0, 40, 9);
	CHECK_EV(e[4], PL_ADOPT, f.ic, 50, 12);
	CHECK_EV(e[5], PL_ENTER, f.ia, 60, 13);
	CHECK_EV(e[6], PL_LEAVE, 0, 60, 13);
	n = pagelog_thread(f.pl, 1, &e);
	CHECK_EQ_U64(n, 2);
	CHECK_EV(e[0], PL_ENTER, f.ib, 5, 1);
	CHECK_EV(e[1], PL_LEAVE, 0, 5, 1);
	CHECK_EQ_U64(pagelog_thread(f.pl, 2, &e), 0);
	CHECK(e == NULL);
	CHECK_EQ_U64(f.forwarded, 9);
	pfx_free(&f);
	return 0;
}

/* A budget of 2 calls: the third enter drops the log for good (nothing is
 * read back), while the calls go on being counted and forwarded. */
UNIT_TEST(pagelog_budget)
{
	struct pfx f;
	const struct cg_pagelog_event *e;

	pfx_init(&f, 2);
	CHECK(pfx_feed(&f, 1, EN, A, 10, 5) == 0);
	CHECK(pfx_feed(&f, 1, EN, B, 20, 7) == 0);
	CHECK(!pagelog_over(f.pl));
	CHECK(pfx_feed(&f, 1, EN, C, 30, 8) == 0);
	CHECK(pagelog_over(f.pl));
	CHECK(pfx_feed(&f, 2, EN, C, 30, 8) == 0);
	pfx_finish(&f);
	CHECK(pagelog_over(f.pl));
	CHECK_EQ_U64(pagelog_calls(f.pl), 4);
	CHECK_EQ_U64(pagelog_budget(f.pl), 2);
	CHECK_EQ_U64(pagelog_thread(f.pl, 0, &e), 0);
	CHECK(e == NULL);
	CHECK_EQ_U64(f.forwarded, 8);
	/* The next observer takes no other clock: the log stays in front. */
	CHECK(profile_observer(f.p)->ctx == f.pl);
	pfx_free(&f);
	return 0;
}

/* Past the budget the log gives way, before the next batch of records, to
 * the observer it passes events on to, which takes the same ids and the
 * other clock too: the replay then tells that one.  main: a, b, c entered
 * (c goes past a budget of 2); worker: an exit of b on its empty stack (an
 * adopt), then a and b entered.  Calls: 5 enters and an adopt, 6, of which
 * the log counted 3 before it gave way; the replay told 6.  Every event
 * reaches the next observer, each enter, leave and adopt with the other
 * clock's times first: 5 enters, 5 leaves (the open frames, closed at the
 * end) and the adopt. */
UNIT_TEST(pagelog_steps_aside)
{
	struct pfx f;
	const struct cg_pagelog_event *e;

	pfx_init_as(&f, 2, 1);
	CHECK(pfx_feed(&f, 1, EN, A, 10, 5) == 0);
	CHECK(pfx_feed(&f, 1, EN, B, 20, 7) == 0);
	CHECK(profile_observer(f.p)->ctx == f.pl);
	CHECK(pfx_feed(&f, 1, EN, C, 30, 8) == 0);
	CHECK(pagelog_over(f.pl));
	CHECK(profile_observer(f.p)->ctx == f.pl);
	CHECK(pfx_feed(&f, 2, EX, B, 31, 9) == 0);
	CHECK(profile_observer(f.p)->ctx == &f);
	CHECK(pfx_feed(&f, 2, EN, A, 32, 10) == 0);
	CHECK(pfx_feed(&f, 2, EN, B, 33, 11) == 0);
	pfx_finish(&f);
	CHECK_EQ_U64(pagelog_calls(f.pl), 3);
	CHECK_EQ_U64(profile_calls_told(f.p), 6);
	pagelog_count_calls(f.pl, profile_calls_told(f.p));
	CHECK_EQ_U64(pagelog_calls(f.pl), 6);
	CHECK_EQ_U64(pagelog_thread(f.pl, 0, &e), 0);
	CHECK_EQ_U64(f.forwarded, 11);
	CHECK_EQ_U64(f.others, 11);
	pfx_free(&f);
	return 0;
}

/* A log within its budget keeps its own count: the replay's does not
 * replace it. */
UNIT_TEST(pagelog_count_within_budget)
{
	struct pfx f;

	pfx_init_as(&f, 0, 1);
	CHECK(pfx_feed(&f, 1, EN, A, 10, 5) == 0);
	CHECK(pfx_feed(&f, 1, EX, A, 20, 6) == 0);
	pfx_finish(&f);
	pagelog_count_calls(f.pl, 7);
	CHECK_EQ_U64(pagelog_calls(f.pl), 1);
	CHECK(profile_observer(f.p)->ctx == f.pl);
	pfx_free(&f);
	return 0;
}

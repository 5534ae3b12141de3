/* Both clocks of a dual-clock trace in one run: records with distinct wall
 * and cpu times fed straight to the profile.  Every expected number is
 * computed by hand in the comment above its test, once per clock; each test
 * runs with either clock as the primary one and checks that the primary
 * fields hold that clock's numbers and the o_* fields the other's. */
#include <stdlib.h>

#include "model/profile.h"
#include "read/symtab.h"
#include "unit.h"

#define A 0x10u
#define B 0x20u
#define C 0x30u

enum { EN = CG_ENTER, EX = CG_EXIT, UN = CG_UNWIND };
enum { W = 0, U = 1 }; /* index of the wall and the cpu number in expectations */

struct cfx {
	struct cg_symtab *st;
	struct cg_profile *p;
	const struct cg_view *v;
	enum cg_clock_sel clock;
};

static void cfx_init(struct cfx *f, enum cg_clock_sel clock, const char *const *focus,
		     const char *const *hide)
{
	struct cg_profile_opts o = { .clock = clock, .focus = focus, .hide = hide };

	f->st = symtab_create();
	symtab_define_method(f->st, A, "com/ex/Foo", "a", "()V", "Foo.java", 0);
	symtab_define_method(f->st, B, "com/ex/Foo", "b", "()V", "Foo.java", 0);
	symtab_define_method(f->st, C, "com/ex/Bar", "c", "(I)V", "Bar.java", 0);
	symtab_define_thread(f->st, 1, "main", 0);
	symtab_define_thread(f->st, 2, "worker", 0);
	f->p = profile_create(f->st, &o);
	f->v = NULL;
	f->clock = clock;
}

/* (tid, action, id, wall, cpu) tuples, fed in one batch. */
static int cfx_feed(struct cfx *f, const uint32_t (*ev)[5], size_t n)
{
	struct cg_record *r = calloc(n, sizeof(*r));
	struct cg_error err;
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		r[i].tid = ev[i][0];
		r[i].action = (uint8_t)ev[i][1];
		r[i].method = ev[i][2];
		r[i].t_wall = ev[i][3];
		r[i].t_cpu = ev[i][4];
		r[i].offset = i;
	}
	rc = profile_add(f->p, r, n, &err);
	free(r);
	return rc;
}

static void cfx_finish(struct cfx *f, enum cg_clock clock)
{
	struct cg_trace_info info = { 0 };

	info.clock = clock;
	profile_finish(f->p, &info);
	f->v = profile_view(f->p, -1);
}

static void cfx_free(struct cfx *f)
{
	profile_free(f->p);
	symtab_free(f->st);
}

static const struct cg_pmethod *cmeth(const struct cg_view *v, const struct cg_symtab *st,
				      uint32_t id)
{
	int64_t i = symtab_find_method(st, id);

	if (i < 0 || v->method_pos[i] == UINT32_MAX)
		return NULL;
	return &v->methods[v->method_pos[i]];
}

/* caller 0 = root of thread index `root` */
static const struct cg_pedge *cedge(const struct cg_view *v, const struct cg_symtab *st,
				    uint32_t caller_id, uint32_t root, uint32_t callee_id)
{
	int64_t ce = symtab_find_method(st, callee_id);
	int64_t cr = caller_id ? symtab_find_method(st, caller_id) : (int64_t)root;
	size_t i;

	for (i = 0; i < v->nedges; i++) {
		const struct cg_pedge *e = &v->edges[i];

		if ((int64_t)e->callee == ce && (int64_t)e->caller == cr && e->from_root == !caller_id)
			return e;
	}
	return NULL;
}

/* The primary and the other number of a {wall, cpu} pair. */
#define PRI(f, x) ((f)->clock == CG_USE_WALL ? (x)[W] : (x)[U])
#define OTH(f, x) ((f)->clock == CG_USE_WALL ? (x)[U] : (x)[W])

#define CHECK_METHOD(f, v, id, incl, excl)                                     \
	do {                                                                   \
		const struct cg_pmethod *m_ = cmeth((v), (f)->st, (id));       \
		CHECK(m_ != NULL);                                             \
		CHECK_EQ_U64(m_->incl_us, PRI(f, incl));                       \
		CHECK_EQ_U64(m_->o_incl_us, OTH(f, incl));                     \
		CHECK_EQ_U64(m_->excl_us, PRI(f, excl));                       \
		CHECK_EQ_U64(m_->o_excl_us, OTH(f, excl));                     \
	} while (0)

#define CHECK_EDGE(f, v, caller, root, callee, ncalls, incl)                    \
	do {                                                                   \
		const struct cg_pedge *e_ = cedge((v), (f)->st, (caller), (root), (callee)); \
		CHECK(e_ != NULL);                                             \
		CHECK_EQ_U64(e_->calls, (ncalls));                              \
		CHECK_EQ_U64(e_->incl_us, PRI(f, incl));                       \
		CHECK_EQ_U64(e_->o_incl_us, OTH(f, incl));                     \
	} while (0)

#define CHECK_THREAD(f, t, incl, excl)                                         \
	do {                                                                   \
		CHECK_EQ_U64((t)->incl_us, PRI(f, incl));                      \
		CHECK_EQ_U64((t)->other_us, OTH(f, incl));                     \
		CHECK_EQ_U64((t)->excl_us, PRI(f, excl));                      \
		CHECK_EQ_U64((t)->o_excl_us, OTH(f, excl));                    \
	} while (0)

static const uint64_t *P2(uint64_t w, uint64_t u)
{
	static uint64_t ring[64][2];
	static unsigned k;
	uint64_t *r = ring[k++ % 64];

	r[W] = w;
	r[U] = u;
	return r;
}

/* A (wall 0..100, cpu 0..40) calls B twice: wall 10..40 / cpu 5..10 (B
 * mostly waits) and wall 50..70 / cpu 15..30.
 * wall: A incl 100, excl 100-30-20 = 50; B incl 50, excl 50.
 * cpu:  A incl 40, excl 5+5+10 = 20;   B incl 5+15 = 20, excl 20.
 * root->A 1 call, 100 / 40; A->B 2 calls, 50 / 20.  Total 100 / 40, the
 * root's exclusive 0 / 0. */
static int nesting(enum cg_clock_sel clock)
{
	static const uint32_t ev[][5] = {
		{ 1, EN, A, 0, 0 },   { 1, EN, B, 10, 5 }, { 1, EX, B, 40, 10 },
		{ 1, EN, B, 50, 15 }, { 1, EX, B, 70, 30 }, { 1, EX, A, 100, 40 },
	};
	struct cfx f;

	cfx_init(&f, clock, NULL, NULL);
	CHECK(cfx_feed(&f, ev, 6) == 0);
	cfx_finish(&f, CG_CLOCK_DUAL);
	CHECK(f.v->has_other == 1);
	CHECK(f.v->primary == clock);
	CHECK_EQ_U64(f.v->total_us, PRI(&f, P2(100, 40)));
	CHECK_EQ_U64(f.v->o_total_us, OTH(&f, P2(100, 40)));
	CHECK_METHOD(&f, f.v, A, P2(100, 40), P2(50, 20));
	CHECK_METHOD(&f, f.v, B, P2(50, 20), P2(50, 20));
	CHECK_EDGE(&f, f.v, 0, 0, A, 1, P2(100, 40));
	CHECK_EDGE(&f, f.v, A, 0, B, 2, P2(50, 20));
	CHECK_THREAD(&f, &f.v->threads[0], P2(100, 40), P2(0, 0));
	/* Sort order follows the primary clock: A first on both. */
	CHECK_EQ_U64(f.v->methods[0].index, (uint64_t)symtab_find_method(f.st, A));
	cfx_free(&f);
	return 0;
}

UNIT_TEST(clocks_nesting_wall)
{
	return nesting(CG_USE_WALL);
}

UNIT_TEST(clocks_nesting_cpu)
{
	return nesting(CG_USE_CPU);
}

/* Thread 1 (wall / cpu):
 *   B 10..20 / 100..103; exit of A at 50 / 110 on an empty stack (A was
 *   entered before tracing began); C entered at 60 / 112 and still open at the
 *   end; inside it B 65..70 / 113..115.  Last event 70 / 115.
 *   wall: first 10, total 60.  A spans 10..50: incl 40, excl 20..50 = 30 (the
 *   root time before it moves to A); B incl 10 + 5 = 15, excl 15; C 60..70
 *   incl 10, excl 5; root excl 50..60 = 10.
 *   cpu: first 100, total 15.  A 100..110: incl 10, excl 103..110 = 7; B
 *   3 + 2 = 5, excl 5; C 112..115: incl 3, excl 1; root excl 110..112 = 2.
 *   root->A 40 / 10, A->B 10 / 3, root->C 10 / 3, C->B 5 / 2.
 * Thread 2: the cpu clock wraps and then steps back; wall does neither.
 *   A 0..30 / 0xfffffff0..6 (22 after the wrap), in it B 5..25 / 0xfffffff8..4
 *   (12), left by an unwind; then C 40..50 / 10..8 (backwards: 0).
 *   wall: total 50; A incl 30, excl 10; B 20, 20; C 10, 10; root excl 10.
 *   cpu: total 22 + 4 + 0 = 26; A incl 22, excl 8 + 2 = 10; B 12, 12; C 0, 0;
 *   root excl 6..10 = 4.
 *   root->A 30 / 22, A->B 20 / 12, root->C 10 / 0.
 * All threads: total 110 / 41.  A incl 70 / 32, excl 40 / 17; B incl 35 / 17,
 * excl 35 / 17; C incl 20 / 3, excl 15 / 1; A->B 2 calls, 30 / 15. */
static const uint32_t edge_ev[][5] = {
	{ 1, EN, B, 10, 100 }, { 1, EX, B, 20, 103 }, { 1, EX, A, 50, 110 },
	{ 2, EN, A, 0, 0xfffffff0u }, { 2, EN, B, 5, 0xfffffff8u },
	{ 1, EN, C, 60, 112 }, { 1, EN, B, 65, 113 },
	{ 2, UN, B, 25, 4 }, { 2, EX, A, 30, 6 },
	{ 1, EX, B, 70, 115 },
	{ 2, EN, C, 40, 10 }, { 2, EX, C, 50, 8 },
};

static int edge_cases(enum cg_clock_sel clock)
{
	struct cfx f;
	const struct cg_view *t1, *t2;

	cfx_init(&f, clock, NULL, NULL);
	CHECK(cfx_feed(&f, edge_ev, sizeof(edge_ev) / sizeof(edge_ev[0])) == 0);
	cfx_finish(&f, CG_CLOCK_DUAL);
	CHECK_EQ_U64(f.v->total_us, PRI(&f, P2(110, 41)));
	CHECK_EQ_U64(f.v->o_total_us, OTH(&f, P2(110, 41)));
	CHECK_METHOD(&f, f.v, A, P2(70, 32), P2(40, 17));
	CHECK_METHOD(&f, f.v, B, P2(35, 17), P2(35, 17));
	CHECK_METHOD(&f, f.v, C, P2(20, 3), P2(15, 1));
	CHECK_EDGE(&f, f.v, A, 0, B, 2, P2(30, 15));
	CHECK_EDGE(&f, f.v, C, 0, B, 1, P2(5, 2));
	CHECK_EDGE(&f, f.v, 0, 0, A, 1, P2(40, 10));
	CHECK_EDGE(&f, f.v, 0, 0, C, 1, P2(10, 3));
	CHECK_EDGE(&f, f.v, 0, 1, A, 1, P2(30, 22));
	CHECK_EDGE(&f, f.v, 0, 1, C, 1, P2(10, 0));
	CHECK_THREAD(&f, &f.v->threads[0], P2(60, 15), P2(10, 2));
	CHECK_THREAD(&f, &f.v->threads[1], P2(50, 26), P2(10, 4));

	/* One thread's view carries the other clock too. */
	t1 = profile_view(f.p, 0);
	t2 = profile_view(f.p, 1);
	CHECK(t1 && t2 && t2->has_other);
	CHECK_EQ_U64(t1->o_total_us, OTH(&f, P2(60, 15)));
	CHECK_EQ_U64(t2->o_total_us, OTH(&f, P2(50, 26)));
	CHECK_METHOD(&f, t1, A, P2(40, 10), P2(30, 7));
	CHECK_METHOD(&f, t2, A, P2(30, 22), P2(10, 10));
	CHECK_METHOD(&f, t2, C, P2(10, 0), P2(10, 0));
	CHECK_EDGE(&f, t1, A, 0, B, 1, P2(10, 3));
	CHECK_EDGE(&f, t2, 0, 0, A, 1, P2(30, 22));
	cfx_free(&f);
	return 0;
}

UNIT_TEST(clocks_edge_cases_wall)
{
	return edge_cases(CG_USE_WALL);
}

UNIT_TEST(clocks_edge_cases_cpu)
{
	return edge_cases(CG_USE_CPU);
}

/* A method that already ran, then exits on an empty stack (it was entered
 * before tracing began): its earlier outermost activation becomes recursive
 * and the caller edge into it loses that time, on both clocks.
 * B 0..12 / 0..3 calls A 5..10 / 1..2; A exits at 20 / 5 on an empty stack;
 * then B 25..45 / 6..10 calls A 30..40 / 8..9.
 * A: incl 20 + 10 = 30 / 5 + 1 = 6 (the first activation no longer counts),
 *    excl 5 + 8 (root time 12..20) + 10 = 23 / 1 + 2 + 1 = 4, calls 2+1.
 * B: incl 12 + 20 = 32 / 3 + 4 = 7, excl 7 + 10 = 17 / 2 + 3 = 5.
 * B->A 2 calls, 10 / 1; A->B (adopted) 12 / 3; root->A 20 / 5; root->B
 * 20 / 4; root excl 20..25 = 5 / 1; total 45 / 10. */
static int adopt_after_calls(enum cg_clock_sel clock)
{
	static const uint32_t ev[][5] = {
		{ 1, EN, B, 0, 0 },   { 1, EN, A, 5, 1 },   { 1, EX, A, 10, 2 },
		{ 1, EX, B, 12, 3 },  { 1, EX, A, 20, 5 },  { 1, EN, B, 25, 6 },
		{ 1, EN, A, 30, 8 },  { 1, EX, A, 40, 9 },  { 1, EX, B, 45, 10 },
	};
	struct cfx f;

	cfx_init(&f, clock, NULL, NULL);
	CHECK(cfx_feed(&f, ev, 9) == 0);
	cfx_finish(&f, CG_CLOCK_DUAL);
	CHECK_METHOD(&f, f.v, A, P2(30, 6), P2(23, 4));
	CHECK_EQ_U64(cmeth(f.v, f.st, A)->calls, 2);
	CHECK_EQ_U64(cmeth(f.v, f.st, A)->rec_calls, 1);
	CHECK_METHOD(&f, f.v, B, P2(32, 7), P2(17, 5));
	CHECK_EDGE(&f, f.v, B, 0, A, 2, P2(10, 1));
	CHECK_EDGE(&f, f.v, A, 0, B, 1, P2(12, 3));
	CHECK_EDGE(&f, f.v, 0, 0, A, 1, P2(20, 5));
	CHECK_EDGE(&f, f.v, 0, 0, B, 1, P2(20, 4));
	CHECK_THREAD(&f, &f.v->threads[0], P2(45, 10), P2(5, 1));
	cfx_free(&f);
	return 0;
}

UNIT_TEST(clocks_adopt_after_calls_wall)
{
	return adopt_after_calls(CG_USE_WALL);
}

UNIT_TEST(clocks_adopt_after_calls_cpu)
{
	return adopt_after_calls(CG_USE_CPU);
}

/* A 0..50 / 0..10 calls B 10..40 / 2..5; a second thread (tid 2) runs C.
 * --hide B: B's time is A's: A incl 50 / 10, excl 50 / 10, no B.
 * --focus B: only time inside B counts: B incl 30 / 3, excl 30 / 3; the
 * thread's inclusive is 30 / 3, its exclusive 0 / 0; thread 2 (no B) 0 / 0. */
static const uint32_t filter_ev[][5] = {
	{ 1, EN, A, 0, 0 }, { 1, EN, B, 10, 2 }, { 2, EN, C, 0, 0 },
	{ 1, EX, B, 40, 5 }, { 2, EX, C, 7, 7 }, { 1, EX, A, 50, 10 },
};

static int filters(enum cg_clock_sel clock)
{
	static const char *const hide[] = { "*.b", NULL };
	struct cfx f;

	cfx_init(&f, clock, NULL, hide);
	CHECK(cfx_feed(&f, filter_ev, 6) == 0);
	cfx_finish(&f, CG_CLOCK_DUAL);
	CHECK_METHOD(&f, f.v, A, P2(50, 10), P2(50, 10));
	CHECK(cmeth(f.v, f.st, B) == NULL);
	CHECK_EQ_U64(f.v->o_total_us, OTH(&f, P2(57, 17)));
	cfx_free(&f);

	cfx_init(&f, clock, hide, NULL);
	CHECK(cfx_feed(&f, filter_ev, 6) == 0);
	cfx_finish(&f, CG_CLOCK_DUAL);
	CHECK_METHOD(&f, f.v, B, P2(30, 3), P2(30, 3));
	CHECK(cmeth(f.v, f.st, A) == NULL);
	CHECK_EDGE(&f, f.v, 0, 0, B, 1, P2(30, 3));
	CHECK_THREAD(&f, &f.v->threads[0], P2(30, 3), P2(0, 0));
	CHECK_THREAD(&f, &f.v->threads[1], P2(0, 0), P2(0, 0));
	CHECK_EQ_U64(f.v->total_us, PRI(&f, P2(30, 3)));
	CHECK_EQ_U64(f.v->o_total_us, OTH(&f, P2(30, 3)));
	cfx_free(&f);
	return 0;
}

UNIT_TEST(clocks_filters_wall)
{
	return filters(CG_USE_WALL);
}

UNIT_TEST(clocks_filters_cpu)
{
	return filters(CG_USE_CPU);
}

/* A single-clock trace has no other clock: the o_* fields stay 0 and the
 * primary clock is the trace's own, whatever --clock said. */
UNIT_TEST(clocks_single)
{
	static const uint32_t ev[][5] = { { 1, EN, A, 0, 0 }, { 1, EX, A, 9, 9 } };
	struct cfx f;

	cfx_init(&f, CG_USE_WALL, NULL, NULL);
	CHECK(cfx_feed(&f, ev, 2) == 0);
	cfx_finish(&f, CG_CLOCK_CPU);
	CHECK(!f.v->has_other);
	CHECK(f.v->primary == CG_USE_CPU);
	CHECK_EQ_U64(f.v->total_us, 9);
	CHECK_EQ_U64(f.v->o_total_us, 0);
	CHECK_EQ_U64(f.v->methods[0].o_incl_us, 0);
	CHECK_EQ_U64(f.v->methods[0].o_excl_us, 0);
	CHECK_EQ_U64(f.v->edges[0].o_incl_us, 0);
	CHECK_EQ_U64(f.v->threads[0].other_us, 0);
	cfx_free(&f);

	cfx_init(&f, CG_USE_CPU, NULL, NULL);
	CHECK(cfx_feed(&f, ev, 2) == 0);
	cfx_finish(&f, CG_CLOCK_WALL);
	CHECK(!f.v->has_other);
	CHECK(f.v->primary == CG_USE_WALL);
	CHECK_EQ_STR(profile_clock_name(f.v->primary), "wall");
	CHECK_EQ_STR(profile_clock_name(profile_other_clock(f.v->primary)), "cpu");
	cfx_free(&f);
	return 0;
}

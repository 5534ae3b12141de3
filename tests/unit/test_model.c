/* Model tests: records fed straight to the profile; every expected number is
 * computed by hand in the comment above its test. */
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "read/symtab.h"
#include "unit.h"
#include "views.h"

struct fixture {
	struct cg_symtab *st;
	struct cg_profile *p;
	const struct cg_view *v;
	struct cg_record *fed; /* every record given, for the correction pass */
	size_t nfed;
};

/* 1 while model_global_layout runs the tests again on global tables
 * (cg_profile_opts.global), their numbers unchanged. */
static int layout_global;

#define A 0x10u
#define B 0x20u
#define C 0x30u

static void fx_init_opts(struct fixture *f, const struct cg_profile_opts *o)
{
	f->st = symtab_create();
	symtab_define_method(f->st, A, "com/ex/Foo", "a", "()V", "Foo.java", 0);
	symtab_define_method(f->st, B, "com/ex/Foo", "b", "()V", "Foo.java", 0);
	symtab_define_method(f->st, C, "com/ex/Bar", "c", "(I)V", "Bar.java", 0);
	symtab_define_thread(f->st, 1, "main", 0);
	symtab_define_thread(f->st, 2, "worker", 0);
	if (layout_global) {
		struct cg_profile_opts g = { 0 };

		if (o)
			g = *o;
		g.global = 1;
		f->p = profile_create(f->st, &g);
	} else {
		f->p = profile_create(f->st, o);
	}
	f->v = NULL;
	f->fed = NULL;
	f->nfed = 0;
}

static void fx_init(struct fixture *f, enum cg_clock_sel clock, const char *const *threads)
{
	struct cg_profile_opts o = { .clock = clock, .threads = threads };

	fx_init_opts(f, &o);
}

/* Feed (tid, action, id, time) tuples; the same time on both clocks unless
 * cpu_scale is set, in which case cpu = time * cpu_scale. */
static int fx_feed(struct fixture *f, const uint32_t (*ev)[4], size_t n, uint32_t cpu_scale)
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
		r[i].t_cpu = cpu_scale ? ev[i][3] * cpu_scale : ev[i][3];
		r[i].offset = i;
	}
	rc = profile_add(f->p, r, n, &err);
	f->fed = realloc(f->fed, (f->nfed + n) * sizeof(*r));
	memcpy(f->fed + f->nfed, r, n * sizeof(*r));
	f->nfed += n;
	free(r);
	return rc;
}

/* The replay ends (a dual-clock trace); no view is built yet. */
static void fx_end(struct fixture *f)
{
	struct cg_trace_info info = { 0 };
	uint64_t again = profile_correct_count(f->p);
	struct cg_error err;

	if (again) {
		/* Records up to the last exit on an empty stack, again. */
		if (again > f->nfed || profile_correct_add(f->p, f->fed, (size_t)again, &err) < 0)
			abort();
		profile_correct_end(f->p);
	}
	info.clock = CG_CLOCK_DUAL;
	profile_finish(f->p, &info);
}

static void fx_finish(struct fixture *f)
{
	fx_end(f);
	f->v = profile_view(f->p, -1);
}

static void fx_free(struct fixture *f)
{
	free(f->fed);
	profile_free(f->p);
	symtab_free(f->st);
}

static const struct cg_pmethod *meth(const struct fixture *f, uint32_t id)
{
	int64_t i = symtab_find_method(f->st, id);

	if (i < 0 || f->v->method_pos[i] == UINT32_MAX)
		return NULL;
	return &f->v->methods[f->v->method_pos[i]];
}

/* caller 0 = root of thread index 0 */
static const struct cg_pedge *edge(const struct fixture *f, uint32_t caller_id, uint32_t callee_id)
{
	int64_t ce = symtab_find_method(f->st, callee_id);
	int64_t cr = caller_id ? symtab_find_method(f->st, caller_id) : 0;
	size_t i;

	for (i = 0; i < f->v->nedges; i++) {
		const struct cg_pedge *e = &f->v->edges[i];

		if ((int64_t)e->callee == ce && (int64_t)e->caller == cr && e->from_root == !caller_id)
			return e;
	}
	return NULL;
}

static uint64_t warn_count(const struct fixture *f, enum cg_warn kind)
{
	const struct cg_warning *w;
	size_t n = profile_warnings(f->p, &w), i;

	for (i = 0; i < n; i++)
		if (w[i].kind == kind)
			return w[i].count;
	return 0;
}

enum { EN = CG_ENTER, EX = CG_EXIT, UN = CG_UNWIND };

/* A runs 0..100 and calls B twice (10..40, 50..70).
 * A: incl 100, excl 100-30-20 = 50, calls 1+0.  B: incl 50, excl 50, calls 2+0.
 * root->A 1 call 100 us; A->B 2 calls 50 us; total 100, root excl 0. */
UNIT_TEST(model_nesting)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0 }, { 1, EN, B, 10 }, { 1, EX, B, 40 },
		{ 1, EN, B, 50 }, { 1, EX, B, 70 }, { 1, EX, A, 100 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 6, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 100);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 100);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 50);
	CHECK_EQ_U64(meth(&f, A)->calls, 1);
	CHECK_EQ_U64(meth(&f, B)->incl_us, 50);
	CHECK_EQ_U64(meth(&f, B)->excl_us, 50);
	CHECK_EQ_U64(meth(&f, B)->calls, 2);
	CHECK_EQ_U64(edge(&f, 0, A)->incl_us, 100);
	CHECK_EQ_U64(edge(&f, A, B)->calls, 2);
	CHECK_EQ_U64(edge(&f, A, B)->incl_us, 50);
	CHECK_EQ_U64(f.v->threads[0].excl_us, 0);
	CHECK_EQ_U64(f.v->methods[0].index, (uint64_t)symtab_find_method(f.st, A));
	fx_free(&f);
	return 0;
}

/* A (0..100) calls A (10..30): outermost only for inclusive.
 * A: incl 100, excl 10 + 20 + 70 = 100, calls 1+1.
 * root->A 1 call 100; A->A 1 call, 0 us (the callee was on the stack). */
UNIT_TEST(model_recursion)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0 }, { 1, EN, A, 10 }, { 1, EX, A, 30 }, { 1, EX, A, 100 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 4, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 100);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 100);
	CHECK_EQ_U64(meth(&f, A)->calls, 1);
	CHECK_EQ_U64(meth(&f, A)->rec_calls, 1);
	CHECK_EQ_U64(edge(&f, A, A)->calls, 1);
	CHECK_EQ_U64(edge(&f, A, A)->incl_us, 0);
	CHECK_EQ_U64(edge(&f, 0, A)->incl_us, 100);
	fx_free(&f);
	return 0;
}

/* Indirect recursion A -> B -> A: the inner A is recursive, so the B->A edge
 * carries no inclusive time, and B's inclusive counts its one activation.
 * A 0..100, B 10..60, A 20..50.  A: incl 100, excl 10+30+40 = 80, 1+1.
 * B: incl 50, excl 10+10 = 20.  B->A: 1 call, 0 us. */
UNIT_TEST(model_indirect_recursion)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0 }, { 1, EN, B, 10 }, { 1, EN, A, 20 },
		{ 1, EX, A, 50 }, { 1, EX, B, 60 }, { 1, EX, A, 100 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 6, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 100);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 80);
	CHECK_EQ_U64(meth(&f, A)->rec_calls, 1);
	CHECK_EQ_U64(meth(&f, B)->incl_us, 50);
	CHECK_EQ_U64(meth(&f, B)->excl_us, 20);
	CHECK_EQ_U64(edge(&f, B, A)->calls, 1);
	CHECK_EQ_U64(edge(&f, B, A)->incl_us, 0);
	CHECK_EQ_U64(edge(&f, A, B)->incl_us, 50);
	fx_free(&f);
	return 0;
}

/* Exit before trace start: B 10..20, then A exits at 50 on an empty stack,
 * then C 60..70.  First event 10, last 70: total 60.
 * A spans 10..50: incl 40; it adopts B and the root time 20..50, so A excl
 * 30 (that root time moves to it), A->B 1 call 10 us.  The root keeps only
 * 50..60: excl 10.  root->A 40, root->C 10: 10 + 40 + 10 = 60. */
UNIT_TEST(model_exit_before_start)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, B, 10 }, { 1, EX, B, 20 }, { 1, EX, A, 50 },
		{ 1, EN, C, 60 }, { 1, EX, C, 70 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 5, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 60);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 40);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 30);
	CHECK_EQ_U64(meth(&f, A)->calls, 1);
	CHECK_EQ_U64(edge(&f, A, B)->calls, 1);
	CHECK_EQ_U64(edge(&f, A, B)->incl_us, 10);
	CHECK(edge(&f, 0, B) == NULL);
	CHECK_EQ_U64(edge(&f, 0, A)->incl_us, 40);
	CHECK_EQ_U64(edge(&f, 0, C)->incl_us, 10);
	CHECK_EQ_U64(f.v->threads[0].excl_us, 10);
	CHECK_EQ_U64(warn_count(&f, CG_W_EXIT_EMPTY), 1);
	fx_free(&f);
	return 0;
}

/* A chain of frames entered before tracing (Debug.startMethodTracing ->
 * Debug.startMethodTracing -> VMDebug...): C exits at 5, B at 7, A at 10,
 * first event 5.  C spans 5..5 (0), B 5..7 under... B adopts C, A adopts B.
 * A incl 5, B incl 2, C incl 0; A->B, B->C; root->A only. */
UNIT_TEST(model_exit_before_start_chain)
{
	static const uint32_t ev[][4] = {
		{ 1, EX, C, 5 }, { 1, EX, B, 7 }, { 1, EX, A, 10 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 3, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 5);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 5);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 3);
	CHECK_EQ_U64(meth(&f, B)->incl_us, 2);
	CHECK_EQ_U64(meth(&f, B)->excl_us, 2);
	CHECK_EQ_U64(meth(&f, C)->incl_us, 0);
	CHECK(edge(&f, A, B) != NULL);
	CHECK(edge(&f, B, C) != NULL);
	CHECK(edge(&f, 0, B) == NULL && edge(&f, 0, C) == NULL);
	CHECK_EQ_U64(edge(&f, 0, A)->incl_us, 5);
	CHECK_EQ_U64(warn_count(&f, CG_W_EXIT_EMPTY), 3);
	fx_free(&f);
	return 0;
}

/* A ran at top level (0..10), then A exits on an empty stack at 30: the
 * earlier A ran inside the pre-trace A, so it becomes a recursive call.
 * A: incl 30 (0..30), excl 10 + 20 = 30, calls 1+1; A->A 1 call 0 us;
 * root->A 1 call 30 us; root excl 0. */
UNIT_TEST(model_exit_before_start_makes_recursion)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0 }, { 1, EX, A, 10 }, { 1, EX, A, 30 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 3, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 30);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 30);
	CHECK_EQ_U64(meth(&f, A)->calls, 1);
	CHECK_EQ_U64(meth(&f, A)->rec_calls, 1);
	CHECK_EQ_U64(edge(&f, A, A)->calls, 1);
	CHECK_EQ_U64(edge(&f, A, A)->incl_us, 0);
	CHECK_EQ_U64(edge(&f, 0, A)->calls, 1);
	CHECK_EQ_U64(edge(&f, 0, A)->incl_us, 30);
	CHECK_EQ_U64(f.v->threads[0].excl_us, 0);
	fx_free(&f);
	return 0;
}

/* Exit of A while B is on top: pops B and A at 30.  B incl 20, A incl 30,
 * A excl 10.  An exit of C (never entered, stack not empty) is ignored. */
UNIT_TEST(model_mismatched_exits)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0 }, { 1, EN, B, 10 }, { 1, EX, C, 20 }, { 1, EX, A, 30 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 4, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, B)->incl_us, 20);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 30);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 10);
	CHECK(meth(&f, C) == NULL);
	CHECK_EQ_U64(warn_count(&f, CG_W_MISMATCH_POP), 1);
	CHECK_EQ_U64(warn_count(&f, CG_W_MISMATCH_IGNORED), 1);
	fx_free(&f);
	return 0;
}

/* Frames open at the end close at the thread's last event (25).
 * A 0.., B 10.., C 20..25.  A incl 25 excl 10; B incl 15 excl 10; C 5. */
UNIT_TEST(model_open_frames)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0 }, { 1, EN, B, 10 }, { 1, EN, C, 20 }, { 1, EX, C, 25 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 4, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 25);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 10);
	CHECK_EQ_U64(meth(&f, B)->incl_us, 15);
	CHECK_EQ_U64(meth(&f, B)->excl_us, 10);
	CHECK_EQ_U64(meth(&f, C)->incl_us, 5);
	CHECK_EQ_U64(meth(&f, A)->calls, 1);
	CHECK_EQ_U64(profile_stats(f.p)->open_at_end, 2);
	fx_free(&f);
	return 0;
}

/* Unwinds (action 2) pop one frame, exactly like an exit. */
UNIT_TEST(model_unwind)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0 }, { 1, EN, B, 10 }, { 1, UN, B, 15 }, { 1, UN, A, 40 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 4, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, B)->incl_us, 5);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 40);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 35);
	CHECK_EQ_U64(profile_stats(f.p)->unwinds, 2);
	fx_free(&f);
	return 0;
}

/* Two threads interleaved, wall time not monotonic across threads:
 * thread 1: A 1000..1100; thread 2: B 5..65 with C 15..35. */
static const uint32_t interleaved[][4] = {
	{ 1, EN, A, 1000 }, { 2, EN, B, 5 }, { 2, EN, C, 15 }, { 1, EX, A, 1100 },
	{ 2, EX, C, 35 }, { 2, EX, B, 65 },
};

/* interleaved: totals 100 + 60 = 160; per-thread views separate them. */
UNIT_TEST(model_interleaved_threads)
{
	struct fixture f;
	const struct cg_view *t2;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, interleaved, 6, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 160);
	CHECK_EQ_U64(f.v->nthreads, 2);
	CHECK_EQ_U64(meth(&f, B)->incl_us, 60);
	CHECK_EQ_U64(meth(&f, B)->excl_us, 40);
	CHECK_EQ_U64(meth(&f, C)->incl_us, 20);
	t2 = profile_view(f.p, 1);
	CHECK_EQ_U64(t2->total_us, 60);
	CHECK_EQ_U64(t2->nmethods, 2);
	CHECK_EQ_STR(t2->threads[0].name, "worker");
	fx_free(&f);
	return 0;
}

/* The same events grouped per thread (as Android 14+ writes them) give the
 * same numbers as interleaved ones. */
UNIT_TEST(model_grouped_threads)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 1000 }, { 1, EX, A, 1100 },
		{ 2, EN, B, 5 }, { 2, EN, C, 15 }, { 2, EX, C, 35 }, { 2, EX, B, 65 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 6, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 160);
	CHECK_EQ_U64(meth(&f, B)->excl_us, 40);
	CHECK_EQ_U64(meth(&f, C)->incl_us, 20);
	fx_free(&f);
	return 0;
}

/* 32-bit wrap: A enters at 2^32 - 256 and exits at 256: 512 us. */
UNIT_TEST(model_time_wrap)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0xffffff00u }, { 1, EX, A, 0x100u },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 2, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 512);
	CHECK_EQ_U64(f.v->total_us, 512);
	CHECK_EQ_U64(warn_count(&f, CG_W_CLOCK_WRAP), 1);
	fx_free(&f);
	return 0;
}

/* A small backward step counts as zero: 100, 200, 150 (step 0), 300 (step
 * 150): A incl 100 + 0 + 150 = 250, B incl 0; one warning. */
UNIT_TEST(model_time_backwards)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 100 }, { 1, EN, B, 200 }, { 1, EX, B, 150 }, { 1, EX, A, 300 },
	};
	struct fixture f;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 4, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 250);
	CHECK_EQ_U64(meth(&f, B)->incl_us, 0);
	CHECK_EQ_U64(warn_count(&f, CG_W_CLOCK_BACK), 1);
	fx_free(&f);
	return 0;
}

/* --clock cpu uses the first time field: with cpu = 3 x wall, A 0..100
 * wall is 300 us of cpu. */
UNIT_TEST(model_clock_cpu)
{
	static const uint32_t ev[][4] = { { 1, EN, A, 0 }, { 1, EX, A, 100 } };
	struct fixture f;

	fx_init(&f, CG_USE_CPU, NULL);
	CHECK(fx_feed(&f, ev, 2, 3) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 300);
	CHECK_EQ_U64(profile_stats(f.p)->other_total_us, 100);
	fx_free(&f);
	return 0;
}

/* --thread worker keeps only thread 2; the total is its 60 us. */
UNIT_TEST(model_thread_filter)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 1000 }, { 2, EN, B, 5 }, { 1, EX, A, 1100 }, { 2, EX, B, 65 },
	};
	static const char *const only[] = { "worker", NULL };
	struct fixture f;

	fx_init(&f, CG_USE_WALL, only);
	CHECK(fx_feed(&f, ev, 4, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 60);
	CHECK_EQ_U64(f.v->nthreads, 1);
	CHECK(meth(&f, A) == NULL);
	CHECK_EQ_U64(profile_stats(f.p)->skipped, 2);
	fx_free(&f);
	return 0;
}

/* An id missing from the key is named unknown.0x<id> and counted. */
UNIT_TEST(model_unknown_method)
{
	static const uint32_t ev[][4] = { { 1, EN, 0x1234, 0 }, { 1, EX, 0x1234, 7 } };
	struct fixture f;
	const struct cg_pmethod *m;
	struct cg_method_info tmp;
	const struct cg_method_info *mi;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 2, 0) == 0);
	fx_finish(&f);
	m = meth(&f, 0x1234);
	CHECK(m != NULL);
	mi = profile_method(f.v, m, &tmp);
	CHECK_EQ_STR(mi->klass, "unknown");
	CHECK_EQ_STR(mi->name, "0x1234");
	CHECK_EQ_U64(m->incl_us, 7);
	CHECK_EQ_U64(warn_count(&f, CG_W_UNKNOWN_METHOD), 1);
	fx_free(&f);
	return 0;
}

/* The stack depth limit is a clear error, not a crash. */
UNIT_TEST(model_depth_limit)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .max_depth = 3 };
	struct cg_symtab *st = symtab_create();
	struct cg_profile *p = profile_create(st, &o);
	struct cg_record r[4];
	struct cg_error err;
	int i;

	for (i = 0; i < 4; i++) {
		r[i].tid = 1;
		r[i].action = CG_ENTER;
		r[i].method = A;
		r[i].t_cpu = r[i].t_wall = (uint32_t)i;
		r[i].offset = (uint64_t)(100 + i);
	}
	CHECK(profile_add(p, r, 4, &err) == -1);
	CHECK_EQ_U64(err.offset, 103);
	CHECK(strstr(err.msg, "hard limit") != NULL);
	profile_finish(p, NULL);
	profile_free(p);
	symtab_free(st);
	return 0;
}

/* A profile of one thread hands its tables to the first view asked for;
 * the view of thread 0 asked first, then the view of all threads: the same
 * numbers (model_nesting's), the same arrays, each view its own thread field. */
UNIT_TEST(model_one_thread_views_share)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0 }, { 1, EN, B, 10 }, { 1, EX, B, 40 },
		{ 1, EN, B, 50 }, { 1, EX, B, 70 }, { 1, EX, A, 100 },
	};
	struct fixture f;
	const struct cg_view *t0;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 6, 0) == 0);
	fx_end(&f);
	t0 = profile_view(f.p, 0);
	CHECK_EQ_U64(t0->nmethods, 2);
	CHECK_EQ_U64(t0->nedges, 2);
	CHECK(t0->thread == 0);
	f.v = profile_view(f.p, -1);
	CHECK(f.v->thread == -1);
	CHECK(f.v->methods == t0->methods);
	CHECK(f.v->edges == t0->edges);
	CHECK_EQ_U64(f.v->total_us, 100);
	CHECK_EQ_U64(meth(&f, A)->incl_us, 100);
	CHECK_EQ_U64(meth(&f, A)->excl_us, 50);
	CHECK_EQ_U64(meth(&f, B)->incl_us, 50);
	CHECK_EQ_U64(meth(&f, B)->calls, 2);
	CHECK_EQ_U64(meth(&f, B)->o_incl_us, 50);
	CHECK_EQ_U64(edge(&f, 0, A)->incl_us, 100);
	CHECK_EQ_U64(edge(&f, A, B)->calls, 2);
	CHECK_EQ_U64(edge(&f, A, B)->incl_us, 50);
	CHECK_EQ_U64(edge(&f, A, B)->o_incl_us, 50);
	fx_free(&f);
	return 0;
}

/* no_views: the threads keep their numbers, the views have no methods and
 * no edges (the tables went when the replay ended). */
UNIT_TEST(model_no_views)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .no_views = 1 };
	struct fixture f;
	const struct cg_pthread *t;

	fx_init_opts(&f, &o);
	CHECK(fx_feed(&f, interleaved, 6, 0) == 0);
	fx_end(&f);
	CHECK_EQ_U64(profile_thread_count(f.p), 2);
	t = profile_threads(f.p);
	CHECK_EQ_U64(t[0].incl_us, 100);
	CHECK_EQ_U64(t[1].incl_us, 60);
	CHECK_EQ_STR(t[1].name, "worker");
	CHECK(profile_has_other(f.p));
	CHECK(profile_primary(f.p) == CG_USE_WALL);
	f.v = profile_view(f.p, -1);
	CHECK_EQ_U64(f.v->nthreads, 2);
	CHECK_EQ_U64(f.v->nmethods, 0);
	CHECK_EQ_U64(f.v->nedges, 0);
	fx_free(&f);
	return 0;
}

/* Views keep no method definitions: they read the symtab's through
 * profile_method, and building them builds no cg_method_info. */
UNIT_TEST(model_views_build_no_info)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 10 }, { 1, EN, C, 20 }, { 1, EX, C, 50 }, { 1, EX, A, 60 },
	};
	struct fixture f;
	struct cg_method_info tmp;
	const struct cg_method_info *m;
	size_t i;

	fx_init(&f, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 4, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->nmethods, 2);
	CHECK(f.v->st == f.st);
	for (i = 0; i < f.v->nmethods; i++)
		CHECK(symtab_method_peek(f.st, f.v->methods[i].index, &tmp) == &tmp);
	m = profile_method(f.v, &f.v->methods[1], &tmp);
	CHECK_EQ_STR(m->klass, "com/ex/Bar");
	CHECK_EQ_STR(m->name, "c");
	CHECK_EQ_STR(m->sig, "(I)V");
	CHECK_EQ_U64(m->id, C);
	fx_free(&f);
	return 0;
}

/* no_edges: the same methods, no edges; for one thread (tables taken) and
 * for several (tables summed). */
UNIT_TEST(model_no_edges)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .no_edges = 1 };
	struct fixture f, g;
	size_t n;

	for (n = 4; n <= 6; n += 2) {
		fx_init_opts(&f, &o);
		fx_init(&g, CG_USE_WALL, NULL);
		/* One thread (its tables taken), or two (summed). */
		if (n == 4) {
			static const uint32_t one[][4] = {
				{ 1, EN, A, 1000 }, { 1, EN, C, 1010 }, { 1, EX, C, 1030 },
				{ 1, EX, A, 1100 },
			};
			CHECK(fx_feed(&f, one, 4, 0) == 0);
			CHECK(fx_feed(&g, one, 4, 0) == 0);
		} else {
			CHECK(fx_feed(&f, interleaved, 6, 0) == 0);
			CHECK(fx_feed(&g, interleaved, 6, 0) == 0);
		}
		fx_finish(&f);
		fx_finish(&g);
		CHECK_EQ_U64(f.v->nedges, 0);
		CHECK(g.v->nedges > 0);
		CHECK_EQ_U64(f.v->total_us, g.v->total_us);
		CHECK(same_methods(f.v, g.v) == 0);
		fx_free(&f);
		fx_free(&g);
	}
	return 0;
}

/* no_thread_views: the all-threads view of several threads is the same;
 * the threads' tables go as it is built, so a one-thread view after it is
 * empty. */
UNIT_TEST(model_no_thread_views)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 1000 }, { 2, EN, B, 5 }, { 2, EN, C, 15 }, { 1, EN, C, 1010 },
		{ 1, EX, C, 1050 }, { 1, EX, A, 1100 }, { 2, EX, C, 35 }, { 2, EX, B, 65 },
	};
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .no_thread_views = 1 };
	struct fixture f, g;
	const struct cg_view *t0;

	fx_init_opts(&f, &o);
	fx_init(&g, CG_USE_WALL, NULL);
	CHECK(fx_feed(&f, ev, 8, 0) == 0);
	CHECK(fx_feed(&g, ev, 8, 0) == 0);
	fx_finish(&f);
	fx_finish(&g);
	CHECK_EQ_U64(f.v->nmethods, 3);
	CHECK(same_methods(f.v, g.v) == 0);
	CHECK(same_edges(f.v, g.v) == 0);
	t0 = profile_view(f.p, 0);
	CHECK_EQ_U64(t0->nmethods, 0);
	CHECK_EQ_U64(t0->nedges, 0);
	CHECK_EQ_U64(t0->threads[0].incl_us, 100);
	CHECK(profile_view(g.p, 0)->nmethods == 2);
	fx_free(&f);
	fx_free(&g);
	return 0;
}

/* The tests above whose profile asks only for the view of all threads, on
 * global tables: the same numbers (frames entered before tracing through
 * the correction pass). */
UNIT_TEST(model_global_layout)
{
	static int (*const tests[])(void) = {
		test_model_nesting, test_model_recursion, test_model_indirect_recursion,
		test_model_exit_before_start, test_model_exit_before_start_chain,
		test_model_exit_before_start_makes_recursion, test_model_mismatched_exits,
		test_model_open_frames, test_model_unwind, test_model_grouped_threads, test_model_time_wrap, test_model_time_backwards,
		test_model_clock_cpu, test_model_thread_filter, test_model_unknown_method,
		test_model_no_views, test_model_views_build_no_info, test_model_no_edges,
	};
	size_t i;
	int rc = 0;

	layout_global = 1;
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]) && !rc; i++)
		if ((rc = tests[i]()) != 0)
			fprintf(stderr, "  (on global tables: the test %zu of the list)\n", i);
	layout_global = 0;
	return rc;
}

/* Global tables give the numbers of per-thread tables, method by method
 * and edge by edge, on the random replay (views.h); with 8000 threads and
 * 60000 methods many threads keep their open methods in a set rather than
 * a bit per method. */
UNIT_TEST(model_global_matches_threads)
{
	struct cg_symtab *st = symtab_create();
	struct cg_profile *a, *b;
	const struct cg_view *va, *vb;
	size_t i;

	for (i = 0; i < RT_METHODS; i++)
		symtab_define_method(st, (uint32_t)(i + 1) * 4, "com/ex/R", "m", "()V", "R.java", 0);
	a = random_replay(st, 0, NULL);
	b = random_replay(st, 1, NULL);
	va = profile_view(a, -1);
	vb = profile_view(b, -1);
	CHECK(va->nmethods > 1000 && va->nedges > 1000);
	CHECK_EQ_U64(profile_stats(a)->records, RT_RECORDS);
	CHECK(same_methods(va, vb) == 0);
	CHECK_EQ_U64(va->total_us, vb->total_us);
	CHECK(same_edges(va, vb) == 0);
	CHECK_EQ_U64(va->nthreads, vb->nthreads);
	for (i = 0; i < va->nthreads; i++) {
		CHECK_EQ_U64(va->threads[i].excl_us, vb->threads[i].excl_us);
		CHECK_EQ_U64(va->threads[i].o_excl_us, vb->threads[i].o_excl_us);
		CHECK_EQ_U64(va->threads[i].max_depth, vb->threads[i].max_depth);
	}
	profile_free(a);
	profile_free(b);
	symtab_free(st);
	return 0;
}

/* Global tables replaying a range (a shared symtab): a method id missing
 * from the key abandons the range, and nothing after that record is
 * replayed (its frame stands on another method's line: replaying on could
 * pop past the bottom of a stack). */
UNIT_TEST(model_global_abandoned)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, A, 0 }, { 1, EN, 0x40u, 10 }, { 1, EX, A, 20 },
		{ 1, EN, B, 30 }, { 1, EX, B, 40 },
	};
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .global = 1, .shared_symtab = 1 };
	struct fixture f;

	fx_init_opts(&f, &o);
	CHECK(fx_feed(&f, ev, 5, 0) == 0);
	CHECK(profile_abandoned(f.p));
	fx_end(&f);
	CHECK_EQ_U64(profile_threads(f.p)[0].records, 2);
	fx_free(&f);
	return 0;
}

/* Global tables of more methods than fit a small block: the lines grow as
 * a mapping (several doublings past XBIG_MIN) and the view's methods stay
 * in it, cut to size and freed with it.  Method i (2 .. n + 1) runs from
 * 3i to 3i + 1 on both clocks, called once from A, which runs from 0 to
 * 3n + 6; every number is counted here, from that shape. */
UNIT_TEST(model_global_lines_mapped)
{
	enum { N = 200000 };
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .global = 1 };
	uint32_t (*ev)[4] = calloc(2 * N + 2, sizeof(*ev));
	const struct cg_pedge *e;
	struct fixture f;
	size_t i, k = 0;
	uint64_t excl_a = 3 * (uint64_t)N + 6;

	CHECK((size_t)N * sizeof(struct cg_pmethod) >= XBIG_MIN);
	fx_init_opts(&f, &o);
	for (i = 0; i < N; i++)
		symtab_define_method(f.st, 0x1000u + (uint32_t)i * 4, "com/ex/Many", "m", "()V",
				     "Many.java", 0);
	ev[k][0] = 1, ev[k][1] = EN, ev[k][2] = A, ev[k++][3] = 0;
	for (i = 2; i < N + 2; i++) {
		uint32_t id = 0x1000u + (uint32_t)(i - 2) * 4;

		ev[k][0] = 1, ev[k][1] = EN, ev[k][2] = id, ev[k++][3] = 3 * (uint32_t)i;
		ev[k][0] = 1, ev[k][1] = EX, ev[k][2] = id, ev[k++][3] = 3 * (uint32_t)i + 1;
		excl_a -= 1;
	}
	ev[k][0] = 1, ev[k][1] = EX, ev[k][2] = A, ev[k++][3] = 3 * N + 6;
	CHECK(fx_feed(&f, (const uint32_t(*)[4])ev, k, 0) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->nmethods, N + 1);
	CHECK_EQ_U64(f.v->nedges, N + 1);
	/* A first (the most inclusive time), then the others, 1 us each. */
	CHECK_EQ_U64(f.v->methods[0].incl_us, 3 * (uint64_t)N + 6);
	CHECK_EQ_U64(f.v->methods[0].excl_us, excl_a);
	for (i = 1; i <= N; i++) {
		const struct cg_pmethod *m = &f.v->methods[i];

		if (m->incl_us != 1 || m->excl_us != 1 || m->calls != 1 || m->rec_calls != 0 ||
		    m->o_incl_us != 1 || m->o_excl_us != 1) {
			fprintf(stderr, "  method %zu: incl %" PRIu64 " excl %" PRIu64 " calls %" PRIu64
				"\n", i, m->incl_us, m->excl_us, m->calls);
			CHECK(0);
		}
	}
	for (i = 0; i < f.v->nedges; i++) {
		e = &f.v->edges[i];
		CHECK_EQ_U64(e->calls, 1);
		CHECK_EQ_U64(e->incl_us, e->from_root ? 3 * (uint64_t)N + 6 : 1);
	}
	free(ev);
	fx_free(&f);
	return 0;
}

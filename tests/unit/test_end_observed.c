/* profile_end_observed: a profile without tables closes its threads' open
 * frames and finishes its observer at once, and profile_finish does
 * neither again; a profile with tables is left as it is.  The events
 * expected are worked out by hand above each test. */
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "read/symtab.h"
#include "unit.h"

#define A 0x10u
#define B 0x20u
#define C 0x30u
#define EN 0u
#define EX 1u

/* What the observer saw: leaves as (thread, time), in order; finishes. */
struct seen {
	uint32_t leave_th[8];
	uint64_t leave_t[8];
	size_t leaves, enters, finishes;
};

static void on_enter(void *ctx, uint32_t th, uint32_t m, uint64_t t)
{
	(void)th, (void)m, (void)t;
	((struct seen *)ctx)->enters++;
}

static void on_leave(void *ctx, uint32_t th, uint64_t t)
{
	struct seen *s = ctx;

	if (s->leaves < 8) {
		s->leave_th[s->leaves] = th;
		s->leave_t[s->leaves] = t;
	}
	s->leaves++;
}

static void on_adopt(void *ctx, uint32_t th, uint32_t m, uint64_t f, uint64_t t)
{
	(void)ctx, (void)th, (void)m, (void)f, (void)t;
}

static void on_finish(void *ctx)
{
	((struct seen *)ctx)->finishes++;
}

/* A profile of global tables, without them when bare, the wall clock; the
 * records: main enters a at 10 and b at 20, b returns at 30; worker enters
 * c at 5.  Open at the end: a on main (last event 30), c on worker (5). */
static struct cg_profile *fed(struct cg_symtab *st, struct seen *s, int bare)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .global = 1, .no_views = bare };
	struct cg_observer obs = { .ctx = s, .enter = on_enter, .leave = on_leave,
				   .adopt = on_adopt, .finish = on_finish };
	struct cg_record r[] = {
		{ 1, A, 0, 10, EN, 0 }, { 1, B, 0, 20, EN, 0 }, { 2, C, 0, 5, EN, 0 },
		{ 1, B, 0, 30, EX, 0 },
	};
	struct cg_profile *p = profile_create(st, &o);
	struct cg_error err;

	profile_set_observer(p, &obs);
	if (profile_add(p, r, sizeof(r) / sizeof(r[0]), &err) < 0) {
		profile_free(p);
		return NULL;
	}
	return p;
}

static struct cg_symtab *methods(void)
{
	struct cg_symtab *st = symtab_create();

	symtab_define_method(st, A, "com/ex/Foo", "a", "()V", "Foo.java", 0);
	symtab_define_method(st, B, "com/ex/Foo", "b", "()V", "Foo.java", 0);
	symtab_define_method(st, C, "com/ex/Bar", "c", "()V", "Bar.java", 0);
	symtab_define_thread(st, 1, "main", 0);
	symtab_define_thread(st, 2, "worker", 0);
	return st;
}

/* A fed profile (fed) with what its observer saw, and a finish on the
 * wall clock. */
struct fx {
	struct cg_symtab *st;
	struct seen s;
	struct cg_profile *p;
};

static int fx_init(struct fx *f, int bare)
{
	memset(f, 0, sizeof(*f));
	f->st = methods();
	f->p = fed(f->st, &f->s, bare);
	return f->p != NULL;
}

static void fx_finish(struct fx *f)
{
	struct cg_trace_info info = { 0 };

	info.clock = CG_CLOCK_WALL;
	profile_finish(f->p, &info);
}

static void fx_free(struct fx *f)
{
	profile_free(f->p);
	symtab_free(f->st);
}

/* Without tables: at once a leaves main (thread 0) at 30, then c leaves
 * worker (thread 1) at 5, and the observer finishes; a second call and
 * profile_finish add nothing. */
UNIT_TEST(end_observed_bare)
{
	struct fx f;

	CHECK(fx_init(&f, 1));
	CHECK_EQ_U64(f.s.enters, 3);
	CHECK_EQ_U64(f.s.leaves, 1);
	profile_end_observed(f.p);
	CHECK_EQ_U64(f.s.leaves, 3);
	CHECK_EQ_U64(f.s.leave_th[1], 0);
	CHECK_EQ_U64(f.s.leave_t[1], 30);
	CHECK_EQ_U64(f.s.leave_th[2], 1);
	CHECK_EQ_U64(f.s.leave_t[2], 5);
	CHECK_EQ_U64(f.s.finishes, 1);
	profile_end_observed(f.p);
	fx_finish(&f);
	CHECK_EQ_U64(f.s.leaves, 3);
	CHECK_EQ_U64(f.s.finishes, 1);
	fx_free(&f);
	return 0;
}

/* With tables: nothing until profile_finish, which closes both frames and
 * finishes the observer once. */
UNIT_TEST(end_observed_tables)
{
	struct fx f;

	CHECK(fx_init(&f, 0));
	profile_end_observed(f.p);
	CHECK_EQ_U64(f.s.leaves, 1);
	CHECK_EQ_U64(f.s.finishes, 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.s.leaves, 3);
	CHECK_EQ_U64(f.s.finishes, 1);
	fx_free(&f);
	return 0;
}

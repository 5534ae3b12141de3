/* Calling-context tree on both clocks of a dual-clock trace: records fed
 * straight to the profile with the tree as its observer; every expected
 * number is computed by hand in the comment above its test. */
#include <stdlib.h>

#include "model/cct.h"
#include "model/profile.h"
#include "read/symtab.h"
#include "unit.h"

#define A 0x10u
#define B 0x20u
#define C 0x30u

enum { EN = CG_ENTER, EX = CG_EXIT };

struct cfx {
	struct cg_symtab *st;
	struct cg_profile *p;
	struct cg_cct *c;
};

/* Feed (tid, action, id, wall, cpu) tuples with the given filters, to a
 * tree keyed by raw id (ids), through a profile without tables (bare). */
static int cfx_feed(struct cfx *f, enum cg_clock_sel clock, const uint32_t (*ev)[5], size_t n,
		    const char *const *hide, int ids, int bare)
{
	struct cg_profile_opts o = { .clock = clock, .hide = hide, .global = bare,
				     .no_views = bare };
	struct cg_record *r = calloc(n, sizeof(*r));
	struct cg_trace_info info = { 0 };
	struct cg_observer obs;
	struct cg_error err;
	size_t i;
	int rc;

	f->st = symtab_create();
	symtab_define_method(f->st, A, "com/ex/Foo", "a", "()V", "Foo.java", 0);
	symtab_define_method(f->st, B, "com/ex/Foo", "b", "()V", "Foo.java", 0);
	symtab_define_method(f->st, C, "com/ex/Bar", "c", "()V", "Bar.java", 0);
	symtab_define_thread(f->st, 1, "main", 0);
	f->p = profile_create(f->st, &o);
	f->c = ids ? cct_create_ids(f->st) : cct_create();
	cct_observer(f->c, &obs);
	profile_set_observer(f->p, &obs);
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
	info.clock = CG_CLOCK_DUAL;
	profile_finish(f->p, &info);
	return rc;
}

static int cfx_run(struct cfx *f, enum cg_clock_sel clock, const uint32_t (*ev)[5], size_t n,
		   const char *const *hide)
{
	return cfx_feed(f, clock, ev, n, hide, 0, 0);
}

static void cfx_free(struct cfx *f)
{
	profile_free(f->p);
	cct_free(f->c);
	symtab_free(f->st);
}

/* The child of node `parent` running method id, or NULL. */
static const struct cg_cct_node *child(const struct cfx *f, uint32_t parent, uint32_t id)
{
	int64_t m = symtab_find_method(f->st, id);
	size_t n, i;
	const uint32_t *k = cct_children(f->c, parent, &n);
	const uint32_t *km = cct_children_methods(f->c, parent);

	for (i = 0; i < n; i++)
		if (km[i] != cct_node(f->c, k[i])->midx)
			return NULL; /* the methods of the children out of step */
	for (i = 0; i < n; i++)
		if ((int64_t)cct_node(f->c, k[i])->midx == m)
			return cct_node(f->c, k[i]);
	return NULL;
}

static uint32_t id_of(const struct cfx *f, const struct cg_cct_node *n)
{
	return (uint32_t)(n - cct_node(f->c, 0));
}

/* A tree keyed by raw id, fed by a profile without tables and by one of
 * per-thread tables, finds each node's method when the replay ends: the
 * nodes of dual_ev (below) with their methods, and an id the key lacks
 * (0x40, under A 20..25) added to the symtab then.  By hand: A 0..100,
 * A;B 10..40 wall 30, A;0x40 5 us. */
static const uint32_t ids_ev[][5] = {
	{ 1, EN, A, 0, 0 }, { 1, EN, B, 10, 5 }, { 1, EX, B, 40, 15 },
	{ 1, EN, 0x40, 45, 16 }, { 1, EX, 0x40, 50, 17 }, { 1, EX, A, 100, 50 },
};

UNIT_TEST(cct_ids_methods)
{
	int bare;

	for (bare = 0; bare <= 1; bare++) {
		struct cfx f;
		const struct cg_cct_node *a, *ab, *ax;

		CHECK(cfx_feed(&f, CG_USE_WALL, ids_ev, 6, NULL, 1, bare) == 0);
		CHECK(symtab_find_method(f.st, 0x40) >= 0);
		CHECK((a = child(&f, cct_root(f.c, 0), A)) != NULL);
		CHECK((ab = child(&f, id_of(&f, a), B)) != NULL);
		CHECK((ax = child(&f, id_of(&f, a), 0x40)) != NULL);
		CHECK_EQ_U64(a->incl_us, 100);
		CHECK_EQ_U64(ab->incl_us, 30);
		CHECK_EQ_U64(ax->incl_us, 5);
		CHECK_EQ_U64(cct_node_count(f.c), 4);
		cfx_free(&f);
	}
	return 0;
}

/* A raw id may be any 32-bit value, CCT_NONE's too: entered three times
 * under one parent, it is one node of 3 calls, not one a call. */
UNIT_TEST(cct_ids_any_value)
{
	struct cg_symtab *st = symtab_create();
	struct cg_cct *c = cct_create_ids(st);
	struct cg_observer o;
	const uint32_t *kids;
	size_t n;
	int i;

	cct_observer(c, &o);
	CHECK(o.raw_ids);
	o.enter(o.ctx, 0, 4, 0);
	for (i = 0; i < 3; i++) {
		o.enter(o.ctx, 0, UINT32_MAX, (uint64_t)(2 * i + 1));
		o.leave(o.ctx, 0, (uint64_t)(2 * i + 2));
	}
	o.leave(o.ctx, 0, 7);
	o.finish(o.ctx);
	CHECK_EQ_U64(cct_node_count(c), 3);
	kids = cct_children(c, cct_root(c, 0), &n);
	CHECK(n == 1);
	kids = cct_children(c, kids[0], &n);
	CHECK(n == 1);
	CHECK_EQ_U64(cct_node(c, kids[0])->calls, 3);
	CHECK((int64_t)cct_node(c, kids[0])->midx == symtab_find_method(st, UINT32_MAX));
	cct_free(c);
	symtab_free(st);
	return 0;
}

/* Wall / cpu:  A 0..100 / 0..50; A calls B 10..40 / 5..15 and C 50..90 /
 * 20..45; C calls B 60..70 / 30..32.
 * A;  wall incl 100, excl 100-30-40 = 30; cpu incl 50, excl 50-10-25 = 15.
 * A;B  wall 30/30, cpu 10/10.   A;C wall 40, excl 40-10 = 30; cpu 25, 25-2 = 23.
 * A;C;B wall 10/10, cpu 2/2.  With --clock cpu the two swap. */
static const uint32_t dual_ev[][5] = {
	{ 1, EN, A, 0, 0 }, { 1, EN, B, 10, 5 }, { 1, EX, B, 40, 15 },
	{ 1, EN, C, 50, 20 }, { 1, EN, B, 60, 30 }, { 1, EX, B, 70, 32 },
	{ 1, EX, C, 90, 45 }, { 1, EX, A, 100, 50 },
};

UNIT_TEST(cct_both_clocks)
{
	struct cfx f;
	const struct cg_cct_node *a, *ab, *ac, *acb;

	CHECK(cfx_run(&f, CG_USE_WALL, dual_ev, 8, NULL) == 0);
	CHECK(cct_root(f.c, 0) != CCT_NONE);
	CHECK((a = child(&f, cct_root(f.c, 0), A)) != NULL);
	CHECK((ab = child(&f, id_of(&f, a), B)) != NULL);
	CHECK((ac = child(&f, id_of(&f, a), C)) != NULL);
	CHECK((acb = child(&f, id_of(&f, ac), B)) != NULL);
	CHECK_EQ_U64(a->incl_us, 100);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, a), 0), 30);
	CHECK_EQ_U64(a->o_incl_us, 50);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, a), 1), 15);
	CHECK_EQ_U64(ab->o_incl_us, 10);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, ab), 1), 10);
	CHECK_EQ_U64(ac->incl_us, 40);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, ac), 0), 30);
	CHECK_EQ_U64(ac->o_incl_us, 25);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, ac), 1), 23);
	CHECK_EQ_U64(acb->o_incl_us, 2);
	CHECK_EQ_U64(acb->calls, 1);
	cfx_free(&f);

	CHECK(cfx_run(&f, CG_USE_CPU, dual_ev, 8, NULL) == 0);
	CHECK((a = child(&f, cct_root(f.c, 0), A)) != NULL);
	CHECK((ac = child(&f, id_of(&f, a), C)) != NULL);
	CHECK_EQ_U64(a->incl_us, 50);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, a), 0), 15);
	CHECK_EQ_U64(a->o_incl_us, 100);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, a), 1), 30);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, ac), 0), 23);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, ac), 1), 30);
	cfx_free(&f);
	return 0;
}

/* --hide '*.c' on the same trace: C's frame is invisible, its time is A's
 * own and its callee B is called by A (a second activation of A;B).
 * A;  wall incl 100, excl 100-30-10 = 60; cpu incl 50, excl 50-10-2 = 38.
 * A;B wall 30+10 = 40 over 2 calls; cpu 10+2 = 12. */
UNIT_TEST(cct_both_clocks_hidden)
{
	static const char *const hide[] = { "*.c", NULL };
	struct cfx f;
	const struct cg_cct_node *a, *ab;

	CHECK(cfx_run(&f, CG_USE_WALL, dual_ev, 8, hide) == 0);
	CHECK((a = child(&f, cct_root(f.c, 0), A)) != NULL);
	CHECK((ab = child(&f, id_of(&f, a), B)) != NULL);
	CHECK(child(&f, id_of(&f, a), C) == NULL);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, a), 0), 60);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, a), 1), 38);
	CHECK_EQ_U64(ab->incl_us, 40);
	CHECK_EQ_U64(ab->o_incl_us, 12);
	CHECK_EQ_U64(ab->calls, 2);
	cfx_free(&f);
	return 0;
}

/* An exit on an empty stack: C was entered before tracing.  Wall / cpu:
 * A 10..20 / 4..9 at top level, then C exits at 50 / 30; the thread's
 * first event is at 10 / 4.  C adopts A: C spans 10..50 / 4..30, so wall
 * incl 40, excl 40-10 = 30; cpu incl 26, excl 26-5 = 21. */
UNIT_TEST(cct_both_clocks_adopt)
{
	static const uint32_t ev[][5] = {
		{ 1, EN, A, 10, 4 }, { 1, EX, A, 20, 9 }, { 1, EX, C, 50, 30 },
	};
	struct cfx f;
	const struct cg_cct_node *c, *ca;

	CHECK(cfx_run(&f, CG_USE_WALL, ev, 3, NULL) == 0);
	CHECK((c = child(&f, cct_root(f.c, 0), C)) != NULL);
	CHECK((ca = child(&f, id_of(&f, c), A)) != NULL);
	CHECK_EQ_U64(c->incl_us, 40);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, c), 0), 30);
	CHECK_EQ_U64(c->o_incl_us, 26);
	CHECK_EQ_U64(cct_excl(f.c, id_of(&f, c), 1), 21);
	CHECK_EQ_U64(ca->o_incl_us, 5);
	cfx_free(&f);
	return 0;
}

/* The observer fed directly: method 1 on thread 0 calls methods 10 .. 15
 * in turn, three rounds, k + 1 us each with 1 us between calls, so that
 * a node with more children than it remembers finds them all again; then
 * 300 methods 100 .. 399 once each, 1 us each (the lines move as they
 * grow).  By hand: a round takes (1 + .. + 6) + 6 = 27 us, three 81; the
 * 300 take 600; method 1 runs from 0 to 681.  Child 10 + k: 3 calls,
 * 3 (k + 1) us; child 100 + j: 1 call, 1 us.  Method 1's own time is the
 * gaps: 18 + 300 = 318 us. */
UNIT_TEST(cct_many_children)
{
	struct cg_cct *c = cct_create();
	struct cg_observer o;
	uint64_t t = 0;
	uint32_t root, one, k;
	const uint32_t *kids;
	size_t n, i, seen = 0;

	cct_observer(c, &o);
	o.enter(o.ctx, 0, 1, t);
	for (i = 0; i < 3; i++)
		for (k = 0; k < 6; k++) {
			o.enter(o.ctx, 0, 10 + k, t);
			t += k + 1;
			o.leave(o.ctx, 0, t);
			t += 1;
		}
	for (k = 0; k < 300; k++) {
		o.enter(o.ctx, 0, 100 + k, t);
		t += 1;
		o.leave(o.ctx, 0, t);
		t += 1;
	}
	o.leave(o.ctx, 0, t);
	o.finish(o.ctx);
	CHECK_EQ_U64(t, 681);
	CHECK_EQ_U64(cct_node_count(c), 2 + 6 + 300);
	root = cct_root(c, 0);
	kids = cct_children(c, root, &n);
	CHECK(n == 1);
	one = kids[0];
	CHECK_EQ_U64(cct_node(c, one)->incl_us, 681);
	CHECK_EQ_U64(cct_node(c, one)->calls, 1);
	kids = cct_children(c, one, &n);
	CHECK(n == 306);
	for (i = 0; i < n; i++) {
		const struct cg_cct_node *nd = cct_node(c, kids[i]);

		CHECK(nd->parent == one);
		CHECK(cct_children_methods(c, one)[i] == nd->midx);
		if (nd->midx < 100) {
			CHECK_EQ_U64(nd->calls, 3);
			CHECK_EQ_U64(nd->incl_us, 3 * (nd->midx - 10 + 1));
		} else {
			CHECK_EQ_U64(nd->calls, 1);
			CHECK_EQ_U64(nd->incl_us, 1);
		}
		seen |= (size_t)1 << (nd->midx < 100 ? nd->midx - 10 : 6);
	}
	CHECK(seen == 0x7f);
	CHECK_EQ_U64(cct_excl(c, one, 0), 318);
	cct_free(c);
	return 0;
}

/* A frame entered before tracing takes over the root's children, among
 * them some its line forgot (six top-level methods 10 .. 15, 1 us each,
 * 0 to 6), and is entered again at top level: its children are found
 * again, from its line (15) and from the table (10).  By hand: 99 is
 * adopted at 6 (6 us), entered again 7 to 13 (6 us); 10 runs 7 to 9,
 * 15 runs 9 to 12.  Nodes: the root, 99 and the six. */
UNIT_TEST(cct_adopt_many_children)
{
	struct cg_cct *c = cct_create();
	struct cg_observer o;
	uint32_t k, a;
	const uint32_t *kids;
	size_t n, i;

	cct_observer(c, &o);
	for (k = 0; k < 6; k++) {
		o.enter(o.ctx, 0, 10 + k, k);
		o.leave(o.ctx, 0, k + 1);
	}
	o.adopt(o.ctx, 0, 99, 0, 6);
	o.enter(o.ctx, 0, 99, 7);
	o.enter(o.ctx, 0, 10, 7);
	o.leave(o.ctx, 0, 9);
	o.enter(o.ctx, 0, 15, 9);
	o.leave(o.ctx, 0, 12);
	o.leave(o.ctx, 0, 13);
	o.finish(o.ctx);
	CHECK_EQ_U64(cct_node_count(c), 8);
	kids = cct_children(c, cct_root(c, 0), &n);
	CHECK(n == 1);
	a = kids[0];
	CHECK_EQ_U64(cct_node(c, a)->midx, 99);
	CHECK_EQ_U64(cct_node(c, a)->calls, 2);
	CHECK_EQ_U64(cct_node(c, a)->incl_us, 12);
	kids = cct_children(c, a, &n);
	CHECK(n == 6);
	for (i = 0; i < n; i++) {
		const struct cg_cct_node *nd = cct_node(c, kids[i]);

		CHECK_EQ_U64(nd->calls, nd->midx == 10 || nd->midx == 15 ? 2 : 1);
		CHECK_EQ_U64(nd->incl_us, nd->midx == 10 ? 3 : nd->midx == 15 ? 4 : 1);
	}
	cct_free(c);
	return 0;
}

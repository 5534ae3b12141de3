/* Replaying records in ranges (stitch.h, profile_seed/park/merge/unpark):
 * cut anywhere, the ranges' profiles summed give the numbers of a replay in
 * one piece, and the cuts that cannot be composed are found. */
#include <stdlib.h>

#include "model/profile.h"
#include "model/stitch.h"
#include "read/symtab.h"
#include "bytes.h"
#include "unit.h"

#define A 0x10u
#define B 0x20u
#define C 0x30u
#define D 0x40u

enum { EN = CG_ENTER, EX = CG_EXIT, UW = CG_UNWIND };

/* (tid, action, id, wall); cpu = wall * 2 - 1 (a second clock that differs).
 * Thread 1 starts inside D (an exit before start, its first record),
 * recurses through C and unwinds out of it; thread 2 interleaves and steps
 * back in time once; thread 3's records come in one group; frames stay open
 * at the end on threads 1 and 2. */
static const uint32_t records[][4] = {
	{ 1, EX, D, 10 }, { 1, EN, A, 12 }, { 1, EX, A, 15 }, { 2, EN, B, 16 },
	{ 1, EN, A, 17 }, { 1, EN, C, 18 }, { 2, EN, C, 19 }, { 1, EN, C, 21 },
	{ 1, EN, B, 22 }, { 2, EX, C, 24 }, { 1, EX, B, 25 }, { 1, EN, C, 26 },
	{ 1, UW, C, 30 }, { 1, UW, C, 31 }, { 2, EN, A, 23 }, { 1, EX, C, 33 },
	{ 2, EX, A, 35 }, { 1, EN, B, 36 }, { 1, EX, B, 40 }, { 3, EN, D, 41 },
	{ 3, EN, A, 42 }, { 3, EN, A, 43 }, { 3, EX, A, 45 }, { 3, EX, A, 46 },
	{ 3, EN, B, 47 }, { 3, EX, B, 50 }, { 3, EX, D, 51 }, { 1, EX, A, 52 },
	{ 2, EN, D, 53 }, { 1, EN, A, 54 }, { 2, EN, A, 55 }, { 1, EN, B, 57 },
	{ 2, EX, A, 58 }, { 1, EX, B, 60 }, { 2, EN, C, 61 }, { 1, EN, C, 62 },
};
#define NREC (sizeof(records) / sizeof(records[0]))

/* Threads whose stacks empty, then exit frames entered before tracing began
 * (B's recursion, C's calls become recursive under them). */
static const uint32_t late_adopt[][4] = {
	{ 1, EN, A, 10 }, { 2, EN, B, 11 }, { 2, EN, C, 12 }, { 2, EX, C, 13 },
	{ 2, EX, B, 13 }, { 1, EN, B, 14 }, { 1, EX, B, 16 }, { 2, EN, B, 17 },
	{ 2, EX, B, 19 }, { 2, EX, D, 20 }, { 1, EX, A, 22 }, { 2, EN, C, 24 },
	{ 2, EX, C, 26 }, { 1, EX, C, 27 }, { 2, EX, C, 29 }, { 2, EN, A, 30 },
	{ 2, EX, A, 31 }, { 2, EX, B, 33 }, { 1, EN, C, 35 }, { 1, EX, C, 36 },
};

static struct cg_symtab *symtab_four(void)
{
	struct cg_symtab *st = symtab_create();

	symtab_define_method(st, A, "com/ex/Foo", "a", "()V", "Foo.java", 0);
	symtab_define_method(st, B, "com/ex/Foo", "b", "()V", "Foo.java", 0);
	symtab_define_method(st, C, "com/ex/Bar", "c", "(I)V", "Bar.java", 0);
	symtab_define_method(st, D, "com/ex/Bar", "d", "()V", "Bar.java", 0);
	symtab_define_thread(st, 1, "main", 0);
	symtab_define_thread(st, 2, "worker", 0);
	symtab_define_thread(st, 3, "grouped", 0);
	return st;
}

static struct cg_record *to_records(const uint32_t (*ev)[4], size_t n)
{
	struct cg_record *r = calloc(n, sizeof(*r));
	size_t i;

	for (i = 0; i < n; i++) {
		r[i].tid = ev[i][0];
		r[i].action = (uint8_t)ev[i][1];
		r[i].method = ev[i][2];
		r[i].t_wall = ev[i][3];
		r[i].t_cpu = ev[i][3] * 2 - 1;
		r[i].offset = i;
	}
	return r;
}

/* n records into s as a v3 dual-clock file holds them (tid, method id with
 * action, cpu, wall: 14 bytes, little-endian), read undecoded. */
static void scan_records(struct cg_scan *s, const struct cg_record *recs, size_t n)
{
	const struct cg_raw_layout l = { 14, 2, 1 };
	struct strbuf b;
	size_t i;

	strbuf_init(&b);
	for (i = 0; i < n; i++) {
		put16(&b, recs[i].tid);
		put32(&b, recs[i].method | recs[i].action);
		put32(&b, recs[i].t_cpu);
		put32(&b, recs[i].t_wall);
	}
	scan_add_raw(s, &l, (const unsigned char *)b.data, n);
	strbuf_free(&b);
}

static void finish(struct cg_profile *p)
{
	struct cg_trace_info info = { 0 };

	info.clock = CG_CLOCK_DUAL;
	profile_finish(p, &info);
}

/* Replay recs cut at cuts[0..k-2] into k ranges; *composed gets how many
 * scans composed.  NULL when a range was abandoned. */
static struct cg_profile *replay_cut(struct cg_symtab *st, const struct cg_record *recs,
				     size_t n, const size_t *cuts, size_t k, size_t *composed)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .shared_symtab = 1 };
	struct cg_scan *scans[16];
	struct cg_profile *p, *q, *last;
	struct cg_stitch *sti;
	struct cg_error err;
	size_t i, from;

	for (i = 0, from = 0; i + 1 < k; from = cuts[i++]) {
		scans[i] = scan_create(0, 1000);
		scan_records(scans[i], recs + from, cuts[i] - from);
	}
	sti = stitch_create(scans, k - 1);
	*composed = stitch_ranges(sti);
	p = profile_create(st, &o);
	profile_add(p, recs, cuts[0], &err);
	profile_park(p);
	last = p;
	for (i = 1; i < k && i <= *composed; i++) {
		const struct cg_seed *seeds;
		size_t ns = stitch_seeds(sti, i, &seeds);
		size_t to = i + 1 < k ? cuts[i] : n;

		q = profile_create(st, &o);
		profile_seed(q, seeds, ns);
		profile_add(q, recs + cuts[i - 1], to - cuts[i - 1], &err);
		if (profile_abandoned(q)) {
			profile_free(q);
			break;
		}
		profile_park(q);
		profile_merge(p, q);
		if (last != p)
			profile_free(last);
		last = q;
	}
	if (i < k || profile_abandoned(p)) {
		if (last != p)
			profile_free(last);
		profile_free(p);
		p = NULL;
	} else {
		profile_unpark(p, last);
		if (last != p)
			profile_free(last);
		finish(p);
	}
	for (i = 0; i + 1 < k; i++)
		scan_free(scans[i]);
	stitch_free(sti);
	return p;
}

/* Views a and b hold the same methods, edges and threads. */
static int same_views(const struct cg_view *a, const struct cg_view *b)
{
	size_t i;

	CHECK_EQ_U64(a->nmethods, b->nmethods);
	CHECK_EQ_U64(a->nedges, b->nedges);
	CHECK_EQ_U64(a->nthreads, b->nthreads);
	CHECK_EQ_U64(a->total_us, b->total_us);
	CHECK_EQ_U64(a->o_total_us, b->o_total_us);
	for (i = 0; i < a->nmethods; i++) {
		const struct cg_pmethod *x = &a->methods[i], *y = &b->methods[i];

		CHECK_EQ_U64(x->index, y->index);
		CHECK_EQ_U64(x->incl_us, y->incl_us);
		CHECK_EQ_U64(x->excl_us, y->excl_us);
		CHECK_EQ_U64(x->calls, y->calls);
		CHECK_EQ_U64(x->rec_calls, y->rec_calls);
		CHECK_EQ_U64(x->o_incl_us, y->o_incl_us);
		CHECK_EQ_U64(x->o_excl_us, y->o_excl_us);
	}
	for (i = 0; i < a->nedges; i++) {
		const struct cg_pedge *x = &a->edges[i], *y = &b->edges[i];

		CHECK_EQ_U64(x->from_root, y->from_root);
		CHECK_EQ_U64(x->caller, y->caller);
		CHECK_EQ_U64(x->callee, y->callee);
		CHECK_EQ_U64(x->calls, y->calls);
		CHECK_EQ_U64(x->incl_us, y->incl_us);
		CHECK_EQ_U64(x->o_incl_us, y->o_incl_us);
	}
	for (i = 0; i < a->nthreads; i++) {
		const struct cg_pthread *x = &a->threads[i], *y = &b->threads[i];

		CHECK_EQ_U64(x->tid, y->tid);
		CHECK_EQ_U64(x->records, y->records);
		CHECK_EQ_U64(x->first_us, y->first_us);
		CHECK_EQ_U64(x->last_us, y->last_us);
		CHECK_EQ_U64(x->incl_us, y->incl_us);
		CHECK_EQ_U64(x->excl_us, y->excl_us);
		CHECK_EQ_U64(x->other_us, y->other_us);
		CHECK_EQ_U64(x->o_excl_us, y->o_excl_us);
		CHECK_EQ_U64(x->max_depth, y->max_depth);
	}
	return 0;
}

/* Two profiles' warnings and statistics are the same. */
static int same_facts(struct cg_profile *p, struct cg_profile *q)
{
	const struct cg_warning *w, *v;
	size_t n = profile_warnings(p, &w), i;

	CHECK_EQ_U64(n, profile_warnings(q, &v));
	for (i = 0; i < n; i++) {
		CHECK_EQ_U64(w[i].kind, v[i].kind);
		CHECK_EQ_U64(w[i].count, v[i].count);
	}
	CHECK_EQ_U64(profile_stats(p)->records, profile_stats(q)->records);
	CHECK_EQ_U64(profile_stats(p)->unwinds, profile_stats(q)->unwinds);
	CHECK_EQ_U64(profile_stats(p)->open_at_end, profile_stats(q)->open_at_end);
	CHECK_EQ_U64(profile_stats(p)->max_depth, profile_stats(q)->max_depth);
	return 0;
}

/* Records ev cut everywhere into 2 ranges, and evenly into 3 to 9: all scans
 * compose, and the sum equals the replay in one piece, per thread too. */
static int check_all_cuts(const uint32_t (*ev)[4], size_t n)
{
	struct cg_symtab *st = symtab_four();
	struct cg_record *recs = to_records(ev, n);
	struct cg_profile_opts o = { .clock = CG_USE_WALL };
	struct cg_profile *whole = profile_create(st, &o), *part;
	struct cg_error err;
	size_t cuts[16], k, i, c, composed;

	CHECK(profile_add(whole, recs, n, &err) == 0);
	finish(whole);
	for (k = 2; k <= 9; k++) {
		size_t tries = k == 2 ? n - 1 : 1;

		for (c = 1; c <= tries; c++) {
			for (i = 0; i + 1 < k; i++)
				cuts[i] = k == 2 ? c : n * (i + 1) / k;
			part = replay_cut(st, recs, n, cuts, k, &composed);
			CHECK(part != NULL);
			CHECK_EQ_U64(composed, k - 1);
			CHECK(same_views(profile_view(whole, -1), profile_view(part, -1)) == 0);
			for (i = 0; i < profile_view(whole, -1)->nthreads; i++)
				CHECK(same_views(profile_view(whole, (int)i),
						 profile_view(part, (int)i)) == 0);
			CHECK(same_facts(whole, part) == 0);
			profile_free(part);
		}
	}
	profile_free(whole);
	free(recs);
	symtab_free(st);
	return 0;
}

UNIT_TEST(stitch_any_cut_same_profile)
{
	return check_all_cuts(records, NREC);
}

/* Exits on a thread's empty stack after it ran (frames entered before
 * tracing began) adopt what it ran in earlier ranges too: thread 2 twice,
 * D then E, thread 1 once. */
UNIT_TEST(stitch_late_exit_before_start)
{
	return check_all_cuts(late_adopt, sizeof(late_adopt) / sizeof(late_adopt[0]));
}

/* A method id missing from the symtab, met by a replay that shares the
 * symtab, abandons it at once: the replay adds nothing more (before, the
 * stand-in index made A look active and its exit popped past the stack's
 * bottom). */
UNIT_TEST(stitch_unknown_id_abandons)
{
	static const uint32_t ev[][4] = {
		{ 1, EN, B, 10 }, { 1, EN, 0x50, 11 }, { 1, EX, A, 12 }, { 1, EX, A, 13 },
		{ 1, EX, B, 14 },
	};
	struct cg_symtab *st = symtab_four();
	struct cg_record *recs = to_records(ev, 5);
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .shared_symtab = 1 };
	struct cg_profile *p = profile_create(st, &o);
	struct cg_error err;

	CHECK(profile_add(p, recs, 5, &err) == 0);
	CHECK(profile_abandoned(p));
	CHECK_EQ_U64(symtab_method_count(st), 4);
	profile_free(p);
	free(recs);
	symtab_free(st);
	return 0;
}

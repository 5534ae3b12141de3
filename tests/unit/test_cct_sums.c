/* A thread's own sums from the calling-context tree (cct_sums.h): a profile
 * replayed into global tables, with the tree as its threads' source, gives
 * every thread the view (methods and edges, both clocks) and the busiest
 * and waiting methods that per-thread tables give, on the random replay of
 * views.h (recursion, mismatched exits, unwinds and frames entered before
 * tracing); and so does a replay without tables whose view of all threads
 * comes from the same sums. */
#include <stdlib.h>

#include "model/cct.h"
#include "model/cct_sums.h"
#include "unit.h"
#include "views.h"

/* A symtab of the RT_METHODS methods the random replay calls. */
static struct cg_symtab *random_symtab(void)
{
	struct cg_symtab *st = symtab_create();
	size_t i;

	for (i = 0; i < RT_METHODS; i++)
		symtab_define_method(st, (uint32_t)(i + 1) * 4, "com/ex/R", "m", "()V", "R.java", 0);
	return st;
}

/* Two profiles compared, their tree's sums, the tree and the symtab, freed. */
static void pair_free(struct cg_profile *a, struct cg_profile *b, struct cg_cct_sums *s,
		      struct cg_cct_sums *s2, struct cg_cct *c, struct cg_symtab *st)
{
	profile_free(a);
	profile_free(b);
	cct_sums_free(s);
	cct_sums_free(s2);
	cct_free(c);
	symtab_free(st);
}

/* The global profile b (with the tree as its source, read by two threads
 * when two is set; without tables, its view of all threads summed from
 * the tree too, when from_sums is set) and the per-thread profile a of the
 * same random replay on up to nthreads threads give the same views (the
 * edges that several threads ran summed into one, each thread's root edges
 * its own), the same threads' numbers and waits, and the same warnings. */
static int sums_match(uint32_t nthreads, int two, int from_sums)
{
	struct cg_profile_opts ob = { .clock = CG_USE_WALL, .global = 1,
				      .views_from_sums = from_sums };
	struct cg_symtab *st = random_symtab();
	struct cg_cct *c = cct_create();
	struct cg_cct_sums *s, *s2 = NULL;
	struct cg_observer o;
	struct cg_profile *a, *b;
	const struct cg_view *va, *vb;
	const struct cg_warning *wa, *wb;
	size_t i, nw, views = 0, waits = 0, thread_edges = 0;

	cct_observer(c, &o);
	a = random_replay_on(st, 0, NULL, nthreads);
	b = random_replay_as(st, &ob, &o, nthreads);
	s = cct_sums_create(c, symtab_method_count(st));
	if (two)
		s2 = cct_sums_create(c, symtab_method_count(st));
	profile_set_thread_sums(b, cct_sums_thread, s, s2);
	/* The view of all threads first: it sets each thread's waits. */
	va = profile_view(a, -1);
	vb = profile_view(b, -1);
	CHECK(same_methods(va, vb) == 0);
	CHECK(same_edges(va, vb) == 0);
	CHECK(va->nedges > 100);
	CHECK_EQ_U64(va->total_us, vb->total_us);
	CHECK_EQ_U64(va->o_total_us, vb->o_total_us);
	CHECK_EQ_U64(va->nthreads, vb->nthreads);
	for (i = 0; i < va->nthreads; i++) {
		const struct cg_view *ta = profile_view(a, (int)i), *tb = profile_view(b, (int)i);
		const struct cg_pthread *pa = &va->threads[i], *pb = &vb->threads[i];

		CHECK_EQ_U64(pa->tid, pb->tid);
		CHECK_EQ_U64(pa->records, pb->records);
		CHECK_EQ_U64(pa->incl_us, pb->incl_us);
		CHECK_EQ_U64(pa->excl_us, pb->excl_us);
		CHECK_EQ_U64(pa->other_us, pb->other_us);
		CHECK_EQ_U64(pa->o_excl_us, pb->o_excl_us);
		CHECK_EQ_U64(pa->max_depth, pb->max_depth);
		CHECK_EQ_U64(pa->busy_excl_us, pb->busy_excl_us);
		CHECK_EQ_U64(pa->wait_incl_us, pb->wait_incl_us);
		waits += pa->busy_excl_us != 0;
		CHECK(same_methods(ta, tb) == 0);
		CHECK(same_edges(ta, tb) == 0);
		CHECK_EQ_U64(ta->total_us, tb->total_us);
		views += ta->nedges > 0;
		thread_edges += ta->nedges;
	}
	/* Most threads ran something; one thread keeps its waits at 0, and
	 * its view is the view of all threads, held once. */
	CHECK(views > nthreads / 2);
	if (nthreads > 1) {
		CHECK(waits > nthreads / 2);
		CHECK(thread_edges > va->nedges + 100);
	} else {
		CHECK(profile_view(b, 0)->methods == vb->methods);
		CHECK(profile_view(b, 0)->edges == vb->edges);
	}
	nw = profile_warnings(a, &wa);
	CHECK_EQ_U64(nw, profile_warnings(b, &wb));
	for (i = 0; i < nw; i++) {
		CHECK_EQ_U64(wa[i].kind, wb[i].kind);
		CHECK_EQ_U64(wa[i].count, wb[i].count);
	}
	pair_free(a, b, s, s2, c, st);
	return 0;
}

/* Thousands of threads: each thread's waits from a scratch walk, its view
 * when asked. */
UNIT_TEST(cct_sums_match_threads)
{
	return sums_match(RT_THREADS, 0, 0);
}

/* Few threads: their views built with the view of all threads, which reads
 * its waits from them; on one thread, then on two at once. */
UNIT_TEST(cct_sums_match_few_threads)
{
	return sums_match(40, 0, 0);
}

UNIT_TEST(cct_sums_match_two_readers)
{
	return sums_match(40, 1, 0);
}

/* Without tables: few threads, whose views the view of all threads sums
 * (built first, on two threads); thousands, whose walks of the tree it
 * sums; one, whose view is the view of all threads. */
UNIT_TEST(cct_sums_all_few_threads)
{
	return sums_match(40, 1, 1);
}

UNIT_TEST(cct_sums_all_threads)
{
	return sums_match(RT_THREADS, 0, 1);
}

UNIT_TEST(cct_sums_all_one_thread)
{
	return sums_match(1, 1, 1);
}

/* Without a source, such a profile's views are empty: it built no table. */
UNIT_TEST(cct_sums_all_none)
{
	struct cg_profile_opts ob = { .clock = CG_USE_WALL, .global = 1, .views_from_sums = 1 };
	struct cg_symtab *st = random_symtab();
	struct cg_profile *b;

	b = random_replay_as(st, &ob, NULL, 40);
	CHECK_EQ_U64(profile_view(b, -1)->nmethods, 0);
	CHECK_EQ_U64(profile_view(b, -1)->nedges, 0);
	CHECK(profile_view(b, -1)->total_us > 0);
	profile_free(b);
	symtab_free(st);
	return 0;
}

/* Without a source, a global profile's thread views are empty. */
UNIT_TEST(cct_sums_none)
{
	struct cg_symtab *st = random_symtab();
	struct cg_profile *b;

	b = random_replay(st, 1, NULL);
	CHECK(profile_view(b, -1)->nmethods > 1000);
	CHECK_EQ_U64(profile_view(b, 0)->nmethods, 0);
	CHECK_EQ_U64(profile_view(b, 0)->nedges, 0);
	CHECK_EQ_U64(profile_threads(b)[0].busy_excl_us, 0);
	profile_free(b);
	symtab_free(st);
	return 0;
}

/* A thread's own sums from the calling-context tree (cct_sums.h): a profile
 * replayed into global tables, with the tree as its threads' source, gives
 * every thread the view (methods and edges, both clocks) and the busiest
 * and waiting methods that per-thread tables give, on the random replay of
 * views.h (recursion, mismatched exits, unwinds and frames entered before
 * tracing). */
#include <stdlib.h>

#include "model/cct.h"
#include "model/cct_sums.h"
#include "unit.h"
#include "views.h"

/* The global profile b (with the tree as its source, read by two threads
 * when two is set) and the per-thread profile a of the same random replay
 * on up to nthreads threads give the same views and waits. */
static int sums_match(uint32_t nthreads, int two)
{
	struct cg_symtab *st = symtab_create();
	struct cg_cct *c = cct_create();
	struct cg_cct_sums *s, *s2 = NULL;
	struct cg_observer o;
	struct cg_profile *a, *b;
	const struct cg_view *va, *vb;
	size_t i, views = 0, waits = 0;

	for (i = 0; i < RT_METHODS; i++)
		symtab_define_method(st, (uint32_t)(i + 1) * 4, "com/ex/R", "m", "()V", "R.java", 0);
	cct_observer(c, &o);
	a = random_replay_on(st, 0, NULL, nthreads);
	b = random_replay_on(st, 1, &o, nthreads);
	s = cct_sums_create(c, symtab_method_count(st));
	if (two)
		s2 = cct_sums_create(c, symtab_method_count(st));
	profile_set_thread_sums(b, cct_sums_thread, s, s2);
	/* The view of all threads first: it sets each thread's waits. */
	va = profile_view(a, -1);
	vb = profile_view(b, -1);
	CHECK(same_methods(va, vb) == 0);
	CHECK(same_edges(va, vb) == 0);
	CHECK_EQ_U64(va->nthreads, vb->nthreads);
	for (i = 0; i < va->nthreads; i++) {
		const struct cg_view *ta = profile_view(a, (int)i), *tb = profile_view(b, (int)i);

		CHECK_EQ_U64(va->threads[i].busy_excl_us, vb->threads[i].busy_excl_us);
		CHECK_EQ_U64(va->threads[i].wait_incl_us, vb->threads[i].wait_incl_us);
		waits += va->threads[i].busy_excl_us != 0;
		CHECK(same_methods(ta, tb) == 0);
		CHECK(same_edges(ta, tb) == 0);
		CHECK_EQ_U64(ta->total_us, tb->total_us);
		views += ta->nedges > 0;
	}
	/* Most threads ran something. */
	CHECK(views > nthreads / 2);
	CHECK(waits > nthreads / 2);
	profile_free(a);
	profile_free(b);
	cct_sums_free(s);
	cct_sums_free(s2);
	cct_free(c);
	symtab_free(st);
	return 0;
}

/* Thousands of threads: each thread's waits from a scratch walk, its view
 * when asked. */
UNIT_TEST(cct_sums_match_threads)
{
	return sums_match(RT_THREADS, 0);
}

/* Few threads: their views built with the view of all threads, which reads
 * its waits from them; on one thread, then on two at once. */
UNIT_TEST(cct_sums_match_few_threads)
{
	return sums_match(40, 0);
}

UNIT_TEST(cct_sums_match_two_readers)
{
	return sums_match(40, 1);
}

/* Without a source, a global profile's thread views are empty. */
UNIT_TEST(cct_sums_none)
{
	struct cg_symtab *st = symtab_create();
	struct cg_profile *b;
	size_t i;

	for (i = 0; i < RT_METHODS; i++)
		symtab_define_method(st, (uint32_t)(i + 1) * 4, "com/ex/R", "m", "()V", "R.java", 0);
	b = random_replay(st, 1, NULL);
	CHECK(profile_view(b, -1)->nmethods > 1000);
	CHECK_EQ_U64(profile_view(b, 0)->nmethods, 0);
	CHECK_EQ_U64(profile_view(b, 0)->nedges, 0);
	CHECK_EQ_U64(profile_threads(b)[0].busy_excl_us, 0);
	profile_free(b);
	symtab_free(st);
	return 0;
}

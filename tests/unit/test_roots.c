/* test_roots.c - the graph's thread roots (roots.c): pools by name and
 * top-level calls, idle threads folded, the hot-spot exception, sums and
 * the merged view's edge order, on a profile built through the real
 * symtab and model. */
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "model/roots.h"
#include "read/symtab.h"
#include "unit.h"

#define REC(tid, id, t, act) { (tid), (id), (t), (t), (act), 0 }

enum { W = 0x4, T = 0x8, O = 0xc, J = 0x10, B = 0x14, C = 0x18 };

/* One clock (wall), times in us, each thread from 0:
 *   1 pool-7-thread-1:  W Worker.run 0..1000, T Task.work 100..900
 *   2 pool-7-thread-22: W 0..600, T 100..500
 *   3 pool-7-thread-3:  O Other.run 0..300 (other code: its own root)
 *   4 Binder:12_1:      J Object.wait 0..2000 (waits 100 %)
 *   5 Binder:12_2:      B Binder.run 0..2000, J 20..1980 (waits 98 %; B's
 *                       own 40 us is under 1 % of the total)
 *   6 Watcher:          J 0..3800, C Compute.step 3800..4000 (waits 95 %;
 *                       C's 200 us is 2 % of the total: a hot spot)
 *   7 pool-7-worker-1:  W 0..100 (same code as the pool, another name)
 * Total 1000 + 600 + 300 + 2000 + 2000 + 4000 + 100 = 10000 us. */
static struct cg_profile *make(struct cg_symtab **st_out, struct cg_trace_info *info)
{
	static const struct cg_record recs[] = {
		REC(1, W, 0, CG_ENTER),    REC(1, T, 100, CG_ENTER),  REC(1, T, 900, CG_EXIT),
		REC(1, W, 1000, CG_EXIT),  REC(2, W, 0, CG_ENTER),    REC(2, T, 100, CG_ENTER),
		REC(2, T, 500, CG_EXIT),   REC(2, W, 600, CG_EXIT),   REC(3, O, 0, CG_ENTER),
		REC(3, O, 300, CG_EXIT),   REC(4, J, 0, CG_ENTER),    REC(4, J, 2000, CG_EXIT),
		REC(5, B, 0, CG_ENTER),    REC(5, J, 20, CG_ENTER),   REC(5, J, 1980, CG_EXIT),
		REC(5, B, 2000, CG_EXIT),  REC(6, J, 0, CG_ENTER),    REC(6, J, 3800, CG_EXIT),
		REC(6, C, 3800, CG_ENTER), REC(6, C, 4000, CG_EXIT),  REC(7, W, 0, CG_ENTER),
		REC(7, W, 100, CG_EXIT),
	};
	static const char *const names[] = { "pool-7-thread-1", "pool-7-thread-22", "pool-7-thread-3",
					      "Binder:12_1",     "Binder:12_2",      "Watcher",
					      "pool-7-worker-1" };
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_symtab *st = symtab_create();
	struct cg_profile *p;
	uint32_t i;

	symtab_define_method(st, W, "java/util/concurrent/ThreadPoolExecutor$Worker", "run", "()V",
			     "T.java", 0);
	symtab_define_method(st, T, "com/ex/Task", "work", "()V", "Task.java", 0);
	symtab_define_method(st, O, "com/ex/Other", "run", "()V", "Other.java", 0);
	symtab_define_method(st, J, "java/lang/Object", "wait", "()V", "Object.java", 0);
	symtab_define_method(st, B, "android/os/Binder", "run", "()V", "Binder.java", 0);
	symtab_define_method(st, C, "com/ex/Compute", "step", "()V", "Compute.java", 0);
	for (i = 0; i < 7; i++)
		symtab_define_thread(st, i + 1, names[i], 0);
	p = profile_create(st, NULL);
	if (profile_add(p, recs, sizeof(recs) / sizeof(recs[0]), &err) < 0) {
		fprintf(stderr, "  profile_add: %s\n", err.msg);
		profile_free(p);
		symtab_free(st);
		return NULL;
	}
	memset(info, 0, sizeof(*info));
	info->clock = CG_CLOCK_WALL;
	profile_finish(p, info);
	*st_out = st;
	return p;
}

/* Edge i of view v is caller -> callee (a root's index, or a method id)
 * with calls and incl_us. */
static int edge_is(const struct cg_view *v, size_t i, int from_root, uint32_t caller,
		   uint32_t callee, uint64_t calls, uint64_t incl)
{
	const struct cg_pedge *e = &v->edges[i];

	if (i >= v->nedges || e->from_root != from_root || e->calls != calls || e->incl_us != incl)
		return 0;
	if (symtab_method_id(v->st, e->callee) != callee)
		return 0;
	return from_root ? e->caller == caller : symtab_method_id(v->st, e->caller) == caller;
}

UNIT_TEST(roots_pools_and_idle)
{
	struct cg_trace_info info;
	struct cg_symtab *st = NULL;
	struct cg_profile *p = make(&st, &info);
	const struct cg_view *v;
	struct cg_roots rs;
	const struct cg_view *m;

	CHECK(p != NULL);
	v = profile_view(p, -1);
	CHECK_EQ_U64(v->nthreads, 7);
	CHECK_EQ_U64(v->total_us, 10000);
	/* One clock: idle by the known blocking methods' inclusive time. */
	CHECK_EQ_U64(v->threads[4].wait_incl_us, 1960);
	CHECK_EQ_U64(v->threads[4].busy_excl_us, 40);
	CHECK_EQ_U64(v->threads[5].busy_excl_us, 200);

	roots_make(v, 1, 1.0, &rs);
	m = &rs.view;
	CHECK_EQ_U64(m->nthreads, 5);
	CHECK_EQ_U64(rs.pools, 1);
	CHECK_EQ_U64(rs.pooled, 2);
	CHECK_EQ_U64(rs.idle, 2);
	/* pool (threads 0 and 1), pool-7-thread-3, idle (3 and 4), Watcher,
	 * pool-7-worker-1: in the order of their first threads. */
	CHECK_EQ_U64(rs.roots[0].kind, CG_ROOT_POOL);
	CHECK_EQ_STR(m->threads[0].name, "pool-7-thread-*");
	CHECK_EQ_U64(m->threads[0].incl_us, 1600);
	CHECK_EQ_U64(m->threads[0].records, 8);
	CHECK_EQ_U64(rs.roots[0].n, 2);
	CHECK_EQ_U64(rs.members[rs.roots[0].first], 0);
	CHECK_EQ_U64(rs.members[rs.roots[0].first + 1], 1);
	CHECK_EQ_STR(m->threads[1].name, "pool-7-thread-3");
	CHECK_EQ_U64(rs.roots[1].kind, CG_ROOT_THREAD);
	CHECK_EQ_U64(rs.roots[2].kind, CG_ROOT_IDLE);
	CHECK_EQ_STR(m->threads[2].name, "2 idle threads");
	CHECK_EQ_U64(m->threads[2].incl_us, 4000);
	CHECK_EQ_STR(m->threads[3].name, "Watcher");       /* a hot spot: not folded */
	CHECK_EQ_STR(m->threads[4].name, "pool-7-worker-1");
	CHECK_EQ_U64(m->total_us, 10000);
	CHECK(m->methods == v->methods);
	/* Root edges merged per callee, in the view's order (inclusive time,
	 * roots first, callee id). */
	CHECK_EQ_U64(m->nedges, 9);
	CHECK(edge_is(m, 0, 1, 3, J, 1, 3800));
	CHECK(edge_is(m, 1, 1, 2, J, 1, 2000));
	CHECK(edge_is(m, 2, 1, 2, B, 1, 2000));
	CHECK(edge_is(m, 3, 0, B, J, 1, 1960));
	CHECK(edge_is(m, 4, 1, 0, W, 2, 1600));
	CHECK(edge_is(m, 5, 0, W, T, 2, 1200));
	CHECK(edge_is(m, 6, 1, 1, O, 1, 300));
	CHECK(edge_is(m, 7, 1, 3, C, 1, 200));
	CHECK(edge_is(m, 8, 1, 4, W, 1, 100));
	roots_free(&rs);

	/* Without the hot-spot exception Watcher is idle too. */
	roots_make(v, 1, 0.0, &rs);
	CHECK_EQ_U64(rs.view.nthreads, 4);
	CHECK_EQ_U64(rs.idle, 3);
	CHECK_EQ_STR(rs.view.threads[2].name, "3 idle threads");
	CHECK_EQ_U64(rs.view.threads[2].incl_us, 8000);
	CHECK(edge_is(&rs.view, 0, 1, 2, J, 2, 5800));
	roots_free(&rs);

	/* Merging off, and a view of one thread: the view as it is. */
	roots_make(v, 0, 1.0, &rs);
	CHECK(rs.view.threads == v->threads && rs.view.edges == v->edges);
	CHECK_EQ_U64(rs.view.nthreads, 7);
	CHECK_EQ_U64(rs.pools + rs.idle, 0);
	roots_free(&rs);
	profile_free(p);
	symtab_free(st);
	return 0;
}

/* views.c - helpers for the tests of views: a random replay, and views
 * compared field by field (views.h). */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "views.h"

static uint32_t lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*x >> 33);
}

struct cg_profile *random_replay(struct cg_symtab *st, int global, const struct cg_observer *obs)
{
	return random_replay_on(st, global, obs, RT_THREADS);
}

struct cg_profile *random_replay_on(struct cg_symtab *st, int global, const struct cg_observer *obs,
				    uint32_t nthreads)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .global = global };

	return random_replay_as(st, &o, obs, nthreads);
}

struct cg_profile *random_replay_as(struct cg_symtab *st, const struct cg_profile_opts *o,
				    const struct cg_observer *obs, uint32_t nthreads)
{
	struct cg_profile *p = profile_create(st, o);
	static uint32_t depth[RT_THREADS + 1], stack[RT_THREADS + 1][24], now[RT_THREADS + 1];
	struct cg_record *r = calloc(RT_RECORDS, sizeof(*r));
	struct cg_trace_info info = { 0 };
	struct cg_error err;
	uint64_t x = 42, again;
	size_t i;

	memset(depth, 0, sizeof(depth));
	memset(now, 0, sizeof(now));
	for (i = 0; i < RT_RECORDS; i++) {
		uint32_t t = 1 + lcg(&x) % (i < RT_RECORDS / 2 || nthreads < 8 ? nthreads : 8);
		uint32_t k = lcg(&x) % 100;
		uint32_t m = lcg(&x) % 3 == 0 ? lcg(&x) % RT_METHODS : lcg(&x) % 12;

		r[i].tid = t;
		now[t] += lcg(&x) % 7;
		r[i].t_wall = now[t];
		r[i].t_cpu = now[t] / 2 + (uint32_t)i % 3;
		r[i].offset = i;
		if (k < 52 && depth[t] < 24) {
			r[i].action = CG_ENTER;
			stack[t][depth[t]++] = m;
		} else if (depth[t] && k < 97) {
			r[i].action = CG_EXIT;
			m = stack[t][--depth[t]];
		} else {
			/* a mismatched exit, or one on an empty stack */
			r[i].action = k == 99 ? CG_UNWIND : CG_EXIT;
			if (depth[t] && k == 98) {
				depth[t] = 0; /* pops down to the bottom frame */
				m = stack[t][0];
			}
		}
		r[i].method = (m + 1) * 4;
	}
	if (obs)
		profile_set_observer(p, obs);
	if (profile_add(p, r, RT_RECORDS, &err) < 0)
		abort();
	again = profile_correct_count(p);
	if (again && (profile_correct_add(p, r, (size_t)again, &err) < 0))
		abort();
	profile_correct_end(p);
	free(r);
	info.clock = CG_CLOCK_DUAL;
	profile_finish(p, &info);
	return p;
}

/* The methods of views a and b are the same, in the same order. */
int same_methods(const struct cg_view *a, const struct cg_view *b)
{
	size_t i;

	CHECK_EQ_U64(a->nmethods, b->nmethods);
	for (i = 0; i < a->nmethods; i++) {
		CHECK_EQ_U64(a->methods[i].index, b->methods[i].index);
		CHECK_EQ_U64(a->methods[i].incl_us, b->methods[i].incl_us);
		CHECK_EQ_U64(a->methods[i].excl_us, b->methods[i].excl_us);
		CHECK_EQ_U64(a->methods[i].calls, b->methods[i].calls);
		CHECK_EQ_U64(a->methods[i].rec_calls, b->methods[i].rec_calls);
		CHECK_EQ_U64(a->methods[i].o_incl_us, b->methods[i].o_incl_us);
		CHECK_EQ_U64(a->methods[i].o_excl_us, b->methods[i].o_excl_us);
	}
	return 0;
}

/* The edges of views a and b are the same, in the same order. */
int same_edges(const struct cg_view *a, const struct cg_view *b)
{
	size_t i;

	CHECK_EQ_U64(a->nedges, b->nedges);
	for (i = 0; i < a->nedges; i++) {
		CHECK_EQ_U64(a->edges[i].caller, b->edges[i].caller);
		CHECK_EQ_U64(a->edges[i].callee, b->edges[i].callee);
		CHECK_EQ_U64(a->edges[i].from_root, b->edges[i].from_root);
		CHECK_EQ_U64(a->edges[i].calls, b->edges[i].calls);
		CHECK_EQ_U64(a->edges[i].incl_us, b->edges[i].incl_us);
		CHECK_EQ_U64(a->edges[i].o_incl_us, b->edges[i].o_incl_us);
	}
	return 0;
}

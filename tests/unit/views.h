/* views.h - helpers for the tests of views (views.c). */
#ifndef CG_TEST_VIEWS_H
#define CG_TEST_VIEWS_H

#include "model/profile.h"
#include "read/symtab.h"

#define RT_THREADS 8000
#define RT_METHODS 60000
#define RT_RECORDS 400000

/* A random replay of RT_RECORDS records on up to RT_THREADS threads and
 * RT_METHODS methods (ids (i + 1) * 4, which st must define), from a fixed
 * seed: enters, exits, recursion, mismatched exits, unwinds and exits on
 * an empty stack, on both clocks; into global tables or per-thread ones,
 * reported to obs when it is set; finished. */
struct cg_profile *random_replay(struct cg_symtab *st, int global, const struct cg_observer *obs);
/* The same on up to nthreads (1 to RT_THREADS) threads. */
struct cg_profile *random_replay_on(struct cg_symtab *st, int global, const struct cg_observer *obs,
				    uint32_t nthreads);
/* The same into a profile of options o (clock and the layout's options). */
struct cg_profile *random_replay_as(struct cg_symtab *st, const struct cg_profile_opts *o,
				    const struct cg_observer *obs, uint32_t nthreads);
/* 0 when the methods (edges) of views a and b are the same, in the same
 * order, field by field; else 1, with the first difference printed. */
int same_methods(const struct cg_view *a, const struct cg_view *b);
int same_edges(const struct cg_view *a, const struct cg_view *b);

#endif

/* cct_sums.h - a thread's own method and edge sums from the calling-context
 * tree, for the thread views of a profile replayed into global tables
 * (profile_set_thread_sums).
 *
 * Every node is one stack, so a thread's sums follow from its nodes: a
 * method's exclusive time is the sum of its nodes' inclusive times less
 * their children's; its outermost calls and inclusive time those of its
 * nodes with no ancestor of the same method, its recursive calls the
 * others' calls; an edge (the node's parent's method, or the thread's root,
 * to the node's method) has every node's calls and the inclusive time of
 * the outermost ones.  These are the per-thread replay's rules (profile.c),
 * frames entered before tracing included: the tree adopts as the profile
 * does.
 */
#ifndef CG_CCT_SUMS_H
#define CG_CCT_SUMS_H

#include <stddef.h>
#include <stdint.h>

#include "model/cct.h"
#include "model/profile.h"

struct cg_cct_sums;

/* Sums over the finished tree c (borrowed) of a trace whose symtab has
 * nmethods methods. */
struct cg_cct_sums *cct_sums_create(const struct cg_cct *c, size_t nmethods);
void cct_sums_free(struct cg_cct_sums *s);
/* A cg_thread_sums_fn (profile.h) over s. */
void cct_sums_thread(void *s, uint32_t thread, const struct cg_sums_sink *sink);

#endif

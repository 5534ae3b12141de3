/* cct_walk.h - a bounded preorder walk of one calling-context subtree:
 * children under a time floor are left out, the rest are visited in
 * cct_sort_children order, down to a depth and up to a node budget.  The
 * HTML report's trees (src/render/report/render_tree.c) and flame graph (src/render/report/render_flame.c)
 * walk through here, first to count and then to write.  Iterative: the
 * tree is as deep as the trace's stacks, so no recursion on the C stack.
 * The walk borrows the tree. */
#ifndef CG_CCT_WALK_H
#define CG_CCT_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "model/cct.h"

struct cg_cct_walk {
	const struct cg_cct *c;
	uint64_t min_us;      /* children with less inclusive time are left out */
	int drop_zero;        /* children of 0 us are left out too */
	size_t max_depth;     /* the children of nodes this deep are not visited */
	size_t budget;        /* nodes still allowed below the roots (decremented) */
	size_t kept, dropped; /* visited and left-out nodes, summed over walks */
	/* Called for each visited node, in preorder, with the number of its
	 * children visited next (its own children in the output). */
	void (*visit)(void *ctx, uint32_t id, size_t nkids);
	void *ctx;
};

/* Sort the node ids v[0..n) as the flame graph and the trees show
 * siblings: widest (inclusive time) first, then by method index. */
void cct_sort_children(const struct cg_cct *c, uint32_t *v, size_t n);

/* Walk the subtree at root with w's floor, depth and budget. */
void cct_walk(struct cg_cct_walk *w, uint32_t root);

#endif

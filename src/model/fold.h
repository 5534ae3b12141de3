/* fold.h - pass-through chains of the drawn call graph, folded into one node.
 *
 * A drawn method is pass-through when, among the edges the selection draws
 * (direct and residual, recursion loops aside), it has exactly one caller
 * and one callee (a recursion loop aside: the chain's tooltip gives its
 * count), and its exclusive time is at most 1 % of its inclusive time.  A run of FOLD_MIN_RUN or more pass-through
 * methods, each the only callee of the one before, becomes one chain
 * (ZygoteInit.main -> ... -> Looper.loop); renderers draw it as one node
 * naming the first and last frame and the count, with the edge into the
 * first and the edge out of the last.
 *
 * Ownership: the fold owns its arrays (fold_free); view and selection are
 * borrowed.
 */
#ifndef CG_FOLD_H
#define CG_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "model/filter.h"
#include "model/profile.h"

#define FOLD_MIN_RUN 3
#define FOLD_NONE UINT32_MAX

struct cg_fold {
	uint32_t *chain_of;  /* by method position: its chain, or FOLD_NONE */
	uint32_t *members;   /* method positions, chain by chain, caller first */
	size_t *start;       /* chain c is members[start[c] .. start[c + 1]) */
	size_t nchains;
	size_t folded;       /* methods inside chains */
};

/* Find the chains of the graph sel draws from v.  With enable 0 there are
 * none (every chain_of is FOLD_NONE).  Always succeeds; fill *out, which
 * the caller passes to fold_free. */
void fold_chains(const struct cg_view *v, const struct cg_graph_sel *sel, int enable,
		 struct cg_fold *out);

/* Release the arrays of f and zero it; accepts NULL and a zeroed fold. */
void fold_free(struct cg_fold *f);

#endif

/* render_flame.c - flame-graph JSON from the calling-context tree; see
 * render_flame.h for the size bound. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cct_walk.h"
#include "render_flame.h"
#include "util.h"

struct flame_ctx {
	struct cg_cct_walk w;
	unsigned char *used;
	size_t nused;
	struct strbuf *out;
	const struct cg_view *all;
};

/* One kept node: its method position (-1 for none), times and number of
 * kept children. */
static void put_frame(void *ctx, uint32_t id, size_t nkids)
{
	struct flame_ctx *F = ctx;
	const struct cg_cct_node *nd = cct_node(F->w.c, id);

	strbuf_printf(F->out, ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%zu",
		      nd->midx == CCT_NONE || nd->midx >= F->all->npos ||
				      F->all->method_pos[nd->midx] == UINT32_MAX
			      ? (int64_t)-1
			      : (int64_t)F->all->method_pos[nd->midx],
		      nd->incl_us, nd->excl_us, nkids);
	if (nd->midx != CCT_NONE && nd->midx < F->nused)
		F->used[nd->midx] = 1;
}

void flame_json(const struct cg_cct *c, struct cg_profile *p, unsigned char *used, size_t nused,
		struct strbuf *out)
{
	const struct cg_view *all = profile_view(p, -1);
	struct cg_cct_walk count = { .c = c, .drop_zero = 1, .max_depth = FLAME_DEPTH };
	struct flame_ctx F = { .used = used, .nused = nused, .out = out, .all = all };
	size_t i, pass;
	int global = 0;

	/* Count with per-thread thresholds; over budget, the all-threads
	 * threshold is used. */
	for (i = 0; i < all->nthreads; i++) {
		uint32_t r = cct_root(c, (uint32_t)i);

		if (r == CCT_NONE)
			continue;
		count.min_us = all->threads[i].incl_us / FLAME_FRACTION;
		count.budget = SIZE_MAX;
		cct_walk(&count, r);
	}
	if (count.kept > FLAME_BUDGET)
		global = 1;
	F.w = (struct cg_cct_walk){ .c = c, .drop_zero = 1, .max_depth = FLAME_DEPTH,
				    .budget = FLAME_BUDGET, .visit = put_frame, .ctx = &F };
	strbuf_puts(out, "{\"threads\":[");
	for (i = 0, pass = 0; i < all->nthreads; i++) {
		uint32_t r = cct_root(c, (uint32_t)i);

		if (r == CCT_NONE || F.w.budget == 0)
			continue;
		F.w.min_us = (global ? all->total_us : all->threads[i].incl_us) / FLAME_FRACTION;
		strbuf_printf(out, "%s[%zu,%" PRIu64, pass++ ? "," : "", i, all->threads[i].incl_us);
		F.w.budget--;
		cct_walk(&F.w, r);
		strbuf_putc(out, ']');
	}
	strbuf_printf(out, "],\"fraction\":%d,\"global\":%d,\"kept\":%zu,\"dropped\":%zu}",
		      FLAME_FRACTION, global, F.w.kept, F.w.dropped);
}

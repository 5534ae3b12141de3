/* render_flame.c - flame-graph JSON from the calling-context tree; see
 * render_flame.h for the size bound. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render/report/render_flame.h"
#include "model/cct_walk.h"
#include "util/util.h"

struct flame_ctx {
	struct cg_cct_walk w; /* frames narrower than w.min_us or of 0 us dropped */
	unsigned char *used;
	size_t nused;
	struct strbuf *out;   /* NULL: count only */
	const struct cg_view *all;
	int other;            /* write the other clock too */
};

/* Write (with F->out) frame id with the number of its kept children. */
static void visit(void *ctx, uint32_t id, size_t n)
{
	struct flame_ctx *F = ctx;
	const struct cg_cct_node *nd = cct_node(F->w.c, id);
	uint64_t us, o_us;

	if (!F->out)
		return;
	cct_excl_both(F->w.c, id, &us, &o_us);
	strbuf_printf(F->out, ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%zu",
		      nd->midx == CCT_NONE || nd->midx >= F->all->npos ||
				      F->all->method_pos[nd->midx] == UINT32_MAX
			      ? (int64_t)-1
			      : (int64_t)F->all->method_pos[nd->midx],
		      nd->incl_us, us, n);
	if (F->other)
		strbuf_printf(F->out, ",%" PRIu64 ",%" PRIu64, nd->o_incl_us, o_us);
	if (nd->midx != CCT_NONE && nd->midx < F->nused)
		F->used[nd->midx] = 1;
}

/* Start a pass over the tree c: nothing counted yet. */
static void flame_start(struct flame_ctx *F, const struct cg_cct *c)
{
	memset(F, 0, sizeof(*F));
	F->w.c = c;
	F->w.drop_zero = 1;
	F->w.max_depth = FLAME_DEPTH;
	F->w.visit = visit;
	F->w.ctx = F;
}

void flame_json(const struct cg_cct *c, struct cg_profile *p, const int32_t *map,
		unsigned char *used, size_t nused, struct strbuf *out)
{
	const struct cg_view *all = profile_view(p, -1);
	struct flame_ctx F;
	const char *const *focus, *const *hide;
	size_t i, pass;
	int global = 0;

	flame_start(&F, c);
	F.used = used;
	F.nused = nused;
	/* Pass 0 counts with per-thread thresholds; if over budget, pass 1
	 * counts nothing and the all-threads threshold is used. */
	for (i = 0; i < all->nthreads; i++) {
		uint32_t r = cct_root(c, (uint32_t)i);

		if (r == CCT_NONE || (map && map[i] < 0))
			continue;
		F.w.min_us = all->threads[i].incl_us / FLAME_FRACTION;
		F.w.budget = SIZE_MAX;
		cct_walk(&F.w, r);
	}
	if (F.w.kept > FLAME_BUDGET)
		global = 1;
	flame_start(&F, c);
	F.used = used;
	F.nused = nused;
	F.out = out;
	F.all = all;
	F.w.budget = FLAME_BUDGET;
	F.other = all->has_other;
	profile_filters(p, &focus, &hide);
	strbuf_puts(out, "{\"threads\":[");
	for (i = 0, pass = 0; i < all->nthreads; i++) {
		uint32_t r = cct_root(c, (uint32_t)i);

		if (r == CCT_NONE || F.w.budget == 0 || (map && map[i] < 0))
			continue;
		F.w.min_us = (global ? all->total_us : all->threads[i].incl_us) / FLAME_FRACTION;
		strbuf_printf(out, "%s[%zu,%" PRIu64, pass++ ? "," : "", map ? (size_t)map[i] : i,
			      all->threads[i].incl_us);
		if (F.other) {
			/* The thread's time on the other clock, as the trees give it:
			 * at least its frames' time, and exactly that under --focus. */
			uint64_t top, o_top, o_incl = all->threads[i].other_us;

			cct_children_incl(c, r, &top, &o_top);
			if (focus || o_incl < o_top)
				o_incl = o_top;
			strbuf_printf(out, ",%" PRIu64, o_incl);
		}
		F.w.budget--;
		cct_walk(&F.w, r);
		strbuf_putc(out, ']');
	}
	strbuf_printf(out, "],\"fraction\":%d,\"global\":%d,\"kept\":%zu,\"dropped\":%zu,"
			   "\"other\":%d}",
		      FLAME_FRACTION, global, F.w.kept, F.w.dropped, F.other);
}

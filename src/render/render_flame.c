/* render_flame.c - flame-graph JSON from the calling-context tree; see
 * render_flame.h for the size bound. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_flame.h"
#include "util/util.h"

struct flame_ctx {
	const struct cg_cct *c;
	uint64_t min_us;      /* frames narrower than this are dropped */
	size_t budget;        /* frames still allowed */
	size_t kept, dropped;
	unsigned char *used;
	size_t nused;
	struct strbuf *out;   /* NULL: count only */
	const struct cg_view *all;
	int other;            /* write the other clock too */
};

/* Kept children of node id, sorted; caller frees. */
static size_t kept_children(struct flame_ctx *F, uint32_t id, uint32_t **out)
{
	size_t n = 0, cap = 0;
	uint32_t *v = NULL, ch;

	for (ch = cct_node(F->c, id)->first_child; ch != CCT_NONE; ch = cct_node(F->c, ch)->next_sibling) {
		if (cct_node(F->c, ch)->incl_us < F->min_us || cct_node(F->c, ch)->incl_us == 0) {
			F->dropped++;
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = ch;
	}
	if (n > 1)
		cct_sort_children(F->c, v, n);
	*out = v;
	return n;
}

/* Emit (or count) node id and its kept subtree, iteratively: depth is
 * unbounded in the tree, so no recursion on the C stack. */
static void walk(struct flame_ctx *F, uint32_t root)
{
	struct frame { uint32_t *kids; size_t n, next; } *st = NULL;
	size_t depth = 0, cap = 0;
	uint32_t id = root;

	for (;;) {
		const struct cg_cct_node *nd = cct_node(F->c, id);
		uint32_t *kids = NULL;
		size_t n = 0;

		if (depth < FLAME_DEPTH && F->budget > 0)
			n = kept_children(F, id, &kids);
		if (n > F->budget) {
			F->dropped += n - F->budget;
			n = F->budget;
		}
		F->budget -= n;
		F->kept++;
		if (F->out) {
			strbuf_printf(F->out, ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%zu",
				      nd->midx == CCT_NONE || nd->midx >= F->all->npos ||
						      F->all->method_pos[nd->midx] == UINT32_MAX
					      ? (int64_t)-1
					      : (int64_t)F->all->method_pos[nd->midx],
				      nd->incl_us, nd->excl_us, n);
			if (F->other)
				strbuf_printf(F->out, ",%" PRIu64 ",%" PRIu64, nd->o_incl_us,
					      nd->o_excl_us);
			if (nd->midx != CCT_NONE && nd->midx < F->nused)
				F->used[nd->midx] = 1;
		}
		if (depth == cap) {
			cap = cap ? cap * 2 : 32;
			st = xrealloc(st, cap * sizeof(*st));
		}
		st[depth].kids = kids;
		st[depth].n = n;
		st[depth].next = 0;
		depth++;
		/* Next: the first unvisited child up the stack. */
		while (depth > 0 && st[depth - 1].next == st[depth - 1].n) {
			free(st[depth - 1].kids);
			depth--;
		}
		if (depth == 0)
			break;
		id = st[depth - 1].kids[st[depth - 1].next++];
	}
	free(st);
}

void flame_json(const struct cg_cct *c, struct cg_profile *p, const int32_t *map,
		unsigned char *used, size_t nused, struct strbuf *out)
{
	const struct cg_view *all = profile_view(p, -1);
	struct flame_ctx F;
	const char *const *focus, *const *hide;
	size_t i, pass;
	int global = 0;

	memset(&F, 0, sizeof(F));
	F.c = c;
	F.used = used;
	F.nused = nused;
	/* Pass 0 counts with per-thread thresholds; if over budget, pass 1
	 * counts nothing and the all-threads threshold is used. */
	for (i = 0; i < all->nthreads; i++) {
		uint32_t r = cct_root(c, (uint32_t)i);

		if (r == CCT_NONE || (map && map[i] < 0))
			continue;
		F.min_us = all->threads[i].incl_us / FLAME_FRACTION;
		F.budget = SIZE_MAX;
		walk(&F, r);
	}
	if (F.kept > FLAME_BUDGET)
		global = 1;
	memset(&F, 0, sizeof(F));
	F.c = c;
	F.used = used;
	F.nused = nused;
	F.out = out;
	F.all = all;
	F.budget = FLAME_BUDGET;
	F.other = all->has_other;
	profile_filters(p, &focus, &hide);
	strbuf_puts(out, "{\"threads\":[");
	for (i = 0, pass = 0; i < all->nthreads; i++) {
		uint32_t r = cct_root(c, (uint32_t)i);

		if (r == CCT_NONE || F.budget == 0 || (map && map[i] < 0))
			continue;
		F.min_us = (global ? all->total_us : all->threads[i].incl_us) / FLAME_FRACTION;
		strbuf_printf(out, "%s[%zu,%" PRIu64, pass++ ? "," : "", map ? (size_t)map[i] : i,
			      all->threads[i].incl_us);
		if (F.other) {
			/* The thread's time on the other clock, as the trees give it:
			 * at least its frames' time, and exactly that under --focus. */
			uint64_t o_top = 0, o_incl = all->threads[i].other_us;
			uint32_t ch;

			for (ch = cct_node(c, r)->first_child; ch != CCT_NONE;
			     ch = cct_node(c, ch)->next_sibling)
				o_top += cct_node(c, ch)->o_incl_us;
			if (focus || o_incl < o_top)
				o_incl = o_top;
			strbuf_printf(out, ",%" PRIu64, o_incl);
		}
		F.budget--;
		walk(&F, r);
		strbuf_putc(out, ']');
	}
	strbuf_printf(out, "],\"fraction\":%d,\"global\":%d,\"kept\":%zu,\"dropped\":%zu,"
			   "\"other\":%d}",
		      FLAME_FRACTION, global, F.kept, F.dropped, F.other);
}

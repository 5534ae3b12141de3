/* cct_walk.c - bounded preorder walk of a calling-context subtree (see
 * cct_walk.h). */
#include "model/cct_walk.h"

#include <stdlib.h>

#include "util/util.h"

/* A child with its sort keys, so that plain qsort needs no context. */
struct child_key {
	uint64_t incl_us;
	uint32_t midx, id;
};

/* Widest first, then by method index. */
static int cmp_child(const void *a, const void *b)
{
	const struct child_key *x = a, *y = b;

	if (x->incl_us != y->incl_us)
		return x->incl_us > y->incl_us ? -1 : 1;
	return (x->midx > y->midx) - (x->midx < y->midx);
}

void cct_sort_children(const struct cg_cct *c, uint32_t *v, size_t n)
{
	struct child_key *k = xmalloc(n * sizeof(*k));
	size_t i;

	for (i = 0; i < n; i++) {
		k[i].incl_us = cct_node(c, v[i])->incl_us;
		k[i].midx = cct_node(c, v[i])->midx;
		k[i].id = v[i];
	}
	qsort(k, n, sizeof(*k), cmp_child);
	for (i = 0; i < n; i++)
		v[i] = k[i].id;
	free(k);
}

/* Kept children of node id, sorted; the caller frees *out. */
static size_t kept_children(struct cg_cct_walk *w, uint32_t id, uint32_t **out)
{
	size_t n = 0, cap = 0, nk, i;
	const uint32_t *k = cct_children(w->c, id, &nk);
	uint32_t *v = NULL;

	cct_prefetch_children(w->c, id);

	for (i = 0; i < nk; i++) {
		uint32_t ch = k[i];
		uint64_t us = cct_node(w->c, ch)->incl_us;

		if (us < w->min_us || (w->drop_zero && us == 0)) {
			w->dropped++;
			continue;
		}
		v = xgrow(v, &cap, n + 1, sizeof(*v));
		v[n++] = ch;
	}
	if (n > 1)
		cct_sort_children(w->c, v, n);
	*out = v;
	return n;
}

void cct_walk(struct cg_cct_walk *w, uint32_t root)
{
	struct frame { uint32_t *kids; size_t n, next; } *st = NULL;
	size_t depth = 0, cap = 0;
	uint32_t id = root;

	for (;;) {
		uint32_t *kids = NULL;
		size_t n = 0;

		if (depth < w->max_depth && w->budget > 0)
			n = kept_children(w, id, &kids);
		if (n > w->budget) {
			w->dropped += n - w->budget;
			n = w->budget;
		}
		w->budget -= n;
		w->kept++;
		if (w->visit)
			w->visit(w->ctx, id, n);
		st = xgrow(st, &cap, depth + 1, sizeof(*st));
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

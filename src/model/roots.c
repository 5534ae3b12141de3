/* roots.c - the graph's thread roots: idle threads folded, pools merged,
 * and the view with one thread per root (see roots.h for the rules). */
#include "model/roots.h"

#include <stdlib.h>
#include <string.h>

#include "model/filter.h"
#include "model/groups.h"
#include "model/waiting.h"
#include "util/sort.h"
#include "util/strbuf.h"
#include "util/util.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Order of thread names with each run of digits as one placeholder that
 * sorts before every other character: 0 exactly when the names are the
 * same but for their numbers. */
static int name_cmp(const char *a, const char *b)
{
	for (;;) {
		int ca, cb;

		if (is_digit(*a) && is_digit(*b)) {
			while (is_digit(*a))
				a++;
			while (is_digit(*b))
				b++;
			continue;
		}
		ca = !*a ? -2 : is_digit(*a) ? -1 : (unsigned char)*a;
		cb = !*b ? -2 : is_digit(*b) ? -1 : (unsigned char)*b;
		if (ca != cb)
			return ca < cb ? -1 : 1;
		if (ca == -2)
			return 0;
		a++;
		b++;
	}
}

/* What pools compare: each thread's name and its sorted top-level callees
 * (symtab indices, callees.item[callees.start[i] ..]). */
struct pool_key {
	const struct cg_view *v;
	struct cg_groups callees;
};

static const char *thread_name(const struct cg_view *v, uint32_t i)
{
	return v->threads[i].name ? v->threads[i].name : "";
}

/* Same name but for numbers, and the same set of top-level callees. */
static int pool_cmp(const struct pool_key *k, uint32_t a, uint32_t b)
{
	const uint32_t *s = k->callees.start, *c = k->callees.item;
	uint32_t i, j;
	int d = name_cmp(thread_name(k->v, a), thread_name(k->v, b));

	if (d)
		return d;
	for (i = s[a], j = s[b]; i < s[a + 1] && j < s[b + 1]; i++, j++)
		if (c[i] != c[j])
			return c[i] < c[j] ? -1 : 1;
	if (s[a + 1] - s[a] != s[b + 1] - s[b])
		return s[a + 1] - s[a] < s[b + 1] - s[b] ? -1 : 1;
	return 0;
}

static int cmp_pool_ids(const void *a, const void *b, void *ctx)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int d = pool_cmp(ctx, x, y);

	return d ? d : x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b, void *ctx)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	(void)ctx;
	return x < y ? -1 : x > y;
}

/* 1 when thread t of v is idle by rule 1 of roots.h (hot spots aside). */
static int thread_idle(const struct cg_view *v, const struct cg_pthread *t, double hot_pct)
{
	int idle;

	/* The main thread draws the frames: never folded away. */
	if (strcmp(t->name, "main") == 0)
		return 0;
	if (v->has_other)
		idle = v->primary == CG_USE_WALL ? waiting_off_cpu(t->incl_us, t->other_us)
						 : waiting_off_cpu(t->other_us, t->incl_us);
	else
		idle = t->incl_us > 0 && t->wait_incl_us * 100 >= t->incl_us * WAITING_THREAD_PCT;
	if (idle && hot_pct > 0 && t->busy_excl_us > 0 &&
	    filter_pct_ge(t->busy_excl_us, hot_pct, v->total_us))
		idle = 0;
	return idle;
}

/* leader[i]: the first thread of thread i's root (i itself when alone). */
static void find_roots(const struct cg_view *v, double hot_pct, uint32_t *leader,
		       enum cg_root_kind *kind)
{
	size_t nt = v->nthreads, i, k, nidle = 0, n = 0;
	uint32_t first_idle = UINT32_MAX;
	uint32_t *keys = xmalloc((v->nedges ? v->nedges : 1) * sizeof(*keys));
	uint32_t *vals = xmalloc((v->nedges ? v->nedges : 1) * sizeof(*vals));
	uint32_t *ids = xmalloc(nt * sizeof(*ids));
	unsigned char *idle = xcalloc(nt, 1);
	struct pool_key pk;

	for (i = 0; i < nt; i++) {
		leader[i] = (uint32_t)i;
		kind[i] = CG_ROOT_THREAD;
		idle[i] = (unsigned char)thread_idle(v, &v->threads[i], hot_pct);
		nidle += idle[i];
	}
	for (i = 0; nidle >= 2 && i < nt; i++) {
		if (!idle[i])
			continue;
		if (first_idle == UINT32_MAX)
			first_idle = (uint32_t)i;
		leader[i] = first_idle;
		kind[i] = CG_ROOT_IDLE;
	}

	/* Each thread's top-level callees, sorted. */
	for (i = 0; i < v->nedges; i++) {
		keys[i] = v->edges[i].from_root && v->edges[i].caller < nt ? v->edges[i].caller
									      : GROUPS_SKIP;
		vals[i] = v->edges[i].callee;
	}
	pk.v = v;
	groups_build(&pk.callees, nt, keys, vals, v->nedges);
	for (i = 0; i < nt; i++)
		sort_inplace(pk.callees.item + pk.callees.start[i],
			     pk.callees.start[i + 1] - pk.callees.start[i], sizeof(uint32_t), cmp_u32,
			     NULL);

	/* The threads not folded that call something, sorted so that each
	 * pool is one run. */
	for (i = 0; i < nt; i++)
		if (kind[i] != CG_ROOT_IDLE && pk.callees.start[i + 1] > pk.callees.start[i])
			ids[n++] = (uint32_t)i;
	sort_inplace(ids, n, sizeof(*ids), cmp_pool_ids, &pk);
	for (i = 0; i < n; i = k) {
		uint32_t lead = ids[i];

		for (k = i + 1; k < n && pool_cmp(&pk, ids[i], ids[k]) == 0; k++)
			if (ids[k] < lead)
				lead = ids[k];
		if (k - i < 2)
			continue;
		for (; i < k; i++) {
			leader[ids[i]] = lead;
			kind[ids[i]] = CG_ROOT_POOL;
		}
	}
	groups_free(&pk.callees);
	free(keys);
	free(vals);
	free(ids);
	free(idle);
}

/* Append a pool's label: the first member's name with each run of digits
 * that differs among the members written '*'. */
static void put_pool_label(struct strbuf *sb, const struct cg_view *v, const uint32_t *m, size_t n)
{
	const char **p = xmalloc(n * sizeof(*p));
	size_t j;

	for (j = 0; j < n; j++)
		p[j] = thread_name(v, m[j]);
	while (*p[0]) {
		const char *run = p[0];
		size_t len = 0, lj;
		int same = 1;

		if (!is_digit(*run)) {
			strbuf_putc(sb, *run);
			for (j = 0; j < n; j++)
				p[j]++;
			continue;
		}
		while (is_digit(run[len]))
			len++;
		for (j = 0; j < n; j++) {
			for (lj = 0; is_digit(p[j][lj]); lj++)
				;
			same &= lj == len && memcmp(p[j], run, len) == 0;
			p[j] += lj;
		}
		if (same)
			strbuf_add(sb, run, len);
		else
			strbuf_putc(sb, '*');
	}
	free(p);
}

/* The root's thread entry: its members' numbers summed. */
static void sum_members(const struct cg_view *v, const uint32_t *m, size_t n, struct cg_pthread *out)
{
	size_t j;

	*out = v->threads[m[0]];
	for (j = 1; j < n; j++) {
		const struct cg_pthread *t = &v->threads[m[j]];

		out->records += t->records;
		out->incl_us += t->incl_us;
		out->excl_us += t->excl_us;
		out->other_us += t->other_us;
		out->o_excl_us += t->o_excl_us;
		if (t->first_us < out->first_us)
			out->first_us = t->first_us;
		if (t->last_us > out->last_us)
			out->last_us = t->last_us;
		if (t->max_depth > out->max_depth)
			out->max_depth = t->max_depth;
		if (t->busy_excl_us > out->busy_excl_us)
			out->busy_excl_us = t->busy_excl_us;
		if (t->wait_incl_us > out->wait_incl_us)
			out->wait_incl_us = t->wait_incl_us;
	}
}

/* Root edges: by (caller, callee) to merge, then in the view's order
 * (inclusive time descending, caller, callee by method id and index). */
static int cmp_pairs(const void *a, const void *b, void *ctx)
{
	const struct cg_pedge *x = a, *y = b;

	(void)ctx;
	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

static int cmp_root_edges(const void *a, const void *b, void *ctx)
{
	const struct cg_pedge *x = a, *y = b;
	const struct cg_symtab *st = ctx;
	uint64_t ix, iy;

	if (x->incl_us != y->incl_us)
		return x->incl_us > y->incl_us ? -1 : 1;
	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	ix = symtab_method_id(st, x->callee);
	iy = symtab_method_id(st, y->callee);
	if (ix != iy)
		return ix < iy ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* The view's edges with root edges by root (root_of[thread]), merged per
 * (root, callee), in the view's order.  *n gets their number. */
static struct cg_pedge *merge_root_edges(const struct cg_view *v, const uint32_t *root_of,
					 size_t *n)
{
	size_t ne = v->nedges, nr = 0, i, k, a, b;
	struct cg_pedge *root = xmalloc((ne ? ne : 1) * sizeof(*root));
	struct cg_pedge *out = xmalloc((ne ? ne : 1) * sizeof(*out));

	for (i = 0; i < ne; i++)
		if (v->edges[i].from_root) {
			root[nr] = v->edges[i];
			root[nr].caller = root_of[v->edges[i].caller];
			nr++;
		}
	sort_inplace(root, nr, sizeof(*root), cmp_pairs, NULL);
	for (i = 0, k = 0; i < nr; i++) {
		if (k && cmp_pairs(&root[k - 1], &root[i], NULL) == 0) {
			root[k - 1].calls += root[i].calls;
			root[k - 1].incl_us += root[i].incl_us;
			root[k - 1].o_incl_us += root[i].o_incl_us;
		} else {
			root[k++] = root[i];
		}
	}
	nr = k;
	sort_inplace(root, nr, sizeof(*root), cmp_root_edges, (void *)v->st);
	/* The method edges keep their order; on equal times roots come first. */
	for (a = 0, b = 0, k = 0; a < nr || b < ne;) {
		while (b < ne && v->edges[b].from_root)
			b++;
		if (a < nr && (b >= ne || root[a].incl_us >= v->edges[b].incl_us))
			out[k++] = root[a++];
		else if (b < ne)
			out[k++] = v->edges[b++];
	}
	free(root);
	*n = k;
	return out;
}

void roots_make(const struct cg_view *v, int merge, double hot_pct, struct cg_roots *out)
{
	size_t nt = v->nthreads, nr = 0, i, r;
	uint32_t *leader, *root_of;
	enum cg_root_kind *kind;
	size_t *name_at;
	struct cg_groups g;
	struct strbuf names;

	memset(out, 0, sizeof(*out));
	out->from = v;
	out->view = *v;
	leader = xmalloc((nt ? nt : 1) * sizeof(*leader));
	kind = xmalloc((nt ? nt : 1) * sizeof(*kind));
	root_of = xmalloc((nt ? nt : 1) * sizeof(*root_of));
	for (i = 0; i < nt; i++) {
		leader[i] = (uint32_t)i;
		kind[i] = CG_ROOT_THREAD;
	}
	if (merge && nt >= 2)
		find_roots(v, hot_pct, leader, kind);
	for (i = 0; i < nt; i++)
		root_of[i] = leader[i] == i ? (uint32_t)nr++ : root_of[leader[i]];
	groups_build(&g, nr, root_of, NULL, nt);
	out->members = g.item;
	out->roots = xcalloc(nr ? nr : 1, sizeof(*out->roots));
	for (r = 0; r < nr; r++) {
		out->roots[r].first = g.start[r];
		out->roots[r].n = g.start[r + 1] - g.start[r];
		out->roots[r].kind = kind[g.item[g.start[r]]];
		if (out->roots[r].kind == CG_ROOT_POOL) {
			out->pools++;
			out->pooled += out->roots[r].n;
		} else if (out->roots[r].kind == CG_ROOT_IDLE) {
			out->idle += out->roots[r].n;
		}
	}
	if (nr < nt) {
		/* Names first (the buffer moves as it grows), then the entries. */
		strbuf_init(&names);
		name_at = xmalloc(nr * sizeof(*name_at));
		out->threads = xmalloc(nr * sizeof(*out->threads));
		for (r = 0; r < nr; r++) {
			const struct cg_root *rt = &out->roots[r];

			sum_members(v, out->members + rt->first, rt->n, &out->threads[r]);
			name_at[r] = names.len;
			if (rt->kind == CG_ROOT_POOL)
				put_pool_label(&names, v, out->members + rt->first, rt->n);
			else if (rt->kind == CG_ROOT_IDLE)
				strbuf_printf(&names, "%zu idle threads", rt->n);
			strbuf_putc(&names, '\0');
		}
		out->names = strbuf_detach(&names, NULL);
		for (r = 0; r < nr; r++)
			if (out->roots[r].kind != CG_ROOT_THREAD)
				out->threads[r].name = out->names + name_at[r];
		free(name_at);
		out->edges = merge_root_edges(v, root_of, &out->view.nedges);
		out->view.edges = out->edges;
		out->view.threads = out->threads;
		out->view.nthreads = nr;
	}
	free(g.start);
	free(leader);
	free(kind);
	free(root_of);
}

void roots_free(struct cg_roots *rs)
{
	if (!rs)
		return;
	free(rs->roots);
	free(rs->members);
	free(rs->threads);
	free(rs->edges);
	free(rs->names);
	memset(rs, 0, sizeof(*rs));
}

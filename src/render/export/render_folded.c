/* render_folded.c - folded stacks from the calling-context tree. */
#include "render/export/render_folded.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/cct.h"
#include "render/javaname.h"
#include "util/sort.h"

/* Append s[0..len) as a frame name: see render_folded.h. */
static void put_frame(struct strbuf *sb, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;

	if (len == 0) {
		strbuf_putc(sb, '?');
		return;
	}
	while (s < end) {
		size_t n;

		if (*s == ';' || *s < 0x20 || *s == 0x7f) {
			strbuf_putc(sb, '_');
			s++;
		} else if ((n = strbuf_utf8_len(s)) == 0 || n > (size_t)(end - s)) {
			strbuf_puts(sb, "\xef\xbf\xbd");
			s++;
		} else {
			strbuf_add(sb, s, n);
			s += n;
		}
	}
}

/* A line's count: " N\n". */
static void put_count(struct strbuf *sb, uint64_t n)
{
	strbuf_putc(sb, ' ');
	strbuf_put_u64(sb, n);
	strbuf_putc(sb, '\n');
}

struct name_ent {
	union {
		size_t off;       /* into the names buffer while it grows */
		const char *name; /* then a pointer into it */
	} at;
	uint32_t len, midx;
};

static int cmp_name(const void *a, const void *b, void *ctx)
{
	const struct name_ent *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->at.name, y->at.name, n);

	(void)ctx;
	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->midx < y->midx ? -1 : x->midx > y->midx;
}

static int cmp_u64(const void *a, const void *b, void *ctx)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	(void)ctx;
	return x < y ? -1 : x > y;
}

static int cmp_thread_name(const void *a, const void *b)
{
	const struct cg_pthread *x = *(const struct cg_pthread *const *)a;
	const struct cg_pthread *y = *(const struct cg_pthread *const *)b;

	return strcmp(x->name, y->name);
}

/* 1 for each view thread whose name another view thread shares. */
static unsigned char *duplicate_names(const struct cg_pthread *threads, size_t nthreads)
{
	const struct cg_pthread **by = xmalloc((nthreads + 1) * sizeof(*by));
	unsigned char *dup = xcalloc(nthreads + 1, 1);
	size_t i;

	for (i = 0; i < nthreads; i++)
		by[i] = &threads[i];
	qsort(by, nthreads, sizeof(*by), cmp_thread_name);
	for (i = 1; i < nthreads; i++) {
		if (strcmp(by[i - 1]->name, by[i]->name) == 0) {
			dup[by[i - 1] - threads] = 1;
			dup[by[i] - threads] = 1;
		}
	}
	free(by);
	return dup;
}

/* Exclusive time of the nodes strictly below node k. */
static uint64_t subtree_excl(const struct cg_cct *c, uint32_t k, uint32_t **work, size_t *cap)
{
	uint64_t sum = 0;
	size_t n = 0, i, nk;

	*work = xgrow(*work, cap, 1, sizeof(**work));
	(*work)[n++] = k;
	while (n) {
		uint32_t x = (*work)[--n];
		const uint32_t *kids = cct_children(c, x, &nk);

		if (x != k)
			sum += cct_excl(c, x, 0);
		*work = xgrow(*work, cap, n + nk, sizeof(**work));
		for (i = 0; i < nk; i++)
			(*work)[n++] = kids[i];
	}
	return sum;
}

/* One level of the walk: the line up to and including its node's frame,
 * and the node's children as (name rank << 32 | node), sorted. */
struct dfs {
	size_t prefix;
	uint64_t *kids;
	size_t n, next, cap;
};

/* Level d of the walk at node k (the levels' child buffers are reused). */
static void dfs_enter(struct dfs *d, const struct cg_cct *c, const uint32_t *rank, size_t nm,
		      uint32_t k, size_t prefix)
{
	size_t nk, i;
	const uint32_t *kids = cct_children(c, k, &nk);
	const uint32_t *kmid = cct_children_methods(c, k);

	cct_prefetch_children(c, k);
	d->prefix = prefix;
	d->kids = xgrow(d->kids, &d->cap, nk ? nk : 1, sizeof(*d->kids));
	d->n = 0;
	d->next = 0;
	for (i = 0; i < nk; i++) {
		uint32_t m = kmid[i];

		if (m < nm && rank[m] != UINT32_MAX)
			d->kids[d->n++] = (uint64_t)rank[m] << 32 | kids[i];
	}
	if (d->n > 1)
		sort_inplace(d->kids, d->n, sizeof(*d->kids), cmp_u64, NULL);
}

static int folded_render(const struct cg_report *r, struct strbuf *out, struct cg_error *err)
{
	const struct cg_cct *c = r->cct;
	const struct cg_pthread *threads = profile_threads(r->profile);
	size_t nthreads = profile_thread_count(r->profile);
	size_t nm = symtab_method_count(r->st), nn, i, nnames = 0;
	struct strbuf names, line;
	struct name_ent *ents = NULL;
	uint32_t *rank = NULL;
	struct cg_method_info tmp;
	struct dfs *stack = NULL;
	size_t cap_stack = 0, cap_work = 0, levels = 0;
	uint32_t *work = NULL;
	unsigned char *dup = NULL, *over = NULL;

	if (!c) {
		cg_error_set(err, -1, "folded stacks need the calling-context tree (internal error)");
		return -1;
	}
	nn = cct_node_count(c);
	strbuf_init(&names);
	strbuf_init(&line);
	/* Frame name of every method that has a node, and its rank by name:
	 * siblings are distinct methods, so the rank orders them. */
	rank = xmalloc((nm + 1) * sizeof(*rank));
	over = javaname_overloads(r->st);
	for (i = 0; i < nm; i++)
		rank[i] = UINT32_MAX;
	ents = xmalloc((nm + 1) * sizeof(*ents));
	for (i = 0; i < nn; i++) {
		uint32_t m = cct_node(c, (uint32_t)i)->midx;
		size_t before;

		if (m == CCT_NONE || m >= nm || rank[m] != UINT32_MAX)
			continue;
		rank[m] = 0;
		strbuf_reset(&line);
		javaname_put_label(&line, symtab_method_peek(r->st, m, &tmp),
				   (r->short_names ? JN_SHORT : 0) | (r->slash_names ? JN_SLASH : 0), over[m]);
		before = names.len;
		put_frame(&names, line.len ? line.data : "", line.len);
		ents[nnames].at.off = before;
		ents[nnames].len = (uint32_t)(names.len - before);
		ents[nnames].midx = m;
		nnames++;
	}
	for (i = 0; i < nnames; i++)
		ents[i].at.name = names.data + ents[i].at.off;
	sort_inplace(ents, nnames, sizeof(*ents), cmp_name, NULL);
	for (i = 0; i < nnames; i++)
		rank[ents[i].midx] = (uint32_t)i;

	dup = duplicate_names(threads, nthreads);
	for (i = 0; i < nthreads; i++) {
		const struct cg_pthread *t = &threads[i];
		uint32_t root = cct_root(c, (uint32_t)i);
		size_t depth = 0;

		strbuf_spill(out);
		strbuf_reset(&line);
		put_frame(&line, t->name, strlen(t->name));
		if (dup[i])
			strbuf_printf(&line, " (%u)", t->tid);
		if (t->excl_us)
			strbuf_printf(out, "%s;" FOLDED_BETWEEN " %" PRIu64 "\n", line.data, t->excl_us);
		if (root == CCT_NONE)
			continue;
		stack = xgrow(stack, &cap_stack, 1, sizeof(*stack));
		if (!levels)
			memset(&stack[levels++], 0, sizeof(*stack));
		dfs_enter(&stack[0], c, rank, nm, root, line.len);
		depth = 1;
		while (depth) {
			struct dfs *top = &stack[depth - 1];
			const struct name_ent *name;
			uint64_t excl, kid;
			uint32_t k;

			strbuf_spill(out);
			if (top->next >= top->n) {
				depth--;
				continue;
			}
			/* The child's name by its rank: its node is not read. */
			kid = top->kids[top->next++];
			k = (uint32_t)kid;
			name = &ents[kid >> 32];
			line.len = top->prefix;
			strbuf_putc(&line, ';');
			strbuf_add(&line, name->at.name, name->len);
			if ((excl = cct_excl(c, k, 0)) != 0) {
				strbuf_add(out, line.data, line.len);
				put_count(out, excl);
			}
			if (depth >= FOLDED_MAX_DEPTH) {
				/* At the cap: everything below is one line. */
				uint64_t below = subtree_excl(c, k, &work, &cap_work);

				if (below) {
					strbuf_add(out, line.data, line.len);
					strbuf_printf(out, ";[deeper frames] %" PRIu64 "\n", below);
				}
				continue;
			}
			stack = xgrow(stack, &cap_stack, depth + 1, sizeof(*stack));
			if (depth == levels)
				memset(&stack[levels++], 0, sizeof(*stack));
			dfs_enter(&stack[depth], c, rank, nm, k, line.len);
			depth++;
		}
	}
	for (i = 0; i < levels; i++)
		free(stack[i].kids);
	free(dup);
	free(work);
	free(stack);
	free(ents);
	free(rank);
	free(over);
	strbuf_free(&names);
	strbuf_free(&line);
	return 0;
}

const struct cg_renderer render_folded = { "folded", folded_render };

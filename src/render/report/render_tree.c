/* render_tree.c - Top Down and Bottom Up trees for the HTML report; see
 * render_tree.h for the data and its bound.
 *
 * The data block holds only numbers (method positions and microseconds);
 * names come from the report's main data block, so the block needs no
 * escaping and repeats no name.
 */
#include "render/report/render_tree.h"
#include "model/cct_walk.h"
#include "util/thread.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The script, embedded at build time from src/render/report/assets/tree.js. */
static const char tree_js[] =
#include "tree.js.inc"
	;
static const char tree_css[] =
#include "tree.css.inc"
	;

struct tree_ctx {
	struct cg_cct_walk w; /* nodes under w.min_us left out */
	const struct cg_view *all;
	int focusing;         /* --focus: a thread's time is its focused frames */
	size_t ti;            /* the thread being walked, */
	uint32_t root;        /* and its root */
	int other;            /* write the other clock */
	struct strbuf *out;   /* NULL: count only */
	unsigned char *kept_map; /* per node, 1 when written (with out) */
};

/* Per method, what a thread's left-out nodes ran: their own time on both
 * clocks and their calls, so the page can give each method's exact self
 * time although the tree is bounded. */
struct drop_acc {
	uint64_t *excl, *o_excl, *calls;
	uint32_t *touched;
	size_t ntouched, nm;
};

/* Position of method midx in the all-threads view, or -1. */
static int64_t method_k(const struct cg_view *all, uint32_t midx)
{
	if (midx == CCT_NONE || midx >= all->npos || all->method_pos[midx] == UINT32_MAX)
		return -1;
	return (int64_t)all->method_pos[midx];
}

static void put_node(struct tree_ctx *T, int64_t k, uint64_t incl, uint64_t excl, uint64_t calls,
		     uint64_t o_incl, uint64_t o_excl, size_t nkids)
{
	strbuf_printf(T->out, ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, k, incl, excl, calls);
	if (T->other)
		strbuf_printf(T->out, ",%" PRIu64 ",%" PRIu64, o_incl, o_excl);
	strbuf_printf(T->out, ",%zu", nkids);
}

/* Write (with T->out) node id with the number of its kept children; the
 * root as the thread's time and its own share of it (time outside every
 * visible frame), on both clocks. */
static void visit(void *ctx, uint32_t id, size_t n)
{
	struct tree_ctx *T = ctx;
	const struct cg_cct_node *nd = cct_node(T->w.c, id);

	if (!T->out)
		return;
	if (id == T->root) {
		const struct cg_pthread *t = &T->all->threads[T->ti];
		uint64_t top, o_top, o_incl = t->other_us;

		cct_children_incl(T->w.c, id, &top, &o_top);
		if (T->focusing || o_incl < o_top)
			o_incl = o_top;
		put_node(T, -1, t->incl_us, t->incl_us > top ? t->incl_us - top : 0, 0, o_incl,
			 o_incl - o_top, n);
	} else {
		T->kept_map[id] = 1;
		uint64_t us, o_us;

		cct_excl_both(T->w.c, id, &us, &o_us);
		put_node(T, method_k(T->all, nd->midx), nd->incl_us, us, nd->calls, nd->o_incl_us,
			 o_us, n);
	}
}

/* Start a pass over the tree c: nothing counted yet. */
static void tree_start(struct tree_ctx *T, const struct cg_cct *c, const struct cg_view *all)
{
	memset(T, 0, sizeof(*T));
	T->w.c = c;
	T->all = all;
	T->w.max_depth = TREE_DEPTH;
	T->w.visit = visit;
	T->w.ctx = T;
}

/* Walk thread ti's tree from its root. */
static void walk(struct tree_ctx *T, size_t ti, uint32_t root)
{
	T->ti = ti;
	T->root = root;
	cct_walk(&T->w, root);
}

/* Append thread ti's left-out nodes as ti, then k, excl, o_excl, calls per
 * method (methods in first-seen preorder, which is deterministic). */
static void put_drops(const struct tree_ctx *T, struct drop_acc *A, size_t ti, uint32_t root,
		      int *first, struct strbuf *sb)
{
	uint32_t *st = NULL, id;
	size_t n = 0, cap = 0, i, nk, k;
	const uint32_t *kids;

	st = xgrow(st, &cap, 1, sizeof(*st));
	st[n++] = root;
	while (n) {
		const struct cg_cct_node *nd;

		id = st[--n];
		nd = cct_node(T->w.c, id);
		if (id != root && !T->kept_map[id] && nd->midx < A->nm) {
			uint64_t us, o_us;

			if (!A->excl[nd->midx] && !A->o_excl[nd->midx] && !A->calls[nd->midx])
				A->touched[A->ntouched++] = nd->midx;
			cct_excl_both(T->w.c, id, &us, &o_us);
			A->excl[nd->midx] += us;
			A->o_excl[nd->midx] += o_us;
			A->calls[nd->midx] += nd->calls;
			/* A method may be touched, stay all zero and be touched
			 * again: guard the list against repeats. */
			if (!A->excl[nd->midx] && !A->o_excl[nd->midx] && !A->calls[nd->midx])
				A->ntouched--;
		}
		kids = cct_children(T->w.c, id, &nk);
		st = xgrow(st, &cap, n + nk, sizeof(*st));
		for (k = 0; k < nk; k++)
			st[n++] = kids[k];
	}
	free(st);
	if (!A->ntouched)
		return;
	strbuf_printf(sb, "%s\n[%zu", *first ? "" : ",", ti);
	*first = 0;
	for (i = 0; i < A->ntouched; i++) {
		uint32_t m = A->touched[i];

		strbuf_spill(sb);
		strbuf_printf(sb, ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			      method_k(T->all, m), A->excl[m], A->o_excl[m], A->calls[m]);
		A->excl[m] = A->o_excl[m] = A->calls[m] = 0;
	}
	A->ntouched = 0;
	strbuf_putc(sb, ']');
}

/* A thread whose tree was written: its place in the page and its root. */
struct walked {
	size_t pi;
	uint32_t root;
};

void tree_json(const struct cg_cct *c, const struct cg_report *r, struct strbuf *out)
{
	struct drop_acc A;
	const struct cg_view *all = profile_view(r->profile, -1);
	const char *const *focus, *const *hide;
	struct tree_ctx T;
	struct walked *wk = xmalloc((all->nthreads + 1) * sizeof(*wk));
	size_t i, nwk = 0, left_out = 0, folded = 0;
	int global = 0, first = 1;

	profile_filters(r->profile, &focus, &hide);
	tree_start(&T, c, all);
	/* Count with per-thread thresholds; over budget, use the all-threads
	 * threshold for every thread. */
	for (i = 0; i < all->nthreads; i++) {
		uint32_t root = cct_root(c, (uint32_t)i);

		if (root == CCT_NONE || (r->thread_map && r->thread_map[i] < 0))
			continue;
		T.w.min_us = all->threads[i].incl_us / TREE_FRACTION;
		T.w.budget = SIZE_MAX;
		walk(&T, i, root);
	}
	if (T.w.kept > TREE_BUDGET)
		global = 1;
	tree_start(&T, c, all);
	T.focusing = focus != NULL;
	T.other = r->info->clock == CG_CLOCK_DUAL;
	T.out = out;
	T.w.budget = TREE_BUDGET;
	T.kept_map = xcalloc(cct_node_count(c) + 1, 1);
	strbuf_puts(out, "{\"threads\":[");
	for (i = 0; i < all->nthreads; i++) {
		uint32_t root = cct_root(c, (uint32_t)i);
		size_t pi = r->thread_map ? (size_t)r->thread_map[i] : i;

		if (root != CCT_NONE && r->thread_map && r->thread_map[i] < 0)
			folded++;
		if (root == CCT_NONE || (r->thread_map && r->thread_map[i] < 0))
			continue;
		if (T.w.budget == 0) {
			/* Past the budget whole threads are left out. */
			left_out++;
			continue;
		}
		T.w.min_us = (global ? all->total_us : all->threads[i].incl_us) / TREE_FRACTION;
		strbuf_printf(out, "%s\n[%zu", nwk ? "," : "", pi);
		T.w.budget--;
		walk(&T, i, root);
		strbuf_putc(out, ']');
		wk[nwk].pi = pi;
		wk[nwk++].root = root;
	}
	/* The left-out nodes of each written thread, now that every kept node
	 * is marked; written straight to the page, which may spill here. */
	memset(&A, 0, sizeof(A));
	A.nm = symtab_method_count(r->st);
	A.excl = xcalloc(A.nm + 1, sizeof(*A.excl));
	A.o_excl = xcalloc(A.nm + 1, sizeof(*A.o_excl));
	A.calls = xcalloc(A.nm + 1, sizeof(*A.calls));
	A.touched = xmalloc((A.nm + 1) * sizeof(*A.touched));
	strbuf_puts(out, "],\n\"drops\":[");
	for (i = 0; i < nwk; i++)
		put_drops(&T, &A, wk[i].pi, wk[i].root, &first, out);
	strbuf_putc(out, ']');
	strbuf_printf(out, ",\n\"otherName\":\"%s\",\"fraction\":%d,\"depth\":%d,\"budget\":%d,\"global\":%d,"
			   "\"kept\":%zu,\"dropped\":%zu,\"threadsLeftOut\":%zu,\"folded\":%zu,\"other\":%d}",
		      r->clock == CG_USE_CPU ? "wall" : "cpu", TREE_FRACTION, TREE_DEPTH, TREE_BUDGET,
		      global, T.w.kept, T.w.dropped, left_out, folded, T.other);
	free(A.excl);
	free(A.o_excl);
	free(A.calls);
	free(A.touched);
	free(T.kept_map);
	free(wk);
}

/* The data block of r, made on a thread of its own. */
struct tree_job {
	const struct cg_report *r;
	struct strbuf out;
	pthread_t thr;
	int running;
};

static void *tree_job_main(void *arg)
{
	struct tree_job *job = arg;

	tree_json(job->r->cct, job->r, &job->out);
	return NULL;
}

/* The HTML report of the 1 GiB program trace of make bench spends about
 * as long on this block as on the call graph's layout and the page's
 * other parts before it: the two overlap. */
struct tree_job *tree_job_create(const struct cg_report *r)
{
	struct tree_job *job;

	if (!r->threads || !r->cct)
		return NULL;
	/* Built here, only read there. */
	(void)profile_view(r->profile, -1);
	job = xcalloc(1, sizeof(*job));
	job->r = r;
	strbuf_init(&job->out);
	if (thread_start(&job->thr, tree_job_main, job) != 0) {
		free(job);
		return NULL;
	}
	job->running = 1;
	return job;
}

static void tree_job_wait(struct tree_job *job)
{
	if (job->running)
		pthread_join(job->thr, NULL);
	job->running = 0;
}

void tree_job_free(struct tree_job *job)
{
	if (!job)
		return;
	tree_job_wait(job);
	strbuf_free(&job->out);
	free(job);
}

/* One tree's section: heading, what the tree shows, its bar and an empty
 * table the script fills. */
static void put_tree(struct strbuf *out, const char *id, const char *title, const char *what)
{
	strbuf_printf(out, "<section id=\"%s\" class=\"cgtree\">\n<h2>%s</h2>\n"
			   "<p class=\"treenote\">%s</p>\n", id, title, what);
	strbuf_printf(out, "<div class=\"treebar\"><input type=\"search\" id=\"%s-find\" "
			   "placeholder=\"Find method (smart case)\" autocomplete=\"off\" "
			   "spellcheck=\"false\"><button type=\"button\" id=\"%s-next\">Next</button>"
			   "<span id=\"%s-found\" class=\"treefound\" aria-live=\"polite\"></span>"
			   "<button type=\"button\" id=\"%s-hot\">Expand hottest path</button>"
			   "<button type=\"button\" id=\"%s-collapse\">Collapse all</button></div>\n"
			   "<div class=\"treebox\"><table class=\"tree\" id=\"%s-table\" role=\"treegrid\" "
			   "tabindex=\"0\"><thead></thead><tbody></tbody></table></div>\n</section>\n",
		      id, id, id, id, id, id);
}

int render_tree_section(const struct cg_report *r, struct tree_job *job, struct strbuf *out,
			struct cg_error *err)
{
	const char *clock = report_clock_name(r);
	int dual = r->info->clock == CG_CLOCK_DUAL;
	char what[1024];

	(void)err;
	if (!r->cct) {
		strbuf_puts(out, "<section id=\"topdown\">\n<h2>Top Down</h2>\n<p>Not collected.</p>\n"
				 "</section>\n");
		return 0;
	}
	strbuf_puts(out, "<style>\n");
	strbuf_puts(out, tree_css);
	strbuf_puts(out, "</style>\n");
	snprintf(what, sizeof(what),
		 "Every call path from the thread's start down, as Android Studio's Top Down tab: "
		 "inclusive time, exclusive (self) time and calls of each method in that context, on "
		 "the %s clock%s. Click or press Right to expand; the thread selector picks the "
		 "thread. To stay small the tree keeps, per thread, the paths of at least 1/%d of "
		 "the thread's time, at most %d levels deep and %d nodes in all; the rest of a "
		 "node's time is shown as one &ldquo;smaller calls&rdquo; row.",
		 clock, dual ? (r->clock == CG_USE_CPU ? " (and the wall clock)" : " (and the cpu clock)")
			     : "",
		 TREE_FRACTION, TREE_DEPTH, TREE_BUDGET);
	put_tree(out, "topdown", "Top Down", what);
	snprintf(what, sizeof(what),
		 "Each method's own (self) time, as Android Studio's Bottom Up tab: expand a method "
		 "to see the callers it ran under, and theirs, each with the self time of the "
		 "method spent along that path; callers add up to the method's self time. Paths "
		 "left out of the Top Down tree by its size bound are shown as one &ldquo;callers "
		 "under the size bound&rdquo; row.");
	put_tree(out, "bottomup", "Bottom Up", what);
	strbuf_puts(out, "<script type=\"application/json\" id=\"cg-tree-data\">\n");
	if (job) {
		tree_job_wait(job);
		strbuf_add(out, job->out.data, job->out.len);
		strbuf_free(&job->out);
	} else {
		tree_json(r->cct, r, out);
	}
	strbuf_puts(out, "\n</script>\n<script>\n");
	strbuf_puts(out, tree_js);
	strbuf_puts(out, "</script>\n");
	return 0;
}

/* --focus / --hide in the model, and the calling-context tree fed by the
 * profile's observer.  Records go straight to the profile; every expected
 * number is computed by hand in the comment above its test.  Property tests
 * at the end replay random well-formed traces and compare with the same
 * records filtered by hand. */
#include <stdlib.h>

#include "model/cct.h"
#include "model/profile.h"
#include "read/symtab.h"
#include "unit.h"

#define M 0x10u  /* com/ex/App.main */
#define D 0x20u  /* android/os/Debug.log (hidden by *.Debug.*) */
#define W 0x30u  /* com/ex/Work.run (focused by *.Work.run) */
#define X 0x40u  /* java/util/HashMap.get */

enum { EN = CG_ENTER, EX = CG_EXIT };

struct fx {
	struct cg_symtab *st;
	struct cg_profile *p;
	const struct cg_view *v;
	struct cg_cct *cct;
};

static void fx_init(struct fx *f, const char *const *focus, const char *const *hide, int with_cct)
{
	struct cg_profile_opts o = { .clock = CG_USE_WALL, .focus = focus, .hide = hide };

	f->st = symtab_create();
	symtab_define_method(f->st, M, "com/ex/App", "main", "([Ljava/lang/String;)V", "", 0);
	symtab_define_method(f->st, D, "android/os/Debug", "log", "()V", "", 0);
	symtab_define_method(f->st, W, "com/ex/Work", "run", "()V", "", 0);
	symtab_define_method(f->st, X, "java/util/HashMap", "get", "(Ljava/lang/Object;)Ljava/lang/Object;", "", 0);
	/* Defined so that method indices never depend on the order of use. */
	symtab_define_method(f->st, 0x50, "com/ex/Util", "a", "()V", "", 0);
	symtab_define_method(f->st, 0x60, "com/ex/Util", "b", "()V", "", 0);
	symtab_define_thread(f->st, 1, "main", 0);
	symtab_define_thread(f->st, 2, "worker", 0);
	f->p = profile_create(f->st, &o);
	f->v = NULL;
	f->cct = NULL;
	if (with_cct) {
		struct cg_observer obs;

		f->cct = cct_create();
		cct_observer(f->cct, &obs);
		profile_set_observer(f->p, &obs);
	}
}

static int fx_feed(struct fx *f, const uint32_t (*ev)[4], size_t n)
{
	struct cg_record *r = calloc(n + 1, sizeof(*r));
	struct cg_error err;
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		r[i].tid = ev[i][0];
		r[i].action = (uint8_t)ev[i][1];
		r[i].method = ev[i][2];
		r[i].t_wall = r[i].t_cpu = ev[i][3];
		r[i].offset = i;
	}
	rc = profile_add(f->p, r, n, &err);
	free(r);
	return rc;
}

static void fx_finish(struct fx *f)
{
	struct cg_trace_info info = { 0 };

	info.clock = CG_CLOCK_WALL;
	profile_finish(f->p, &info);
	f->v = profile_view(f->p, -1);
}

static void fx_free(struct fx *f)
{
	profile_free(f->p);
	cct_free(f->cct);
	symtab_free(f->st);
}

static const struct cg_pmethod *meth(const struct fx *f, uint32_t id)
{
	int64_t i = symtab_find_method(f->st, id);

	if (i < 0 || f->v->method_pos[i] == UINT32_MAX)
		return NULL;
	return &f->v->methods[f->v->method_pos[i]];
}

/* caller 0 = root of thread index 0 */
static const struct cg_pedge *edge(const struct fx *f, uint32_t caller_id, uint32_t callee_id)
{
	int64_t ce = symtab_find_method(f->st, callee_id);
	int64_t cr = caller_id ? symtab_find_method(f->st, caller_id) : 0;
	size_t i;

	for (i = 0; i < f->v->nedges; i++) {
		const struct cg_pedge *e = &f->v->edges[i];

		if ((int64_t)e->callee == ce && (int64_t)e->caller == cr && e->from_root == !caller_id)
			return e;
	}
	return NULL;
}

/* The CCT child of node `parent` for method id, or CCT_NONE. */
static uint32_t cct_child(const struct fx *f, uint32_t parent, uint32_t id)
{
	int64_t mi = symtab_find_method(f->st, id);
	size_t n, i;
	const uint32_t *k;

	if (parent == CCT_NONE)
		return CCT_NONE;
	k = cct_children(f->cct, parent, &n);
	for (i = 0; i < n; i++)
		if ((int64_t)cct_node(f->cct, k[i])->midx == mi)
			return k[i];
	return CCT_NONE;
}

/* Thread main: M 0..50 calls D 10..40 which calls W 15..35; then D 60..80
 * at the top level calls W 65..70.  First event 0, last 80: total 80.
 *
 * Without --hide: M incl 50, excl 10+10 = 20; D incl 30+20 = 50, excl
 * 5+5 + 5+10 = 25; W incl 25, excl 25; root excl 50..60 = 10.
 *
 * --hide '*.Debug.*': D disappears.  Its exclusive time goes to its caller:
 * M excl 20 + 10 = 30; the root gets the top-level D's 15: root excl
 * 10 + 15 = 25.  Its callee W is called by M (1 call, 20 us) and by the
 * root (1 call, 5 us).  Unchanged: M incl 50, W incl 25 excl 25 calls 2,
 * total 80.  Check: 30 + 25 + 25 = 80. */
static const uint32_t hide_ev[][4] = {
	{ 1, EN, M, 0 },  { 1, EN, D, 10 }, { 1, EN, W, 15 }, { 1, EX, W, 35 },
	{ 1, EX, D, 40 }, { 1, EX, M, 50 }, { 1, EN, D, 60 }, { 1, EN, W, 65 },
	{ 1, EX, W, 70 }, { 1, EX, D, 80 },
};

UNIT_TEST(focus_hide_none_baseline)
{
	struct fx f;

	fx_init(&f, NULL, NULL, 0);
	CHECK(fx_feed(&f, hide_ev, 10) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 80);
	CHECK_EQ_U64(meth(&f, M)->excl_us, 20);
	CHECK_EQ_U64(meth(&f, D)->incl_us, 50);
	CHECK_EQ_U64(meth(&f, D)->excl_us, 25);
	CHECK_EQ_U64(f.v->threads[0].excl_us, 10);
	fx_free(&f);
	return 0;
}

UNIT_TEST(focus_hide_charges_caller)
{
	static const char *const hide[] = { "*.Debug.*", NULL };
	struct fx f;

	fx_init(&f, NULL, hide, 0);
	CHECK(fx_feed(&f, hide_ev, 10) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 80);
	CHECK(meth(&f, D) == NULL);
	CHECK_EQ_U64(f.v->nmethods, 2);
	CHECK_EQ_U64(meth(&f, M)->incl_us, 50);
	CHECK_EQ_U64(meth(&f, M)->excl_us, 30);
	CHECK_EQ_U64(meth(&f, W)->incl_us, 25);
	CHECK_EQ_U64(meth(&f, W)->excl_us, 25);
	CHECK_EQ_U64(meth(&f, W)->calls, 2);
	CHECK_EQ_U64(f.v->threads[0].incl_us, 80);
	CHECK_EQ_U64(f.v->threads[0].excl_us, 25);
	CHECK_EQ_U64(edge(&f, M, W)->calls, 1);
	CHECK_EQ_U64(edge(&f, M, W)->incl_us, 20);
	CHECK_EQ_U64(edge(&f, 0, W)->calls, 1);
	CHECK_EQ_U64(edge(&f, 0, W)->incl_us, 5);
	CHECK_EQ_U64(edge(&f, 0, M)->incl_us, 50);
	CHECK_EQ_U64(f.v->nedges, 3);
	fx_free(&f);
	return 0;
}

/* The CCT under --hide sees only visible frames: main;M 30, main;M;W 20,
 * main;W 5, root 25 (from the profile).  Sum 80. */
UNIT_TEST(focus_hide_cct)
{
	static const char *const hide[] = { "android.os.Debug.log", NULL };
	struct fx f;
	uint32_t root, m, mw, w;

	fx_init(&f, NULL, hide, 1);
	CHECK(fx_feed(&f, hide_ev, 10) == 0);
	fx_finish(&f);
	root = cct_root(f.cct, 0);
	CHECK(root != CCT_NONE);
	m = cct_child(&f, root, M);
	mw = cct_child(&f, m, W);
	w = cct_child(&f, root, W);
	CHECK(m != CCT_NONE && mw != CCT_NONE && w != CCT_NONE);
	CHECK(cct_child(&f, root, D) == CCT_NONE);
	CHECK_EQ_U64(cct_excl(f.cct, m, 0), 30);
	CHECK_EQ_U64(cct_node(f.cct, m)->incl_us, 50);
	CHECK_EQ_U64(cct_excl(f.cct, mw, 0), 20);
	CHECK_EQ_U64(cct_excl(f.cct, w, 0), 5);
	CHECK_EQ_U64(cct_node(f.cct, w)->calls, 1);
	CHECK_EQ_U64(cct_node_count(f.cct), 4);
	fx_free(&f);
	return 0;
}

/* Thread main: M 0..100; W 5..40 calls X 10..30; X 45..55 outside any W;
 * W 60..80 calls W 62..70 (recursion).  Thread worker: X 0..10 only.
 *
 * --focus '*.Work.run': only time inside an outermost W counts: 35 + 20 =
 * 55 on main, 0 on worker: total 55, root excl 0.  W: incl 55, excl
 * (5..10, 30..40) 15 + (60..62, 70..80) 12 + inner 8 = 35, calls 2+1.
 * X: only the call inside W: incl 20, excl 20, 1 call (20/55 = 36.36 %).
 * M is gone.  root->W 2 calls 55 us; W->W 1 call 0 us; W->X 1 call 20 us. */
static const uint32_t focus_ev[][4] = {
	{ 1, EN, M, 0 },  { 1, EN, W, 5 },  { 1, EN, X, 10 }, { 1, EX, X, 30 },
	{ 1, EX, W, 40 }, { 1, EN, X, 45 }, { 1, EX, X, 55 }, { 1, EN, W, 60 },
	{ 1, EN, W, 62 }, { 1, EX, W, 70 }, { 1, EX, W, 80 }, { 1, EX, M, 100 },
	{ 2, EN, X, 0 },  { 2, EX, X, 10 },
};

UNIT_TEST(focus_relative_to_focused)
{
	static const char *const focus[] = { "*.Work.run", NULL };
	struct fx f;

	fx_init(&f, focus, NULL, 1);
	CHECK(fx_feed(&f, focus_ev, 14) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 55);
	CHECK_EQ_U64(f.v->nthreads, 2);
	CHECK_EQ_U64(f.v->threads[0].incl_us, 55);
	CHECK_EQ_U64(f.v->threads[0].excl_us, 0);
	CHECK_EQ_U64(f.v->threads[1].incl_us, 0);
	CHECK(meth(&f, M) == NULL);
	CHECK_EQ_U64(f.v->nmethods, 2);
	CHECK_EQ_U64(meth(&f, W)->incl_us, 55);
	CHECK_EQ_U64(meth(&f, W)->excl_us, 35);
	CHECK_EQ_U64(meth(&f, W)->calls, 2);
	CHECK_EQ_U64(meth(&f, W)->rec_calls, 1);
	CHECK_EQ_U64(meth(&f, X)->incl_us, 20);
	CHECK_EQ_U64(meth(&f, X)->excl_us, 20);
	CHECK_EQ_U64(meth(&f, X)->calls, 1);
	CHECK_EQ_U64(edge(&f, 0, W)->calls, 2);
	CHECK_EQ_U64(edge(&f, 0, W)->incl_us, 55);
	CHECK_EQ_U64(edge(&f, W, W)->calls, 1);
	CHECK_EQ_U64(edge(&f, W, W)->incl_us, 0);
	CHECK_EQ_U64(edge(&f, W, X)->incl_us, 20);
	CHECK_EQ_U64(f.v->nedges, 3);
	/* The CCT: main;W 15+12 = 27, main;W;W 8, main;W;X 20: sum 55. */
	{
		uint32_t root = cct_root(f.cct, 0), w = cct_child(&f, root, W);

		CHECK(w != CCT_NONE);
		CHECK_EQ_U64(cct_excl(f.cct, w, 0), 27);
		CHECK_EQ_U64(cct_node(f.cct, w)->incl_us, 55);
		CHECK_EQ_U64(cct_excl(f.cct, cct_child(&f, w, W), 0), 8);
		CHECK_EQ_U64(cct_excl(f.cct, cct_child(&f, w, X), 0), 20);
		CHECK(cct_child(&f, root, X) == CCT_NONE);
		CHECK(cct_child(&f, root, M) == CCT_NONE);
		CHECK(cct_root(f.cct, 1) == CCT_NONE);
	}
	fx_free(&f);
	return 0;
}

/* A method matching both --focus and --hide is hidden (and focuses
 * nothing): with --focus '*.Work.run' --hide 'com.ex.*' nothing counts. */
UNIT_TEST(focus_hide_wins)
{
	static const char *const focus[] = { "*.Work.run", NULL };
	static const char *const hide[] = { "com.ex.*", NULL };
	struct fx f;

	fx_init(&f, focus, hide, 0);
	CHECK(fx_feed(&f, focus_ev, 14) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(f.v->total_us, 0);
	CHECK_EQ_U64(f.v->nmethods, 0);
	fx_free(&f);
	return 0;
}

/* Exit before start under --hide and the CCT's adopt.  Thread main:
 * X 0..10, W exits at 20 (entered before tracing), M 30..40.
 * W adopts X and the root time 10..20: W incl 20, excl 10; root excl
 * 20..30 = 10; total 40.  CCT: main;W 10, main;W;X 10, main;M 10.
 * With --hide '*.Work.*' the exit is invisible: X and M stay under the
 * root, root excl = 10..30 = 20. */
static const uint32_t adopt_ev[][4] = {
	{ 1, EN, X, 0 }, { 1, EX, X, 10 }, { 1, EX, W, 20 }, { 1, EN, M, 30 }, { 1, EX, M, 40 },
};

UNIT_TEST(focus_cct_adopt)
{
	struct fx f;
	uint32_t root, w;

	fx_init(&f, NULL, NULL, 1);
	CHECK(fx_feed(&f, adopt_ev, 5) == 0);
	fx_finish(&f);
	CHECK_EQ_U64(meth(&f, W)->incl_us, 20);
	CHECK_EQ_U64(meth(&f, W)->excl_us, 10);
	CHECK_EQ_U64(f.v->threads[0].excl_us, 10);
	root = cct_root(f.cct, 0);
	w = cct_child(&f, root, W);
	CHECK(w != CCT_NONE);
	CHECK_EQ_U64(cct_node(f.cct, w)->incl_us, 20);
	CHECK_EQ_U64(cct_excl(f.cct, w, 0), 10);
	CHECK_EQ_U64(cct_excl(f.cct, cct_child(&f, w, X), 0), 10);
	CHECK(cct_child(&f, root, X) == CCT_NONE);
	CHECK_EQ_U64(cct_excl(f.cct, cct_child(&f, root, M), 0), 10);
	fx_free(&f);
	return 0;
}

UNIT_TEST(focus_hide_adopted)
{
	static const char *const hide[] = { "*.Work.*", NULL };
	struct fx f;

	fx_init(&f, NULL, hide, 1);
	CHECK(fx_feed(&f, adopt_ev, 5) == 0);
	fx_finish(&f);
	CHECK(meth(&f, W) == NULL);
	CHECK_EQ_U64(f.v->threads[0].excl_us, 20);
	CHECK_EQ_U64(edge(&f, 0, X)->incl_us, 10);
	CHECK_EQ_U64(edge(&f, 0, M)->incl_us, 10);
	CHECK(cct_child(&f, cct_root(f.cct, 0), X) != CCT_NONE);
	CHECK(cct_child(&f, cct_root(f.cct, 0), W) == CCT_NONE);
	fx_free(&f);
	return 0;
}

/* ---- properties on random well-formed traces ------------------------------ */

#define NIDS 6
static const uint32_t ids[NIDS] = { M, D, W, X, 0x50, 0x60 };

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* Random records on two threads: nested calls (recursion included), every
 * frame closed by the end; with `adopt`, a few exits on an empty stack. */
static size_t gen(uint64_t seed, uint32_t (*ev)[4], size_t max, int adopt)
{
	uint32_t stack[2][64], depth[2] = { 0, 0 }, now[2] = { 0, 0 };
	size_t n = 0;
	uint64_t s = seed;

	while (n + 2 * 64 + 2 < max) { /* room to close both stacks */
		uint32_t t = rnd(&s) % 2, tid = t + 1, r = rnd(&s) % 100;

		now[t] += rnd(&s) % 7;
		if (adopt && depth[t] == 0 && r < 4) {
			ev[n][0] = tid, ev[n][1] = EX, ev[n][2] = ids[rnd(&s) % NIDS], ev[n][3] = now[t];
			n++;
		} else if (depth[t] < 60 && (depth[t] == 0 || r < 50)) {
			uint32_t id = ids[rnd(&s) % NIDS];

			stack[t][depth[t]++] = id;
			ev[n][0] = tid, ev[n][1] = EN, ev[n][2] = id, ev[n][3] = now[t];
			n++;
		} else if (depth[t]) {
			ev[n][0] = tid, ev[n][1] = EX, ev[n][2] = stack[t][--depth[t]], ev[n][3] = now[t];
			n++;
		}
	}
	for (; depth[0] || depth[1];) {
		uint32_t t = depth[0] ? 0 : 1;

		now[t] += 1;
		ev[n][0] = t + 1, ev[n][1] = EX, ev[n][2] = stack[t][--depth[t]], ev[n][3] = now[t];
		n++;
	}
	return n;
}

/* Methods and edges of a and b equal (by method id). */
static int same_methods_edges(const struct fx *a, const struct fx *b)
{
	size_t i;

	CHECK_EQ_U64(a->v->nmethods, b->v->nmethods);
	for (i = 0; i < a->v->nmethods; i++) {
		const struct cg_pmethod *x = &a->v->methods[i], *y = meth(b, (uint32_t)symtab_method_id(a->v->st, x->index));

		CHECK(y != NULL);
		CHECK_EQ_U64(x->incl_us, y->incl_us);
		CHECK_EQ_U64(x->excl_us, y->excl_us);
		CHECK_EQ_U64(x->calls, y->calls);
		CHECK_EQ_U64(x->rec_calls, y->rec_calls);
	}
	CHECK_EQ_U64(a->v->nedges, b->v->nedges);
	for (i = 0; i < a->v->nedges; i++) {
		const struct cg_pedge *e = &a->v->edges[i], *g = NULL;
		size_t j;

		for (j = 0; j < b->v->nedges; j++) {
			const struct cg_pedge *h = &b->v->edges[j];

			/* Root callers are thread indices, which follow the order of
			 * first events: compare their tids. */
			if (h->from_root == e->from_root && h->callee == e->callee &&
			    (e->from_root ? a->v->threads[e->caller].tid == b->v->threads[h->caller].tid
					  : h->caller == e->caller))
				g = h;
		}
		CHECK(g != NULL);
		CHECK_EQ_U64(e->calls, g->calls);
		CHECK_EQ_U64(e->incl_us, g->incl_us);
	}
	return 0;
}

/* --hide D equals replaying the records without D's (same symtab order, so
 * method indices agree); threads keep their first and last events. */
UNIT_TEST(focus_prop_hide_is_filtering)
{
	static const char *const hide[] = { "*.Debug.*", NULL };
	static uint32_t ev[4000][4], kept[4000][4];
	uint64_t seed;

	for (seed = 1; seed <= 200; seed++) {
		size_t n = gen(seed, ev, 4000, 0), k = 0, i, th;
		struct fx a, b;

		for (i = 0; i < n; i++)
			if (ev[i][2] != D)
				memcpy(kept[k++], ev[i], sizeof(ev[i]));
		fx_init(&a, NULL, hide, 0);
		fx_init(&b, NULL, NULL, 0);
		CHECK(fx_feed(&a, ev, n) == 0);
		CHECK(fx_feed(&b, kept, k) == 0);
		fx_finish(&a);
		fx_finish(&b);
		if (same_methods_edges(&a, &b)) {
			fprintf(stderr, "  seed %" PRIu64 "\n", seed);
			return 1;
		}
		/* Threads keep the hidden records' times at their ends. */
		CHECK_EQ_U64(a.v->nthreads, b.v->nthreads);
		for (th = 0; th < a.v->nthreads; th++) {
			size_t j;

			for (j = 0; j < b.v->nthreads; j++)
				if (b.v->threads[j].tid == a.v->threads[th].tid)
					CHECK(a.v->threads[th].incl_us >= b.v->threads[j].incl_us);
		}
		fx_free(&a);
		fx_free(&b);
	}
	return 0;
}

/* --focus W equals replaying only the records inside outermost W frames;
 * the thread's time is the sum of those frames. */
UNIT_TEST(focus_prop_focus_is_filtering)
{
	static const char *const focus[] = { "com.ex.Work.run", NULL };
	static uint32_t ev[4000][4], kept[4000][4];
	uint64_t seed;

	for (seed = 1; seed <= 200; seed++) {
		size_t n = gen(seed, ev, 4000, 0), k = 0, i;
		uint32_t wdepth[3] = { 0, 0, 0 }, start[3] = { 0, 0, 0 };
		uint64_t focused[3] = { 0, 0, 0 };
		struct fx a, b;

		for (i = 0; i < n; i++) {
			uint32_t tid = ev[i][0];
			int in = wdepth[tid] > 0;

			if (ev[i][2] == W && ev[i][1] == EN && wdepth[tid]++ == 0) {
				in = 1;
				start[tid] = ev[i][3];
			}
			if (ev[i][2] == W && ev[i][1] == EX && --wdepth[tid] == 0)
				focused[tid] += ev[i][3] - start[tid];
			if (in)
				memcpy(kept[k++], ev[i], sizeof(ev[i]));
		}
		fx_init(&a, focus, NULL, 0);
		fx_init(&b, NULL, NULL, 0);
		CHECK(fx_feed(&a, ev, n) == 0);
		CHECK(fx_feed(&b, kept, k) == 0);
		fx_finish(&a);
		fx_finish(&b);
		if (same_methods_edges(&a, &b)) {
			fprintf(stderr, "  seed %" PRIu64 "\n", seed);
			return 1;
		}
		CHECK_EQ_U64(a.v->total_us, focused[1] + focused[2]);
		fx_free(&a);
		fx_free(&b);
	}
	return 0;
}

/* The CCT agrees with the model on random traces with exits before start,
 * with and without --hide: per thread, node exclusive times plus the root's
 * sum to the thread's time; per method, node exclusive times sum to its
 * exclusive time, node calls to calls + recursive calls, and nodes with no
 * ancestor of the same method sum to its inclusive time. */
UNIT_TEST(focus_prop_cct_matches_model)
{
	static const char *const hide[] = { "*.Debug.*", NULL };
	static uint32_t ev[4000][4];
	uint64_t seed;
	int h;

	for (h = 0; h < 2; h++) {
		for (seed = 1; seed <= 150; seed++) {
			size_t n = gen(seed * 7919, ev, 4000, 1), i, th, nn;
			uint64_t excl[8] = { 0 }, incl[8] = { 0 }, calls[8] = { 0 };
			struct fx f;

			fx_init(&f, NULL, h ? hide : NULL, 1);
			CHECK(fx_feed(&f, ev, n) == 0);
			fx_finish(&f);
			nn = cct_node_count(f.cct);
			for (th = 0; th < f.v->nthreads; th++) {
				uint64_t sum = f.v->threads[th].excl_us;
				uint32_t root = cct_root(f.cct, (uint32_t)th);

				for (i = 0; i < nn; i++) {
					uint32_t a = (uint32_t)i;

					while (cct_node(f.cct, a)->parent != CCT_NONE)
						a = cct_node(f.cct, a)->parent;
					if (a == root && i != root)
						sum += cct_excl(f.cct, (uint32_t)i, 0);
				}
				CHECK_EQ_U64(sum, f.v->threads[th].incl_us);
			}
			for (i = 0; i < nn; i++) {
				const struct cg_cct_node *nd = cct_node(f.cct, (uint32_t)i);
				uint32_t a = nd->parent;
				int outer = 1;

				if (nd->midx == CCT_NONE)
					continue;
				for (; a != CCT_NONE; a = cct_node(f.cct, a)->parent)
					if (cct_node(f.cct, a)->midx == nd->midx)
						outer = 0;
				excl[nd->midx] += cct_excl(f.cct, (uint32_t)i, 0);
				calls[nd->midx] += nd->calls;
				if (outer)
					incl[nd->midx] += nd->incl_us;
			}
			for (i = 0; i < f.v->nmethods; i++) {
				const struct cg_pmethod *m = &f.v->methods[i];

				CHECK_EQ_U64(excl[m->index], m->excl_us);
				CHECK_EQ_U64(incl[m->index], m->incl_us);
				CHECK_EQ_U64(calls[m->index], m->calls + m->rec_calls);
			}
			fx_free(&f);
		}
	}
	return 0;
}

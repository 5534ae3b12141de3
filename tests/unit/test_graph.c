/* test_graph.c - graph selection (filter.c), chain folding (fold.c),
 * waiting methods (waiting.c), labels and the Graphviz renderer
 * (render_gv.c), on profiles built through the real symtab and model. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "model/filter.h"
#include "model/fold.h"
#include "render/graph/gv_text.h"
#include "render/javaname.h"
#include "model/profile.h"
#include "render/graph/render_gv.h"
#include "render/report.h"
#include "util/strbuf.h"
#include "read/symtab.h"
#include "unit.h"
#include "model/waiting.h"

/* Only render_gv.c includes Graphviz; re-parsing the dot output needs these
 * two libcgraph functions, declared here exactly as cgraph.h has them. */
struct Agraph_s;
struct Agraph_s *agmemread(const char *cp);
int agclose(struct Agraph_s *g);

struct fixture {
	struct cg_symtab *st;
	struct cg_profile *p;
	struct cg_trace_info info;
	struct cg_report r;
	const struct cg_view *v;
};

#define EV(id, t, act) { 1, (id), (t), (t), (act), 0 }

/* Replay recs (thread 1, "main") over the methods already defined in
 * f->st and take the all-threads view.  0 or 1 (failed). */
static int fx_run(struct fixture *f, const struct cg_record *recs, size_t n)
{
	struct cg_error err = { { 0 }, 0, 0 };

	symtab_define_thread(f->st, 1, "main", 0);
	f->p = profile_create(f->st, NULL);
	if (profile_add(f->p, recs, n, &err) < 0) {
		fprintf(stderr, "  profile_add: %s\n", err.msg);
		return 1;
	}
	memset(&f->info, 0, sizeof(f->info));
	f->info.clock = CG_CLOCK_WALL;
	profile_finish(f->p, &f->info);
	f->v = profile_view(f->p, -1);
	memset(&f->r, 0, sizeof(f->r));
	f->r.file = "test.trace";
	f->r.info = &f->info;
	f->r.profile = f->p;
	f->r.st = f->st;
	f->r.clock = CG_USE_WALL;
	f->r.threshold = 20;
	return f->v ? 0 : 1;
}

static void fx_free(struct fixture *f)
{
	profile_free(f->p);
	symtab_free(f->st);
}

/* The shared example, times in us on thread 1 (total 1000):
 *
 *   R 0..1000          root->R 1000 (100 % of the thread)
 *     A 0..700           R->A 700   (70 % of R)
 *       C 100..600         A->C 500 (71.4 % of A)
 *       E 600..670         A->E 70  (exactly 10 % of A)
 *     B 700..1000        R->B 300   (30 % of R)
 *       C 710..730         B->C 20  (6.67 % of B; C's total 520 is 173 % of
 *                                    B, so dmtracedump's rule keeps it)
 *       D 750..900         B->D 150 (exactly 50 % of B)
 *
 * Inclusive: R 1000, A 700, C 520, B 300, D 150, E 70 (the view's order).
 * Exclusive: R 0, A 100+30 = 130, C 520, B 10+20+100 = 130, D 150, E 70. */
enum { ID_R = 0x4, ID_A = 0x8, ID_B = 0xc, ID_C = 0x10, ID_D = 0x14, ID_E = 0x18 };

static int fx_example(struct fixture *f)
{
	static const struct cg_record recs[] = {
		EV(ID_R, 0, CG_ENTER),   EV(ID_A, 0, CG_ENTER),   EV(ID_C, 100, CG_ENTER),
		EV(ID_C, 600, CG_EXIT),  EV(ID_E, 600, CG_ENTER), EV(ID_E, 670, CG_EXIT),
		EV(ID_A, 700, CG_EXIT),  EV(ID_B, 700, CG_ENTER), EV(ID_C, 710, CG_ENTER),
		EV(ID_C, 730, CG_EXIT),  EV(ID_D, 750, CG_ENTER), EV(ID_D, 900, CG_EXIT),
		EV(ID_B, 1000, CG_EXIT), EV(ID_R, 1000, CG_EXIT),
	};

	f->st = symtab_create();
	symtab_define_method(f->st, ID_R, "com/ex/R", "run", "()V", "R.java", 0);
	symtab_define_method(f->st, ID_A, "com/ex/A", "a", "()V", "A.java", 0);
	symtab_define_method(f->st, ID_B, "com/ex/B", "b", "()V", "B.java", 0);
	symtab_define_method(f->st, ID_C, "com/ex/Shared", "work", "(I)V", "Shared.java", 12);
	symtab_define_method(f->st, ID_D, "com/ex/D", "d", "()V", "D.java", 0);
	symtab_define_method(f->st, ID_E, "com/ex/E", "e", "()V", "E.java", 0);
	return fx_run(f, recs, sizeof(recs) / sizeof(recs[0]));
}

/* Is method `id` kept / is edge caller->callee kept (caller 0 = the root)? */
static int kept_method(const struct fixture *f, const struct cg_graph_sel *s, uint32_t id)
{
	int64_t idx = symtab_find_method(f->st, id);

	return idx >= 0 && s->keep_method[f->v->method_pos[idx]];
}

static int kept_edge(const struct fixture *f, const struct cg_graph_sel *s, uint32_t caller,
		     uint32_t callee)
{
	size_t i;

	for (i = 0; i < f->v->nedges; i++) {
		const struct cg_pedge *e = &f->v->edges[i];
		const struct cg_method_info *ce = symtab_method(f->st, e->callee);

		if (ce->id != callee)
			continue;
		if (caller == 0 ? e->from_root
				: !e->from_root && symtab_method(f->st, e->caller)->id == caller)
			return s->keep_edge[i];
	}
	return -1; /* no such edge */
}

static int render(struct fixture *f, const char *format, struct strbuf *out)
{
	struct cg_error err = { { 0 }, 0, 0 };

	strbuf_init(out);
	if (render_graph(&f->r, f->v, format, out, &err) < 0) {
		fprintf(stderr, "  render_graph(%s): %s\n", format, err.msg);
		return 1;
	}
	return 0;
}

/* Dot text with agwrite's line continuations (backslash-newline inside
 * quoted strings longer than 128 bytes) joined, for substring checks. */
static void unfold(const struct strbuf *in, struct strbuf *out)
{
	size_t i;

	strbuf_init(out);
	for (i = 0; i < in->len; i++) {
		if (in->data[i] == '\\' && i + 1 < in->len && in->data[i + 1] == '\n')
			i++;
		else
			strbuf_putc(out, in->data[i]);
	}
}

static int contains(const struct strbuf *sb, const char *needle)
{
	if (sb->data && strstr(sb->data, needle))
		return 1;
	fprintf(stderr, "  missing: %s\n", needle);
	return 0;
}

UNIT_TEST(graph_view_example)
{
	struct fixture f;

	CHECK(fx_example(&f) == 0);
	CHECK_EQ_U64(f.v->total_us, 1000);
	CHECK_EQ_U64(f.v->nmethods, 6);
	CHECK_EQ_U64(f.v->nedges, 7);
	/* Order by inclusive: R A C B D E. */
	CHECK_EQ_U64(symtab_method_id(f.st, f.v->methods[0].index), ID_R);
	CHECK_EQ_U64(symtab_method_id(f.st, f.v->methods[2].index), ID_C);
	CHECK_EQ_U64(f.v->methods[2].incl_us, 520);
	CHECK_EQ_U64(f.v->methods[3].excl_us, 130);
	fx_free(&f);
	return 0;
}

UNIT_TEST(graph_threshold_0_keeps_all)
{
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err;

	CHECK(fx_example(&f) == 0);
	CHECK(filter_prune(f.v, 0, 0, &s, &err) == 0);
	/* Nodes count the thread root too: 6 methods + 1. */
	CHECK_EQ_U64(s.nodes_kept, 7);
	CHECK_EQ_U64(s.nodes_dropped, 0);
	CHECK_EQ_U64(s.edges_kept, 7);
	CHECK_EQ_U64(s.edges_dropped, 0);
	CHECK_EQ_U64(s.keep_thread[0], 1);
	filter_sel_free(&s);
	fx_free(&f);
	return 0;
}

UNIT_TEST(graph_threshold_10_edge_time_not_callee_total)
{
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err;

	CHECK(fx_example(&f) == 0);
	CHECK(filter_prune(f.v, 10, 0, &s, &err) == 0);
	/* B->C carries 20 of B's 300 us (6.67 %): dropped, although C's total
	 * (520) is more than B's.  A->E is exactly 10 % of A: kept. */
	CHECK_EQ_U64(kept_edge(&f, &s, ID_B, ID_C), 0);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_A, ID_E), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_A, ID_C), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_B, ID_D), 1);
	CHECK_EQ_U64(s.nodes_kept, 7);
	CHECK_EQ_U64(s.edges_kept, 6);
	CHECK_EQ_U64(s.edges_dropped, 1);
	filter_sel_free(&s);
	/* Just above 10 %, A->E goes and E with it. */
	CHECK(filter_prune(f.v, 10.001, 0, &s, &err) == 0);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_A, ID_E), 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_E), 0);
	CHECK_EQ_U64(s.nodes_kept, 6);
	filter_sel_free(&s);
	fx_free(&f);
	return 0;
}

UNIT_TEST(graph_threshold_50_reachability)
{
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err;

	CHECK(fx_example(&f) == 0);
	CHECK(filter_prune(f.v, 50, 0, &s, &err) == 0);
	/* R->B is 30 %: dropped.  B->D is exactly 50 % and passes the rule,
	 * but B is unreachable, so D and B->D go too.  A->E (10 %) goes. */
	CHECK_EQ_U64(kept_edge(&f, &s, 0, ID_R), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_R, ID_A), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_A, ID_C), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_R, ID_B), 0);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_B, ID_D), 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_B), 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_D), 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_E), 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_C), 1);
	CHECK_EQ_U64(s.nodes_kept, 4);  /* root, R, A, C */
	CHECK_EQ_U64(s.nodes_dropped, 3);
	CHECK_EQ_U64(s.edges_kept, 3);
	CHECK_EQ_U64(s.edges_dropped, 4);
	filter_sel_free(&s);
	/* 100 % keeps only edges carrying all their caller's time: root->R. */
	CHECK(filter_prune(f.v, 100, 0, &s, &err) == 0);
	CHECK_EQ_U64(s.nodes_kept, 2);
	CHECK_EQ_U64(s.edges_kept, 1);
	filter_sel_free(&s);
	fx_free(&f);
	return 0;
}

UNIT_TEST(graph_max_nodes_best_first)
{
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err;

	CHECK(fx_example(&f) == 0);
	/* Best-first by inclusive, the root first on its tie with R (1000),
	 * then A (700) over B (300), then C (520, reached through A) over B. */
	CHECK(filter_prune(f.v, 0, 4, &s, &err) == 0);
	CHECK_EQ_U64(s.nodes_kept, 4);
	CHECK_EQ_U64(s.nodes_dropped, 3);
	CHECK_EQ_U64(s.keep_thread[0], 1);
	CHECK_EQ_U64(kept_method(&f, &s, ID_C), 1);
	CHECK_EQ_U64(kept_method(&f, &s, ID_B), 0);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_A, ID_C), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_B, ID_C), 0);
	CHECK_EQ_U64(s.edges_kept, 3);
	filter_sel_free(&s);
	/* Five adds B, and with it B->C (C is already in). */
	CHECK(filter_prune(f.v, 0, 5, &s, &err) == 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_B), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_B, ID_C), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, ID_B, ID_D), 0);
	CHECK_EQ_U64(s.edges_kept, 5);
	filter_sel_free(&s);
	/* A cap above what is reachable changes nothing. */
	CHECK(filter_prune(f.v, 50, 5, &s, &err) == 0);
	CHECK_EQ_U64(s.nodes_kept, 4);
	filter_sel_free(&s);
	fx_free(&f);
	return 0;
}

/* The example plus an idle thread 2 (10 us: W 0..10).  Total 1010. */
static int fx_two_threads(struct fixture *f)
{
	static const struct cg_record recs[] = {
		EV(ID_R, 0, CG_ENTER),   EV(ID_A, 0, CG_ENTER),   EV(ID_C, 100, CG_ENTER),
		EV(ID_C, 600, CG_EXIT),  EV(ID_E, 600, CG_ENTER), EV(ID_E, 670, CG_EXIT),
		EV(ID_A, 700, CG_EXIT),  EV(ID_B, 700, CG_ENTER), EV(ID_C, 710, CG_ENTER),
		EV(ID_C, 730, CG_EXIT),  EV(ID_D, 750, CG_ENTER), EV(ID_D, 900, CG_EXIT),
		EV(ID_B, 1000, CG_EXIT), EV(ID_R, 1000, CG_EXIT),
		{ 2, 0x40, 0, 0, CG_ENTER, 0 }, { 2, 0x40, 10, 10, CG_EXIT, 0 },
	};

	f->st = symtab_create();
	symtab_define_method(f->st, ID_R, "com/ex/R", "run", "()V", "R.java", 0);
	symtab_define_method(f->st, ID_A, "com/ex/A", "a", "()V", "A.java", 0);
	symtab_define_method(f->st, ID_B, "com/ex/B", "b", "()V", "B.java", 0);
	symtab_define_method(f->st, ID_C, "com/ex/Shared", "work", "(I)V", "Shared.java", 12);
	symtab_define_method(f->st, ID_D, "com/ex/D", "d", "()V", "D.java", 0);
	symtab_define_method(f->st, ID_E, "com/ex/E", "e", "()V", "E.java", 0);
	symtab_define_method(f->st, 0x40, "com/ex/W", "w", "()V", "W.java", 0);
	symtab_define_thread(f->st, 2, "idle", 0);
	return fx_run(f, recs, sizeof(recs) / sizeof(recs[0]));
}

UNIT_TEST(graph_max_nodes_counts_roots)
{
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err;

	CHECK(fx_two_threads(&f) == 0);
	CHECK_EQ_U64(f.v->nthreads, 2);
	CHECK(filter_prune(f.v, 0, 0, &s, &err) == 0);
	CHECK_EQ_U64(s.nodes_kept, 9);
	filter_sel_free(&s);
	/* Seven: t1, R, A, C, B, D, E (70 us) before the idle root (10 us), so
	 * thread 2, W and its root edge are dropped. */
	CHECK(filter_prune(f.v, 0, 7, &s, &err) == 0);
	CHECK_EQ_U64(s.nodes_kept, 7);
	CHECK_EQ_U64(s.nodes_dropped, 2);
	CHECK_EQ_U64(s.keep_thread[0], 1);
	CHECK_EQ_U64(s.keep_thread[1], 0);
	CHECK_EQ_U64(kept_method(&f, &s, 0x40), 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_E), 1);
	CHECK_EQ_U64(s.edges_kept, 7);
	filter_sel_free(&s);
	fx_free(&f);
	return 0;
}

/* R calls P1..P4 in turn; each Pi calls Q1..Q4 for 10*(5-i) + (5-j) us:
 * 21 edges (root->R, 4 R->Pi, 16 Pi->Qj) among 9 methods + the root.
 * Pi incl 40*(5-i) + 10 (170, 130, 90, 50); Qj 100 + 4*(5-j) (116 ..
 * 104); R and the thread 440.  P4->Q4 (11 us) is the smallest edge. */
UNIT_TEST(graph_edge_cap)
{
	struct cg_record recs[2 + 4 * 2 + 16 * 2];
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err;
	uint32_t t = 0, i, j;
	size_t n = 0;

	f.st = symtab_create();
	symtab_define_method(f.st, 0x4, "R", "r", "()V", "R.java", 0);
	for (i = 1; i <= 4; i++) {
		char name[8];

		snprintf(name, sizeof(name), "p%u", (unsigned)i);
		symtab_define_method(f.st, 0x100 * i, "P", name, "()V", "P.java", 0);
		snprintf(name, sizeof(name), "q%u", (unsigned)i);
		symtab_define_method(f.st, 0x10 * i, "Q", name, "()V", "Q.java", 0);
	}
	recs[n++] = (struct cg_record)EV(0x4, 0, CG_ENTER);
	for (i = 1; i <= 4; i++) {
		recs[n++] = (struct cg_record)EV(0x100 * i, t, CG_ENTER);
		for (j = 1; j <= 4; j++) {
			recs[n++] = (struct cg_record)EV(0x10 * j, t, CG_ENTER);
			t += 10 * (5 - i) + (5 - j);
			recs[n++] = (struct cg_record)EV(0x10 * j, t, CG_EXIT);
		}
		recs[n++] = (struct cg_record)EV(0x100 * i, t, CG_EXIT);
	}
	recs[n++] = (struct cg_record)EV(0x4, t, CG_EXIT);
	CHECK(fx_run(&f, recs, n) == 0);
	CHECK_EQ_U64(f.v->total_us, 440);
	CHECK_EQ_U64(f.v->nedges, 21);
	CHECK(filter_prune(f.v, 0, 0, &s, &err) == 0);
	CHECK_EQ_U64(s.edges_kept, 21);
	filter_sel_free(&s);
	/* Ten nodes fit; 2 * 10 edges: the nine tree edges (root->R, R->Pi,
	 * P1->Qj) stay and the smallest of the others goes. */
	CHECK(filter_prune(f.v, 0, 10, &s, &err) == 0);
	CHECK_EQ_U64(s.nodes_kept, 10);
	CHECK_EQ_U64(s.edges_kept, 20);
	CHECK_EQ_U64(kept_edge(&f, &s, 0x400, 0x40), 0);
	CHECK_EQ_U64(kept_edge(&f, &s, 0x300, 0x40), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, 0x100, 0x40), 1);
	filter_sel_free(&s);
	fx_free(&f);
	return 0;
}

UNIT_TEST(graph_threshold_invalid)
{
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err = { { 0 }, 0, 0 };

	CHECK(fx_example(&f) == 0);
	CHECK(filter_prune(f.v, -1, 0, &s, &err) == -1);
	CHECK(strstr(err.msg, "threshold") != NULL);
	CHECK(s.keep_method == NULL);
	filter_sel_free(&s);
	CHECK(filter_prune(f.v, 100.5, 0, &s, &err) == -1);
	filter_sel_free(NULL);
	fx_free(&f);
	return 0;
}

/* R calls F; F calls itself and G; G calls F again:
 *   0 R> 10 F> 20 F> 30 G> 40 F> 50 <F 60 <G 70 <F 80 <F 100 <R
 * F: 1 call + 2 recursive; F->F (self) and G->F carry 0 us; F->G 30 of
 * F's 70 us (42.9 %). */
static int fx_recursion(struct fixture *f)
{
	static const struct cg_record recs[] = {
		EV(0x4, 0, CG_ENTER), EV(0x8, 10, CG_ENTER), EV(0x8, 20, CG_ENTER),
		EV(0xc, 30, CG_ENTER), EV(0x8, 40, CG_ENTER), EV(0x8, 50, CG_EXIT),
		EV(0xc, 60, CG_EXIT), EV(0x8, 70, CG_EXIT), EV(0x8, 80, CG_EXIT),
		EV(0x4, 100, CG_EXIT),
	};

	f->st = symtab_create();
	symtab_define_method(f->st, 0x4, "R", "run", "()V", "R.java", 0);
	symtab_define_method(f->st, 0x8, "F", "f", "()V", "F.java", 0);
	symtab_define_method(f->st, 0xc, "G", "g", "()V", "G.java", 0);
	return fx_run(f, recs, sizeof(recs) / sizeof(recs[0]));
}

UNIT_TEST(graph_recursion_self_loop)
{
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err;
	struct strbuf out;

	CHECK(fx_recursion(&f) == 0);
	CHECK_EQ_U64(f.v->methods[f.v->method_pos[symtab_find_method(f.st, 0x8)]].rec_calls, 2);
	CHECK(filter_prune(f.v, 20, 0, &s, &err) == 0);
	/* The self-edge is kept with F regardless of its 0 us; G->F is not. */
	CHECK_EQ_U64(kept_edge(&f, &s, 0x8, 0x8), 1);
	CHECK_EQ_U64(kept_edge(&f, &s, 0xc, 0x8), 0);
	CHECK_EQ_U64(kept_edge(&f, &s, 0x8, 0xc), 1);
	filter_sel_free(&s);
	CHECK(filter_prune(f.v, 0, 0, &s, &err) == 0);
	CHECK_EQ_U64(kept_edge(&f, &s, 0xc, 0x8), 1);
	filter_sel_free(&s);

	f.r.threshold = 20;
	CHECK(render(&f, "dot", &out) == 0);
	CHECK(contains(&out, "m0x8 -> m0x8\t[label=\"2 recursive\""));
	CHECK(contains(&out, "m0x8 -> m0xc\t[class=call,"));
	CHECK(contains(&out, "label=\"1 call\\n0.030 ms\""));
	CHECK(!strstr(out.data, "dir=back"));  /* G->F is not drawn */
	strbuf_free(&out);
	f.r.threshold = 0;
	CHECK(render(&f, "dot", &out) == 0);
	/* G->F leads back up (F is at depth 2, G at 3): it is written F -> G
	 * with dir=back, so dot never sees a cycle. */
	CHECK(contains(&out, "m0x8 -> m0xc\t[class=\"call back\",\n\t\tcolor=\"#7373ff\",\n"
			     "\t\tdir=back,\n\t\tlabel=\"1 call\\n0.000 ms\",\n"
			     "\t\tpenwidth=1.00,\n\t\ttooltip=\"G.g -> F.f\"];"));
	CHECK(contains(&out, "m0x8 -> m0xc\t[class=call,"));
	CHECK(!strstr(out.data, "m0xc -> m0x8"));
	strbuf_free(&out);
	fx_free(&f);
	return 0;
}

UNIT_TEST(graph_dot_labels_and_determinism)
{
	struct fixture f;
	struct strbuf a, b;
	struct cg_graph_sel s;
	struct cg_error err;
	struct Agraph_s *g;

	CHECK(fx_example(&f) == 0);
	f.r.threshold = 10;
	CHECK(render(&f, "dot", &a) == 0);
	CHECK(render(&f, "gv", &b) == 0);
	CHECK_EQ_U64(a.len, b.len);
	CHECK(memcmp(a.data, b.data, a.len) == 0);
	strbuf_free(&b);
	CHECK(contains(&a, "digraph callgraph {"));
	CHECK(contains(&a, "\tt1\t[class=thread"));
	CHECK(contains(&a, "label=\"main\\ntid 1\\n1.000 ms (100.00%)\""));
	CHECK(contains(&a, "label=\"c.e.A.a\\nincl 0.700 ms (70.00%)\\nexcl 0.130 ms (13.00%)\\ncalls 1+0\""));
	CHECK(contains(&a, "tooltip=\"com.ex.Shared.work(I)V\\nShared.java:12\""));
	CHECK(contains(&a, "m0x8 -> m0x18\t[class=call,"));
	CHECK(contains(&a, "label=\"1 call\\n0.070 ms\""));
	CHECK(contains(&a, "m0x4 -> m0x8\t[class=call,\n\t\tcolor=\"#ffd073\",\n\t\tlabel=\"1 call\\n0.700 ms\""));
	CHECK(contains(&a, "id=m0x10"));
	unfold(&a, &b);
	CHECK(contains(&b, "label=\"trace: test.trace\\lclock: wall (the trace has one clock)\\l"
			   "threads: 1, total 1.000 ms\\lnode floor: 0% of total (0 dropped)\\l"
			   "-t: edges under 10% of caller (0 nodes cut off)\\l"
			   "edge floor: 0% of total (0 dropped)\\lnodes: 7 shown, 0 dropped\\l"
			   "edges: 6 shown, 1 dropped\\l"));
	strbuf_free(&b);
	/* R (100 %) is red, E (7 %) nearly blue. */
	CHECK(contains(&a, "fillcolor=\"#ff7373\""));
	CHECK(!strstr(a.data, "m0xc -> m0x10"));
	/* It re-parses. */
	g = agmemread(a.data);
	CHECK(g != NULL);
	agclose(g);
	/* Same view, same bytes, after other work in between. */
	CHECK(filter_prune(f.v, 50, 0, &s, &err) == 0);
	filter_sel_free(&s);
	CHECK(render(&f, "dot", &b) == 0);
	CHECK_EQ_U64(a.len, b.len);
	CHECK(memcmp(a.data, b.data, a.len) == 0);
	strbuf_free(&a);
	strbuf_free(&b);
	fx_free(&f);
	return 0;
}

UNIT_TEST(graph_svg_special_names)
{
	static const struct cg_record recs[] = {
		EV(0x4, 0, CG_ENTER), EV(0x8, 10, CG_ENTER), EV(0x8, 20, CG_EXIT),
		EV(0xc, 30, CG_ENTER), EV(0xc, 40, CG_EXIT), EV(0x10, 50, CG_ENTER),
		EV(0x10, 60, CG_EXIT), EV(0x14, 70, CG_ENTER), EV(0x14, 80, CG_EXIT),
		EV(0x4, 100, CG_EXIT),
	};
	struct fixture f;
	struct strbuf dot, svg;
	struct Agraph_s *g;

	f.st = symtab_create();
	symtab_define_method(f.st, 0x4, "com/ex/Main$1", "<init>", "()V", "Main.java", 3);
	symtab_define_method(f.st, 0x8, "q\"uote{x|y}", "back\\slash\\n", "(Ljava/lang/String;)V",
			     "Q.java", 0);
	symtab_define_method(f.st, 0xc, "caf\xc3\xa9/Cr\xc3\xa8me", "bad\xff\xfe", "()V", "", 0);
	symtab_define_method(f.st, 0x10, "amp/E", "&lt;", "()V", "E.java", 0);
	symtab_define_method(f.st, 0x14,
			     "com/example/verylongpackagename/subsystem/internal/VeryLongClassName",
			     "<clinit>", "()V", "V.java", 0);
	/* U+FFFF is well-formed UTF-8 that XML forbids: replaced too.  (The
	 * first name given to a thread is kept, so fx_run's "main" is not.) */
	symtab_define_thread(f.st, 1, "t\xef\xbf\xbf", 0);
	CHECK(fx_run(&f, recs, sizeof(recs) / sizeof(recs[0])) == 0);
	f.r.threshold = 0;
	f.r.file = "dir\\x<&>\\";

	CHECK(render(&f, "dot", &svg) == 0);
	unfold(&svg, &dot);
	strbuf_free(&svg);
	/* Backslashes doubled, quotes escaped by cgraph, & as an entity,
	 * invalid bytes replaced by U+FFFD, long package abbreviated. */
	CHECK(contains(&dot, "label=\"q\\\"uote{x|y}.back\\\\slash\\\\n\\n"));
	CHECK(contains(&dot, "label=\"c.Cr\xc3\xa8me.bad\xef\xbf\xbd\xef\xbf\xbd\\n"));
	CHECK(contains(&dot, "a.E.&amp;lt;\\n"));
	CHECK(contains(&dot, "c.e.v.s.i.VeryLongClassName.<clinit>\\n"));
	CHECK(contains(&dot, "tooltip=\"com.example.verylongpackagename"));
	CHECK(contains(&dot, "c.e.Main$1.<init>\\n"));
	CHECK(contains(&dot, "label=\"trace: dir\\\\x<&amp;>\\\\\\lclock"));
	CHECK(!memchr(dot.data, 0xff, dot.len));
	g = agmemread(dot.data);
	CHECK(g != NULL);
	agclose(g);

	CHECK(render(&f, "svg", &svg) == 0);
	CHECK(contains(&svg, "<svg "));
	CHECK(contains(&svg, "</svg>"));
	CHECK(contains(&svg, "<g id=\"m0x4\" class=\"node method cg&#45;heat&#45;9\">"));
	CHECK(contains(&svg, "<g id=\"t1\" class=\"node thread\">"));
	CHECK(contains(&svg, ">c.e.Main$1.&lt;init&gt;</text>"));
	CHECK(contains(&svg, ">q&quot;uote{x|y}.back\\slash\\n</text>"));
	CHECK(contains(&svg, ">c.Cr\xc3\xa8me.bad\xef\xbf\xbd\xef\xbf\xbd</text>"));
	CHECK(contains(&svg, ">a.E.&amp;lt;</text>"));
	CHECK(contains(&svg, "xlink:title=\"q&quot;uote{x|y}.back\\slash\\n(Ljava/lang/String;)V&#10;Q.java\""));
	CHECK(contains(&svg, ">trace: dir\\x&lt;&amp;&gt;\\</text>"));
	CHECK(contains(&svg, ">t\xef\xbf\xbd</text>"));
	CHECK(!strstr(svg.data, "\xef\xbf\xbf"));
	CHECK(!memchr(svg.data, 0xff, svg.len));
	strbuf_free(&dot);
	strbuf_free(&svg);
	fx_free(&f);
	return 0;
}

UNIT_TEST(graph_rendered_formats)
{
	struct fixture f;
	struct strbuf out;

	CHECK(fx_example(&f) == 0);
	CHECK(render(&f, "png", &out) == 0);
	CHECK(out.len > 8 && memcmp(out.data, "\x89PNG\r\n\x1a\n", 8) == 0);
	strbuf_free(&out);
	CHECK(render(&f, "PDF", &out) == 0);
	CHECK(out.len > 5 && memcmp(out.data, "%PDF-", 5) == 0);
	strbuf_free(&out);
	fx_free(&f);
	return 0;
}

UNIT_TEST(graph_unknown_format)
{
	struct fixture f;
	struct strbuf out;
	struct cg_error err = { { 0 }, 0, 0 };

	CHECK(fx_example(&f) == 0);
	strbuf_init(&out);
	CHECK(render_graph(&f.r, f.v, "xyz", &out, &err) == -1);
	CHECK_EQ_U64(out.len, 0);
	CHECK_EQ_STR(strstr(err.msg, "unknown graph format 'xyz' (Graphviz offers: dot gv svg png pdf ")
			     ? "ok" : err.msg, "ok");
	CHECK(render_graph(&f.r, f.v, "", &out, &err) == -1);
	CHECK(render_graph(&f.r, f.v, "x11", &out, &err) == -1);
	strbuf_free(&out);
	fx_free(&f);

	CHECK_EQ_U64(render_graph_has_format("svg"), 1);
	CHECK_EQ_U64(render_graph_has_format("PNG"), 1);
	CHECK_EQ_U64(render_graph_has_format("dot"), 1);
	CHECK_EQ_U64(render_graph_has_format("gv"), 1);
	CHECK_EQ_U64(render_graph_has_format("xyz"), 0);
	CHECK_EQ_U64(render_graph_has_format("x11"), 0);
	CHECK_EQ_U64(render_graph_has_format(""), 0);
	CHECK_EQ_U64(render_graph_has_format(NULL), 0);
	return 0;
}

UNIT_TEST(graph_format_for)
{
	CHECK_EQ_STR(render_graph_format_for("out.svg"), "svg");
	CHECK_EQ_STR(render_graph_format_for("a/b.gv"), "dot");
	CHECK_EQ_STR(render_graph_format_for("x.DOT"), "dot");
	CHECK_EQ_STR(render_graph_format_for("out.dot.png"), "png");
	CHECK_EQ_STR(render_graph_format_for(".pdf"), "pdf");
	CHECK(render_graph_format_for("noext") == NULL);
	CHECK(render_graph_format_for("dir.d/noext") == NULL);
	CHECK(render_graph_format_for("out.") == NULL);
	CHECK(render_graph_format_for(NULL) == NULL);
	return 0;
}

UNIT_TEST(graph_graphviz_error_captured)
{
	struct fixture f;
	struct strbuf out;
	struct cg_error err = { { 0 }, 0, 0 };

	CHECK(fx_example(&f) == 0);
	strbuf_init(&out);
	/* A known device with a renderer that does not exist: Graphviz's own
	 * message ends up in err (and not on stderr). */
	CHECK(render_graph_has_format("png:nosuch") == 1);
	CHECK(render_graph(&f.r, f.v, "png:nosuch", &out, &err) == -1);
	CHECK_EQ_STR(err.msg, "cannot render the graph as png:nosuch: renderer for png:nosuch is unavailable");
	CHECK_EQ_U64(out.len, 0);
	strbuf_free(&out);
	fx_free(&f);
	return 0;
}

/* The floors on the shared example (total 1000 us): a node floor of 10 %
 * (100 us) drops E (70); an edge floor of 6 % (60 us) leaves B->C (20 us)
 * undrawn although both ends are kept.  Hand-counted: items t1 R A B C D E
 * = 7, E dropped by the floor; edges t1->R R->A A->C R->B B->C B->D A->E =
 * 7: A->E gone with E, B->C below the edge floor, 5 drawn. */
UNIT_TEST(graph_floors)
{
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err;
	struct cg_graph_rules rules = { 0.0, 10.0, 6.0, 0.0, 0 };

	CHECK(fx_example(&f) == 0);
	CHECK(filter_select(f.v, &rules, &s, &err) == 0);
	CHECK_EQ_U64(s.nodes_kept, 6);
	CHECK_EQ_U64(s.drop_floor, 1);
	CHECK_EQ_U64(kept_method(&f, &s, ID_E), 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_D), 1);  /* exactly 150 >= 100 */
	CHECK_EQ_U64(kept_edge(&f, &s, ID_B, ID_C), 0);
	CHECK_EQ_U64(s.edrop_floor, 1);
	CHECK_EQ_U64(s.edges_kept, 5);
	CHECK_EQ_U64(s.nresidual, 0);
	filter_sel_free(&s);
	/* A node floor of exactly D's share keeps D; a hair above drops it. */
	rules.node_pct = 15.0;
	rules.edge_pct = 0.0;
	CHECK(filter_select(f.v, &rules, &s, &err) == 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_D), 1);
	filter_sel_free(&s);
	rules.node_pct = 15.0001;
	CHECK(filter_select(f.v, &rules, &s, &err) == 0);
	CHECK_EQ_U64(kept_method(&f, &s, ID_D), 0);
	filter_sel_free(&s);
	rules.edge_pct = 101;
	CHECK(filter_select(f.v, &rules, &s, &err) == -1);
	fx_free(&f);
	return 0;
}

/* Residual edge: R calls A (dropped, 40 of 1000 us) which calls X (30 us)
 * and B (dropped, 40) which calls X (30); X = 60 us in all.  Floor 5 %
 * (50 us): A and B go, X stays and is joined to R by one dotted edge. */
UNIT_TEST(graph_residual_edge)
{
	static const struct cg_record recs[] = {
		EV(0x4, 0, CG_ENTER),   EV(0x8, 100, CG_ENTER), EV(0x10, 105, CG_ENTER),
		EV(0x10, 135, CG_EXIT), EV(0x8, 140, CG_EXIT),  EV(0xc, 200, CG_ENTER),
		EV(0x10, 205, CG_ENTER), EV(0x10, 235, CG_EXIT), EV(0xc, 240, CG_EXIT),
		EV(0x4, 1000, CG_EXIT),
	};
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_error err;
	struct cg_graph_rules rules = { 0.0, 5.0, 0.1, 0.0, 0 };
	struct strbuf out;

	f.st = symtab_create();
	symtab_define_method(f.st, 0x4, "R", "run", "()V", "R.java", 0);
	symtab_define_method(f.st, 0x8, "A", "a", "()V", "A.java", 0);
	symtab_define_method(f.st, 0xc, "B", "b", "()V", "B.java", 0);
	symtab_define_method(f.st, 0x10, "X", "x", "()V", "X.java", 0);
	CHECK(fx_run(&f, recs, sizeof(recs) / sizeof(recs[0])) == 0);
	CHECK(filter_select(f.v, &rules, &s, &err) == 0);
	CHECK_EQ_U64(kept_method(&f, &s, 0x10), 1);
	CHECK_EQ_U64(kept_method(&f, &s, 0x8), 0);
	CHECK_EQ_U64(kept_method(&f, &s, 0xc), 0);
	CHECK_EQ_U64(s.nresidual, 1);
	CHECK_EQ_U64(s.residual[0].from,
		     f.v->nthreads + f.v->method_pos[symtab_find_method(f.st, 0x4)]);
	CHECK_EQ_U64(s.residual[0].to, f.v->method_pos[symtab_find_method(f.st, 0x10)]);
	filter_sel_free(&s);
	f.r.threshold = 0;
	f.r.node_pct = 5.0;
	f.r.edge_pct = 0.1;
	CHECK(render(&f, "dot", &out) == 0);
	CHECK(contains(&out, "m0x4 -> m0x10\t[class=residual,\n\t\tcolor=\"#808080\",\n\t\tstyle=dotted,"));
	strbuf_free(&out);
	fx_free(&f);
	return 0;
}

/* Folding: t1 -> P -> Q -> S -> T -> {U, V}: P, Q, S have one caller, one
 * callee and no self time (a chain of 3); T has two callees.  With a
 * chain of only two (fold off for S by self time) nothing folds. */
UNIT_TEST(graph_fold_chain)
{
	static const struct cg_record recs[] = {
		EV(0x4, 0, CG_ENTER),   EV(0x8, 0, CG_ENTER),   EV(0xc, 0, CG_ENTER),
		EV(0x10, 0, CG_ENTER),  EV(0x14, 0, CG_ENTER),  EV(0x14, 600, CG_EXIT),
		EV(0x18, 600, CG_ENTER), EV(0x18, 1000, CG_EXIT), EV(0x10, 1000, CG_EXIT),
		EV(0xc, 1000, CG_EXIT), EV(0x8, 1000, CG_EXIT), EV(0x4, 1000, CG_EXIT),
	};
	struct fixture f;
	struct cg_graph_sel s;
	struct cg_fold fold;
	struct cg_error err;
	struct cg_graph_rules rules = { 0.0, 0.0, 0.0, 0.0, 0 };
	struct strbuf out;
	size_t k;

	f.st = symtab_create();
	symtab_define_method(f.st, 0x4, "P", "p", "()V", "", 0);
	symtab_define_method(f.st, 0x8, "Q", "q", "()V", "", 0);
	symtab_define_method(f.st, 0xc, "S", "s", "()V", "", 0);
	symtab_define_method(f.st, 0x10, "T", "t", "()V", "", 0);
	symtab_define_method(f.st, 0x14, "U", "u", "()V", "", 0);
	symtab_define_method(f.st, 0x18, "V", "v", "()V", "", 0);
	CHECK(fx_run(&f, recs, sizeof(recs) / sizeof(recs[0])) == 0);
	CHECK(filter_select(f.v, &rules, &s, &err) == 0);
	/* t1 -> P -> Q -> S -> T: T has U and V below it, so P, Q, S (and not
	 * T, which has two callees) are pass-through: one chain of 3. */
	fold_chains(f.v, &s, 1, &fold);
	CHECK_EQ_U64(fold.nchains, 1);
	CHECK_EQ_U64(fold.folded, 3);
	for (k = 0; k < 3; k++)
		CHECK_EQ_U64(symtab_method_id(f.st, f.v->methods[fold.members[k]].index), 0x4 + 4 * k);
	CHECK_EQ_U64(fold.chain_of[f.v->method_pos[symtab_find_method(f.st, 0x10)]], FOLD_NONE);
	fold_free(&fold);
	fold_chains(f.v, &s, 0, &fold);
	CHECK_EQ_U64(fold.nchains, 0);
	fold_free(&fold);
	filter_sel_free(&s);
	f.r.threshold = 0;
	CHECK(render(&f, "dot", &out) == 0);
	CHECK(contains(&out, "c0x4\t[class=\"chain cg-heat-9\","));
	CHECK(contains(&out, "label=\"P.p\\n… 1 frame …\\nS.s\\nincl 1.000 ms (100.00%)"));
	CHECK(contains(&out, "t1 -> c0x4\t[class=call,"));
	CHECK(contains(&out, "c0x4 -> m0x10\t[class=call,"));
	CHECK(!strstr(out.data, "m0x8"));
	strbuf_free(&out);
	f.r.no_fold = 1;
	CHECK(render(&f, "dot", &out) == 0);
	CHECK(!strstr(out.data, "c0x4"));
	CHECK(contains(&out, "m0x8 -> m0xc"));
	strbuf_free(&out);
	fx_free(&f);
	return 0;
}

/* Waiting: known blocking methods on one clock; >= 90 % off-CPU with two. */
UNIT_TEST(graph_waiting_rule)
{
	struct cg_method_info m = { 0 };
	struct cg_pmethod pm = { 0 };
	struct cg_view v = { 0 };

	m.klass = "java/lang/Object";
	m.name = "wait";
	m.sig = "(J)V";
	CHECK(waiting_known(&m));
	m.klass = "java.util.concurrent.locks.LockSupport";
	m.name = "parkNanos";
	CHECK(waiting_known(&m));
	m.name = "unpark";
	CHECK(!waiting_known(&m));
	m.klass = "java/lang/ObjectX";
	m.name = "wait";
	CHECK(!waiting_known(&m));
	/* Two clocks, wall primary: cpu 100 of wall 1000 is exactly 90 % off. */
	v.has_other = 1;
	v.primary = CG_USE_WALL;
	pm.incl_us = 1000;
	pm.o_incl_us = 100;
	CHECK(waiting_method(&v, &pm));
	pm.o_incl_us = 101;
	CHECK(!waiting_method(&v, &pm));
	/* cpu primary: the other clock is wall. */
	v.primary = CG_USE_CPU;
	pm.incl_us = 100;
	pm.o_incl_us = 1000;
	CHECK(waiting_method(&v, &pm));
	pm.o_incl_us = 0;
	CHECK(!waiting_method(&v, &pm));
	return 0;
}

/* Overloads are found by class and name, '/' and '.' alike. */
UNIT_TEST(graph_overload_labels)
{
	struct cg_symtab *st = symtab_create();
	unsigned char *over;
	struct strbuf sb;

	symtab_define_method(st, 0x4, "com/ex/P", "parse", "(Ljava/lang/String;)V", "", 0);
	symtab_define_method(st, 0x8, "com.ex.P", "parse", "(Ljava/lang/String;I)V", "", 0);
	symtab_define_method(st, 0xc, "com/ex/P", "other", "()V", "", 0);
	symtab_define_method(st, 0x10, "com/ex/Q", "parse", "()V", "", 0);
	over = javaname_overloads(st);
	CHECK_EQ_U64(over[0], 1);
	CHECK_EQ_U64(over[1], 1);
	CHECK_EQ_U64(over[2], 0);
	CHECK_EQ_U64(over[3], 0);
	strbuf_init(&sb);
	javaname_put_label(&sb, symtab_method(st, 1), JN_SHORT, over[1]);
	CHECK_EQ_STR(sb.data, "c.e.P.parse(String, int)");
	strbuf_reset(&sb);
	javaname_put_label(&sb, symtab_method(st, 3), 0, over[3]);
	CHECK_EQ_STR(sb.data, "com.ex.Q.parse");
	strbuf_free(&sb);
	free(over);
	symtab_free(st);
	return 0;
}

/* Selections as users type them. */
UNIT_TEST(graph_selection_patterns)
{
	CHECK(profile_pattern_match("LayoutInflater.inflate", "android.view.LayoutInflater.inflate"));
	CHECK(profile_pattern_match("inflate", "android.view.LayoutInflater.inflate"));
	CHECK(profile_pattern_match("*.Debug.*", "android.os.Debug.startMethodTracing"));
	CHECK(!profile_pattern_match("Inflater.inflate", "android.view.LayoutInflater.inflate"));
	CHECK(!profile_pattern_match("inflat", "android.view.LayoutInflater.inflate"));
	CHECK(profile_thread_match("main", 4242, "thread 4242", 4242, 0));
	return 0;
}

/* fnmatch on the name from each place where a part starts (its start, or
 * just after a dot): the reference the plain-name shortcut must agree with. */
static int glob_any_part(const char *pat, const char *name)
{
	size_t i, n = strlen(name);
	int hit = 0;

	for (i = 0; i <= n && !hit; i++)
		if (i == 0 || name[i - 1] == '.')
			hit = fnmatch(pat, name + i, 0) == 0;
	return hit;
}

/* Plain names (no *, ?, [ or backslash) match as fnmatch would match them,
 * dots, ends and empty strings included. */
UNIT_TEST(graph_selection_plain_names_as_fnmatch)
{
	static const char *const pats[] = {
		"Choreographer.doFrame", "doFrame", "Frame", "d", "", ".", "..", "a.b", "b",
		"android.view.Choreographer.doFrame", "x.android.view.Choreographer.doFrame",
		"Choreographer.doFrame.", "oreographer.doFrame", "é.m", "a\\.b", "\\d", NULL,
	};
	static const char *const names[] = {
		"android.view.Choreographer.doFrame", "Choreographer.doFrame", "doFrame",
		"android.view.Choreographer.doFrameX", "android.view.XChoreographer.doFrame",
		"", ".", "a..b", "a.b", "b", "a.", ".b", "x.é.m", "d", NULL,
	};
	size_t i, j;

	for (i = 0; pats[i]; i++)
		for (j = 0; names[j]; j++) {
			int want = glob_any_part(pats[i], names[j]);

			if (profile_pattern_match(pats[i], names[j]) != want) {
				fprintf(stderr, "pattern \"%s\" on \"%s\": want %d\n", pats[i], names[j],
					want);
				return 1;
			}
		}
	CHECK(profile_pattern_match("Choreographer.doFrame", "android.view.Choreographer.doFrame"));
	CHECK(!profile_pattern_match("oreographer.doFrame", "android.view.Choreographer.doFrame"));
	CHECK(profile_pattern_match("", "a."));
	CHECK(!profile_pattern_match("", "a"));
	/* A backslash escapes: "a\\.b" is the name "a.b". */
	CHECK(profile_pattern_match("a\\.b", "x.a.b"));
	CHECK(!profile_thread_match("main", 4242, "thread 4242", 4242, 1));
	CHECK(!profile_thread_match("main", 4243, "thread 4243", 4242, 0));
	CHECK(profile_thread_match("12", 12, "Binder", -1, 0));
	CHECK(profile_thread_match("Binder", 12, "Binder", -1, 0));
	return 0;
}

/* A drawing that is nothing, or a PNG of an absurd size, is an error. */
UNIT_TEST(graph_render_check)
{
	/* PNG signature, IHDR length and type, width, height. */
	unsigned char png[24] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
				  'I', 'H', 'D', 'R', 0, 0, 0x0f, 0x60, 0, 0, 0x01, 0x2c };
	struct cg_error err = { { 0 }, 0, 0 };

	CHECK(render_graph_check("png", png, sizeof(png), &err) == 0); /* 3936 x 300 */
	CHECK(render_graph_check("svg", "<svg/>", 6, &err) == 0);
	CHECK(render_graph_check("svg", "", 0, &err) == -1);
	CHECK_EQ_STR(err.msg, "cannot render the graph as svg: Graphviz wrote nothing");
	CHECK(render_graph_check("png", png, 20, &err) == -1);
	CHECK_EQ_STR(err.msg, "cannot render the graph as png: Graphviz wrote no PNG image");
	png[16] = 0, png[17] = 0, png[18] = 0x7f, png[19] = 0xff; /* 32767 wide */
	png[20] = 0, png[21] = 0, png[22] = 0, png[23] = 1;       /* 1 high */
	CHECK(render_graph_check("png", png, sizeof(png), &err) == -1);
	CHECK_EQ_STR(err.msg, "cannot render the graph as png: Graphviz drew 32767 x 1 pixels");
	png[18] = 0x20, png[19] = 0x00, png[22] = 0x20, png[23] = 0x00; /* 8192 x 8192 */
	CHECK(render_graph_check("png", png, sizeof(png), &err) == 0);
	png[19] = 0x01;                                                 /* 8193 wide */
	CHECK(render_graph_check("png", png, sizeof(png), &err) == -1);
	return 0;
}

/* Labels keep GV_LABEL_MAX characters: the first 60 and the last 59 around
 * an ellipsis; shorter names (and every byte of a multi-byte character)
 * are kept whole, and escaping comes after the cut. */
UNIT_TEST(graph_label_truncated)
{
	struct strbuf sb, tmp;
	char name[301];
	size_t i;

	strbuf_init(&sb);
	strbuf_init(&tmp);
	for (i = 0; i < 300; i++)
		name[i] = (char)('a' + i % 26);
	name[300] = '\0';
	name[120] = '\0';  /* exactly GV_LABEL_MAX characters: kept */
	gv_text_put_label(&sb, &tmp, name);
	CHECK_EQ_U64(sb.len, 120);
	name[120] = 'q';
	strbuf_reset(&sb);
	gv_text_put_label(&sb, &tmp, name);  /* 300: cut */
	CHECK_EQ_U64(sb.len, 60 + 3 + 59);
	CHECK(memcmp(sb.data, name, 60) == 0);
	CHECK(memcmp(sb.data + 60, "\xe2\x80\xa6", 3) == 0);
	CHECK(memcmp(sb.data + 63, name + 300 - 59, 59) == 0);
	/* 200 two-byte characters and a backslash: cut by characters, then
	 * escaped. */
	strbuf_reset(&tmp);
	for (i = 0; i < 200; i++)
		strbuf_puts(&tmp, "\xc3\xa9");
	strbuf_puts(&tmp, "\\");
	strbuf_reset(&sb);
	{
		char *s = strbuf_detach(&tmp, NULL);

		strbuf_init(&tmp);
		gv_text_put_label(&sb, &tmp, s);
		free(s);
	}
	CHECK_EQ_U64(sb.len, 60 * 2 + 3 + 58 * 2 + 2);
	CHECK(memcmp(sb.data + sb.len - 2, "\\\\", 2) == 0);
	strbuf_free(&sb);
	strbuf_free(&tmp);
	return 0;
}

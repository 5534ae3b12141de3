/* fuzz_target.c - libFuzzer entry point: the whole pipeline on one input.
 *
 * bytes -> source_open_mem -> trace_open -> trace_next/profile_add (with the
 * calling-context tree, timeline and event-log observers, one input in three
 * through observe_async on a second thread, and the -o dump) ->
 * profile_finish -> views -> filter_prune -> every in-memory renderer ->
 * free.  Built two ways: with clang -fsanitize=fuzzer by
 * tests/fuzz/run.sh, and with gcc plus tests/fuzz/replay_main.c as
 * build/fuzz_replay, which `make test` runs over corpus/ and crashes/.
 *
 * The input's last OPT_BYTES bytes also pick command-line words from a
 * table (options, their arguments and bad values), parsed by cli_parse as
 * main does; a valid set shapes the run (clock, threads, focus, hide,
 * threshold, node cap, short names, --range FROM:TO through the window
 * stage, --frames and its observer, which JSON and text then render), and -d (or one input in eight)
 * compares the trace with itself read on the other clock, without focus
 * or hide, through diff_create and both diff renderers.  Some inputs
 * build views without edges or without views of single threads, as main
 * does for outputs that need none.  Every input without filters is also
 * replayed in 2 to 8 ranges as -j does (replay_split), whose JSON must be
 * that of the replay in order, or its error the same: abort() otherwise.  One input in sixteen writes its text profile through output_open/write/commit into
 * a scratch directory.
 *
 * An input that starts with "MAP\n" holds an R8/ProGuard mapping file, up
 * to its first NUL byte, and the trace after it: the mapping is read by
 * mapping_open_mem, asked for the original of every pair of names it
 * writes after " -> " (with a few descriptors), and the trace read through
 * it (trace_open_renamed), as --mapping does.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/cct.h"
#include "model/cct_sums.h"
#include "model/observe_async.h"
#include "cli/cli.h"
#include "model/diff.h"
#include "render/text/dump.h"
#include "model/events.h"
#include "model/filter.h"
#include "model/frames.h"
#include "model/profile.h"
#include "cli/output.h"
#include "cli/replay.h"
#include "render/text/render_diff.h"
#include "render/export/render_callgrind.h"
#include "render/export/render_chrome.h"
#include "render/export/render_folded.h"
#include "render/graph/render_gv.h"
#include "render/report/render_html.h"
#include "render/text/render_json.h"
#include "render/export/render_pprof.h"
#include "render/export/render_speedscope.h"
#include "render/text/render_text.h"
#include "render/report.h"
#include "read/mapping.h"
#include "read/source.h"
#include "util/strbuf.h"
#include "model/timeline.h"
#include "model/window.h"
#include "read/trace.h"

/* Keep one input cheap: a gzip input may inflate to at most this many bytes
 * (the real limit is the bomb check in source.c), the dot source is built
 * only for views up to 200 methods, and the HTML report, whose inline SVG
 * is laid out by Graphviz (dense graphs take seconds), only for small views. */
#define FUZZ_MAX_INFLATED (16u << 20)
#define FUZZ_MAX_GRAPH_METHODS 200
#define FUZZ_MAX_HTML_METHODS 24
#define FUZZ_MAX_HTML_EDGES 48
#define FUZZ_BATCH 257

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render_all(struct cg_report *r)
{
	const struct cg_renderer *rds[] = {
		&render_text, &render_json, &render_folded, &render_pprof, &render_speedscope,
		&render_chrome, &render_callgrind, &render_html,
	};
	const struct cg_view *all = profile_view(r->profile, -1);
	struct strbuf sb;
	size_t i;

	strbuf_init(&sb);
	for (i = 0; i < sizeof(rds) / sizeof(rds[0]); i++) {
		struct cg_error err = { { 0 }, 0, 0 };

		if (i >= 7 && (!all || all->nmethods > FUZZ_MAX_HTML_METHODS ||
			       all->nedges > FUZZ_MAX_HTML_EDGES))
			continue;
		(void)rds[i]->render(r, &sb, &err);
		strbuf_reset(&sb);
	}
	if (all && all->nmethods <= FUZZ_MAX_GRAPH_METHODS) {
		struct cg_error err = { { 0 }, 0, 0 };

		(void)render_graph(r, all, "dot", &sb, &err);
	}
	strbuf_free(&sb);
}

static void prune_views(struct cg_profile *p)
{
	size_t i, n = profile_thread_count(p);

	for (i = 0; i <= n && i < 4; i++) {
		const struct cg_view *v = profile_view(p, i == 0 ? -1 : (int)i - 1);
		struct cg_graph_sel sel;
		struct cg_error err = { { 0 }, 0, 0 };

		if (!v)
			continue;
		if (filter_prune(v, i == 1 ? 0.0 : 20.0, i == 2 ? 3 : CG_DEFAULT_MAX_NODES, &sel,
				 &err) == 0)
			filter_sel_free(&sel);
	}
}

/* Command-line words for cli_parse: options, arguments and wrong values. */
static const char *const words[] = {
	"-g", "x.dot", "-T", "dot", "gv", "svg", "-k", "-t", "0", "5", "100", "-1", "abc",
	"-h", "--html", "x.html", "-o", "-d", "base.trace", "--json", "-", "x.json",
	"--folded", "x.folded", "--clock", "wall", "cpu", "--thread", "1", "main",
	"--max-nodes", "3", "1000000", "--focus", "*.*", "a*", "--hide", "*run*",
	"--short-names", "-q", "--bogus", "-Z", "--thread=2", "--focus=", "-t5", "1e999",
	"--clock=bogus", "--max-nodes=0", "2.5", "--version", "--help",
	"--range", "0.01:0.2", ":0.05", "0.1:", "--range=frame:1", "--frames", "--frames=*.m*",
	"--range=0.002:0.002", "--range=5:3",
};
#define NWORDS (sizeof(words) / sizeof(words[0]))
#define OPT_BYTES 10

struct loaded {
	struct cg_source *src;
	struct cg_trace *t;
	struct cg_profile *p;
	struct cg_cct *cct;
	struct cg_timeline *tl;
	struct cg_events *ev;
	struct cg_observe_async *as;
	struct cg_window *w;
	struct cg_frames *fr;
};

static void loaded_free(struct loaded *L)
{
	observe_async_free(L->as);
	window_free(L->w);
	frames_free(L->fr);
	timeline_free(L->tl);
	events_free(L->ev);
	cct_free(L->cct);
	profile_free(L->p);
	trace_free(L->t);
	source_free(L->src);
	memset(L, 0, sizeof(*L));
}

/* Read the input with po into L (observers always, the dump when asked).
 * Returns 0, or -1 when the input is rejected. */
static int load(const uint8_t *data, size_t size, struct cg_mapping *map,
		const struct cg_profile_opts *po, int dump_it, const struct cg_opts *o,
		struct loaded *L)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_dump *dump = NULL;
	struct cg_observer to_cct, to_timeline, to_events, to_async, to_frames;
	struct cg_record recs[FUZZ_BATCH];
	FILE *devnull = NULL;
	size_t n;
	int rc;

	memset(L, 0, sizeof(*L));
	L->src = source_open_mem(data, size);
	source_set_limit(L->src, FUZZ_MAX_INFLATED);
	L->t = map ? trace_open_renamed(L->src, mapping_rename, map, &err) : trace_open(L->src, &err);
	if (!L->t)
		return -1;
	L->p = profile_create(trace_symtab(L->t), po);
	/* As main does for --folded and the HTML report: the timeline observer
	 * in front of the calling-context tree's. */
	L->cct = cct_create();
	L->tl = timeline_create();
	cct_observer(L->cct, &to_cct);
	timeline_observer(L->tl, &to_cct, &to_timeline);
	/* ... and the event log of --speedscope / --chrome-trace in front. */
	L->ev = events_create();
	/* Inputs of odd length keep no event in memory: every block goes
	 * through the temporary file. */
	if (size & 1)
		events_set_budget(L->ev, 0);
	events_observer(L->ev, &to_timeline, &to_events);
	/* One input in three: the observers on a thread of their own, as
	 * from -j 2. */
	if (size % 3 == 0) {
		L->as = observe_async_create(&to_events);
		observe_async_observer(L->as, &to_async);
		profile_set_observer(L->p, &to_async);
	} else {
		profile_set_observer(L->p, &to_events);
	}
	/* --frames (or one input in five): the frames observer in front. */
	if (o->frames || size % 5 == 1) {
		L->fr = frames_create(trace_symtab(L->t), o->frame_pattern);
		frames_observer(L->fr, L->as ? &to_async : &to_events, &to_frames);
		profile_set_observer(L->p, &to_frames);
	}
	if (o->range_text && !o->range_frame)
		L->w = window_create(&o->range);
	if (dump_it && (devnull = fopen("/dev/null", "w")) != NULL) {
		dump = dump_create(devnull);
		dump_header(dump, "fuzz", trace_info(L->t), trace_symtab(L->t));
	}
	do {
		const struct cg_record *rs = recs;

		rc = trace_next(L->t, recs, FUZZ_BATCH, &n, &err);
		if (L->w)
			n = window_add(L->w, recs, n, &rs);
		if (dump)
			dump_records(dump, trace_symtab(L->t), rs, n);
		if (profile_add(L->p, rs, n, &err) < 0)
			rc = -1;
	} while (rc == 1);
	if (rc >= 0) {
		if (L->w) {
			const struct cg_window_thread *mt;
			size_t k, nm = window_made(L->w, &mt);

			for (k = 0; k < nm; k++)
				profile_discount(L->p, mt[k].tid, mt[k].made);
		}
		profile_finish(L->p, trace_info(L->t));
		if (L->fr)
			frames_finish(L->fr, L->p);
		timeline_finish(L->tl, L->p);
		if (dump)
			dump_footer(dump, trace_info(L->t), trace_symtab(L->t));
	}
	dump_free(dump);
	if (devnull)
		fclose(devnull);
	return rc < 0 ? -1 : 0;
}

static void report_fill(struct cg_report *r, const struct loaded *L, const struct cg_opts *o,
			enum cg_clock_sel clock);

/* A global profile's correction pass (profile.h): the records up to the
 * last exit on an empty stack, read again from the start.  0, or -1 with
 * err filled. */
static int correct_again(const uint8_t *data, size_t size, struct cg_mapping *map,
			 struct cg_profile *p, struct cg_error *err)
{
	struct cg_record recs[FUZZ_BATCH];
	uint64_t again = profile_correct_count(p), given = 0;
	struct cg_source *src;
	struct cg_trace *t;
	size_t n;
	int rc = 1;

	if (!again)
		return 0;
	src = source_open_mem(data, size);
	if (source_kind(src) == 1)
		source_set_limit(src, FUZZ_MAX_INFLATED);
	t = map ? trace_open_renamed(src, mapping_rename, map, err) : trace_open(src, err);
	while (t && rc == 1 && given < again) {
		rc = trace_next(t, recs, FUZZ_BATCH, &n, err);
		if (n > again - given)
			n = (size_t)(again - given);
		if (profile_correct_add(p, recs, n, err) < 0)
			rc = -1;
		given += n;
	}
	if (t && rc >= 0)
		profile_correct_end(p);
	trace_free(t);
	source_free(src);
	return t && rc >= 0 ? 0 : -1;
}

static int load_tree(const uint8_t *data, size_t size, struct cg_mapping *map,
		     const struct cg_profile_opts *po, unsigned ranges, int tree, struct loaded *L,
		     struct cg_error *err);

/* Read the input with po, no observer, in order (ranges < 2) or cut into
 * ranges as -j does.  Returns 0, or -1 with err filled. */
static int load_plain(const uint8_t *data, size_t size, struct cg_mapping *map,
		      const struct cg_profile_opts *po, unsigned ranges, struct loaded *L,
		      struct cg_error *err)
{
	return load_tree(data, size, map, po, ranges, 0, L, err);
}

/* load_plain, and with tree the calling-context tree's observer, the tree
 * in L->cct (built range by range and summed, as -j does, when the input
 * is cut into ranges with global tables). */
static int load_tree(const uint8_t *data, size_t size, struct cg_mapping *map,
		     const struct cg_profile_opts *po, unsigned ranges, int tree, struct loaded *L,
		     struct cg_error *err)
{
	struct cg_observer oc;
	struct cg_record recs[FUZZ_BATCH];
	uint64_t first, count;
	size_t n;
	int rc, failed = 0;

	memset(L, 0, sizeof(*L));
	L->src = source_open_mem(data, size);
	if (source_kind(L->src) == 1)
		source_set_limit(L->src, FUZZ_MAX_INFLATED);
	L->t = map ? trace_open_renamed(L->src, mapping_rename, map, err) : trace_open(L->src, err);
	if (!L->t)
		return -1;
	if (ranges >= 2 && (!tree || po->global) && trace_span(L->t, &first, &count) &&
	    count >= 2) {
		if (tree)
			L->cct = cct_create();
		L->p = replay_split(L->t, po, L->cct, count,
				    count < ranges ? (unsigned)count : ranges, NULL, &failed, err);
		if (failed)
			return -1;
		if (!L->p) {
			cct_free(L->cct);
			L->cct = NULL;
		}
	}
	if (!L->p)
		L->p = profile_create(trace_symtab(L->t), po);
	if (tree) {
		if (!L->cct)
			L->cct = cct_create();
		cct_observer(L->cct, &oc);
		profile_set_observer(L->p, &oc);
	}
	do {
		rc = trace_next(L->t, recs, FUZZ_BATCH, &n, err);
		if (profile_add(L->p, recs, n, err) < 0)
			rc = -1;
	} while (rc == 1);
	if (rc < 0)
		return -1;
	if (po->global && correct_again(data, size, map, L->p, err) < 0)
		return -1;
	profile_finish(L->p, trace_info(L->t));
	return 0;
}

/* The input read with po in `ranges` gives the JSON of A, read in order
 * with per-thread tables, or its error (ra, ea); abort() otherwise. */
static void check_same(const uint8_t *data, size_t size, struct cg_mapping *map,
		       const struct cg_profile_opts *po, unsigned ranges, const struct cg_opts *o,
		       const struct loaded *A, int ra, const struct cg_error *ea)
{
	const char *what = po->global ? "global tables" : "split";
	struct cg_error eb = { { 0 }, 0, 0 };
	struct loaded B;
	int rb = load_plain(data, size, map, po, ranges, &B, &eb);

	if (ra != rb || (ra < 0 && (strcmp(ea->msg, eb.msg) != 0 || ea->offset != eb.offset))) {
		fprintf(stderr, "%s: %d '%s' @%llu, in order: %d '%s' @%llu\n", what, rb, eb.msg,
			(unsigned long long)eb.offset, ra, ea->msg, (unsigned long long)ea->offset);
		abort();
	}
	if (ra == 0) {
		struct cg_report r;
		struct strbuf ja, jb;
		struct cg_error err = { { 0 }, 0, 0 };

		strbuf_init(&ja);
		strbuf_init(&jb);
		report_fill(&r, A, o, po->clock);
		(void)render_json.render(&r, &ja, &err);
		report_fill(&r, &B, o, po->clock);
		(void)render_json.render(&r, &jb, &err);
		if (ja.len != jb.len || (ja.len && memcmp(ja.data, jb.data, ja.len) != 0)) {
			fprintf(stderr, "%s: the JSON differs from the replay in order\n", what);
			abort();
		}
		strbuf_free(&ja);
		strbuf_free(&jb);
	}
	loaded_free(&B);
}

/* The view of thread i (-1: all threads) and its busiest and waiting
 * methods are the same in a and b; else the first difference, printed. */
static int thread_view_differs(struct cg_profile *a, struct cg_profile *b, int i)
{
	const struct cg_view *va = profile_view(a, i), *vb = profile_view(b, i);
	size_t k;

	if (va->nmethods != vb->nmethods || va->nedges != vb->nedges || va->total_us != vb->total_us) {
		fprintf(stderr, "thread %d: %zu/%zu methods, %zu/%zu edges\n", i, va->nmethods,
			vb->nmethods, va->nedges, vb->nedges);
		return 1;
	}
	for (k = 0; k < va->nmethods; k++) {
		const struct cg_pmethod *x = &va->methods[k], *y = &vb->methods[k];

		if (x->index != y->index || x->incl_us != y->incl_us || x->excl_us != y->excl_us ||
		    x->calls != y->calls || x->rec_calls != y->rec_calls ||
		    x->o_incl_us != y->o_incl_us || x->o_excl_us != y->o_excl_us) {
			fprintf(stderr, "thread %d: method %zu differs\n", i, k);
			return 1;
		}
	}
	for (k = 0; k < va->nedges; k++) {
		const struct cg_pedge *x = &va->edges[k], *y = &vb->edges[k];

		if (x->caller != y->caller || x->callee != y->callee || x->from_root != y->from_root ||
		    x->calls != y->calls || x->incl_us != y->incl_us || x->o_incl_us != y->o_incl_us) {
			fprintf(stderr, "thread %d: edge %zu differs\n", i, k);
			return 1;
		}
	}
	if (i >= 0 && (va->threads[0].busy_excl_us != vb->threads[0].busy_excl_us ||
		       va->threads[0].wait_incl_us != vb->threads[0].wait_incl_us)) {
		fprintf(stderr, "thread %d: busy or waiting method differs\n", i);
		return 1;
	}
	return 0;
}

/* One table for all threads, with the calling-context tree as the source of
 * each thread's own sums (as the HTML report reads them), gives every thread
 * the view of per-thread tables, or their error; abort() otherwise.  Both
 * keep every view (po's no_views, no_edges and no_thread_views aside). */
static void check_thread_views(const uint8_t *data, size_t size, struct cg_mapping *map,
			       const struct cg_profile_opts *po)
{
	struct cg_error ea = { { 0 }, 0, 0 }, eb = { { 0 }, 0, 0 };
	struct cg_profile_opts to = *po, go;
	struct cg_cct_sums *sums;
	struct loaded A, B;
	int i, n, ra;

	to.no_views = to.no_edges = to.no_thread_views = 0;
	go = to;
	go.global = 1;
	ra = load_plain(data, size, map, &to, 1, &A, &ea);
	if (load_tree(data, size, map, &go, 1, 1, &B, &eb) != ra) {
		fprintf(stderr, "global tables with the tree: %s\n", ra ? eb.msg : ea.msg);
		abort();
	}
	if (ra == 0) {
		sums = cct_sums_create(B.cct, symtab_method_count(trace_symtab(B.t)));
		profile_set_thread_sums(B.p, cct_sums_thread, sums, NULL);
		n = (int)profile_thread_count(A.p);
		if (n != (int)profile_thread_count(B.p))
			abort();
		for (i = -1; i < n; i++)
			if (thread_view_differs(A.p, B.p, i))
				abort();
		cct_sums_free(sums);
	}
	loaded_free(&A);
	loaded_free(&B);
}

/* The trees a and b are the same, node for node and root for root. */
static int trees_differ(const struct loaded *a, const struct loaded *b)
{
	size_t n = cct_node_count(a->cct), i;

	if (n != cct_node_count(b->cct)) {
		fprintf(stderr, "%zu/%zu nodes\n", n, cct_node_count(b->cct));
		return 1;
	}
	for (i = 0; i < n; i++)
		if (memcmp(cct_node(a->cct, (uint32_t)i), cct_node(b->cct, (uint32_t)i),
			   sizeof(struct cg_cct_node)) != 0) {
			fprintf(stderr, "node %zu differs\n", i);
			return 1;
		}
	for (i = 0; i < profile_thread_count(a->p); i++)
		if (cct_root(a->cct, (uint32_t)i) != cct_root(b->cct, (uint32_t)i)) {
			fprintf(stderr, "root %zu differs\n", i);
			return 1;
		}
	return 0;
}

/* The calling-context tree built in ranges and summed is the tree of the
 * replay in order, node for node, or the input gives the same error;
 * abort() otherwise. */
static void check_tree_ranges(const uint8_t *data, size_t size, struct cg_mapping *map,
			      const struct cg_profile_opts *po, unsigned ranges)
{
	struct cg_error ea = { { 0 }, 0, 0 }, eb = { { 0 }, 0, 0 };
	struct cg_profile_opts go = *po;
	struct loaded A, B;
	int ra;

	go.global = 1;
	ra = load_tree(data, size, map, &go, 1, 1, &A, &ea);
	if (load_tree(data, size, map, &go, ranges, 1, &B, &eb) != ra) {
		fprintf(stderr, "tree in ranges: %s\n", ra ? ea.msg : eb.msg);
		abort();
	}
	if (ra == 0 && trees_differ(&A, &B)) {
		fprintf(stderr, "tree in ranges: differs from the tree in order\n");
		abort();
	}
	loaded_free(&A);
	loaded_free(&B);
}

/* The threads, warnings and statistics of a and b are the same; else the
 * first difference, printed. */
static int threads_differ(const struct cg_profile *a, const struct cg_profile *b)
{
	const struct cg_pthread *ta = profile_threads(a), *tb = profile_threads(b);
	const struct cg_profile_stats *sa = profile_stats(a), *sb = profile_stats(b);
	const struct cg_warning *wa, *wb;
	size_t n = profile_thread_count(a), nw = profile_warnings(a, &wa), i;

	if (n != profile_thread_count(b) || nw != profile_warnings(b, &wb)) {
		fprintf(stderr, "%zu/%zu threads, %zu warnings\n", n, profile_thread_count(b), nw);
		return 1;
	}
	for (i = 0; i < n; i++)
		if (ta[i].tid != tb[i].tid || ta[i].records != tb[i].records ||
		    ta[i].incl_us != tb[i].incl_us || ta[i].excl_us != tb[i].excl_us ||
		    ta[i].first_us != tb[i].first_us || ta[i].last_us != tb[i].last_us ||
		    ta[i].other_us != tb[i].other_us || ta[i].o_excl_us != tb[i].o_excl_us ||
		    ta[i].max_depth != tb[i].max_depth) {
			fprintf(stderr, "thread %zu differs: excl %llu/%llu\n", i,
				(unsigned long long)ta[i].excl_us, (unsigned long long)tb[i].excl_us);
			return 1;
		}
	for (i = 0; i < nw; i++)
		if (wa[i].kind != wb[i].kind || wa[i].count != wb[i].count) {
			fprintf(stderr, "warning %zu differs\n", i);
			return 1;
		}
	if (memcmp(sa, sb, sizeof(*sa)) != 0) {
		fprintf(stderr, "statistics differ\n");
		return 1;
	}
	return 0;
}

/* A global profile that keeps no tables (no view will be asked for, as
 * for folded stacks and pprof), with the tree, in order and in ranges,
 * gives the threads, warnings, statistics and tree of global tables in
 * order, or the same error, and in ranges without a tree the same
 * threads, warnings and statistics; abort() otherwise. */
static void check_bare(const uint8_t *data, size_t size, struct cg_mapping *map,
		       const struct cg_profile_opts *po, unsigned ranges)
{
	struct cg_error ea = { { 0 }, 0, 0 }, eb = { { 0 }, 0, 0 };
	struct cg_profile_opts go = *po, bo;
	struct loaded A, B;
	unsigned k;
	int ra, rb;

	go.global = 1;
	go.no_views = 0;
	bo = go;
	bo.no_views = 1;
	ra = load_tree(data, size, map, &go, 1, 1, &A, &ea);
	for (k = 1; k <= ranges; k += ranges - 1) {
		rb = load_tree(data, size, map, &bo, k, 1, &B, &eb);
		if (ra != rb || (ra < 0 && (strcmp(ea.msg, eb.msg) != 0 || ea.offset != eb.offset))) {
			fprintf(stderr, "no tables, %u ranges: %d '%s', tables: %d '%s'\n", k, rb,
				eb.msg, ra, ea.msg);
			abort();
		}
		if (ra == 0 && (threads_differ(A.p, B.p) || trees_differ(&A, &B))) {
			fprintf(stderr, "no tables, %u ranges: differs from the tables\n", k);
			abort();
		}
		loaded_free(&B);
		if (ranges < 2)
			break;
	}
	/* Without a tree, a later range's frame entered before tracing is
	 * summed with the ranges before it (profile_merge) instead of ending
	 * the cutting: the threads still agree. */
	rb = load_plain(data, size, map, &bo, ranges, &B, &eb);
	if (ra != rb || (ra == 0 && threads_differ(A.p, B.p))) {
		fprintf(stderr, "no tables, no tree, %u ranges: differs from the tables\n", ranges);
		abort();
	}
	loaded_free(&B);
	loaded_free(&A);
}

/* Replaying in ranges gives the JSON of the replay in order, or the same
 * error, and so does one table for all threads (in order, or in ranges one
 * input in two); abort() otherwise, for the fuzzer to keep the input. */
static void check_split(const uint8_t *data, size_t size, struct cg_mapping *map,
			const struct cg_profile_opts *po, const struct cg_opts *o)
{
	struct cg_error ea = { { 0 }, 0, 0 };
	struct cg_profile_opts go = *po;
	struct loaded A;
	int ra = load_plain(data, size, map, po, 1, &A, &ea);

	check_same(data, size, map, po, 2 + (unsigned)(size % 7), o, &A, ra, &ea);
	go.global = 1;
	check_same(data, size, map, &go, size % 2 ? 1 : 2 + (unsigned)(size % 5), o, &A, ra, &ea);
	check_thread_views(data, size, map, po);
	check_tree_ranges(data, size, map, po, 2 + (unsigned)(size % 3));
	check_bare(data, size, map, po, 2 + (unsigned)(size % 4));
	loaded_free(&A);
}

static void report_fill(struct cg_report *r, const struct loaded *L, const struct cg_opts *o,
			enum cg_clock_sel clock)
{
	memset(r, 0, sizeof(*r));
	r->file = "fuzz.trace";
	r->info = trace_info(L->t);
	r->profile = L->p;
	r->st = trace_symtab(L->t);
	r->clock = clock;
	r->threshold = o->threshold;
	r->max_nodes = o->max_nodes;
	r->short_names = o->short_names;
	r->cct = L->cct;
	r->timeline = L->tl;
	r->events = L->ev;
	r->slash_names = o->slash_names || (r->info->records & 1);
	r->frames = L->fr;
	r->frames_section = o->frames || (r->info->records & 2);
	if (L->w && window_cuts(L->w)) {
		r->has_range = 1;
		r->range_from_us = o->range.from_us;
		r->range_to_us = o->range.to_us;
		r->range_kept = window_kept(L->w);
		r->origin = window_origin(L->w);
	}
}

/* The options the input's tail picks; defaults when they do not parse. */
static void pick_options(const uint8_t *data, size_t size, struct cg_opts *o, char **argv)
{
	int argc = 0, rc;
	size_t i;

	argv[argc++] = "callgraph";
	if (size >= 4 * OPT_BYTES)
		for (i = size - OPT_BYTES; i < size; i++)
			if (data[i] % 4 != 0) /* a quarter of the bytes pick nothing */
				argv[argc++] = (char *)words[data[i] % NWORDS];
	argv[argc++] = "fuzz.trace";
	argv[argc] = NULL;
	rc = cli_parse(argc, argv, o);
	if (rc != CLI_OK) {
		if (rc == CLI_EXIT_OK)
			cli_free(o);
		memset(o, 0, sizeof(*o));
		o->threshold = 20.0;
		o->max_nodes = CG_DEFAULT_MAX_NODES;
		o->clock = CG_USE_WALL;
	}
}

static void write_through_output(const struct cg_report *r)
{
	char dir[] = "/tmp/cgfuzzXXXXXX", path[64];
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_staged *s;
	struct strbuf sb;

	if (!mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	strbuf_init(&sb);
	(void)render_text.render(r, &sb, &err);
	s = output_open(path, &err);
	if (s && output_write(s, sb.data ? sb.data : "", sb.len, &err) != 0) {
		output_abort(s);
		s = NULL;
	}
	if (s && output_commit(s, &err) == 0)
		(void)output_same_file(path, dir);
	unlink(path);
	rmdir(dir);
	strbuf_free(&sb);
}

/* The names a mapping writes after " -> ", at most max of them. */
static size_t arrow_names(const uint8_t *m, size_t n, char names[][64], size_t max)
{
	size_t i, k = 0, j;

	for (i = 0; i + 4 < n && k < max; i++) {
		if (memcmp(m + i, " -> ", 4) != 0)
			continue;
		for (j = 0; j < 63 && i + 4 + j < n && m[i + 4 + j] != '\n' && m[i + 4 + j] != ':' &&
			    m[i + 4 + j] != '\r' && m[i + 4 + j] != 0; j++)
			names[k][j] = (char)m[i + 4 + j];
		names[k++][j] = '\0';
	}
	return k;
}

/* The mapping of a "MAP\n" input: read, and asked for the original of
 * each pair of its names as class and method.  NULL when it is rejected;
 * *data and *size are moved past it to the trace. */
static struct cg_mapping *fuzz_mapping(const uint8_t **data, size_t *size)
{
	static const char *const sigs[] = { "", "()V", "(La;I)V", "([La/b;J)La;", "(L" };
	const uint8_t *m = *data + 4, *end = memchr(m, 0, *size - 4);
	size_t n = end ? (size_t)(end - m) : *size - 4, k, i, j;
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_mapping *map;
	struct cg_renamed out;
	char names[12][64];

	*data = end ? end + 1 : m + n;
	*size -= 4 + n + (end != NULL);
	map = mapping_open_mem(m, n, &err);
	if (!map)
		return NULL;
	k = arrow_names(m, n, names, 12);
	for (i = 0; i < k; i++)
		for (j = 0; j < k; j++)
			(void)mapping_rename(map, names[i], names[j], sigs[(i + j) % 5], "S.java", &out);
	return map;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_profile_opts po;
	struct cg_opts o;
	struct loaded L, B;
	char *argv[OPT_BYTES + 3];
	struct cg_mapping *map = NULL;

	if (size >= 4 && memcmp(data, "MAP\n", 4) == 0) {
		map = fuzz_mapping(&data, &size);
		if (!map)
			return 0;
	}
	memset(&B, 0, sizeof(B));
	pick_options(data, size, &o, argv);
	memset(&po, 0, sizeof(po));
	/* Vary the clock with the input too, so both clocks run without options. */
	po.clock = (size & 1) ? CG_USE_CPU : o.clock;
	po.threads = o.threads;
	po.focus = o.focus;
	po.hide = o.hide;
	/* As main does for outputs without them: views without edges, or
	 * without views of single threads (those asked for later are empty). */
	po.no_edges = size % 32 == 7;
	po.no_thread_views = size % 8 == 6;
	/* -j: the records cut into ranges give what the replay in order does
	 * (without the filters, which replay in order). */
	if (!(o.focus && o.focus[0]) && !(o.hide && o.hide[0]) && !(o.threads && o.threads[0]))
		check_split(data, size, map, &po, &o);
	if (load(data, size, map, &po, o.dump || size % 4 == 2, &o, &L) < 0)
		goto done;
	{
		struct cg_report r, rb;
		struct cg_diff *diff = NULL;

		report_fill(&r, &L, &o, po.clock);
		render_all(&r);
		if (o.diff_base || size % 8 == 5) {
			struct cg_profile_opts bo = po;
			struct strbuf sb;
			struct cg_error err = { { 0 }, 0, 0 };

			bo.clock = po.clock == CG_USE_CPU ? CG_USE_WALL : CG_USE_CPU;
			bo.focus = bo.hide = NULL;
			/* As main loads -d's base: methods only, all threads. */
			bo.no_edges = 1;
			bo.no_thread_views = 1;
			if (load(data, size, map, &bo, 0, &o, &B) == 0) {
				const struct cg_view *bv = profile_view(B.p, -1);
				struct cg_diff_run run;

				report_fill(&rb, &B, &o, bo.clock);
				diff_run_fill(&run, "base.trace", report_clock_name(&rb), bv);
				diff = diff_create(diff_base_create(bv, &run), profile_view(L.p, -1));
				r.diff = diff;
				strbuf_init(&sb);
				(void)render_diff_text(&r, &sb, &err);
				strbuf_reset(&sb);
				(void)render_diff_html(&r, &sb, &err);
				strbuf_free(&sb);
				r.diff = NULL;
				diff_free(diff);
			}
		}
		if (size % 16 == 3)
			write_through_output(&r);
	}
	prune_views(L.p);
done:
	loaded_free(&B);
	loaded_free(&L);
	mapping_free(map);
	cli_free(&o);
	return 0;
}

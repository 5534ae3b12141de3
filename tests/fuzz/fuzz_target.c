/* fuzz_target.c - libFuzzer entry point: the whole pipeline on one input.
 *
 * bytes -> source_open_mem -> trace_open -> trace_next/profile_add (with the
 * calling-context tree and timeline observers, and the -o dump) ->
 * profile_finish -> views -> filter_prune -> every in-memory renderer ->
 * free.  Built two ways: with clang -fsanitize=fuzzer by
 * tests/fuzz/run.sh, and with gcc plus tests/fuzz/replay_main.c as
 * build/fuzz_replay, which `make test` runs over corpus/ and crashes/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cct.h"
#include "dump.h"
#include "filter.h"
#include "profile.h"
#include "render_folded.h"
#include "render_gv.h"
#include "render_html.h"
#include "render_json.h"
#include "render_text.h"
#include "report.h"
#include "source.h"
#include "strbuf.h"
#include "timeline.h"
#include "trace.h"

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
		&render_text, &render_json, &render_folded, &render_html,
	};
	const struct cg_view *all = profile_view(r->profile, -1);
	struct strbuf sb;
	size_t i;

	strbuf_init(&sb);
	for (i = 0; i < sizeof(rds) / sizeof(rds[0]); i++) {
		struct cg_error err = { { 0 }, 0, 0 };

		if (i >= 3 && (!all || all->nmethods > FUZZ_MAX_HTML_METHODS ||
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_source *src = source_open_mem(data, size);
	struct cg_trace *t = NULL;
	struct cg_profile *p = NULL;
	struct cg_dump *dump = NULL;
	struct cg_cct *cct = NULL;
	struct cg_timeline *tl = NULL;
	struct cg_observer to_cct, to_timeline;
	struct cg_record recs[FUZZ_BATCH];
	struct cg_profile_opts po;
	FILE *devnull = NULL;
	size_t n;
	int rc;

	memset(&po, 0, sizeof(po));
	po.clock = CG_USE_WALL;
	source_set_limit(src, FUZZ_MAX_INFLATED);
	t = trace_open(src, &err);
	if (!t)
		goto done;
	/* Vary the options with the input so both clocks and the dump run. */
	if (size & 1)
		po.clock = CG_USE_CPU;
	p = profile_create(trace_symtab(t), &po);
	/* As main does for --folded and the HTML report: the timeline observer
	 * in front of the calling-context tree's. */
	cct = cct_create();
	tl = timeline_create();
	cct_observer(cct, &to_cct);
	timeline_observer(tl, &to_cct, &to_timeline);
	profile_set_observer(p, &to_timeline);
	if (size % 4 == 2 && (devnull = fopen("/dev/null", "w")) != NULL) {
		dump = dump_create(devnull);
		dump_header(dump, "fuzz", trace_info(t), trace_symtab(t));
	}
	do {
		rc = trace_next(t, recs, FUZZ_BATCH, &n, &err);
		if (dump)
			dump_records(dump, trace_symtab(t), recs, n);
		if (profile_add(p, recs, n, &err) < 0)
			rc = -1;
	} while (rc == 1);
	if (rc < 0)
		goto done;
	profile_finish(p, trace_info(t));
	timeline_finish(tl, p);
	if (dump)
		dump_footer(dump, trace_info(t), trace_symtab(t), trace_key_text(t));
	{
		struct cg_report r = { 0 };

		r.file = "fuzz.trace";
		r.info = trace_info(t);
		r.profile = p;
		r.st = trace_symtab(t);
		r.clock = po.clock;
		r.threshold = 20.0;
		r.max_nodes = CG_DEFAULT_MAX_NODES;
		r.cct = cct;
		r.timeline = tl;
		render_all(&r);
	}
	prune_views(p);
done:
	dump_free(dump);
	if (devnull)
		fclose(devnull);
	timeline_free(tl);
	cct_free(cct);
	profile_free(p);
	trace_free(t);
	source_free(src);
	return 0;
}

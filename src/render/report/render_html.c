/* render_html.c - the self-contained HTML report.
 *
 * One HTML5 file: summary (static markup), a thread selector, the call graph
 * as inline SVG per view, and the flat profile, which a small inline script
 * builds from a JSON block.  Per-view data as JSON rather than static tables:
 * for the largest corpus trace (about 4000 methods over 52 threads) static
 * rows for 53 views would repeat every method name once per view and its
 * parents and children markup once per method, several megabytes; the JSON
 * names each method once and gives each view flat integer arrays.  For that
 * trace the report is about 1.5 MB (300 KB gzipped): 0.75 MB of JSON, 0.75 MB
 * of SVG for all threads and the 8 busiest.  The script puts at most 300
 * rows in the document at a time (more on request): thousands of table rows
 * would take most of a second to lay out.
 *
 * The stylesheet and the scripts are src/render/report/assets/report.css, util.js and
 * report.js, embedded at build time.  The script reads the data with
 * JSON.parse and puts every trace-derived string into the page through
 * textContent, never as markup.
 *
 * Nothing in the output refers to the network: the SVG loses its XML prolog,
 * DOCTYPE, comments and xmlns attributes (HTML5 does not need them for inline
 * <svg>), and any "://" that trace-derived text could contain is written with
 * an escaped character, so the file holds no "http://" or "https://" at all.
 * Every trace-derived string is escaped: &<>"' as entities in markup, and in
 * the JSON block <, >, & as \u003c, \u003e, \u0026 so "</script>" in a method
 * name cannot end the block.  Invalid UTF-8 becomes U+FFFD.
 *
 * Output is deterministic: no dates, views and graphs in a fixed order.
 */
#include "render/report/render_html.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/report/html_parts.h"
#include "render/javaname.h"
#include "render/graph/render_gv.h"
#include "render/report/render_timeline.h"
#include "render/report/render_tree.h"
#include "render/report/render_window.h"
#include "model/timeline.h"

/* The stylesheet and the scripts: src/render/report/assets/report.css, util.js
 * and window.js (pure helpers and the replay of a window, in the head so every
 * later script can use them) and report.js. */
static const char report_css[] =
#include "report.css.inc"
;
static const char util_js[] =
#include "util.js.inc"
;
static const char window_js[] =
#include "window.js.inc"
;
static const char report_js[] =
#include "report.js.inc"
;




/* Doctype, head with the stylesheet, and the page heading (the trace's base
 * name; the full path is in the summary). */
static void put_head(const struct cg_report *r, struct strbuf *sb)
{
	const char *base = strrchr(r->file, '/');

	if (base && !base[1])
		base = NULL;
	strbuf_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			"<meta name=\"generator\" content=\"callgraph\">\n<title>callgraph: ");
	html_put_text(sb, r->file);
	strbuf_puts(sb, "</title>\n<style>\n");
	strbuf_puts(sb, report_css);
	strbuf_puts(sb, "</style>\n<script>\n");
	strbuf_puts(sb, util_js);
	strbuf_puts(sb, "</script>\n<script>\n");
	strbuf_puts(sb, window_js);
	strbuf_puts(sb, "</script>\n</head>\n<body>\n<header><h1>Call profile of ");
	html_put_text(sb, base ? base + 1 : r->file);
	strbuf_puts(sb, "</h1></header>\n");
}

/* The threads of the all-threads view as a static table, open when short. */
static void put_threads_table(const struct cg_view *all, const struct html_fold *F, struct strbuf *sb)
{
	char ms[32], pct[16];
	size_t i;

	strbuf_printf(sb, "<details class=\"threads\"%s><summary>%zu thread%s</summary>\n",
		      all->nthreads <= 8 ? " open" : "", all->nthreads, all->nthreads == 1 ? "" : "s");
	strbuf_puts(sb, "<table class=\"rel\"><thead><tr><th class=\"num\">tid</th><th>name</th>"
			"<th class=\"num\">records</th><th class=\"num\">incl ms</th>"
			"<th class=\"num\">%</th><th class=\"num\">excl ms</th></tr></thead><tbody>\n");
	for (i = 0; i < all->nthreads; i++) {
		const struct cg_pthread *t = &all->threads[i];

		if (!html_fold_listed(F, i))
			continue;
		strbuf_printf(sb, "<tr><td class=\"num\">%u</td><td>", t->tid);
		html_put_text(sb, t->name);
		strbuf_printf(sb, "</td><td class=\"num\">%" PRIu64 "</td><td class=\"num\">%s</td>",
			      t->records, fmt_ms(ms, t->incl_us));
		strbuf_printf(sb, "<td class=\"num\">%s</td>", fmt_pct(pct, t->incl_us, all->total_us));
		strbuf_printf(sb, "<td class=\"num\">%s</td></tr>\n", fmt_ms(ms, t->excl_us));
	}
	if (F->nfolded) {
		strbuf_printf(sb, "<tr class=\"folded\"><td class=\"num\"></td><td>%zu idle threads "
				  "(each under %g %% of the total, or past the %d busiest; folded)</td>"
				  "<td class=\"num\">%" PRIu64 "</td><td class=\"num\">%s</td>",
			      F->nfolded, 100.0 / TL_IDLE_SHARE, TL_THREADS_MAX, F->records,
			      fmt_ms(ms, F->incl_us));
		strbuf_printf(sb, "<td class=\"num\">%s</td>", fmt_pct(pct, F->incl_us, all->total_us));
		strbuf_printf(sb, "<td class=\"num\">%s</td></tr>\n", fmt_ms(ms, F->excl_us));
	}
	strbuf_puts(sb, "</tbody></table></details>\n");
}

/* Static summary: trace, format, clocks (and the other clock's total of a
 * dual-clock trace), process, threads, total, records, mode, warnings. */
static void put_summary(const struct cg_report *r, const struct cg_view *all, const struct html_fold *F,
			struct strbuf *sb)
{
	const struct cg_trace_info *in = r->info;
	const struct cg_profile_stats *stats = profile_stats(r->profile);
	const struct cg_warning *w;
	size_t nw = profile_warnings(r->profile, &w), i;
	char ms[32];

	strbuf_puts(sb, "<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"sumgrid\">\n"
			"<dl class=\"summary\">\n<dt>Trace</dt><dd>");
	html_put_text(sb, r->file);
	strbuf_printf(sb, "</dd>\n<dt>Format</dt><dd>%s, version %d%s, %s</dd>\n",
		      trace_layout_name(in->layout), in->version, in->gzip ? ", gzip" : "",
		      trace_record_text(in, ms));
	strbuf_printf(sb, "<dt>Clock</dt><dd>%s (times below: %s)", trace_clock_name(in->clock),
		      report_clock_name(r));
	if (in->clock == CG_CLOCK_DUAL)
		strbuf_printf(sb, "; %s clock total %s ms", r->clock == CG_USE_CPU ? "wall" : "cpu",
			      fmt_ms(ms, stats->other_total_us));
	strbuf_puts(sb, "</dd>\n");
	if (in->vm[0] || in->pid >= 0) {
		strbuf_puts(sb, "<dt>Process</dt><dd>");
		if (in->vm[0]) {
			strbuf_puts(sb, "VM ");
			html_put_text(sb, in->vm);
		}
		if (in->pid >= 0)
			strbuf_printf(sb, "%spid %" PRId64, in->vm[0] ? ", " : "", in->pid);
		strbuf_puts(sb, "</dd>\n");
	}
	if (r->has_range) {
		/* digits and words only: nothing to escape */
		strbuf_puts(sb, "<dt>Window</dt><dd>");
		report_window_text(r, sb);
		strbuf_puts(sb, ", on the wall clock from the first event (--range): every section "
				"shows this window</dd>\n");
	}
	strbuf_printf(sb, "<dt>Threads</dt><dd>%zu</dd>\n", all->nthreads);
	strbuf_printf(sb, "<dt>Total</dt><dd>%s ms (sum over threads of last - first event)</dd>\n",
		      fmt_ms(ms, all->total_us));
	strbuf_printf(sb, "<dt>Records</dt><dd>%" PRIu64, stats->records);
	if (stats->skipped)
		strbuf_printf(sb, " (and %" PRIu64 " of threads not selected)", stats->skipped);
	strbuf_puts(sb, "</dd>\n");
	if (profile_sampling(r->profile))
		strbuf_puts(sb, "<dt>Mode</dt><dd>sampling (call counts are stack changes)</dd>\n");
	strbuf_printf(sb, "<dt>Warnings</dt><dd>%s", nw ? "" : "none");
	if (nw) {
		strbuf_puts(sb, "<ul class=\"warnings\">\n");
		for (i = 0; i < nw; i++) {
			strbuf_puts(sb, "<li>");
			html_put_text(sb, w[i].message);
			strbuf_puts(sb, "</li>\n");
		}
		strbuf_puts(sb, "</ul>");
	}
	strbuf_puts(sb, "</dd>\n</dl>\n");
	put_threads_table(all, F, sb);
	strbuf_puts(sb, "</div>\n<p id=\"win-info\" hidden></p>\n</section>\n");
}

/* The sticky bar: thread selector, search box, matched share. */
static void put_bar(const struct cg_view *all, const struct html_fold *F, struct strbuf *sb)
{
	char ms[32];
	size_t i;

	strbuf_printf(sb, "<div class=\"bar\">\n<label>Thread <select id=\"thread\">\n"
			  "<option value=\"0\">All threads (%zu): %s ms</option>\n",
		      all->nthreads, fmt_ms(ms, all->total_us));
	for (i = 0; i < all->nthreads; i++) {
		const struct cg_pthread *t = &all->threads[i];

		if (!html_fold_listed(F, i))
			continue;
		strbuf_printf(sb, "<option value=\"%zu\">", html_fold_page(F, i) + 1);
		html_put_text(sb, t->name);
		strbuf_printf(sb, " (%u): %s ms</option>\n", t->tid, fmt_ms(ms, t->incl_us));
	}
	if (F->nfolded)
		strbuf_printf(sb, "<option disabled>%zu idle threads (folded): %s ms</option>\n",
			      F->nfolded, fmt_ms(ms, F->incl_us));
	strbuf_puts(sb, "</select></label>\n");
	if (all->has_other) {
		enum cg_clock_sel c[2] = { all->primary, profile_other_clock(all->primary) };

		strbuf_puts(sb, "<label title=\"The clock that orders and colours the table, the graph, "
				"the timeline and the flame graph\">Clock <select id=\"clock\">\n");
		for (i = 0; i < 2; i++)
			strbuf_printf(sb, "<option value=\"%s\">%s</option>\n", profile_clock_name(c[i]),
				      c[i] == CG_USE_CPU ? "cpu (thread time)" : "wall (real time)");
		strbuf_puts(sb, "</select></label>\n");
	}
	strbuf_puts(sb, "<span class=\"win\" title=\"The window of the trace shown: drag on the "
			"timeline's time axis or click a frame to choose one\"><span id=\"win-label\">"
			"</span> <button type=\"button\" id=\"win-reset\" hidden>Back to the whole trace"
			"</button></span>\n");
	strbuf_puts(sb, "<label>Search <input id=\"search\" type=\"search\" "
			"placeholder=\"method name (smart case)\" autocomplete=\"off\" "
			"spellcheck=\"false\"></label>\n<span id=\"matched\" aria-live=\"polite\"></span>\n"
			"</div>\n");
}

/* One sortable header cell of the flat profile; clock is "" for columns
 * that are on no clock. */
static void put_th(struct strbuf *sb, const char *key, const char *clock, int sorted,
		   const char *label)
{
	strbuf_printf(sb, "<th data-key=\"%s\"", key);
	if (*clock)
		strbuf_printf(sb, " data-clock=\"%s\"", clock);
	if (strcmp(key, "name"))
		strbuf_puts(sb, " class=\"num\"");
	if (sorted)
		strbuf_puts(sb, " aria-sort=\"descending\"");
	strbuf_printf(sb, "><button type=\"button\">%s</button></th>", label);
}

/* The flat profile's header row (each a sort button; inclusive time on the
 * primary clock is the initial order) and an empty body the script fills.
 * A dual-clock trace has both clocks' columns, cpu first as in Traceview,
 * and the off-CPU share of inclusive time (1 - cpu / wall). */
static void put_table(const struct cg_view *all, int sampled, struct strbuf *sb)
{
	enum cg_clock_sel clocks[2] = { all->primary, all->primary };
	size_t nclocks = 1, i;
	char label[64];

	if (all->has_other) {
		clocks[0] = CG_USE_CPU;
		clocks[1] = CG_USE_WALL;
		nclocks = 2;
	}
	strbuf_puts(sb, "<section id=\"profile\">\n<h2>Flat profile</h2>\n<table id=\"flat\">\n"
			"<thead><tr>");
	put_th(sb, "name", "", 0, "Method");
	for (i = 0; i < nclocks; i++) {
		const char *c = nclocks == 2 ? profile_clock_name(clocks[i]) : "";
		const char *cl = profile_clock_name(clocks[i]);
		int primary = clocks[i] == all->primary;

		snprintf(label, sizeof(label), "Incl %s ms", nclocks == 2 ? cl : "");
		put_th(sb, "incl", c, primary, nclocks == 2 ? label : "Incl ms");
		put_th(sb, "inclp", c, 0, "Incl %");
		snprintf(label, sizeof(label), "Excl %s ms", cl);
		put_th(sb, "excl", c, 0, nclocks == 2 ? label : "Excl ms");
		put_th(sb, "exclp", c, 0, "Excl %");
	}
	if (nclocks == 2)
		put_th(sb, "off", "", 0, "Off-CPU %");
	/* A sampled trace's counts are stack changes, not calls: no time per call. */
	put_th(sb, "calls", "", 0, sampled ? "Stack changes" : "Calls+Rec");
	if (!sampled)
		put_th(sb, "mpc", "", 0, "ms/call");
	strbuf_puts(sb, "</tr></thead>\n<tbody></tbody>\n</table>\n<noscript><p>The flat profile "
			"is built by the page's script; without JavaScript, run callgraph on the "
			"trace for the text profile.</p></noscript>\n</section>\n");
}

/* "," then v: the next number of a data row. */
static void put_more(struct strbuf *sb, uint64_t v)
{
	strbuf_putc(sb, ',');
	strbuf_put_u64(sb, v);
}

/* One edge of a view's data (see put_view), after a comma unless it is the
 * first (*n counts those written): caller, callee position, calls, incl,
 * and oincl when the view has the other clock. */
static void put_edge(struct strbuf *sb, size_t *n, int64_t caller, uint64_t callee,
		     uint64_t calls, uint64_t incl, int has_other, uint64_t o_incl)
{
	if ((*n)++)
		strbuf_putc(sb, ',');
	if (caller < 0)
		strbuf_putc(sb, '-');
	strbuf_put_u64(sb, caller < 0 ? (uint64_t)0 - (uint64_t)caller : (uint64_t)caller);
	put_more(sb, callee);
	put_more(sb, calls);
	put_more(sb, incl);
	if (has_other)
		put_more(sb, o_incl);
}

/* One view's data: methods as flat [k, incl, excl, calls, rec] with k the
 * method's position in the all-threads view; edges as flat [caller, callee,
 * calls, incl] with a root caller written -1 - thread index.  A dual-clock
 * view adds the other clock: "ototal", [oincl, oexcl] after each method's
 * five numbers and oincl after each edge's four. */
static void put_view(const struct cg_view *all, const struct cg_view *v, int vi, int graph,
		     const struct html_fold *F, struct strbuf *sb)
{
	/* Root edges of folded threads, merged per callee (all-threads view). */
	struct merged { uint64_t calls, incl, o_incl; int used; } *mg = NULL;
	size_t i, n = 0;

	strbuf_printf(sb, "{\"t\":%d,\"total\":%" PRIu64 ",", vi - 1, v->total_us);
	if (v->has_other)
		strbuf_printf(sb, "\"ototal\":%" PRIu64 ",", v->o_total_us);
	strbuf_printf(sb, "\"g\":%d,\"m\":[", graph);
	for (i = 0; i < v->nmethods; i++) {
		const struct cg_pmethod *m = &v->methods[i];

		strbuf_spill(sb);
		if (i)
			strbuf_putc(sb, ',');
		strbuf_put_u64(sb, all->method_pos[m->index]);
		put_more(sb, m->incl_us);
		put_more(sb, m->excl_us);
		put_more(sb, m->calls);
		put_more(sb, m->rec_calls);
		if (v->has_other) {
			put_more(sb, m->o_incl_us);
			put_more(sb, m->o_excl_us);
		}
	}
	strbuf_puts(sb, "],\n\"e\":[");
	if (F->nfolded && !vi)
		mg = xcalloc(all->nmethods + 1, sizeof(*mg));
	for (i = 0; i < v->nedges; i++) {
		const struct cg_pedge *e = &v->edges[i];
		int64_t caller = e->from_root ? -1 - (vi ? (int64_t)(vi - 1) : (int64_t)html_fold_page(F, e->caller))
					      : (int64_t)all->method_pos[e->caller];

		if (mg && e->from_root && !html_fold_listed(F, e->caller)) {
			struct merged *m = &mg[all->method_pos[e->callee]];

			m->calls += e->calls;
			m->incl += e->incl_us;
			m->o_incl += e->o_incl_us;
			m->used = 1;
			continue;
		}
		strbuf_spill(sb);
		put_edge(sb, &n, caller, all->method_pos[e->callee], e->calls, e->incl_us,
			 v->has_other, e->o_incl_us);
	}
	for (i = 0; mg && i < all->nmethods; i++)
		if (mg[i].used)
			put_edge(sb, &n, -1 - (int64_t)F->nlisted, i, mg[i].calls, mg[i].incl,
				 v->has_other, mg[i].o_incl);
	free(mg);
	strbuf_puts(sb, "]}");
}

/* The JSON block: the primary clock's name and the other clock's (null on
 * a single-clock trace), threads [tid, name, records, incl, excl], methods
 * [display name (javaname_put_label), signature, id in lower-case hex] in all-threads view order, then the views:
 * all threads first, then each thread in view order.  Times in us. */
static void put_data(const struct cg_report *r, const struct html_graphs *G, const struct html_fold *F,
		     struct strbuf *sb)
{
	struct cg_profile *p = r->profile;
	const struct cg_view *all = profile_view(p, -1);
	size_t nt = profile_thread_count(p), i;
	struct strbuf name;
	unsigned char *over = javaname_overloads(r->st);

	strbuf_init(&name);
	strbuf_printf(sb, "<script type=\"application/json\" id=\"cg-data\">\n"
			  "{\"graphThreads\":%zu,\"sampled\":%s,\"clock\":\"%s\",\"other\":",
		      G->thread_graphs, profile_sampling(p) ? "true" : "false",
		      profile_clock_name(all->primary));
	if (all->has_other)
		strbuf_printf(sb, "\"%s\"", profile_clock_name(profile_other_clock(all->primary)));
	else
		strbuf_puts(sb, "null");
	strbuf_puts(sb, ",\n\"threads\":[");
	for (i = 0; i < all->nthreads; i++) {
		const struct cg_pthread *t = &all->threads[i];

		if (!html_fold_listed(F, i))
			continue;
		strbuf_printf(sb, "%s\n[%u,", html_fold_page(F, i) ? "," : "", t->tid);
		html_put_jstr(sb, t->name);
		strbuf_printf(sb, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", t->records, t->incl_us,
			      t->excl_us);
	}
	/* The folded threads' entry: tid -1, no view of its own. */
	if (F->nfolded)
		strbuf_printf(sb, "%s\n[-1,\"%zu idle threads\",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]",
			      F->nlisted ? "," : "", F->nfolded, F->records, F->incl_us, F->excl_us);
	strbuf_puts(sb, "],\n\"methods\":[");
	for (i = 0; i < all->nmethods; i++) {
		struct cg_method_info tmp;
		const struct cg_method_info *m = profile_method(all, &all->methods[i], &tmp);

		strbuf_spill(sb);
		strbuf_reset(&name);
		javaname_put_label(&name, m, r->short_names ? JN_SHORT : 0, over[all->methods[i].index]);
		strbuf_puts(sb, i ? ",\n[" : "\n[");
		html_put_jstr(sb, name.data ? name.data : "");
		strbuf_putc(sb, ',');
		if (m->obfuscated) {
			/* The tooltip: the descriptor, the name the trace wrote and
			 * what else the mapping says. */
			strbuf_reset(&name);
			strbuf_puts(&name, m->sig);
			strbuf_puts(&name, "\nobfuscated: ");
			strbuf_puts(&name, m->obfuscated);
			if (m->mapping_note) {
				strbuf_putc(&name, '\n');
				strbuf_puts(&name, m->mapping_note);
			}
			html_put_jstr(sb, name.data);
		} else {
			html_put_jstr(sb, m->sig);
		}
		strbuf_puts(sb, ",\"");
		strbuf_put_hex(sb, m->id);
		strbuf_puts(sb, "\"]");
	}
	strbuf_puts(sb, "],\n\"views\":[\n");
	put_view(all, all, 0, G->graph_of[0], F, sb);
	for (i = 0; i < nt; i++) {
		if (!html_fold_listed(F, i))
			continue;
		strbuf_puts(sb, ",\n");
		put_view(all, profile_view(p, (int)i), (int)html_fold_page(F, i) + 1, G->graph_of[i + 1], F,
			 sb);
	}
	strbuf_puts(sb, "]}\n</script>\n");
	strbuf_free(&name);
	free(over);
}

/* The renderer: appends the whole page to sb.  Returns 0, or -1 with err
 * filled when Graphviz fails (sb then holds nothing useful).  The graphs
 * are the only step that can fail, and they are made first: from then on
 * the page may spill to sb's sink as it grows (the trees' left-out time
 * and the data block do). */
static int html_render(const struct cg_report *r, struct strbuf *sb, struct cg_error *err)
{
	const struct cg_view *all = profile_view(r->profile, -1);
	struct cg_report parts = *r;
	struct html_graphs G;
	struct html_fold F;
	struct tree_job *tree;
	int rc = -1;

	memset(&G, 0, sizeof(G));
	html_fold_threads(all, &F);
	parts.thread_map = F.map;
	tree = tree_job_create(&parts);
	if (html_graphs_make(r, &F, &G, err) < 0)
		goto out;
	put_head(r, sb);
	put_summary(r, all, &F, sb);
	put_bar(all, &F, sb);
	html_graphs_put(r, &G, F.nlisted, sb);
	put_table(all, profile_sampling(r->profile), sb);
	render_window_section(&parts, sb, err);
	if (render_tree_section(&parts, tree, sb, err) < 0)
		goto out;
	if (render_timeline_section(&parts, sb, err) < 0)
		goto out;
	put_data(r, &G, &F, sb);
	strbuf_puts(sb, "<script>\n");
	strbuf_puts(sb, report_js);
	strbuf_puts(sb, "</script>\n</body>\n</html>\n");
	rc = 0;
out:
	tree_job_free(tree);
	html_graphs_free(&G);
	free(F.map);
	return rc;
}

const struct cg_renderer render_html = { "html", html_render };

/* render_runs_html.c - repeated runs as a self-contained HTML page: a
 * summary, a bar to choose the metric and search, and one table the script
 * (src/render/report/assets/runs.js) fills from a JSON block: per row each side's
 * median and range, the change, p, calls and a strip with every run's
 * value as a dot (base above, later below).  Rows come in runs_order's
 * order for each metric; every name is escaped. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/report/html_parts.h"
#include "render/javaname.h"
#include "render/text/render_runs.h"

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<meta name=\"generator\" content=\"callgraph\">\n";

/* The stylesheet (src/render/report/assets/runs.css). */
static const char runs_css[] =
#include "runs.css.inc"
;

/* The table, metric switch and search (src/render/report/assets/runs.js); cgUtil's
 * number formatting and search matching (src/render/report/assets/util.js). */
static const char runs_js[] =
#include "runs.js.inc"
;
static const char util_js[] =
#include "util.js.inc"
;

static const enum cg_runs_metric shown[] = { CG_RM_INCL, CG_RM_EXCL, CG_RM_O_INCL, CG_RM_O_EXCL };

/* One side's line of the summary: how many runs, their files. */
static void html_side(struct strbuf *sb, const struct cg_runs *rs, enum cg_runs_side side)
{
	size_t i, n = runs_count(rs, side);

	strbuf_printf(sb, "<tr><th>%s</th><td><details><summary>%zu run%s</summary><ol>",
		      side == CG_RUNS_BASE ? "base" : "later", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		char ms[32];

		strbuf_puts(sb, "<li>");
		html_put_text(sb, runs_file(rs, side, i));
		strbuf_printf(sb, " &mdash; %s ms</li>", fmt_ms(ms, runs_total(rs, side, i, NULL)));
	}
	strbuf_puts(sb, "</ol></details></td></tr>\n");
}

/* A metric's statistics of every row: null where the row has none, else
 * [base median x2, later median x2, base min, base max, later min, later
 * max, change % (null when new), p, significant 0/1]. */
static void html_stats(struct strbuf *sb, const struct cg_report *r, enum cg_runs_metric m)
{
	const struct cg_runs *rs = r->runs;
	size_t row;

	strbuf_puts(sb, ",\"st\":[");
	for (row = 0; row < runs_rows(rs); row++) {
		struct cg_runs_stat st;

		if (row)
			strbuf_putc(sb, ',');
		strbuf_spill(sb);
		if (!runs_has_metric(rs, row, m)) {
			strbuf_puts(sb, "null");
			continue;
		}
		runs_stat(rs, row, m, r->normalise, &st);
		strbuf_printf(sb, "[%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				  ",%" PRIu64 ",",
			      st.side[0].median2, st.side[1].median2, st.side[0].min, st.side[0].max,
			      st.side[1].min, st.side[1].max);
		if (isinf(st.change))
			strbuf_puts(sb, "null");
		else
			strbuf_printf(sb, "%.4f", st.change);
		strbuf_printf(sb, ",%.6g,%d]", st.test.p, st.significant);
	}
	strbuf_puts(sb, "]");
}

/* Every run's value of a metric per row: [[base...],[later...]] or null. */
static void html_values(struct strbuf *sb, const struct cg_report *r, enum cg_runs_metric m)
{
	const struct cg_runs *rs = r->runs;
	size_t row, side, i;

	strbuf_puts(sb, ",\"v\":[");
	for (row = 0; row < runs_rows(rs); row++) {
		if (row)
			strbuf_putc(sb, ',');
		strbuf_spill(sb);
		if (!runs_has_metric(rs, row, m)) {
			strbuf_puts(sb, "null");
			continue;
		}
		strbuf_putc(sb, '[');
		for (side = 0; side < 2; side++) {
			strbuf_puts(sb, side ? ",[" : "[");
			for (i = 0; i < runs_count(rs, (enum cg_runs_side)side); i++)
				strbuf_printf(sb, "%s%" PRIu64, i ? "," : "",
					      runs_value(rs, row, m, r->normalise,
							 (enum cg_runs_side)side, i));
			strbuf_putc(sb, ']');
		}
		strbuf_putc(sb, ']');
	}
	strbuf_puts(sb, "]");
}

static void html_data(struct strbuf *sb, const struct cg_report *r)
{
	const struct cg_runs *rs = r->runs;
	size_t *order = xcalloc(runs_rows(rs) + 1, sizeof(*order)), k, i, row, n;
	struct strbuf name;
	int first = 1;

	strbuf_init(&name);
	strbuf_printf(sb, "<script type=\"application/json\" id=\"cg-runs-data\">\n{\"nb\":%zu,"
			  "\"nl\":%zu,\"norm\":%s,\"metrics\":[",
		      runs_count(rs, CG_RUNS_BASE), runs_count(rs, CG_RUNS_LATER),
		      r->normalise ? "true" : "false");
	for (k = 0; k < sizeof(shown) / sizeof(shown[0]); k++) {
		char label[48];

		if ((shown[k] == CG_RM_O_INCL || shown[k] == CG_RM_O_EXCL) && !runs_has_other(rs, NULL))
			continue;
		strbuf_printf(sb, "%s\n{\"label\":\"%s\",\"order\":[", first ? "" : ",",
			      runs_metric_label(rs, shown[k], label, sizeof(label)));
		first = 0;
		n = runs_order(rs, shown[k], r->normalise, order);
		for (i = 0; i < n; i++)
			strbuf_printf(sb, "%s%zu", i ? "," : "", order[i]);
		strbuf_putc(sb, ']');
		html_stats(sb, r, shown[k]);
		html_values(sb, r, shown[k]);
		strbuf_putc(sb, '}');
	}
	strbuf_puts(sb, "],\n\"rows\":[");
	for (row = 0; row < runs_rows(rs); row++) {
		struct cg_method_info tmp;

		strbuf_spill(sb);
		strbuf_printf(sb, "%s\n[%d,", row ? "," : "", (int)runs_kind(rs, row));
		strbuf_reset(&name);
		runs_put_name(&name, rs, row, JN_SIG | (r->short_names ? JN_SHORT : 0));
		html_put_jstr(sb, name.len ? name.data : "");
		strbuf_putc(sb, ',');
		if (runs_kind(rs, row) == CG_RUNS_METHOD) {
			const struct cg_method_info *m = runs_method(rs, row, &tmp);
			struct cg_runs_stat cs;

			strbuf_reset(&name);
			strbuf_printf(&name, "%s.%s%s", m->klass, m->name, m->sig);
			html_put_jstr(sb, name.data);
			runs_stat(rs, row, CG_RM_CALLS, 0, &cs);
			strbuf_printf(sb, ",%" PRIu64 ",%" PRIu64 ",%d]", cs.side[0].median2,
				      cs.side[1].median2, cs.calls_changed);
		} else {
			html_put_jstr(sb, name.len ? name.data : "");
			strbuf_puts(sb, ",null,null,0]");
		}
	}
	strbuf_puts(sb, "]}\n</script>\n");
	strbuf_free(&name);
	free(order);
}

int render_runs_html(const struct cg_report *r, struct strbuf *out, struct cg_error *err)
{
	const struct cg_runs *rs = r->runs;

	if (!rs) {
		cg_error_set(err, -1, "no comparison to render (internal error)");
		return -1;
	}
	strbuf_puts(out, html_head);
	strbuf_printf(out, "<title>callgraph: %zu base runs &rarr; %zu later runs</title>\n<style>\n",
		      runs_count(rs, CG_RUNS_BASE), runs_count(rs, CG_RUNS_LATER));
	strbuf_puts(out, runs_css);
	strbuf_puts(out, "</style>\n</head>\n<body>\n<header><h1>callgraph: repeated runs</h1>\n"
			 "<table class=\"summary\">\n");
	html_side(out, rs, CG_RUNS_BASE);
	html_side(out, rs, CG_RUNS_LATER);
	strbuf_printf(out, "<tr><th>values</th><td>%s</td></tr>\n</table>\n",
		      r->normalise ? "share of each run's total, in %" : "milliseconds");
	strbuf_puts(out, "<p class=\"note\">Per row, each side's median and its range (the "
			 "farthest run from the median, in % of it); the change of the medians, "
			 "or <b>~</b> when it is not significant (p &gt; 0.05); p of a two-sided "
			 "Mann&ndash;Whitney U test (exact without ties, else the normal "
			 "approximation with tie correction); the median calls per run, "
			 "<b>!</b> when they differ. The strip shows every run: "
			 "<span class=\"key base\">&#9679; base</span> above, "
			 "<span class=\"key later\">&#9679; later</span> below, on the row's "
			 "own scale from its least to its greatest run. Significant changes "
			 "come first.</p>\n</header>\n");
	strbuf_puts(out, "<div class=\"bar\"><span id=\"metrics\" role=\"radiogroup\" "
			 "aria-label=\"metric\"></span><label>Search <input id=\"search\" "
			 "type=\"search\" placeholder=\"method name (smart case)\" "
			 "autocomplete=\"off\" spellcheck=\"false\"></label> <span id=\"matched\" "
			 "aria-live=\"polite\"></span></div>\n<main>\n<table id=\"runs\">"
			 "<colgroup><col class=\"name\"><col class=\"num\"><col class=\"num\">"
			 "<col class=\"chg\"><col class=\"p\"><col class=\"calls\">"
			 "<col class=\"strip\"></colgroup>\n<thead><tr><th class=\"name\">Row</th>"
			 "<th class=\"n\">Base</th><th class=\"n\">Later</th><th class=\"n\">"
			 "Change</th><th class=\"n\">p</th><th class=\"n\">Calls</th>"
			 "<th class=\"strip\">Runs</th></tr></thead><tbody></tbody></table>\n"
			 "</main>\n<noscript><p>The table is built by the page's script; without "
			 "JavaScript, run callgraph -d for the text report.</p></noscript>\n");
	html_data(out, r);
	strbuf_puts(out, "<script>\n");
	strbuf_puts(out, util_js);
	strbuf_puts(out, "</script>\n<script>\n");
	strbuf_puts(out, runs_js);
	strbuf_puts(out, "</script>\n</body>\n</html>\n");
	return 0;
}

/* render_diff.c - text and HTML tables of a two-run comparison. */
#include "render/text/render_diff.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/diff.h"
#include "render/report/html_parts.h"
#include "render/javaname.h"

static const char *ratio_text(char *buf, const struct cg_diff_row *row)
{
	double q = diff_ratio(row);

	if (q < 0)
		return "-";
	snprintf(buf, 32, "%.2f", q);
	return buf;
}

static const char *calls_text(char *buf, const struct cg_diff_side *s)
{
	snprintf(buf, 48, "%" PRIu64 "+%" PRIu64, s->calls, s->rec_calls);
	return buf;
}


static unsigned name_flags(const struct cg_report *r)
{
	return JN_SIG | (r->short_names ? JN_SHORT : 0);
}

static int check(const struct cg_report *later, struct cg_error *err)
{
	if (!later->diff) {
		cg_error_set(err, -1, "no comparison to render (internal error)");
		return -1;
	}
	return 0;
}

/* The later run's summary facts; names point into its profile. */
static void later_run(const struct cg_report *later, struct cg_diff_run *run)
{
	diff_run_fill(run, later->file, report_clock_name(later), profile_view(later->profile, -1));
}

static void text_summary(const struct cg_report *later, struct strbuf *sb)
{
	const struct cg_diff *d = later->diff;
	const struct cg_diff_run *base = diff_base_run(d);
	struct cg_diff_run lr;
	size_t counts[3];
	uint64_t bt = diff_base_total(d), lt = diff_later_total(d);
	char a[32], b[32], c[32];

	enum cg_clock_sel pri;
	int other = diff_has_other(d, &pri);
	const char *oname = profile_clock_name(profile_other_clock(pri));
	uint64_t bo = diff_base_o_total(d), lo = diff_later_o_total(d);

	later_run(later, &lr);
	diff_count(d, counts);
	strbuf_printf(sb, "Diff:     %s -> %s\n", base->file, later->file);
	if (later->has_range) {
		strbuf_puts(sb, "Window:   ");
		report_window_text(later, sb);
		strbuf_puts(sb, " in both, on the wall clock from each one's first event\n");
	}
	if (other) {
		/* Both runs carry both clocks: each total on both. */
		strbuf_printf(sb, "Clock:    %s compares and sorts; %s beside it\n",
			      profile_clock_name(pri), oname);
		strbuf_printf(sb, "Base:     %s ms %s, ", fmt_ms(a, bt), profile_clock_name(pri));
		strbuf_printf(sb, "%s ms %s in %zu thread%s\n", fmt_ms(a, bo), oname,
			      base->nthreads, base->nthreads == 1 ? "" : "s");
		strbuf_printf(sb, "Later:    %s ms %s, ", fmt_ms(b, lt), profile_clock_name(pri));
		strbuf_printf(sb, "%s ms %s in %zu thread%s\n", fmt_ms(b, lo), oname,
			      lr.nthreads, lr.nthreads == 1 ? "" : "s");
	} else {
		strbuf_printf(sb, "Base:     %s ms in %zu thread%s (%s clock)\n", fmt_ms(a, bt),
			      base->nthreads, base->nthreads == 1 ? "" : "s", base->clock);
		strbuf_printf(sb, "Later:    %s ms in %zu thread%s (%s clock)\n", fmt_ms(b, lt),
			      lr.nthreads, lr.nthreads == 1 ? "" : "s", lr.clock);
	}
	strbuf_printf(sb, "Change:   %s ms", fmt_ms_signed(c, (int64_t)lt - (int64_t)bt));
	if (other)
		strbuf_printf(sb, " %s", profile_clock_name(pri));
	if (bt)
		strbuf_printf(sb, ", ratio %.2f", (double)lt / (double)bt);
	if (other) {
		strbuf_printf(sb, "; %s ms %s", fmt_ms_signed(c, (int64_t)lo - (int64_t)bo), oname);
		if (bo)
			strbuf_printf(sb, ", ratio %.2f", (double)lo / (double)bo);
	}
	strbuf_putc(sb, '\n');
	strbuf_printf(sb, "Methods:  %zu in both, %zu only in base, %zu only in later\n",
		      counts[CG_DIFF_BOTH], counts[CG_DIFF_BASE_ONLY], counts[CG_DIFF_LATER_ONLY]);
}

static void text_both(const struct cg_report *later, size_t n, struct strbuf *sb)
{
	enum cg_clock_sel pri;
	int other = diff_has_other(later->diff, &pri);
	const char *oname = profile_clock_name(profile_other_clock(pri));
	char oh1[32], oh2[32];
	size_t i;

	strbuf_puts(sb, "\nMethods in both runs, largest change of inclusive time first\n");
	if (other) {
		/* The other clock's differences beside the primary ones. */
		strbuf_printf(sb, "(ms, %s clock; diff = later - base, negative when faster; "
				  "ratio = later / base inclusive;\n %s diff = the same difference "
				  "on the %s clock)\n",
			      profile_clock_name(pri), oname, oname);
		snprintf(oh1, sizeof(oh1), "%s diff", oname);
		snprintf(oh2, sizeof(oh2), "%s diff", oname);
		strbuf_printf(sb, "%10s %10s %10s %6s %10s %10s %10s %10s %10s %11s %11s  %s\n",
			      "incl base", "incl later", "incl diff", "ratio", oh1, "excl base",
			      "excl later", "excl diff", oh2, "calls base", "calls later", "method");
	} else {
		strbuf_puts(sb, "(ms; diff = later - base, negative when faster; ratio = later / base "
				"inclusive)\n");
		strbuf_printf(sb, "%12s %12s %12s %7s %12s %12s %12s %12s %12s  %s\n", "incl base",
			      "incl later", "incl diff", "ratio", "excl base", "excl later",
			      "excl diff", "calls base", "calls later", "method");
	}
	for (i = 0; i < n; i++) {
		struct cg_diff_row row;
		const struct cg_diff_row *r = diff_row(later->diff, i, &row);
		char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], q[32], c1[48], c2[48];
		char o1[32], o2[32];
		struct cg_method_info tmp;

		strbuf_spill(sb);
		if (r->status != CG_DIFF_BOTH)
			continue;
		if (other)
			strbuf_printf(sb, "%10s %10s %10s %6s %10s %10s %10s %10s %10s %11s %11s  ",
				      fmt_ms(b1, r->base.incl_us), fmt_ms(b2, r->later.incl_us),
				      fmt_ms_signed(b3, r->d_incl_us), ratio_text(q, r),
				      fmt_ms_signed(o1, r->d_o_incl_us),
				      fmt_ms(b4, r->base.excl_us), fmt_ms(b5, r->later.excl_us),
				      fmt_ms_signed(b6, r->d_excl_us),
				      fmt_ms_signed(o2, r->d_o_excl_us), calls_text(c1, &r->base),
				      calls_text(c2, &r->later));
		else
			strbuf_printf(sb, "%12s %12s %12s %7s %12s %12s %12s %12s %12s  ",
				      fmt_ms(b1, r->base.incl_us), fmt_ms(b2, r->later.incl_us),
				      fmt_ms_signed(b3, r->d_incl_us), ratio_text(q, r),
				      fmt_ms(b4, r->base.excl_us), fmt_ms(b5, r->later.excl_us),
				      fmt_ms_signed(b6, r->d_excl_us), calls_text(c1, &r->base),
				      calls_text(c2, &r->later));
		javaname_put_method(sb, diff_method(later->diff, r, &tmp), name_flags(later));
		strbuf_putc(sb, '\n');
	}
}

static void text_only(const struct cg_report *later, size_t n, enum cg_diff_status which,
		      size_t count, const char *title, struct strbuf *sb)
{
	enum cg_clock_sel pri;
	int other = diff_has_other(later->diff, &pri);
	char oh1[32], oh2[32];
	size_t i;

	strbuf_printf(sb, "\n%s: %zu method%s\n", title, count, count == 1 ? "" : "s");
	if (!count)
		return;
	if (other) {
		snprintf(oh1, sizeof(oh1), "incl %s ms", profile_clock_name(profile_other_clock(pri)));
		snprintf(oh2, sizeof(oh2), "excl %s ms", profile_clock_name(profile_other_clock(pri)));
		strbuf_printf(sb, "%12s %12s %12s %12s %12s  %s\n", "incl ms", "excl ms", oh1, oh2,
			      "calls", "method");
	} else {
		strbuf_printf(sb, "%12s %12s %12s  %s\n", "incl ms", "excl ms", "calls", "method");
	}
	for (i = 0; i < n; i++) {
		struct cg_diff_row row;
		const struct cg_diff_row *r = diff_row(later->diff, i, &row);
		const struct cg_diff_side *s = which == CG_DIFF_BASE_ONLY ? &r->base : &r->later;
		char b1[32], b2[32], b3[32], b4[32], c[48];
		struct cg_method_info tmp;

		strbuf_spill(sb);
		if (r->status != which)
			continue;
		if (other)
			strbuf_printf(sb, "%12s %12s %12s %12s %12s  ", fmt_ms(b1, s->incl_us),
				      fmt_ms(b2, s->excl_us), fmt_ms(b3, s->o_incl_us),
				      fmt_ms(b4, s->o_excl_us), calls_text(c, s));
		else
			strbuf_printf(sb, "%12s %12s %12s  ", fmt_ms(b1, s->incl_us),
				      fmt_ms(b2, s->excl_us), calls_text(c, s));
		javaname_put_method(sb, diff_method(later->diff, r, &tmp), name_flags(later));
		strbuf_putc(sb, '\n');
	}
}

int render_diff_text(const struct cg_report *later, struct strbuf *out, struct cg_error *err)
{
	size_t counts[3], n;

	if (check(later, err) < 0)
		return -1;
	n = diff_count(later->diff, counts);
	text_summary(later, out);
	text_both(later, n, out);
	text_only(later, n, CG_DIFF_BASE_ONLY, counts[CG_DIFF_BASE_ONLY], "Only in the base run",
		  out);
	text_only(later, n, CG_DIFF_LATER_ONLY, counts[CG_DIFF_LATER_ONLY],
		  "Only in the later run", out);
	return 0;
}

/* ---- HTML -------------------------------------------------------------------- */

/* The page: a summary, a sticky bar with the search box (the main report's:
 * smart-case substring of the method name) and three tables the script
 * (src/render/report/assets/diff.js) fills from a JSON block: methods in both runs, only
 * in the base, only in the later run.  Every column sorts; the tables fit
 * the window (fixed layout, long names cut with an ellipsis and whole in the
 * tooltip) and put at most a few hundred rows in the document at a time. */
static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<meta name=\"generator\" content=\"callgraph\">\n";

/* The stylesheet (src/render/report/assets/diff.css). */
static const char diff_css[] =
#include "diff.css.inc"
;

/* Search, sorting and the rows (src/render/report/assets/diff.js); cgUtil's number
 * formatting and search matching (src/render/report/assets/util.js). */
static const char diff_js[] =
#include "diff.js.inc"
;
static const char util_js[] =
#include "util.js.inc"
;



/* One run's line of the summary: file, total, threads (named when few),
 * clock. */
static void html_run(struct strbuf *sb, const char *what, const struct cg_diff_run *r,
		     uint64_t total)
{
	char ms[32];
	size_t i;

	strbuf_printf(sb, "<tr><th>%s</th><td class=\"file\">", what);
	html_put_text(sb, r->file);
	strbuf_printf(sb, "</td><td class=\"n\">%s ms</td><td>%zu thread%s", fmt_ms(ms, total),
		      r->nthreads, r->nthreads == 1 ? "" : "s");
	if (r->nthreads && r->nthreads <= 4) {
		strbuf_puts(sb, " (");
		for (i = 0; i < r->nthreads; i++) {
			if (i)
				strbuf_puts(sb, ", ");
			html_put_text(sb, r->names[i]);
		}
		strbuf_putc(sb, ')');
	}
	strbuf_printf(sb, ", %s clock</td></tr>\n", r->clock);
}

/* The --focus / --hide patterns, as given to both runs. */
static void html_filters(struct strbuf *sb, const struct cg_report *later)
{
	const char *const *focus, *const *hide;
	const char *const *list[2];
	static const char *const what[2] = { "focus", "hide" };
	size_t k, i;

	profile_filters(later->profile, &focus, &hide);
	list[0] = focus;
	list[1] = hide;
	for (k = 0; k < 2; k++) {
		if (!list[k])
			continue;
		strbuf_printf(sb, "<tr><th>%s</th><td colspan=\"3\">", what[k]);
		for (i = 0; list[k][i]; i++) {
			if (i)
				strbuf_puts(sb, ", ");
			strbuf_puts(sb, "<code>");
			html_put_text(sb, list[k][i]);
			strbuf_puts(sb, "</code>");
		}
		strbuf_puts(sb, "</td></tr>\n");
	}
}

/* The data block: {"other": the other clock's name or null, "rows":[[status,
 * name, full name, base incl, later incl, base excl, later excl, base calls,
 * base rec, later calls, later rec (, other-clock incl change, other-clock
 * excl change when "other")]]} with status 0 both, 1 base only, 2 later
 * only; rows in diff_rows order. */
static void html_data(struct strbuf *sb, const struct cg_report *later,
		      const struct cg_diff *d, size_t n)
{
	struct strbuf name;
	enum cg_clock_sel pri = CG_USE_WALL;
	int other = diff_has_other(d, &pri);
	size_t i;

	strbuf_init(&name);
	strbuf_puts(sb, "<script type=\"application/json\" id=\"cg-diff-data\">\n{\"other\":");
	if (other)
		strbuf_printf(sb, "\"%s\"", profile_clock_name(profile_other_clock(pri)));
	else
		strbuf_puts(sb, "null");
	strbuf_puts(sb, ",\"rows\":[");
	for (i = 0; i < n; i++) {
		struct cg_diff_row row;
		const struct cg_diff_row *r = diff_row(d, i, &row);
		struct cg_method_info tmp;
		const struct cg_method_info *m = diff_method(d, r, &tmp);

		strbuf_spill(sb);
		strbuf_printf(sb, "%s\n[%d,", i ? "," : "", (int)r->status);
		strbuf_reset(&name);
		javaname_put_method(&name, m, name_flags(later));
		html_put_jstr(sb, name.len ? name.data : "");
		strbuf_putc(sb, ',');
		strbuf_reset(&name);
		strbuf_puts(&name, m->klass);
		if (m->name[0]) {
			strbuf_putc(&name, '.');
			strbuf_puts(&name, m->name);
		}
		strbuf_puts(&name, m->sig);
		html_put_jstr(sb, name.len ? name.data : "");
		strbuf_printf(sb, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				  ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			      r->base.incl_us, r->later.incl_us, r->base.excl_us, r->later.excl_us,
			      r->base.calls, r->base.rec_calls, r->later.calls, r->later.rec_calls);
		if (other)
			strbuf_printf(sb, ",%" PRId64 ",%" PRId64, r->d_o_incl_us, r->d_o_excl_us);
		strbuf_putc(sb, ']');
	}
	strbuf_puts(sb, "]}\n</script>\n");
	strbuf_free(&name);
}

/* A table's heading and an empty table the script fills. */
static void html_table(struct strbuf *sb, const char *id, const char *title, size_t count)
{
	strbuf_printf(sb, "<section id=\"sec-%s\">\n<h2>%s (<span class=\"count\">%zu</span>)</h2>\n",
		      id, title, count);
	if (count)
		strbuf_printf(sb, "<table class=\"sortable\" id=\"%s\"><thead></thead><tbody></tbody>"
				  "</table>\n", id);
	strbuf_puts(sb, "</section>\n");
}

int render_diff_html(const struct cg_report *later, struct strbuf *out, struct cg_error *err)
{
	const struct cg_diff *d = later->diff;
	const struct cg_diff_run *base;
	struct cg_diff_run lr;
	size_t counts[3], n;
	uint64_t bt, lt;
	char c[32];

	if (check(later, err) < 0)
		return -1;
	base = diff_base_run(d);
	later_run(later, &lr);
	n = diff_count(d, counts);
	bt = diff_base_total(d);
	lt = diff_later_total(d);
	strbuf_puts(out, html_head);
	strbuf_puts(out, "<title>callgraph diff: ");
	html_put_text(out, base->file);
	strbuf_puts(out, " &rarr; ");
	html_put_text(out, later->file);
	strbuf_puts(out, "</title>\n<style>\n");
	strbuf_puts(out, diff_css);
	strbuf_puts(out, "</style>\n</head>\n<body>\n<header><h1>callgraph diff</h1>\n"
			 "<table class=\"summary\">\n");
	html_run(out, "base", base, bt);
	html_run(out, "later", &lr, lt);
	strbuf_printf(out, "<tr><th>change</th><td></td><td class=\"n\">%s ms</td><td>",
		      fmt_ms_signed(c, (int64_t)lt - (int64_t)bt));
	if (bt)
		strbuf_printf(out, "ratio %.2f", (double)lt / (double)bt);
	strbuf_puts(out, "</td></tr>\n");
	html_filters(out, later);
	strbuf_puts(out, "</table>\n<p class=\"note\">Differences are later &minus; base "
			 "(negative when faster); ratio is later / base inclusive time. Self "
			 "time is a method's own time, not counting its callees: a method that "
			 "got slower by itself shows it in the self columns. Click a column "
			 "header to sort. A whole-process comparison is often dominated by idle "
			 "threads waiting longer; compare one thread with <code>--thread "
			 "NAME</code>, or what runs inside a method with <code>--focus</code>."
			 "</p>\n</header>\n");
	strbuf_puts(out, "<div class=\"bar\"><label>Search <input id=\"search\" type=\"search\" "
			 "placeholder=\"method name (smart case)\" autocomplete=\"off\" "
			 "spellcheck=\"false\"></label> <span id=\"matched\" aria-live=\"polite\">"
			 "</span></div>\n<main>\n");
	html_table(out, "both", "Methods in both runs", counts[CG_DIFF_BOTH]);
	html_table(out, "base-only", "Only in the base run", counts[CG_DIFF_BASE_ONLY]);
	html_table(out, "later-only", "Only in the later run", counts[CG_DIFF_LATER_ONLY]);
	strbuf_puts(out, "</main>\n<noscript><p>The tables are built by the page's script; "
			 "without JavaScript, run callgraph -d for the text comparison.</p>"
			 "</noscript>\n");
	html_data(out, later, d, n);
	strbuf_puts(out, "<script>\n");
	strbuf_puts(out, util_js);
	strbuf_puts(out, "</script>\n<script>\n");
	strbuf_puts(out, diff_js);
	strbuf_puts(out, "</script>\n</body>\n</html>\n");
	return 0;
}

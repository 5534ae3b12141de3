/* render_diff.c - text and HTML tables of a two-run comparison. */
#include "render_diff.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "javaname.h"

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

static const struct cg_method_info *row_info(const struct cg_diff_row *row)
{
	return row->later.info ? row->later.info : row->base.info;
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

static void text_summary(const struct cg_report *base, const struct cg_report *later,
			 struct strbuf *sb)
{
	const struct cg_diff *d = later->diff;
	const struct cg_diff_row *rows;
	size_t counts[3];
	uint64_t bt = diff_base_total(d), lt = diff_later_total(d);
	char a[32], b[32], c[32];

	enum cg_clock_sel pri;
	int other = diff_has_other(d, &pri);
	const char *oname = profile_clock_name(profile_other_clock(pri));
	uint64_t bo = diff_base_o_total(d), lo = diff_later_o_total(d);

	diff_rows(d, &rows, counts);
	strbuf_printf(sb, "Diff:     %s -> %s\n", base->file, later->file);
	if (other) {
		/* Both runs carry both clocks: each total on both. */
		strbuf_printf(sb, "Clock:    %s compares and sorts; %s beside it\n",
			      profile_clock_name(pri), oname);
		strbuf_printf(sb, "Base:     %s ms %s, ", fmt_ms(a, bt), profile_clock_name(pri));
		strbuf_printf(sb, "%s ms %s in %zu thread%s\n", fmt_ms(a, bo), oname,
			      profile_thread_count(base->profile),
			      profile_thread_count(base->profile) == 1 ? "" : "s");
		strbuf_printf(sb, "Later:    %s ms %s, ", fmt_ms(b, lt), profile_clock_name(pri));
		strbuf_printf(sb, "%s ms %s in %zu thread%s\n", fmt_ms(b, lo), oname,
			      profile_thread_count(later->profile),
			      profile_thread_count(later->profile) == 1 ? "" : "s");
	} else {
		strbuf_printf(sb, "Base:     %s ms in %zu thread%s (%s clock)\n", fmt_ms(a, bt),
			      profile_thread_count(base->profile),
			      profile_thread_count(base->profile) == 1 ? "" : "s",
			      report_clock_name(base));
		strbuf_printf(sb, "Later:    %s ms in %zu thread%s (%s clock)\n", fmt_ms(b, lt),
			      profile_thread_count(later->profile),
			      profile_thread_count(later->profile) == 1 ? "" : "s",
			      report_clock_name(later));
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

static void text_both(const struct cg_report *later, const struct cg_diff_row *rows, size_t n,
		      struct strbuf *sb)
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
		const struct cg_diff_row *r = &rows[i];
		char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32], q[32], c1[48], c2[48];
		char o1[32], o2[32];

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
		javaname_put_method(sb, row_info(r), name_flags(later));
		strbuf_putc(sb, '\n');
	}
}

static void text_only(const struct cg_report *later, const struct cg_diff_row *rows, size_t n,
		      enum cg_diff_status which, size_t count, const char *title,
		      struct strbuf *sb)
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
		const struct cg_diff_row *r = &rows[i];
		const struct cg_diff_side *s = which == CG_DIFF_BASE_ONLY ? &r->base : &r->later;
		char b1[32], b2[32], b3[32], b4[32], c[48];

		if (r->status != which)
			continue;
		if (other)
			strbuf_printf(sb, "%12s %12s %12s %12s %12s  ", fmt_ms(b1, s->incl_us),
				      fmt_ms(b2, s->excl_us), fmt_ms(b3, s->o_incl_us),
				      fmt_ms(b4, s->o_excl_us), calls_text(c, s));
		else
			strbuf_printf(sb, "%12s %12s %12s  ", fmt_ms(b1, s->incl_us),
				      fmt_ms(b2, s->excl_us), calls_text(c, s));
		javaname_put_method(sb, row_info(r), name_flags(later));
		strbuf_putc(sb, '\n');
	}
}

int render_diff_text(const struct cg_report *base, const struct cg_report *later,
		     struct strbuf *out, struct cg_error *err)
{
	const struct cg_diff_row *rows;
	size_t counts[3], n;

	if (check(later, err) < 0)
		return -1;
	n = diff_rows(later->diff, &rows, counts);
	text_summary(base, later, out);
	text_both(later, rows, n, out);
	text_only(later, rows, n, CG_DIFF_BASE_ONLY, counts[CG_DIFF_BASE_ONLY],
		  "Only in the base run", out);
	text_only(later, rows, n, CG_DIFF_LATER_ONLY, counts[CG_DIFF_LATER_ONLY],
		  "Only in the later run", out);
	return 0;
}

/* ---- HTML -------------------------------------------------------------------- */

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";

/* The stylesheet (src/assets/diff.css). */
static const char diff_css[] =
#include "diff.css.inc"
;

/* Click a header to sort by that column; click again to reverse
 * (src/assets/diff.js). */
static const char diff_js[] =
#include "diff.js.inc"
;

static void html_num_ms(struct strbuf *sb, uint64_t us)
{
	char ms[32];

	strbuf_printf(sb, "<td class=\"n\" data-v=\"%" PRIu64 "\">%s</td>", us, fmt_ms(ms, us));
}

static void html_diff_ms(struct strbuf *sb, int64_t us)
{
	char ms[32];

	strbuf_printf(sb, "<td class=\"n d\" data-v=\"%" PRId64 "\">%s</td>", us,
		      fmt_ms_signed(ms, us));
}

static void html_calls(struct strbuf *sb, const struct cg_diff_side *s)
{
	strbuf_printf(sb, "<td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64 "+%" PRIu64 "</td>",
		      s->calls + s->rec_calls, s->calls, s->rec_calls);
}

/* The method cell: decoded name, raw class.name signature as tooltip. */
static void html_method(struct strbuf *sb, const struct cg_report *later,
			const struct cg_method_info *m, struct strbuf *tmp)
{
	strbuf_reset(tmp);
	strbuf_puts(tmp, m->klass);
	if (m->name[0]) {
		strbuf_putc(tmp, '.');
		strbuf_puts(tmp, m->name);
	}
	strbuf_puts(tmp, m->sig);
	strbuf_puts(sb, "<td title=\"");
	strbuf_put_html(sb, tmp->len ? tmp->data : "");
	strbuf_puts(sb, "\">");
	strbuf_reset(tmp);
	javaname_put_method(tmp, m, name_flags(later));
	strbuf_put_html(sb, tmp->len ? tmp->data : "");
	strbuf_puts(sb, "</td>");
}

static void html_both(const struct cg_report *later, const struct cg_diff_row *rows, size_t n,
		      size_t count, struct strbuf *sb, struct strbuf *tmp)
{
	size_t i;

	strbuf_printf(sb, "<h2>Methods in both runs (%zu)</h2>\n", count);
	if (!count)
		return;
	strbuf_puts(sb, "<table class=\"sortable\" id=\"both\">\n<thead><tr><th>method</th>"
			"<th>incl base ms</th><th>incl later ms</th><th>incl diff ms</th>"
			"<th>ratio</th><th>excl base ms</th><th>excl later ms</th>"
			"<th>excl diff ms</th><th>calls base</th><th>calls later</th></tr></thead>\n"
			"<tbody>\n");
	for (i = 0; i < n; i++) {
		const struct cg_diff_row *r = &rows[i];
		double q = diff_ratio(r);
		char qb[32];

		if (r->status != CG_DIFF_BOTH)
			continue;
		strbuf_printf(sb, "<tr class=\"%s\">",
			      r->d_incl_us > 0 ? "slower" : r->d_incl_us < 0 ? "faster" : "same");
		html_method(sb, later, row_info(r), tmp);
		html_num_ms(sb, r->base.incl_us);
		html_num_ms(sb, r->later.incl_us);
		html_diff_ms(sb, r->d_incl_us);
		if (q < 0)
			strbuf_puts(sb, "<td class=\"n\" data-v=\"1e308\">-</td>");
		else
			strbuf_printf(sb, "<td class=\"n\" data-v=\"%.6f\">%s</td>", q, ratio_text(qb, r));
		html_num_ms(sb, r->base.excl_us);
		html_num_ms(sb, r->later.excl_us);
		html_diff_ms(sb, r->d_excl_us);
		html_calls(sb, &r->base);
		html_calls(sb, &r->later);
		strbuf_puts(sb, "</tr>\n");
	}
	strbuf_puts(sb, "</tbody>\n</table>\n");
}

static void html_only(const struct cg_report *later, const struct cg_diff_row *rows, size_t n,
		      enum cg_diff_status which, size_t count, const char *title, const char *id,
		      struct strbuf *sb, struct strbuf *tmp)
{
	size_t i;

	strbuf_printf(sb, "<h2>%s (%zu)</h2>\n", title, count);
	if (!count)
		return;
	strbuf_printf(sb, "<table class=\"sortable\" id=\"%s\">\n<thead><tr><th>method</th>"
			  "<th>incl ms</th><th>excl ms</th><th>calls</th></tr></thead>\n<tbody>\n", id);
	for (i = 0; i < n; i++) {
		const struct cg_diff_row *r = &rows[i];
		const struct cg_diff_side *s = which == CG_DIFF_BASE_ONLY ? &r->base : &r->later;

		if (r->status != which)
			continue;
		strbuf_puts(sb, "<tr>");
		html_method(sb, later, row_info(r), tmp);
		html_num_ms(sb, s->incl_us);
		html_num_ms(sb, s->excl_us);
		html_calls(sb, s);
		strbuf_puts(sb, "</tr>\n");
	}
	strbuf_puts(sb, "</tbody>\n</table>\n");
}

int render_diff_html(const struct cg_report *base, const struct cg_report *later,
		     struct strbuf *out, struct cg_error *err)
{
	const struct cg_diff *d = later->diff;
	const struct cg_diff_row *rows;
	size_t counts[3], n;
	uint64_t bt, lt;
	struct strbuf tmp;
	char a[32], b[32], c[32];

	if (check(later, err) < 0)
		return -1;
	n = diff_rows(d, &rows, counts);
	bt = diff_base_total(d);
	lt = diff_later_total(d);
	strbuf_init(&tmp);
	strbuf_puts(out, html_head);
	strbuf_puts(out, "<title>callgraph diff: ");
	strbuf_put_html(out, base->file);
	strbuf_puts(out, " &rarr; ");
	strbuf_put_html(out, later->file);
	strbuf_puts(out, "</title>\n");
	strbuf_puts(out, "<style>\n");
	strbuf_puts(out, diff_css);
	strbuf_puts(out, "</style>\n</head>\n<body>\n");
	strbuf_puts(out, "<h1>callgraph diff</h1>\n<table class=\"summary\">\n<tr><th>base</th><td>");
	strbuf_put_html(out, base->file);
	strbuf_printf(out, "</td><td class=\"n\">%s ms</td><td>%zu thread%s, %s clock</td></tr>\n",
		      fmt_ms(a, bt), profile_thread_count(base->profile),
		      profile_thread_count(base->profile) == 1 ? "" : "s", report_clock_name(base));
	strbuf_puts(out, "<tr><th>later</th><td>");
	strbuf_put_html(out, later->file);
	strbuf_printf(out, "</td><td class=\"n\">%s ms</td><td>%zu thread%s, %s clock</td></tr>\n",
		      fmt_ms(b, lt), profile_thread_count(later->profile),
		      profile_thread_count(later->profile) == 1 ? "" : "s", report_clock_name(later));
	strbuf_printf(out, "<tr><th>change</th><td></td><td class=\"n\">%s ms</td><td>",
		      fmt_ms_signed(c, (int64_t)lt - (int64_t)bt));
	if (bt)
		strbuf_printf(out, "ratio %.2f", (double)lt / (double)bt);
	strbuf_puts(out, "</td></tr>\n</table>\n");
	strbuf_puts(out, "<p class=\"note\">Differences are later &minus; base (negative when "
			 "faster); ratio is later / base inclusive time. Click a column header "
			 "to sort.</p>\n");
	html_both(later, rows, n, counts[CG_DIFF_BOTH], out, &tmp);
	html_only(later, rows, n, CG_DIFF_BASE_ONLY, counts[CG_DIFF_BASE_ONLY],
		  "Only in the base run", "base-only", out, &tmp);
	html_only(later, rows, n, CG_DIFF_LATER_ONLY, counts[CG_DIFF_LATER_ONLY],
		  "Only in the later run", "later-only", out, &tmp);
	strbuf_puts(out, "<script>\n");
	strbuf_puts(out, diff_js);
	strbuf_puts(out, "</script>\n");
	strbuf_puts(out, "</body>\n</html>\n");
	strbuf_free(&tmp);
	return 0;
}

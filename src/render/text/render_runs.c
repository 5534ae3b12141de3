/* render_runs.c - repeated runs as a benchstat-like text table, and the
 * helpers the JSON and HTML renderers share. */
#include "render/text/render_runs.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/javaname.h"

static const enum cg_runs_metric shown[] = { CG_RM_INCL, CG_RM_EXCL, CG_RM_O_INCL, CG_RM_O_EXCL };

const char *runs_metric_label(const struct cg_runs *rs, enum cg_runs_metric m, char *buf,
			      size_t size)
{
	enum cg_clock_sel pri;
	const char *clock;

	runs_has_other(rs, &pri);
	if (m == CG_RM_CALLS)
		return "calls";
	clock = profile_clock_name(m == CG_RM_O_INCL || m == CG_RM_O_EXCL ? profile_other_clock(pri)
									   : pri);
	snprintf(buf, size, "%s %s", m == CG_RM_INCL || m == CG_RM_O_INCL ? "incl" : "self", clock);
	return buf;
}

void runs_put_name(struct strbuf *sb, const struct cg_runs *rs, size_t row, unsigned flags)
{
	struct cg_method_info tmp;

	switch (runs_kind(rs, row)) {
	case CG_RUNS_TOTAL:
		strbuf_puts(sb, "total");
		break;
	case CG_RUNS_THREAD:
		strbuf_puts(sb, "[thread] ");
		strbuf_puts(sb, runs_thread(rs, row));
		break;
	case CG_RUNS_METHOD:
		javaname_put_method(sb, runs_method(rs, row, &tmp), flags);
		break;
	}
}

char *runs_fmt_value2(char *buf, uint64_t twice, int norm)
{
	if (norm) {
		/* parts per billion, twice: % with three decimals, rounded */
		uint64_t thou = (twice / 2 + 5000) / 10000;  /* thousandths of a % */

		snprintf(buf, 48, "%" PRIu64 ".%03" PRIu64 "%%", thou / 1000, thou % 1000);
		return buf;
	}
	fmt_ms(buf, twice / 2);
	if (twice % 2)
		strcat(buf, "5");
	return buf;
}

char *runs_fmt_change(char *buf, const struct cg_runs_stat *st)
{
	if (isinf(st->change))
		snprintf(buf, 32, "new");
	else
		snprintf(buf, 32, "%+.2f%%", st->change);
	return buf;
}

/* The range of a side in % of its median, rounded: "±3%"; "" without a
 * median. */
static char *range_text(char *buf, const struct cg_spread *s)
{
	uint64_t lo = s->median2 - 2 * s->min, hi = 2 * s->max - s->median2;
	uint64_t far = lo > hi ? lo : hi;

	if (!s->median2) {
		buf[0] = '\0';
		return buf;
	}
	snprintf(buf, 32, "\u00b1%.0f%%", (double)far * 100 / (double)s->median2);
	return buf;
}

static unsigned name_flags(const struct cg_report *r)
{
	return JN_SIG | (r->short_names ? JN_SHORT : 0);
}

static void text_head(const struct cg_report *r, struct strbuf *sb)
{
	const struct cg_runs *rs = r->runs;
	enum cg_clock_sel pri;
	int other = runs_has_other(rs, &pri);
	size_t side, i;
	static const char *const what[2] = { "Base:  ", "Later: " };

	strbuf_printf(sb, "Runs:     %zu base, %zu later\n", runs_count(rs, CG_RUNS_BASE),
		      runs_count(rs, CG_RUNS_LATER));
	if (r->has_range) {
		strbuf_puts(sb, "Window:   ");
		report_window_text(r, sb);
		strbuf_puts(sb, " in every run, on the wall clock from each one's first event\n");
	}
	for (side = 0; side < 2; side++) {
		for (i = 0; i < runs_count(rs, (enum cg_runs_side)side); i++) {
			uint64_t ot, t = runs_total(rs, (enum cg_runs_side)side, i, &ot);
			char a[32], b[32];

			strbuf_printf(sb, "%s   %s ms %s", what[side], fmt_ms(a, t),
				      runs_clock(rs, (enum cg_runs_side)side, i));
			if (other)
				strbuf_printf(sb, ", %s ms %s", fmt_ms(b, ot),
					      profile_clock_name(profile_other_clock(pri)));
			strbuf_printf(sb, "  %s\n", runs_file(rs, (enum cg_runs_side)side, i));
		}
	}
	if (other)
		strbuf_printf(sb, "Clock:    %s sorts; %s beside it\n", profile_clock_name(pri),
			      profile_clock_name(profile_other_clock(pri)));
	strbuf_printf(sb, "Values:   %s; median \u00b1 range (the farthest run from the median, "
			  "in %% of it)\n",
		      r->normalise ? "share of each run's total, in %" : "ms");
	strbuf_puts(sb, "Change:   of the medians, later vs base; ~ when not significant "
			"(p > 0.05)\n"
			"p:        two-sided Mann-Whitney U test; exact without ties, else normal "
			"with tie correction\n"
			"Calls:    median calls (+ recursive) per run; ! when they differ\n");
}

/* Median calls (twice over) as text: whole, or with ".5". */
static char *calls_text(char *buf, uint64_t twice)
{
	snprintf(buf, 32, "%" PRIu64 "%s", twice / 2, twice % 2 ? ".5" : "");
	return buf;
}

static void text_table(const struct cg_report *r, enum cg_runs_metric m, size_t *order,
		       struct strbuf *sb)
{
	const struct cg_runs *rs = r->runs;
	size_t n = runs_order(rs, m, r->normalise, order), i;
	char label[48];

	strbuf_printf(sb, "\n%s, significant changes first\n",
		      runs_metric_label(rs, m, label, sizeof(label)));
	strbuf_printf(sb, "%14s %5s %14s %5s %9s %6s %17s  %s\n", "base", "", "later", "",
		      "change", "p", "calls", "row");
	for (i = 0; i < n; i++) {
		struct cg_runs_stat st, cs;
		char b[48], l[48], rb[32], rl[32], ch[32], p[32], calls[80], c1[32], c2[32];
		size_t row = order[i];

		strbuf_spill(sb);
		runs_stat(rs, row, m, r->normalise, &st);
		calls[0] = '\0';
		if (runs_kind(rs, row) == CG_RUNS_METHOD) {
			runs_stat(rs, row, CG_RM_CALLS, 0, &cs);
			calls_text(c1, cs.side[0].median2);
			if (st.calls_changed)
				snprintf(calls, sizeof(calls), "%s->%s !", c1,
					 calls_text(c2, cs.side[1].median2));
			else
				snprintf(calls, sizeof(calls), "%s", c1);
		}
		snprintf(p, sizeof(p), "%.3f", st.test.p);
		/* the ranges' widths in characters: "\u00b1" is two bytes */
		range_text(rb, &st.side[0]);
		range_text(rl, &st.side[1]);
		strbuf_printf(sb, "%14s %*s %14s %*s %9s %6s %17s  ",
			      runs_fmt_value2(b, st.side[0].median2, r->normalise),
			      rb[0] ? 6 : 5, rb, runs_fmt_value2(l, st.side[1].median2, r->normalise),
			      rl[0] ? 6 : 5, rl,
			      st.significant ? runs_fmt_change(ch, &st) : "~", p, calls);
		runs_put_name(sb, rs, row, name_flags(r));
		strbuf_putc(sb, '\n');
	}
}

int render_runs_text(const struct cg_report *r, struct strbuf *out, struct cg_error *err)
{
	const struct cg_runs *rs = r->runs;
	size_t *order, k;

	if (!rs) {
		cg_error_set(err, -1, "no comparison to render (internal error)");
		return -1;
	}
	order = xcalloc(runs_rows(rs) + 1, sizeof(*order));
	text_head(r, out);
	for (k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
		if ((shown[k] != CG_RM_O_INCL && shown[k] != CG_RM_O_EXCL) || runs_has_other(rs, NULL))
			text_table(r, shown[k], order, out);
	free(order);
	return 0;
}

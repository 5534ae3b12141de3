/* render_runs_json.c - repeated runs as JSON: every run's file, totals and
 * values per row, and the statistics of the view asked for (schema:
 * docs/json.md, "Repeated runs"). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "render/javaname.h"
#include "render/text/render_runs.h"

static const char *const keys[CG_RM_COUNT] = { "incl_us", "excl_us", "o_incl_us", "o_excl_us",
					       "calls" };

/* Twice a value as a JSON number: whole, or with ".5". */
static void put_half(struct strbuf *sb, uint64_t twice)
{
	strbuf_put_u64(sb, twice / 2);
	if (twice % 2)
		strbuf_puts(sb, ".5");
}

static void put_side_runs(struct strbuf *sb, const struct cg_runs *rs)
{
	static const char *const side_key[2] = { "base", "later" };
	enum cg_clock_sel pri;
	int other = runs_has_other(rs, &pri);
	size_t side, i;

	strbuf_puts(sb, "  \"runs\": {");
	for (side = 0; side < 2; side++) {
		strbuf_printf(sb, "%s\"%s\": [", side ? ", " : "", side_key[side]);
		for (i = 0; i < runs_count(rs, (enum cg_runs_side)side); i++) {
			uint64_t ot, t = runs_total(rs, (enum cg_runs_side)side, i, &ot);

			strbuf_puts(sb, i ? ",\n    {\"file\": " : "\n    {\"file\": ");
			strbuf_put_json_string(sb, runs_file(rs, (enum cg_runs_side)side, i));
			strbuf_puts(sb, ", \"clock\": ");
			strbuf_put_json_string(sb, runs_clock(rs, (enum cg_runs_side)side, i));
			strbuf_printf(sb, ", \"total_us\": %" PRIu64, t);
			if (other)
				strbuf_printf(sb, ", \"o_total_us\": %" PRIu64, ot);
			strbuf_putc(sb, '}');
		}
		strbuf_puts(sb, "]");
	}
	strbuf_puts(sb, "},\n");
}

static void put_values(struct strbuf *sb, const struct cg_runs *rs, size_t row,
		       enum cg_runs_metric m, int norm, enum cg_runs_side side)
{
	size_t i;

	strbuf_putc(sb, '[');
	for (i = 0; i < runs_count(rs, side); i++) {
		if (i)
			strbuf_putc(sb, ',');
		strbuf_put_u64(sb, runs_value(rs, row, m, norm, side, i));
	}
	strbuf_putc(sb, ']');
}

static void put_metric(struct strbuf *sb, const struct cg_runs *rs, size_t row,
		       enum cg_runs_metric m, int norm)
{
	struct cg_runs_stat st;
	int n = norm && m != CG_RM_CALLS;

	runs_stat(rs, row, m, norm, &st);
	strbuf_printf(sb, ",\n     \"%s\": {\"base\": ", keys[m]);
	put_values(sb, rs, row, m, 0, CG_RUNS_BASE);
	strbuf_puts(sb, ", \"later\": ");
	put_values(sb, rs, row, m, 0, CG_RUNS_LATER);
	if (n) {
		strbuf_puts(sb, ", \"base_share_ppb\": ");
		put_values(sb, rs, row, m, 1, CG_RUNS_BASE);
		strbuf_puts(sb, ", \"later_share_ppb\": ");
		put_values(sb, rs, row, m, 1, CG_RUNS_LATER);
	}
	strbuf_puts(sb, ", \"median\": [");
	put_half(sb, st.side[0].median2);
	strbuf_putc(sb, ',');
	put_half(sb, st.side[1].median2);
	strbuf_printf(sb, "], \"min\": [%" PRIu64 ",%" PRIu64 "], \"max\": [%" PRIu64 ",%" PRIu64
			  "], \"change_pct\": ",
		      st.side[0].min, st.side[1].min, st.side[0].max, st.side[1].max);
	if (isinf(st.change))
		strbuf_puts(sb, "null");
	else
		strbuf_printf(sb, "%.6f", st.change);
	strbuf_printf(sb, ", \"u\": %.1f, \"p\": %.10g, \"exact\": %s, \"significant\": %s",
		      st.test.u, st.test.p, st.test.exact ? "true" : "false",
		      st.significant ? "true" : "false");
	if (m == CG_RM_CALLS)
		strbuf_printf(sb, ", \"changed\": %s", st.calls_changed ? "true" : "false");
	strbuf_putc(sb, '}');
}

int render_runs_json(const struct cg_report *r, struct strbuf *out, struct cg_error *err)
{
	static const char *const kind[] = { "total", "thread", "method" };
	const struct cg_runs *rs = r->runs;
	enum cg_clock_sel pri;
	int other;
	size_t row, m;

	if (!rs) {
		cg_error_set(err, -1, "no comparison to render (internal error)");
		return -1;
	}
	other = runs_has_other(rs, &pri);
	strbuf_puts(out, "{\n");
	put_side_runs(out, rs);
	strbuf_printf(out, "  \"clock\": \"%s\", \"other_clock\": ", profile_clock_name(pri));
	if (other)
		strbuf_printf(out, "\"%s\"", profile_clock_name(profile_other_clock(pri)));
	else
		strbuf_puts(out, "null");
	strbuf_printf(out, ", \"normalised\": %s, \"level\": %.2f,\n  \"rows\": [",
		      r->normalise ? "true" : "false", CG_RUNS_LEVEL);
	for (row = 0; row < runs_rows(rs); row++) {
		struct cg_method_info tmp;

		strbuf_spill(out);
		strbuf_printf(out, "%s\n    {\"kind\": \"%s\", \"name\": ", row ? "," : "",
			      kind[runs_kind(rs, row)]);
		if (runs_kind(rs, row) == CG_RUNS_METHOD) {
			struct strbuf name;
			const struct cg_method_info *mi = runs_method(rs, row, &tmp);

			strbuf_init(&name);
			javaname_put_method(&name, mi, JN_SIG);
			strbuf_put_json_string(out, name.len ? name.data : "");
			strbuf_free(&name);
			strbuf_puts(out, ", \"class\": ");
			strbuf_put_json_string(out, mi->klass);
			strbuf_puts(out, ", \"method\": ");
			strbuf_put_json_string(out, mi->name);
			strbuf_puts(out, ", \"signature\": ");
			strbuf_put_json_string(out, mi->sig);
		} else {
			strbuf_put_json_string(out, runs_kind(rs, row) == CG_RUNS_TOTAL ? "total"
									 : runs_thread(rs, row));
		}
		for (m = 0; m < CG_RM_COUNT; m++)
			if (runs_has_metric(rs, row, (enum cg_runs_metric)m))
				put_metric(out, rs, row, (enum cg_runs_metric)m, r->normalise);
		strbuf_putc(out, '}');
	}
	strbuf_puts(out, "\n  ]\n}\n");
	return 0;
}

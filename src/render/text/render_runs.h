/* render_runs.h - a comparison of repeated runs (report.runs, runs.h) as a
 * benchstat-like text table, as JSON with every run's value, and as an
 * HTML page with each run's value drawn as a dot.
 *
 * Text and HTML show per row and metric each side's median with its range
 * (the largest distance from the median to the least or the greatest run,
 * in % of the median), the change of the medians in %, or "~" when it is
 * not significant, the Mann-Whitney p-value and the calls per run, flagged
 * when their medians differ.  Times are milliseconds with three decimals
 * (a median halfway between two microseconds gets a fourth, "5"); under
 * report.normalise values are shares of their run's total in %.
 *
 * The renderers borrow the report (report.runs must be set) and append to
 * out; they return 0, or -1 with err filled. */
#ifndef CG_RENDER_RUNS_H
#define CG_RENDER_RUNS_H

#include <stdint.h>

#include "model/runs.h"
#include "render/report.h"
#include "util/strbuf.h"
#include "util/util.h"

int render_runs_text(const struct cg_report *r, struct strbuf *out, struct cg_error *err);
int render_runs_json(const struct cg_report *r, struct strbuf *out, struct cg_error *err);
int render_runs_html(const struct cg_report *r, struct strbuf *out, struct cg_error *err);

/* Shared by the three and the --fail-if-slower lines. */

/* The metric's label, "incl wall", "self cpu", "calls", for the runs'
 * clocks. */
const char *runs_metric_label(const struct cg_runs *rs, enum cg_runs_metric m, char *buf,
			      size_t size);
/* A row's name appended: "total", "thread NAME", or the method's Java
 * name (flags as javaname_put_method). */
void runs_put_name(struct strbuf *sb, const struct cg_runs *rs, size_t row, unsigned flags);
/* A value twice over (a median2) as text: ms with three decimals (and a
 * fourth for a half microsecond), or under norm a share in % with three
 * decimals.  Returns buf (48 bytes at least). */
char *runs_fmt_value2(char *buf, uint64_t twice, int norm);
/* The change of a stat: "+12.34%", "-0.50%", "new" (no base), "0.00%". */
char *runs_fmt_change(char *buf, const struct cg_runs_stat *st);

#endif

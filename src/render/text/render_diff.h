/* render_diff.h - the -d comparison as a text table or a small
 * self-contained HTML page (inline CSS and JS sorting; no network
 * reference; every name escaped).
 *
 * later is the later run's report; later->diff must be set (diff_create of
 * the base and the later all-thread view), and says what the base was.
 * Methods are shown with their decoded Java names (javaname.h, packages
 * shortened under later->short_names); the HTML keeps the raw names in
 * tooltips.  Times are
 * milliseconds with three decimals, differences later - base (negative
 * when faster), ratio later / base inclusive ("-" when base is 0).
 * The renderers borrow the report and append to out; they return 0, or
 * -1 with err filled. */
#ifndef CG_RENDER_DIFF_H
#define CG_RENDER_DIFF_H

#include "render/report.h"
#include "util/strbuf.h"
#include "util/util.h"

int render_diff_text(const struct cg_report *later, struct strbuf *out, struct cg_error *err);
int render_diff_html(const struct cg_report *later, struct strbuf *out, struct cg_error *err);

#endif

/* render_timeline.h - the HTML report's timeline and flame-graph section
 * (markup, style, data and script), appended to the page by render_html.c.
 * Uses r->timeline (timeline.h) and r->cct (cct.h) when present; borrows
 * everything. */
#ifndef CG_RENDER_TIMELINE_H
#define CG_RENDER_TIMELINE_H

#include "render/report.h"

/* Append the section to out.  Returns 0 (or -1 with err filled). */
int render_timeline_section(const struct cg_report *r, struct strbuf *out, struct cg_error *err);

#endif

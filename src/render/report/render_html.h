/* render_html.h - the self-contained HTML report (inline CSS, JS and SVG;
 * no network reference).  Every trace-derived string is escaped. */
#ifndef CG_RENDER_HTML_H
#define CG_RENDER_HTML_H

#include "render/report.h"

extern const struct cg_renderer render_html;

#endif

/* render_text.h - the text profile: threads, exclusive table, inclusive
 * table with each method's parents and children, per-class summary. */
#ifndef CG_RENDER_TEXT_H
#define CG_RENDER_TEXT_H

#include "render/report.h"

extern const struct cg_renderer render_text;

#endif

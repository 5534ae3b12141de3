/* render_json.h - the whole profile as JSON, in spec.md's schema. */
#ifndef CG_RENDER_JSON_H
#define CG_RENDER_JSON_H

#include "render/report.h"

extern const struct cg_renderer render_json;

#endif

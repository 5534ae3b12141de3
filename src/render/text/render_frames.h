/* render_frames.h - the frames (model/frames.h) in the text profile and in
 * JSON. */
#ifndef CG_RENDER_FRAMES_H
#define CG_RENDER_FRAMES_H

#include "render/report.h"
#include "util/strbuf.h"

/* The text profile's frames section (--frames): the count, percentiles of
 * the durations on both clocks with the off-CPU share, and the slowest
 * frames with the methods that spent the most time inside each. */
void frames_text(const struct cg_report *r, struct strbuf *sb);

/* `"frames": {...}` (its leading ",\n  " included) when the report has
 * frames: the method pattern, the count, the percentiles, every frame, and
 * the slowest frames' methods. */
void frames_json(const struct cg_report *r, struct strbuf *sb);

#endif

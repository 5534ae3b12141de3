/* gv_text.h - label text and colours of the call graph (render_gv.c and the
 * files split from it).
 *
 * Names are bytes from the trace: gv_text_put makes them valid UTF-8 (bad
 * bytes, control characters and U+FFFE/U+FFFF become U+FFFD) and escapes
 * them for dot's escString ('\' doubled) and its entity expansion ('&' as
 * "&amp;"); cgraph quotes the rest.  Colours are computed in integer steps,
 * so the same numbers give the same bytes everywhere.
 */
#ifndef CG_GV_TEXT_H
#define CG_GV_TEXT_H

#include <stdint.h>

#include "util/strbuf.h"

/* Append raw trace text s to sb, cleaned and escaped; with slash_dot, '/'
 * becomes '.' (JVM class names).  tmp is scratch. */
void gv_text_put(struct strbuf *sb, struct strbuf *tmp, const char *s, int slash_dot);

/* Longest text drawn in a label, in characters: longer names (a
 * 1 000 000-character name made Pango fail and Graphviz write a 32767 x 1
 * pixel PNG) keep their first and last characters around an ellipsis.  The
 * longest label of the corpus traces has 112. */
#define GV_LABEL_MAX 120

/* gv_text_put for label text: past GV_LABEL_MAX characters, the first
 * GV_LABEL_MAX / 2 and the last GV_LABEL_MAX / 2 - 1 around U+2026. */
void gv_text_put_label(struct strbuf *sb, struct strbuf *tmp, const char *s);

/* Position on the colour and width scales for a share of the total, in
 * permille: the square root of the share, so that 1 % of the total is a
 * tenth of the way and 25 % half of it (a linear scale leaves every node
 * of a thread worth 8 % of the total at the cold end). */
unsigned gv_text_scale_pos(uint64_t part, uint64_t whole);

/* Temperature colour "#rrggbb" at scale position pos (permille), from blue
 * to red; buf holds 8 bytes. */
void gv_text_scale_color(char *buf, unsigned pos);

/* A percentage for legends, "%g%%": 0.5%, 0.1%, 20%. */
void gv_text_put_pct(struct strbuf *sb, double pct);

#endif

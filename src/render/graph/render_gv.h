/* render_gv.h - the call graph through Graphviz (libcgraph builds the graph,
 * libgvc lays it out and renders it to memory; no command is ever run).
 *
 * The graph is the view pruned by filter_prune with r->threshold and
 * r->max_nodes: a root node per thread ("t<tid>"), one node per kept method
 * ("m0x<hex id>", lower-case hex as in the key, e.g. m0x4; the SVG <g> of a
 * node carries the same string as its id), kept edges, a dashed self-loop
 * for each kept method that recursed, and a legend node ("legend").
 *
 * With r->diff set (-d), method nodes are also coloured and labelled by
 * their change against the base run.
 *
 * Ownership: the renderer borrows r and v and appends to out, which the
 * caller owns; nothing of the graph is retained between calls.  One
 * Graphviz context serves the whole process (created on first use, never
 * freed: Graphviz 2.42 misbehaves when contexts are freed and re-created),
 * so these functions are not thread-safe.  Graphviz messages are captured
 * (never printed): a failure's message ends up in err.
 */
#ifndef CG_RENDER_GV_H
#define CG_RENDER_GV_H

#include <stddef.h>

#include "model/profile.h"
#include "render/report.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Render the call graph of view v into out in `format` ("dot", "gv", "png", "svg", "pdf", or any
   format the installed Graphviz offers). For "dot"/"gv" the output is dot source meant for hand
   editing. Returns 0, or -1 with err filled (unknown format, layout or render failure). */
int render_graph(const struct cg_report *r, const struct cg_view *v, const char *format,
                 struct strbuf *out, struct cg_error *err);

/* The warnings of the last render_graph call, one a line ("\n" after
   each), or NULL: a graph too deep for a layered layout within seconds,
   drawn another way, and Graphviz's own messages (its warnings, and what
   its plugins print: glib, Pango, fontconfig), each once, with no process
   id or clock time.  Valid until the next render_graph call. */
const char *render_graph_warnings(void);

/* 0 when data (len bytes rendered as format base, lower case without ':')
   is a real drawing, else -1 with err set: nothing at all, or a PNG of an
   absurd size (Graphviz 2.43 wrote a 32767 x 1 pixel PNG when Pango failed
   on a giant label, and an empty file when cairo could not make its
   surface).  render_graph checks every drawing with it. */
int render_graph_check(const char *base, const void *data, size_t len, struct cg_error *err);

/* 1 when the installed Graphviz can render `format`. */
int render_graph_has_format(const char *format);

/* Format implied by a file name's extension ("out.svg" -> "svg", ".gv" -> "dot"); NULL when none.
   The result is "dot" or points into path (so it lives as long as path); it may be upper-case
   ("OUT.SVG"): render_graph and render_graph_has_format ignore case. */
const char *render_graph_format_for(const char *path);

#endif

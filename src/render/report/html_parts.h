/* html_parts.h - parts of the HTML report (render_html.c): the threads the
 * page lists or folds, and the call graphs it embeds as inline SVG. */
#ifndef CG_HTML_PARTS_H
#define CG_HTML_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "render/report.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Inline SVG budget over all views.  The All-threads graph is always
 * included; per-thread graphs follow, busiest thread first, while the total
 * stays under this and there are at most HTML_THREAD_GRAPHS of them (each is
 * a Graphviz layout, so the count also bounds the run time). */
#define HTML_SVG_BUDGET ((size_t)3 << 20)
#define HTML_THREAD_GRAPHS 8

/* Many threads: the page lists the threads timeline_fold chooses (see
 * timeline.h) and folds the others into one "N idle threads" entry with
 * their summed records and times and no view of its own.  Their time stays
 * in the all-threads view, where their root edges are merged into the
 * entry's.  So the page holds O(TL_THREADS_MAX x per-thread bounds) of
 * per-thread data whatever the number of threads, and no per-thread view
 * is built for a folded thread. */
struct html_fold {
	int32_t *map;         /* thread index -> page index, -1 folded; NULL: all */
	size_t nlisted, nfolded;
	uint64_t records, incl_us, excl_us;
};

/* The graphs chosen for a report: svg[g] is graph g's markup, graph_of[vi]
 * the graph of view vi (0 = all threads, 1 + ti = thread ti) or -1. */
struct html_graphs {
	struct strbuf svg[HTML_THREAD_GRAPHS + 1];
	int *graph_of;
	size_t ngraphs;
	size_t thread_graphs; /* per-thread graphs drawn (not counting reuse) */
	size_t with_methods;  /* threads on which some method ran */
};

/* Append the n bytes at s to out as text an HTML parser accepts without
 * error: invalid UTF-8 and control characters other than tab, LF and CR
 * become U+FFFD. */
void html_put_clean(struct strbuf *out, const char *str, size_t n);
/* Append s as HTML text or attribute value: escaped, cleaned as
 * html_put_clean, and the ':' of any "://" written as "&#58;" so no
 * trace-derived string reads as a network reference. */
void html_put_text(struct strbuf *sb, const char *s);
/* Append s as a quoted JSON string that is safe inside <script>: <, >, & as
 * \u003c, \u003e, \u0026 and the ':' of "://" as \u003a. */
void html_put_jstr(struct strbuf *sb, const char *s);
/* Choose the threads the page lists (timeline_fold) and add up the others. */
void html_fold_threads(const struct cg_view *all, struct html_fold *F);
/* 1 when thread i is listed on its own. */
int html_fold_listed(const struct html_fold *F, size_t i);
/* Thread i's index in the page (the folded entry's, nlisted, when folded). */
size_t html_fold_page(const struct html_fold *F, size_t i);
/* Release what G holds; G stays reusable as a zeroed struct. */
void html_graphs_free(struct html_graphs *G);
/* Choose and render the graphs: always all threads; then the busiest
 * threads within HTML_SVG_BUDGET and HTML_THREAD_GRAPHS.  A single-thread
 * trace reuses the all-threads graph.  Returns 0 or -1 (err filled). */
int html_graphs_make(const struct cg_report *r, const struct html_fold *F, struct html_graphs *G,
		     struct cg_error *err);
/* The graph section: zoom buttons, what is left out, one div per graph. */
void html_graphs_put(const struct cg_report *r, const struct html_graphs *G, size_t nthreads,
		     struct strbuf *sb);

#endif

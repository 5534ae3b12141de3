/* html_parts.c - the threads the HTML report lists or folds, and the call
 * graphs it embeds as inline SVG (see html_parts.h). */
#include "render/report/html_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/graph/render_gv.h"
#include "model/timeline.h"

/* Append the n bytes at s to out as text an HTML parser accepts without
 * error: invalid UTF-8 and control characters other than tab, LF and CR
 * become U+FFFD. */
void html_put_clean(struct strbuf *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n, *run = s;
	size_t k;

	while (s < end) {
		if ((*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r') || *s == 0x7f ||
		    (k = strbuf_utf8_len(s)) == 0 || (size_t)(end - s) < k) {
			strbuf_add(out, run, (size_t)(s - run));
			strbuf_puts(out, "\xef\xbf\xbd");
			run = ++s;
		} else {
			s += k;
		}
	}
	strbuf_add(out, run, (size_t)(s - run));
}

/* Append s as HTML text or attribute value: escaped by strbuf_put_html,
 * cleaned as put_clean, and with the ':' of any "://" written as "&#58;" so
 * no trace-derived string reads as a network reference. */
void html_put_text(struct strbuf *sb, const char *s)
{
	struct strbuf clean;
	char *p, *hit;

	strbuf_init(&clean);
	html_put_clean(&clean, s, strlen(s));
	p = clean.data ? clean.data : "";
	while ((hit = strstr(p, "://")) != NULL) {
		*hit = '\0';
		strbuf_put_html(sb, p);
		strbuf_puts(sb, "&#58;");
		p = hit + 1;
	}
	strbuf_put_html(sb, p);
	strbuf_free(&clean);
}

/* Append s as a quoted JSON string that is safe inside <script>: <, >, & as
 * \u003c, \u003e, \u0026 and the ':' of "://" as \u003a. */
void html_put_jstr(struct strbuf *sb, const char *s)
{
	struct strbuf tmp;
	size_t i;

	strbuf_init(&tmp);
	strbuf_put_json(&tmp, s);
	strbuf_putc(sb, '"');
	for (i = 0; i < tmp.len; i++) {
		char c = tmp.data[i];

		if (c == '<')
			strbuf_puts(sb, "\\u003c");
		else if (c == '>')
			strbuf_puts(sb, "\\u003e");
		else if (c == '&')
			strbuf_puts(sb, "\\u0026");
		else if (c == ':' && tmp.len - i >= 3 && tmp.data[i + 1] == '/' && tmp.data[i + 2] == '/')
			strbuf_puts(sb, "\\u003a");
		else
			strbuf_putc(sb, c);
	}
	strbuf_putc(sb, '"');
	strbuf_free(&tmp);
}

/* 1 when the bytes from p (up to end) begin with lit. */
static int starts(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0;
}

/* Append Graphviz SVG output (n bytes) as inline HTML5 SVG: from "<svg" to
 * the last "</svg>", without comments or xmlns attributes, with every id and
 * local reference prefixed by `prefix` (so several graphs can share the page)
 * and "://" broken as ":&#47;/".  Returns 0, or -1 with err filled when the
 * bytes hold no <svg> element. */
static int put_svg(struct strbuf *sb, const char *svg, size_t n, const char *prefix,
		   struct cg_error *err)
{
	struct strbuf clean;
	const char *p, *end, *run;
	int rc = -1;

	strbuf_init(&clean);
	html_put_clean(&clean, svg, n);
	p = clean.data ? strstr(clean.data, "<svg") : NULL;
	end = NULL;
	if (p) {
		const char *q;

		for (q = strstr(p, "</svg>"); q; q = strstr(q + 1, "</svg>"))
			end = q + 6;
	}
	if (!p || !end) {
		cg_error_set(err, -1, "Graphviz produced no SVG for the HTML report");
		goto out;
	}
	for (run = p; p < end;) {
		const char *q;

		if (starts(p, end, "<!--")) {
			strbuf_add(sb, run, (size_t)(p - run));
			q = strstr(p + 4, "-->");
			p = q ? q + 3 : end;
			run = p;
		} else if (starts(p, end, " xmlns=\"") || starts(p, end, " xmlns:")) {
			strbuf_add(sb, run, (size_t)(p - run));
			q = memchr(p, '"', (size_t)(end - p));
			q = q ? memchr(q + 1, '"', (size_t)(end - q - 1)) : NULL;
			p = q ? q + 1 : end;
			run = p;
		} else if (*prefix && (starts(p, end, " id=\"") || starts(p, end, "url(#") ||
				       starts(p, end, "href=\"#"))) {
			size_t k = p[0] == ' ' ? 5 : p[0] == 'u' ? 5 : 7;

			strbuf_add(sb, run, (size_t)(p - run) + k);
			strbuf_puts(sb, prefix);
			p += k;
			run = p;
		} else if (starts(p, end, "://")) {
			strbuf_add(sb, run, (size_t)(p - run));
			strbuf_puts(sb, ":&#47;/");
			p += 3;
			run = p;
		} else {
			p++;
		}
	}
	strbuf_add(sb, run, (size_t)(p - run));
	strbuf_putc(sb, '\n');
	rc = 0;
out:
	strbuf_free(&clean);
	return rc;
}

/* Release what G holds; G stays reusable as a zeroed struct. */
void html_graphs_free(struct html_graphs *G)
{
	size_t i;

	for (i = 0; i < HTML_THREAD_GRAPHS + 1; i++)
		strbuf_free(&G->svg[i]);
	free(G->graph_of);
	G->graph_of = NULL;
}

/* A thread index with its inclusive time, to order threads by how busy. */
struct busy {
	uint64_t incl_us;
	size_t index;
};

/* qsort order of threads: inclusive time descending, then index. */
static int cmp_busy(const void *a, const void *b)
{
	const struct busy *x = a, *y = b;

	if (x->incl_us != y->incl_us)
		return x->incl_us > y->incl_us ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Choose the threads the page lists (timeline_fold) and add up the others. */
void html_fold_threads(const struct cg_view *all, struct html_fold *F)
{
	size_t i;

	memset(F, 0, sizeof(*F));
	F->map = timeline_fold(all, &F->nlisted);
	for (i = 0; F->map && i < all->nthreads; i++) {
		const struct cg_pthread *t = &all->threads[i];

		if (F->map[i] >= 0)
			continue;
		F->nfolded++;
		F->records += t->records;
		F->incl_us += t->incl_us;
		F->excl_us += t->excl_us;
	}
}

/* 1 when thread i is listed on its own. */
int html_fold_listed(const struct html_fold *F, size_t i)
{
	return !F->map || F->map[i] >= 0;
}

/* Thread i's index in the page (the folded entry's, nlisted, when folded). */
size_t html_fold_page(const struct html_fold *F, size_t i)
{
	return !F->map ? i : F->map[i] >= 0 ? (size_t)F->map[i] : F->nlisted;
}

/* Render view v as graph number G->ngraphs.  Returns 1 when it was added, 0
 * when it would overrun *budget (nothing added), -1 on a Graphviz error. */
static int add_graph(const struct cg_report *r, const struct cg_view *v, struct html_graphs *G,
		     size_t *budget, struct cg_error *err)
{
	struct strbuf raw, *out = &G->svg[G->ngraphs];
	char prefix[32];
	int rc = -1;

	strbuf_init(&raw);
	if (G->ngraphs)
		snprintf(prefix, sizeof(prefix), "g%zu-", G->ngraphs);
	else
		prefix[0] = '\0';
	if (render_graph(r, v, "svg", &raw, err) < 0 ||
	    put_svg(out, raw.data ? raw.data : "", raw.len, prefix, err) < 0)
		goto out;
	if (G->ngraphs && out->len > *budget) {
		strbuf_free(out);
		rc = 0;
		goto out;
	}
	*budget = out->len > *budget ? 0 : *budget - out->len;
	G->ngraphs++;
	rc = 1;
out:
	strbuf_free(&raw);
	return rc;
}

/* Choose and render the graphs: always all threads; then the busiest
 * threads within HTML_SVG_BUDGET and HTML_THREAD_GRAPHS.  A single-thread
 * trace reuses the all-threads graph.  Returns 0 or -1 (err filled). */
int html_graphs_make(const struct cg_report *r, const struct html_fold *F, struct html_graphs *G,
		       struct cg_error *err)
{
	struct cg_profile *p = r->profile;
	const struct cg_view *all = profile_view(p, -1);
	size_t nt = profile_thread_count(p), budget = HTML_SVG_BUDGET, i;
	struct busy *order = xmalloc((nt + 1) * sizeof(*order));
	int rc = -1, added;

	G->graph_of = xmalloc((nt + 1) * sizeof(*G->graph_of));
	for (i = 0; i <= nt; i++)
		G->graph_of[i] = -1;
	if (add_graph(r, all, G, &budget, err) < 0)
		goto out;
	G->graph_of[0] = 0;
	for (i = 0; i < nt; i++) {
		order[i].incl_us = all->threads[i].incl_us;
		order[i].index = i;
		if (html_fold_listed(F, i) && profile_view(p, (int)i)->nmethods)
			G->with_methods++;
	}
	if (nt == 1) {
		G->graph_of[1] = 0;
		rc = 0;
		goto out;
	}
	qsort(order, nt, sizeof(*order), cmp_busy);
	for (i = 0; i < nt && G->thread_graphs < HTML_THREAD_GRAPHS; i++) {
		const struct cg_view *v;

		if (!html_fold_listed(F, order[i].index))
			continue;
		v = profile_view(p, (int)order[i].index);
		if (!v->nmethods)
			continue;
		added = add_graph(r, v, G, &budget, err);
		if (added < 0)
			goto out;
		if (added == 0)
			break;
		G->graph_of[1 + order[i].index] = (int)(G->ngraphs - 1);
		G->thread_graphs++;
	}
	rc = 0;
out:
	free(order);
	return rc;
}



/* The graph section: zoom buttons, what is left out, one div per graph
 * (graph 0, all threads, visible; the script shows the current view's). */
void html_graphs_put(const struct cg_report *r, const struct html_graphs *G, size_t nthreads,
		       struct strbuf *sb)
{
	size_t g;

	strbuf_puts(sb, "<section id=\"graph\">\n<h2>Call graph</h2>\n<div class=\"graphbar\">"
			"<button type=\"button\" id=\"zoom-out\" title=\"Zoom out\">-</button>"
			"<button type=\"button\" id=\"zoom-in\" title=\"Zoom in\">+</button>"
			"<button type=\"button\" id=\"zoom-1\" title=\"Actual size\">1:1</button>"
			"<button type=\"button\" id=\"zoom-fit\" title=\"Fit the width\">Fit</button>");
	strbuf_printf(sb, "<span>Click a node to find its row. Edges under %g %% of the caller's "
			  "time are left out (-t).", r->threshold);
	if (nthreads > 1 && G->thread_graphs < G->with_methods)
		strbuf_printf(sb, " To stay small the report draws all threads and the %zu busiest "
				  "of %zu threads.", G->thread_graphs, G->with_methods);
	strbuf_puts(sb, "</span></div>\n<div id=\"graphs\">\n");
	for (g = 0; g < G->ngraphs; g++) {
		strbuf_printf(sb, "<div class=\"graphview\" id=\"graph-%zu\" data-prefix=\"", g);
		if (g)
			strbuf_printf(sb, "g%zu-", g);
		strbuf_printf(sb, "\"%s>\n", g ? " hidden" : "");
		strbuf_add(sb, G->svg[g].data, G->svg[g].len);
		strbuf_puts(sb, "</div>\n");
	}
	strbuf_puts(sb, "<p id=\"graph-note\" hidden></p>\n</div>\n</section>\n");
}


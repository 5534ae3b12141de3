/* render_gv.c - the call graph through libcgraph and libgvc; the only file
 * that includes Graphviz.
 *
 * The graph is built with agnode/agedge/agsafeset in a fixed order (legend,
 * roots in thread order, methods in view order, edges in view order, then
 * the recursion loops), so the same view always gives the same bytes.  Dot
 * source is written with agwrite into the output buffer; every other format
 * is laid out with dot and rendered with gvRenderData.  Names are bytes from
 * the trace: each label is made valid UTF-8 (bad bytes and control
 * characters become U+FFFD) and escaped for dot's escString ('\' doubled)
 * and its entity expansion ('&' as "&amp;"); cgraph quotes the rest.
 */
#include "render_gv.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cgraph.h>
#include <gvc.h>

#include "diff.h"
#include "filter.h"

/* A class name longer than this (in characters) has its package shown as
 * initials: com.example.app.ui.SomeVeryLongActivityName -> c.e.a.u.Some... */
#define CLASS_MAX 40

/* Longest format name accepted ("png:cairo:cairo" fits easily). */
#define FORMAT_MAX 64

/* ---- Graphviz messages ------------------------------------------------------
 * libcgraph hands every message (libgvc's too) to one callback that takes no
 * context argument, so the messages of the call in progress are collected
 * here.  With gv_proc below, this is the file's only mutable state; both
 * exist because of Graphviz, which is not reentrant anyway. */
static struct {
	char line[512];   /* the message being received, or the last one */
	size_t len;
	int done;         /* line holds a whole message (its "\n" arrived) */
	char error[512];  /* the last message of level "Error", without prefix */
} gv_log;

/* agusererrf: messages arrive in pieces ("Error", ": ", "text\n"); one
 * longer than the buffer is cut. */
static int gv_log_put(char *s)
{
	size_t n = strlen(s), room;
	int ends = n && s[n - 1] == '\n';

	if (gv_log.done) {
		gv_log.len = 0;
		gv_log.done = 0;
	}
	room = sizeof(gv_log.line) - 1 - gv_log.len;
	memcpy(gv_log.line + gv_log.len, s, n < room ? n : room);
	gv_log.len += n < room ? n : room;
	gv_log.line[gv_log.len] = '\0';
	if (!ends)
		return 0;
	gv_log.done = 1;
	if (strncmp(gv_log.line, "Error: ", 7) == 0)
		snprintf(gv_log.error, sizeof(gv_log.error), "%.*s",
			 (int)strcspn(gv_log.line + 7, "\n"), gv_log.line + 7);
	return 0;
}

struct gv_saved {
	agusererrf errf;
	agerrlevel_t level;
};

/* Send every Graphviz message, warnings included, to gv_log (so none
 * reaches stderr) until log_end restores the previous handler. */
static void log_begin(struct gv_saved *saved)
{
	memset(&gv_log, 0, sizeof(gv_log));
	saved->errf = agseterrf(gv_log_put);
	saved->level = agseterr(AGWARN);
	agreseterrors();
}

static void log_end(const struct gv_saved *saved)
{
	agseterrf(saved->errf);
	agseterr(saved->level);
}

/* The most useful captured message: the last error, else the last
 * message, else `fallback`. */
static const char *log_message(const char *fallback)
{
	size_t n = gv_log.len;

	if (gv_log.error[0])
		return gv_log.error;
	while (n && (gv_log.line[n - 1] == '\n' || gv_log.line[n - 1] == ' '))
		gv_log.line[--n] = '\0';
	return n ? gv_log.line : fallback;
}

/* ---- formats ---------------------------------------------------------------- */

/* Devices that open a window rather than produce bytes. */
static int interactive_device(const char *base)
{
	/* Also the devices that do not work in the Graphviz we build with
	 * (2.42/2.43): vdx crashes on any node with a tooltip; gd, gd2, ico
	 * and ismap write nothing.  They are not offered. */
	static const char *const refused[] = { "x11", "xlib", "gtk", "vdx", "gd", "gd2", "ico",
					       "ismap" };
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strcmp(base, refused[i]) == 0)
			return 1;
	return 0;
}

/* Lower-case copy of format into buf (FORMAT_MAX bytes) and its device
 * name (the part before any ':') into base.  0, or -1 when too long or
 * empty. */
static int format_norm(const char *format, char *buf, char *base)
{
	size_t i;

	if (!format || !format[0] || strlen(format) >= FORMAT_MAX)
		return -1;
	for (i = 0; format[i]; i++)
		buf[i] = (format[i] >= 'A' && format[i] <= 'Z') ? (char)(format[i] - 'A' + 'a') : format[i];
	buf[i] = '\0';
	for (i = 0; buf[i] && buf[i] != ':'; i++)
		base[i] = buf[i];
	base[i] = '\0';
	return base[0] ? 0 : -1;
}

static int is_dot_source(const char *base)
{
	return strcmp(base, "dot") == 0 || strcmp(base, "gv") == 0;
}

/* Formats named first in the list of what Graphviz offers. */
static int listed_first(const char *name)
{
	return is_dot_source(name) || strcmp(name, "svg") == 0 || strcmp(name, "png") == 0 ||
	       strcmp(name, "pdf") == 0;
}

/* The formats gvc renders to bytes, as " dot gv svg png pdf <the rest in
 * Graphviz's order> " (spaces at both ends for lookups).  Caller frees. */
static char *list_formats(GVC_t *gvc)
{
	static const char *const first[] = { "svg", "png", "pdf" };
	int n = 0, i;
	size_t k;
	char **names = gvPluginList(gvc, "device", &n, NULL);
	struct strbuf list;

	strbuf_init(&list);
	strbuf_puts(&list, " dot gv ");
	for (k = 0; k < sizeof(first) / sizeof(first[0]); k++)
		for (i = 0; names && i < n; i++)
			if (strcmp(names[i], first[k]) == 0) {
				strbuf_printf(&list, "%s ", first[k]);
				break;
			}
	for (i = 0; names && i < n; i++)
		if (!interactive_device(names[i]) && !listed_first(names[i]))
			strbuf_printf(&list, "%s ", names[i]);
	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	return strbuf_detach(&list, NULL);
}

/* ---- the context -------------------------------------------------------------
 * One Graphviz context serves the whole process: created on first use, never
 * freed (still reachable, so leak checkers do not count it).  Graphviz 2.42's
 * pango text-layout plugin caches, in a static variable, a pointer to a font
 * name owned by the context; once that context is freed, the first layout in
 * the next one reads freed memory (ASan: heap-use-after-free in strcmp from
 * libgvplugin_pango).  A single context keeps the pointer valid, so the
 * usual per-call gvContext/gvFreeContext pair is deliberately not used.  Its
 * format list is read once too (gvPluginList leaks a few strings per call
 * in 2.42). */
static struct {
	GVC_t *gvc;
	char *formats;  /* from list_formats */
} gv_proc;

static GVC_t *gv_context(void)
{
	if (!gv_proc.gvc) {
		gv_proc.gvc = gvContext();
		if (gv_proc.gvc)
			gv_proc.formats = list_formats(gv_proc.gvc);
	}
	return gv_proc.gvc;
}

/* 1 when the context renders the device base (lower case, no ':'). */
static int format_known(const char *base)
{
	char key[FORMAT_MAX + 2];

	if (!gv_proc.formats || interactive_device(base))
		return 0;
	snprintf(key, sizeof(key), " %s ", base);
	return strstr(gv_proc.formats, key) != NULL;
}

int render_graph_has_format(const char *format)
{
	char buf[FORMAT_MAX], base[FORMAT_MAX];
	struct gv_saved saved;
	GVC_t *gvc;
	int ok = 0;

	if (format_norm(format, buf, base) < 0)
		return 0;
	if (is_dot_source(base))
		return 1;
	if (interactive_device(base))
		return 0;
	log_begin(&saved);
	gvc = gv_context();
	if (gvc)
		ok = format_known(base);
	log_end(&saved);
	return ok;
}

/* (The parameter is not called path: Graphviz's types.h has a type by that name.) */
const char *render_graph_format_for(const char *file)
{
	const char *slash, *dot;

	if (!file)
		return NULL;
	slash = strrchr(file, '/');
	dot = strrchr(slash ? slash + 1 : file, '.');
	if (!dot || !dot[1])
		return NULL;
	if (strcasecmp(dot + 1, "gv") == 0 || strcasecmp(dot + 1, "dot") == 0)
		return "dot";
	return dot + 1;
}

/* ---- text ------------------------------------------------------------------- */

/* 1 for U+FFFE and U+FFFF (n == 3): well-formed UTF-8, but characters XML
 * (so SVG) does not allow. */
static int xml_forbidden(const unsigned char *p, size_t n)
{
	return n == 3 && p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf);
}

/* Append s made valid: a byte that does not start a well-formed sequence,
 * a control character and U+FFFE/U+FFFF each become U+FFFD; with
 * slash_dot, '/' becomes '.' (JVM class names). */
static void put_clean(struct strbuf *sb, const char *s, int slash_dot)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = strbuf_utf8_len(p);

		if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f)) || xml_forbidden(p, n)) {
			strbuf_puts(sb, "\xef\xbf\xbd");
			p += n ? n : 1;
		} else if (n == 1 && slash_dot && *p == '/') {
			strbuf_putc(sb, '.');
			p++;
		} else {
			strbuf_add(sb, p, n);
			p += n;
		}
	}
}

/* Append n bytes of clean text escaped for a dot label or tooltip: '\'
 * would start an escString escape (\n, \N, \l ...), '&' an entity. */
static void put_esc_n(struct strbuf *sb, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\')
			strbuf_puts(sb, "\\\\");
		else if (s[i] == '&')
			strbuf_puts(sb, "&amp;");
		else
			strbuf_putc(sb, s[i]);
	}
}

/* Append raw trace text, cleaned and escaped; tmp is scratch. */
static void put_text(struct strbuf *sb, struct strbuf *tmp, const char *s, int slash_dot)
{
	strbuf_reset(tmp);
	put_clean(tmp, s, slash_dot);
	put_esc_n(sb, tmp->data ? tmp->data : "", tmp->len);
}

static size_t utf8_count(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Append the label name of m: "pkg.Class.method" with the package shown as
 * initials when the class is long.  tmp is scratch. */
static void put_display(struct strbuf *sb, struct strbuf *tmp, const struct cg_method_info *m)
{
	const char *cls, *last, *p;

	strbuf_reset(tmp);
	put_clean(tmp, m->klass, 1);
	cls = tmp->data ? tmp->data : "";
	last = strrchr(cls, '.');
	if (last && utf8_count(cls) > CLASS_MAX) {
		for (p = cls; p < last;) {
			const char *q = strchr(p, '.');

			if (q > p)
				put_esc_n(sb, p, strbuf_utf8_len((const unsigned char *)p));
			strbuf_putc(sb, '.');
			p = q + 1;
		}
		put_esc_n(sb, last + 1, strlen(last + 1));
	} else {
		put_esc_n(sb, cls, tmp->len);
	}
	if (m->name[0]) {
		strbuf_putc(sb, '.');
		put_text(sb, tmp, m->name, 0);
	}
}

/* ---- numbers ---------------------------------------------------------------- */

/* floor(1000 * part / whole), at most 1000; 0 when whole is 0. */
static unsigned permille(uint64_t part, uint64_t whole)
{
	if (whole == 0)
		return 0;
	if (part >= whole)
		return 1000;
	if (part <= UINT64_MAX / 1000)
		return (unsigned)(part * 1000 / whole);
	return (unsigned)(part / (whole / 1000));
}

/* Temperature colour for a share of the total: hue from blue (0 %) to red
 * (100 %) at saturation 0.55 and full value, in integer steps so it is the
 * same everywhere.  buf holds 8 bytes. */
static void temp_color(char *buf, uint64_t part, uint64_t whole)
{
	const unsigned c = 140, m = 255 - 140;
	unsigned h = 240 - 240 * permille(part, whole) / 1000;  /* degrees */
	unsigned t = h % 120, x = c * (60 - (t > 60 ? t - 60 : 60 - t)) / 60;
	unsigned r, g, b;

	switch (h / 60) {
	case 0: r = c, g = x, b = 0; break;
	case 1: r = x, g = c, b = 0; break;
	case 2: r = 0, g = c, b = x; break;
	case 3: r = 0, g = x, b = c; break;
	default: r = x, g = 0, b = c; break;
	}
	snprintf(buf, 8, "#%02x%02x%02x", r + m, g + m, b + m);
}

/* ---- building --------------------------------------------------------------- */

struct build {
	Agraph_t *g;
	const struct cg_view *v;
	struct strbuf val;  /* the attribute value being built */
	struct strbuf tmp;  /* scratch for cleaning */
	Agnode_t **mnode;   /* by view position; NULL when not drawn */
	Agnode_t **tnode;   /* by thread index */
	uint32_t *depth;    /* by item: thread index, or nthreads + view position */
};

static const char *sbstr(const struct strbuf *sb)
{
	return sb->data ? sb->data : "";
}

/* agsafeset with the value in b->val (cgraph copies it). */
static void set_val(void *obj, const char *attr, struct build *b)
{
	agsafeset(obj, (char *)attr, (char *)sbstr(&b->val), "");
}

static void set_str(void *obj, const char *attr, const char *value)
{
	agsafeset(obj, (char *)attr, (char *)value, "");
}

/* Graph-wide defaults; agwrite puts these at the top of dot output. */
static void set_defaults(Agraph_t *g)
{
	agattr(g, AGRAPH, "charset", "UTF-8");
	agattr(g, AGNODE, "shape", "box");
	agattr(g, AGNODE, "style", "rounded,filled");
	agattr(g, AGNODE, "fillcolor", "white");
	agattr(g, AGNODE, "fontname", "Helvetica");
	agattr(g, AGNODE, "fontsize", "10");
	agattr(g, AGEDGE, "fontname", "Helvetica");
	agattr(g, AGEDGE, "fontsize", "9");
}

/* The legend: a note with one fact per left-justified line.  (A plain
 * label, not an HTML-like table: Graphviz 2.42's HTML-label parser leaks
 * on every layout.) */
static void add_legend(struct build *b, const struct cg_report *r, const struct cg_graph_sel *sel)
{
	const struct cg_view *v = b->v;
	char ms[32];
	Agnode_t *n = agnode(b->g, "legend", 1);
	const char *clock;

	if (r->info)
		clock = report_clock_name(r);
	else
		clock = r->clock == CG_USE_CPU ? "cpu" : "wall";
	strbuf_reset(&b->val);
	strbuf_puts(&b->val, "trace: ");
	put_text(&b->val, &b->tmp, r->file ? r->file : "-", 0);
	strbuf_printf(&b->val, "\\lclock: %s\\lthreads: %zu\\ltotal: %s ms\\l", clock, v->nthreads,
		      fmt_ms(ms, v->total_us));
	strbuf_printf(&b->val, "threshold: %g%% of caller\\l", r->threshold);
	if (r->max_nodes && sel->nodes_kept >= r->max_nodes)
		strbuf_printf(&b->val, "node cap: %zu reached\\l", r->max_nodes);
	strbuf_printf(&b->val, "nodes: %zu shown, %zu dropped\\l", sel->nodes_kept, sel->nodes_dropped);
	strbuf_printf(&b->val, "edges: %zu shown, %zu dropped\\l", sel->edges_kept, sel->edges_dropped);
	set_val(n, "label", b);
	set_str(n, "shape", "note");
	set_str(n, "style", "filled");
	set_str(n, "fillcolor", "#fffff0");
	set_str(n, "id", "legend");
	set_str(n, "class", "legend");
}

static void add_root(struct build *b, size_t i)
{
	const struct cg_pthread *t = &b->v->threads[i];
	char name[32], ms[32], pct[16];
	Agnode_t *n;

	snprintf(name, sizeof(name), "t%u", (unsigned)t->tid);
	n = agnode(b->g, name, 1);
	b->tnode[i] = n;
	fmt_ms(ms, t->incl_us);
	fmt_pct(pct, t->incl_us, b->v->total_us);
	strbuf_reset(&b->val);
	put_text(&b->val, &b->tmp, t->name, 0);
	strbuf_printf(&b->val, "\\ntid %u\\n%s ms (%s%%)", (unsigned)t->tid, ms, pct);
	set_val(n, "label", b);
	strbuf_reset(&b->val);
	strbuf_puts(&b->val, "thread ");
	put_text(&b->val, &b->tmp, t->name, 0);
	strbuf_printf(&b->val, " (tid %u)", (unsigned)t->tid);
	set_val(n, "tooltip", b);
	set_str(n, "style", "filled,bold");
	set_str(n, "fillcolor", "#e0e0e0");
	set_str(n, "id", name);
	set_str(n, "class", "thread");
}

static void add_method(struct build *b, size_t pos)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	const struct cg_method_info *m = pm->info;
	uint64_t total = b->v->total_us;
	char name[32], ms[32], pct[16], color[8];
	Agnode_t *n;

	snprintf(name, sizeof(name), "m0x%" PRIx64, m->id);
	n = agnode(b->g, name, 1);
	b->mnode[pos] = n;
	strbuf_reset(&b->val);
	put_display(&b->val, &b->tmp, m);
	strbuf_printf(&b->val, "\\nincl %s ms (%s%%)", fmt_ms(ms, pm->incl_us),
		      fmt_pct(pct, pm->incl_us, total));
	strbuf_printf(&b->val, "\\nexcl %s ms (%s%%)", fmt_ms(ms, pm->excl_us),
		      fmt_pct(pct, pm->excl_us, total));
	strbuf_printf(&b->val, "\\ncalls %llu+%llu", (unsigned long long)pm->calls,
		      (unsigned long long)pm->rec_calls);
	set_val(n, "label", b);

	/* Tooltip: the full signature and where it is defined. */
	strbuf_reset(&b->val);
	put_text(&b->val, &b->tmp, m->klass, 1);
	if (m->name[0]) {
		strbuf_putc(&b->val, '.');
		put_text(&b->val, &b->tmp, m->name, 0);
	}
	put_text(&b->val, &b->tmp, m->sig, 0);
	if (m->source[0]) {
		strbuf_puts(&b->val, "\\n");
		put_text(&b->val, &b->tmp, m->source, 0);
		if (m->line > 0)
			strbuf_printf(&b->val, ":%d", m->line);
	}
	set_val(n, "tooltip", b);
	temp_color(color, pm->incl_us, total);
	set_str(n, "fillcolor", color);
	set_str(n, "id", name);
	set_str(n, "class", "method");
}

static Agnode_t *caller_node(const struct build *b, const struct cg_pedge *e)
{
	if (e->from_root)
		return e->caller < b->v->nthreads ? b->tnode[e->caller] : NULL;
	if (e->caller >= b->v->npos || b->v->method_pos[e->caller] >= b->v->nmethods)
		return NULL;
	return b->mnode[b->v->method_pos[e->caller]];
}

/* Item of an edge's caller / callee: thread index, or nthreads + position
 * (UINT32_MAX when the method is not in the view). */
static uint32_t caller_item(const struct cg_view *v, const struct cg_pedge *e)
{
	if (e->from_root)
		return e->caller;
	if (e->caller >= v->npos || v->method_pos[e->caller] >= v->nmethods)
		return UINT32_MAX;
	return (uint32_t)v->nthreads + v->method_pos[e->caller];
}

static uint32_t callee_item(const struct cg_view *v, const struct cg_pedge *e)
{
	if (e->callee >= v->npos || v->method_pos[e->callee] >= v->nmethods)
		return UINT32_MAX;
	return (uint32_t)v->nthreads + v->method_pos[e->callee];
}

/* Rank hints.  b->depth gets each drawn item's depth in a breadth-first
 * search from the roots along the drawn edges (roots in thread order, edges
 * in view order).  add_edge writes every edge so that it runs forward in
 * the order (depth, item): a call back up toward the roots (recursion
 * through another method) or across to an earlier node of the same depth
 * becomes callee -> caller with dir=back, drawn as the same call.  The
 * graph dot sees is then acyclic and ranks follow the shortest call paths.
 * Left to itself, dot 2.42 breaks cycles by reversing edges, which leaks
 * memory (LeakSanitizer) and, with recursion cycles and long chains, gave
 * ranks far deeper than the graph: 150 nodes took over ten seconds.  Not
 * constraint=false: unconstrained edges can join nodes of one rank, and
 * 2.42 leaks on such flat edges and frees memory twice when they have a
 * label. */
static void compute_depths(struct build *b, const struct cg_graph_sel *sel)
{
	const struct cg_view *v = b->v;
	size_t ni = v->nthreads + v->nmethods, i, k, head = 0, tail = 0;
	size_t *start = xcalloc(ni + 1, sizeof(*start)), *fill;
	uint32_t *adj, *queue = xmalloc((ni ? ni : 1) * sizeof(*queue));

	b->depth = xmalloc((ni ? ni : 1) * sizeof(*b->depth));
	for (i = 0; i < ni; i++)
		b->depth[i] = UINT32_MAX;
	for (i = 0; i < v->nedges; i++) {
		uint32_t c = caller_item(v, &v->edges[i]);

		if (sel->keep_edge[i] && c < ni && callee_item(v, &v->edges[i]) < ni)
			start[c + 1]++;
	}
	for (i = 0; i < ni; i++)
		start[i + 1] += start[i];
	adj = xmalloc((start[ni] ? start[ni] : 1) * sizeof(*adj));
	fill = xmalloc((ni ? ni : 1) * sizeof(*fill));
	memcpy(fill, start, ni * sizeof(*fill));
	for (i = 0; i < v->nedges; i++) {
		uint32_t c = caller_item(v, &v->edges[i]), h = callee_item(v, &v->edges[i]);

		if (sel->keep_edge[i] && c < ni && h < ni)
			adj[fill[c]++] = h;
	}
	for (i = 0; i < v->nthreads; i++) {
		if (sel->keep_thread[i]) {
			b->depth[i] = 0;
			queue[tail++] = (uint32_t)i;
		}
	}
	while (head < tail) {
		uint32_t x = queue[head++];

		for (k = start[x]; k < start[x + 1]; k++) {
			if (b->depth[adj[k]] == UINT32_MAX) {
				b->depth[adj[k]] = b->depth[x] + 1;
				queue[tail++] = adj[k];
			}
		}
	}
	free(start);
	free(fill);
	free(adj);
	free(queue);
}

static void add_edge(struct build *b, const struct cg_pedge *e)
{
	Agnode_t *t = caller_node(b, e), *h;
	char ms[32], pw[16];
	unsigned w;
	uint32_t ci, hi;
	int back;
	Agedge_t *ed;

	if (e->callee >= b->v->npos || b->v->method_pos[e->callee] >= b->v->nmethods)
		return;
	h = b->mnode[b->v->method_pos[e->callee]];
	if (!t || !h || t == h)
		return; /* a self-edge is drawn as the recursion loop */
	ci = caller_item(b->v, e);
	hi = callee_item(b->v, e);
	back = b->depth[hi] < b->depth[ci] || (b->depth[hi] == b->depth[ci] && hi < ci);
	ed = back ? agedge(b->g, h, t, NULL, 1) : agedge(b->g, t, h, NULL, 1);
	if (back)
		set_str(ed, "dir", "back");
	strbuf_reset(&b->val);
	strbuf_printf(&b->val, "%llu call%s\\n%s ms", (unsigned long long)e->calls,
		      e->calls == 1 ? "" : "s", fmt_ms(ms, e->incl_us));
	set_val(ed, "label", b);
	/* Pen width 1 + 4 * share of the total, in hundredths. */
	w = 100 + permille(e->incl_us, b->v->total_us) * 2 / 5;
	snprintf(pw, sizeof(pw), "%u.%02u", w / 100, w % 100);
	set_str(ed, "penwidth", pw);
	strbuf_reset(&b->val);
	if (e->from_root)
		put_text(&b->val, &b->tmp, b->v->threads[e->caller].name, 0);
	else
		put_display(&b->val, &b->tmp, b->v->methods[b->v->method_pos[e->caller]].info);
	strbuf_puts(&b->val, " -> ");
	put_display(&b->val, &b->tmp, b->v->methods[b->v->method_pos[e->callee]].info);
	set_val(ed, "tooltip", b);
}

static void add_loop(struct build *b, size_t pos)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	Agedge_t *ed = agedge(b->g, b->mnode[pos], b->mnode[pos], NULL, 1);

	strbuf_reset(&b->val);
	strbuf_printf(&b->val, "%llu recursive", (unsigned long long)pm->rec_calls);
	set_val(ed, "label", b);
	set_str(ed, "style", "dashed");
	strbuf_reset(&b->val);
	put_display(&b->val, &b->tmp, pm->info);
	strbuf_puts(&b->val, " recursion");
	set_val(ed, "tooltip", b);
}

/* ---- output ----------------------------------------------------------------- */

/* agwrite's channel is the output strbuf. */
static int io_putstr(void *chan, const char *s)
{
	strbuf_puts(chan, s);
	return 0;
}

static int io_flush(void *chan)
{
	(void)chan;
	return 0;
}

static int io_read(void *chan, char *buf, int size)
{
	(void)chan, (void)buf, (void)size;
	return 0;
}

/* The error for an unknown format, naming what Graphviz offers (as much as
 * fits in the message). */
static void unknown_format(const char *format, struct cg_error *err)
{
	const char *list = gv_proc.formats ? gv_proc.formats + 1 : "dot gv ";
	char shown[168];
	size_t n = strlen(list) - 1;  /* without the trailing space */

	if (n >= sizeof(shown)) {
		/* Cut at a word and say so. */
		n = sizeof(shown) - 5;
		while (n && list[n] != ' ')
			n--;
		snprintf(shown, sizeof(shown), "%.*s ...", (int)n, list);
	} else {
		snprintf(shown, sizeof(shown), "%.*s", (int)n, list);
	}
	cg_error_set(err, -1, "unknown graph format '%.40s' (Graphviz offers: %s)", format ? format : "",
		     shown);
}

/* -d: the colour of a method's change in inclusive time against the base
 * run: white unchanged; red when slower, blue when faster, deeper with the
 * ratio up to 4x (integer steps, so the bytes are stable); new methods (or
 * a base of 0 us) full red.  buf holds 8 bytes. */
static void change_color(char *buf, const struct cg_diff_row *row)
{
	uint64_t lo = row->d_incl_us > 0 ? row->base.incl_us : row->later.incl_us;
	uint64_t hi = row->d_incl_us > 0 ? row->later.incl_us : row->base.incl_us;
	unsigned t = 1000, k; /* permille of the way from 1x to 4x */

	if (row->d_incl_us == 0) {
		snprintf(buf, 8, "#ffffff");
		return;
	}
	if (lo && hi / lo < 4)
		t = (unsigned)((hi - lo) * 1000 / (3 * lo));
	if (t > 1000)
		t = 1000;
	k = 255 - (32 + 159 * t / 1000);
	if (row->d_incl_us > 0)
		snprintf(buf, 8, "#ff%02x%02x", k, k);
	else
		snprintf(buf, 8, "#%02x%02xff", k, k);
}

/* -d: colour the drawn methods by change, add the change to their labels
 * and explain the colours in the legend. */
static void mark_changes(struct build *b, const struct cg_diff *d)
{
	Agnode_t *legend = agfindnode(b->g, "legend");
	char color[8], ms[32];
	size_t i;

	for (i = 0; i < b->v->nmethods; i++) {
		const struct cg_diff_row *row = diff_change(d, b->v->methods[i].index);
		Agnode_t *n = b->mnode[i];

		if (!n || !row)
			continue;
		change_color(color, row);
		set_str(n, "fillcolor", color);
		strbuf_reset(&b->val);
		strbuf_puts(&b->val, agget(n, "label"));
		if (row->status == CG_DIFF_LATER_ONLY) {
			strbuf_puts(&b->val, "\\nnew in this run");
		} else {
			strbuf_printf(&b->val, "\\nchange %s ms", fmt_ms_signed(ms, row->d_incl_us));
			if (diff_ratio(row) >= 0)
				strbuf_printf(&b->val, " (x%.2f)", diff_ratio(row));
		}
		set_val(n, "label", b);
	}
	if (legend) {
		strbuf_reset(&b->val);
		strbuf_puts(&b->val, agget(legend, "label"));
		strbuf_printf(&b->val, "change vs base: %s ms\\l",
			      fmt_ms_signed(ms, (int64_t)diff_later_total(d) -
						(int64_t)diff_base_total(d)));
		strbuf_puts(&b->val, "colour: inclusive time vs base run\\l"
				     "  red slower, blue faster (deepest at 4x)\\l"
				     "  white unchanged, full red new\\l");
		set_val(legend, "label", b);
	}
}

int render_graph(const struct cg_report *r, const struct cg_view *v, const char *format,
		 struct strbuf *out, struct cg_error *err)
{
	char fmt[FORMAT_MAX], base[FORMAT_MAX];
	Agiodisc_t io = { io_read, io_putstr, io_flush };
	Agdisc_t disc = { &AgMemDisc, &AgIdDisc, &io };
	struct cg_graph_sel sel = { NULL, NULL, NULL, 0, 0, 0, 0 };
	struct build b;
	struct gv_saved saved;
	GVC_t *gvc = NULL;
	char *data = NULL;
	unsigned int len = 0;
	int bad_format, dot_source, laid_out = 0, rc = -1;
	size_t i;

	memset(&b, 0, sizeof(b));
	strbuf_init(&b.val);
	strbuf_init(&b.tmp);
	log_begin(&saved);
	bad_format = format_norm(format, fmt, base) < 0 || interactive_device(base);
	dot_source = !bad_format && is_dot_source(base);
	if (!dot_source) {
		gvc = gv_context();
		if (!gvc) {
			cg_error_set(err, -1, "cannot start Graphviz: %s", log_message("gvContext failed"));
			goto done;
		}
		if (bad_format || !format_known(base)) {
			unknown_format(format, err);
			goto done;
		}
	}
	if (filter_prune(v, r->threshold, r->max_nodes, &sel, err) < 0)
		goto done;

	b.v = v;
	b.g = agopen("callgraph", Agdirected, &disc);
	if (!b.g) {
		cg_error_set(err, -1, "cannot create the graph: %s", log_message("agopen failed"));
		goto done;
	}
	b.mnode = xcalloc(v->nmethods ? v->nmethods : 1, sizeof(*b.mnode));
	b.tnode = xcalloc(v->nthreads ? v->nthreads : 1, sizeof(*b.tnode));
	set_defaults(b.g);
	add_legend(&b, r, &sel);
	for (i = 0; i < v->nthreads; i++)
		if (sel.keep_thread[i])
			add_root(&b, i);
	for (i = 0; i < v->nmethods; i++)
		if (sel.keep_method[i])
			add_method(&b, i);
	compute_depths(&b, &sel);
	for (i = 0; i < v->nedges; i++)
		if (sel.keep_edge[i])
			add_edge(&b, &v->edges[i]);
	for (i = 0; i < v->nmethods; i++)
		if (sel.keep_method[i] && v->methods[i].rec_calls)
			add_loop(&b, i);
	if (r->diff)
		mark_changes(&b, r->diff);

	if (dot_source) {
		if (agwrite(b.g, out) == EOF) {
			cg_error_set(err, -1, "cannot write the graph: %s", log_message("agwrite failed"));
			goto done;
		}
		rc = 0;
		goto done;
	}
	if (gvLayout(gvc, b.g, "dot") != 0) {
		cg_error_set(err, -1, "graph layout failed: %s", log_message("gvLayout failed"));
		goto done;
	}
	laid_out = 1;
	if (gvRenderData(gvc, b.g, fmt, &data, &len) != 0 || !data) {
		cg_error_set(err, -1, "cannot render the graph as %s: %s", fmt,
			     log_message("gvRenderData failed"));
		goto done;
	}
	strbuf_add(out, data, len);
	rc = 0;

done:
	if (data)
		gvFreeRenderData(data);
	if (laid_out && gvFreeLayout(gvc, b.g) != 0 && rc == 0) {
		cg_error_set(err, -1, "graph layout cleanup failed: %s", log_message("gvFreeLayout failed"));
		rc = -1;
	}
	if (b.g)
		agclose(b.g);
	log_end(&saved);
	free(b.mnode);
	free(b.tnode);
	free(b.depth);
	strbuf_free(&b.val);
	strbuf_free(&b.tmp);
	filter_sel_free(&sel);
	return rc;
}

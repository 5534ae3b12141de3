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
#include "fold.h"
#include "javaname.h"
#include "waiting.h"

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

/* Position on the colour and width scales for a share of the total, in
 * permille: the square root of the share, so that 1 % of the total is a
 * tenth of the way and 25 % half of it (a linear scale leaves every node
 * of a thread worth 8 % of the total at the cold end). */
static unsigned scale_pos(uint64_t part, uint64_t whole)
{
	unsigned p = permille(part, whole) * 1000, r = 0;

	/* Integer square root of p (at most 10^6): the same bytes everywhere. */
	while ((r + 1) * (r + 1) <= p)
		r++;
	return r;
}

/* Temperature colour at scale position pos (permille). */
static void scale_color(char *buf, unsigned pos)
{
	temp_color(buf, pos, 1000);
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
	struct strbuf name; /* scratch for display names */
	unsigned char *overloads; /* by symtab index (javaname_overloads) */
	unsigned char *waiting;   /* by view position */
	uint64_t max_self;  /* largest exclusive time of a drawn, not waiting method */
	int sampled;        /* counts are stack changes, not calls */
	const struct cg_fold *fold;
	Agnode_t **cnode;   /* by chain */
	size_t drawn;       /* edges drawn (recursion loops included, residual not) */
	size_t inside;      /* drawn edges that fall inside a folded chain */
};

/* Append the label name of pm (the one rule of javaname_put_label: packages
 * as initials, the argument list only for overloads), cleaned and escaped. */
static void put_display(struct build *b, struct strbuf *sb, const struct cg_pmethod *pm)
{
	strbuf_reset(&b->name);
	javaname_put_label(&b->name, pm->info, JN_SHORT, b->overloads && b->overloads[pm->index]);
	put_text(sb, &b->tmp, b->name.data ? b->name.data : "", 0);
}

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
	/* Compact spacing (dot's defaults are 0.25 and 0.5 inch), and never
	 * larger than 41 inches, 3936 px at 96 dpi, on either side: a wider
	 * layout is scaled down to fit a screen's zoom range. */
	agattr(g, AGRAPH, "nodesep", "0.18");
	agattr(g, AGRAPH, "ranksep", "0.3");
	agattr(g, AGRAPH, "size", "41,41");
	agattr(g, AGNODE, "margin", "0.08,0.03");
	agattr(g, AGNODE, "shape", "box");
	agattr(g, AGNODE, "style", "rounded,filled");
	agattr(g, AGNODE, "fillcolor", "white");
	agattr(g, AGNODE, "fontname", "Helvetica");
	agattr(g, AGNODE, "fontsize", "10");
	agattr(g, AGEDGE, "fontname", "Helvetica");
	agattr(g, AGEDGE, "fontsize", "8");
}

/* "a.b" with a trailing ".0" style zero cut: 0.5, 0.1, 20 (for legends). */
static void put_pct(struct strbuf *sb, double pct)
{
	strbuf_printf(sb, "%g%%", pct);
}

/* The legend: a note with one fact per left-justified line.  (A plain
 * label, not an HTML-like table: Graphviz 2.42's HTML-label parser leaks
 * on every layout.) */
static void add_legend(struct build *b, const struct cg_report *r, const struct cg_graph_rules *rules,
		       const struct cg_graph_sel *sel)
{
	const struct cg_view *v = b->v;
	char ms[32];
	Agnode_t *n = agfindnode(b->g, "legend");
	const char *clock, *other;

	if (r->info)
		clock = report_clock_name(r);
	else
		clock = r->clock == CG_USE_CPU ? "cpu" : "wall";
	other = v->primary == CG_USE_CPU ? "wall" : "cpu";
	strbuf_reset(&b->val);
	strbuf_puts(&b->val, "trace: ");
	put_text(&b->val, &b->tmp, r->file ? r->file : "-", 0);
	if (v->has_other)
		strbuf_printf(&b->val, "\\lclock: %s (%s shown beside it)", clock, other);
	else
		strbuf_printf(&b->val, "\\lclock: %s (the trace has one clock)", clock);
	strbuf_printf(&b->val, "\\lthreads: %zu, total %s ms\\l", v->nthreads, fmt_ms(ms, v->total_us));
	if (b->sampled)
		strbuf_puts(&b->val, "sampled trace: counts are stack changes, not calls\\l");
	strbuf_puts(&b->val, "node floor: ");
	put_pct(&b->val, rules->node_pct);
	strbuf_printf(&b->val, " of total (%zu dropped)\\l", sel->drop_floor);
	if (rules->pct > 0) {
		strbuf_puts(&b->val, "-t: edges under ");
		put_pct(&b->val, rules->pct);
		strbuf_printf(&b->val, " of caller (%zu nodes cut off)\\l", sel->drop_rule);
	}
	if (rules->max_nodes)
		strbuf_printf(&b->val, "node cap: %zu (%zu dropped)\\l", rules->max_nodes, sel->drop_cap);
	strbuf_puts(&b->val, "edge floor: ");
	put_pct(&b->val, rules->edge_pct);
	strbuf_printf(&b->val, " of total (%zu dropped)\\l", sel->edrop_floor);
	if (sel->edrop_cap)
		strbuf_printf(&b->val, "edge cap: %zu dropped\\l", sel->edrop_cap);
	strbuf_printf(&b->val, "nodes: %zu shown, %zu dropped\\l", sel->nodes_kept, sel->nodes_dropped);
	if (b->fold->nchains)
		strbuf_printf(&b->val, "  %zu frames folded into %zu chain%s\\l", b->fold->folded,
			      b->fold->nchains, b->fold->nchains == 1 ? "" : "s");
	strbuf_printf(&b->val, "edges: %zu shown, %zu dropped\\l", b->drawn, sel->edges_dropped);
	if (b->inside)
		strbuf_printf(&b->val, "  %zu more inside the chains\\l", b->inside);
	if (sel->nresidual)
		strbuf_printf(&b->val, "  %zu dotted: calls through frames not drawn\\l", sel->nresidual);
	strbuf_puts(&b->val, "colour: inclusive % of total; text size: self time\\l");
	strbuf_puts(&b->val, "grey dashed: waiting: ");
	put_text(&b->val, &b->tmp, waiting_rule(v), 0);
	strbuf_puts(&b->val, "\\l");
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
	if (b->v->has_other)
		strbuf_printf(&b->val, "\\n%s %s ms", b->v->primary == CG_USE_CPU ? "wall" : "cpu",
			      fmt_ms(ms, t->other_us));
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

/* Fill and class of a method node: grey and dashed when waiting (never on
 * the temperature scale), else the temperature of its inclusive share,
 * with the class cg-heat-N (N = 0 coldest .. 9 hottest). */
static void set_heat(Agnode_t *n, struct build *b, size_t pos, const char *kind)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	char color[8], cls[40];

	if (b->waiting[pos]) {
		set_str(n, "fillcolor", "#e4e4e4");
		set_str(n, "style", "rounded,filled,dashed");
		set_str(n, "color", "#707070");
		snprintf(cls, sizeof(cls), "%s cg-waiting", kind);
	} else {
		unsigned pos1000 = scale_pos(pm->incl_us, b->v->total_us);

		scale_color(color, pos1000);
		set_str(n, "fillcolor", color);
		snprintf(cls, sizeof(cls), "%s cg-heat-%u", kind, pos1000 >= 1000 ? 9 : pos1000 / 100);
	}
	set_str(n, "class", cls);
}

/* Font size by self time (pprof): 10 pt, up to 24 pt for the largest
 * exclusive time of a drawn method that is not waiting. */
static void set_font(Agnode_t *n, struct build *b, size_t pos)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	char fs[16];

	if (b->waiting[pos] || b->max_self == 0)
		return;
	snprintf(fs, sizeof(fs), "%u", 10 + 14 * scale_pos(pm->excl_us, b->max_self) / 1000);
	set_str(n, "fontsize", fs);
}

/* "incl 1.000 ms (10.0%)" etc.; with both clocks the other clock follows. */
static void put_times(struct build *b, const struct cg_pmethod *pm)
{
	const struct cg_view *v = b->v;
	char ms[32], pct[16];

	strbuf_printf(&b->val, "\\nincl %s ms (%s%%)", fmt_ms(ms, pm->incl_us),
		      fmt_pct(pct, pm->incl_us, v->total_us));
	strbuf_printf(&b->val, "\\nexcl %s ms (%s%%)", fmt_ms(ms, pm->excl_us),
		      fmt_pct(pct, pm->excl_us, v->total_us));
	if (v->has_other) {
		strbuf_printf(&b->val, "\\n%s incl %s", v->primary == CG_USE_CPU ? "wall" : "cpu",
			      fmt_ms(ms, pm->o_incl_us));
		strbuf_printf(&b->val, " excl %s ms", fmt_ms(ms, pm->o_excl_us));
	}
}

/* The tooltip line of a method: full name and signature, source:line. */
static void put_full_name(struct build *b, const struct cg_method_info *m)
{
	put_text(&b->val, &b->tmp, m->klass, 1);
	if (m->name[0]) {
		strbuf_putc(&b->val, '.');
		put_text(&b->val, &b->tmp, m->name, 0);
	}
	put_text(&b->val, &b->tmp, m->sig, 0);
}

static void add_method(struct build *b, size_t pos)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	const struct cg_method_info *m = pm->info;
	char name[32];
	Agnode_t *n;

	snprintf(name, sizeof(name), "m0x%" PRIx64, (uint64_t)m->id);
	n = agnode(b->g, name, 1);
	b->mnode[pos] = n;
	strbuf_reset(&b->val);
	put_display(b, &b->val, pm);
	put_times(b, pm);
	strbuf_printf(&b->val, "\\n%s %llu+%llu", b->sampled ? "stack changes" : "calls",
		      (unsigned long long)pm->calls, (unsigned long long)pm->rec_calls);
	set_val(n, "label", b);

	/* Tooltip: the full signature and where it is defined. */
	strbuf_reset(&b->val);
	put_full_name(b, m);
	if (m->source[0]) {
		strbuf_puts(&b->val, "\\n");
		put_text(&b->val, &b->tmp, m->source, 0);
		if (m->line > 0)
			strbuf_printf(&b->val, ":%d", m->line);
	}
	set_val(n, "tooltip", b);
	set_str(n, "id", name);
	set_heat(n, b, pos, "method");
	set_font(n, b, pos);
}

/* A folded chain: one node ("c0x<id of its first frame>") naming the first
 * and last frame and how many lie between, with the first frame's times;
 * the tooltip lists every frame with its inclusive time.  Every member's
 * mnode is the chain's node, so the edges inside the chain vanish as
 * self-edges and the edges into the first and out of the last join it. */
static void add_chain(struct build *b, size_t c)
{
	const struct cg_fold *f = b->fold;
	size_t first = f->start[c], n = f->start[c + 1] - first, k;
	const struct cg_pmethod *head = &b->v->methods[f->members[first]];
	const struct cg_pmethod *tail = &b->v->methods[f->members[first + n - 1]];
	char name[32], ms[32];
	Agnode_t *node;

	snprintf(name, sizeof(name), "c0x%" PRIx64, (uint64_t)head->info->id);
	node = agnode(b->g, name, 1);
	b->cnode[c] = node;
	for (k = 0; k < n; k++)
		b->mnode[f->members[first + k]] = node;
	strbuf_reset(&b->val);
	put_display(b, &b->val, head);
	strbuf_printf(&b->val, "\\n\xe2\x80\xa6 %zu frame%s \xe2\x80\xa6\\n", n - 2, n - 2 == 1 ? "" : "s");
	put_display(b, &b->val, tail);
	put_times(b, head);
	set_val(node, "label", b);
	strbuf_reset(&b->val);
	strbuf_printf(&b->val, "%zu frames, each the only caller of the next:", n);
	for (k = 0; k < n; k++) {
		const struct cg_pmethod *pm = &b->v->methods[f->members[first + k]];

		strbuf_puts(&b->val, "\\n");
		put_full_name(b, pm->info);
		strbuf_printf(&b->val, " %s ms", fmt_ms(ms, pm->incl_us));
		if (pm->rec_calls)
			strbuf_printf(&b->val, ", %llu recursive", (unsigned long long)pm->rec_calls);
	}
	set_val(node, "tooltip", b);
	set_str(node, "id", name);
	set_heat(node, b, f->members[first], "chain");
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

/* The item that stands for item x in the drawing: a chain's first frame
 * for every frame of a folded chain, else x itself. */
static uint32_t rep_item(const struct build *b, uint32_t x)
{
	size_t nt = b->v->nthreads;
	uint32_t c;

	if (x == UINT32_MAX || x < nt)
		return x;
	c = b->fold->chain_of[x - nt];
	return c == FOLD_NONE ? x : (uint32_t)nt + b->fold->members[b->fold->start[c]];
}

/* Add the drawn arc c -> h (items) to the rows being counted (adj NULL) or
 * filled. */
static void arc(const struct build *b, uint32_t c, uint32_t h, size_t *start, size_t *fill,
		uint32_t *adj)
{
	c = rep_item(b, c);
	h = rep_item(b, h);
	if (c == UINT32_MAX || h == UINT32_MAX || c == h)
		return;
	if (adj)
		adj[fill[c]++] = h;
	else
		start[c + 1]++;
}

/* Rank hints.  b->depth gets each drawn item's depth in a breadth-first
 * search from the roots along the drawn edges (roots in thread order, edges
 * in view order, then residual edges; a folded chain counts as its first
 * frame).  add_edge writes every edge so that it runs forward in the order
 * (depth, item): a call back up toward the roots (recursion through
 * another method) or across to an earlier node of the same depth becomes
 * callee -> caller with dir=back, drawn as the same call.  The graph dot
 * sees is then acyclic and ranks follow the shortest call paths.  Left to
 * itself, dot 2.42 breaks cycles by reversing edges, which leaks memory
 * (LeakSanitizer) and, with recursion cycles and long chains, gave ranks
 * far deeper than the graph: 150 nodes took over ten seconds.  Not
 * constraint=false: unconstrained edges can join nodes of one rank, and
 * 2.42 leaks on such flat edges and frees memory twice when they have a
 * label. */
static void compute_depths(struct build *b, const struct cg_graph_sel *sel)
{
	const struct cg_view *v = b->v;
	size_t ni = v->nthreads + v->nmethods, i, k, head = 0, tail = 0, pass;
	size_t *start = xcalloc(ni + 1, sizeof(*start)), *fill = NULL;
	uint32_t *adj = NULL, *queue = xmalloc((ni ? ni : 1) * sizeof(*queue));

	b->depth = xmalloc((ni ? ni : 1) * sizeof(*b->depth));
	for (i = 0; i < ni; i++)
		b->depth[i] = UINT32_MAX;
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			for (i = 0; i < ni; i++)
				start[i + 1] += start[i];
			adj = xmalloc((start[ni] ? start[ni] : 1) * sizeof(*adj));
			fill = xmalloc((ni ? ni : 1) * sizeof(*fill));
			memcpy(fill, start, ni * sizeof(*fill));
		}
		for (i = 0; i < v->nedges; i++)
			if (sel->keep_edge[i])
				arc(b, caller_item(v, &v->edges[i]), callee_item(v, &v->edges[i]), start,
				    fill, adj);
		for (i = 0; i < sel->nresidual; i++)
			arc(b, sel->residual[i].from, (uint32_t)v->nthreads + sel->residual[i].to, start,
			    fill, adj);
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

/* The graph node of item x (a chain's node for its frames), or NULL. */
static Agnode_t *item_node(const struct build *b, uint32_t x)
{
	if (x == UINT32_MAX)
		return NULL;
	return x < b->v->nthreads ? b->tnode[x] : b->mnode[x - b->v->nthreads];
}

/* Create the arc c -> h (items) as an edge running forward in the
 * (depth, item) order of compute_depths, with the SVG class kind; NULL when
 * both ends are one node (recursion, or the inside of a chain). */
static Agedge_t *forward_edge(struct build *b, uint32_t c, uint32_t h, const char *kind)
{
	char cls[32];
	Agnode_t *t = item_node(b, c), *n = item_node(b, h);
	uint32_t rc = rep_item(b, c), rh = rep_item(b, h);
	uint32_t dc = b->depth[rc], dh = b->depth[rh];
	int back;
	Agedge_t *ed;

	if (!t || !n || t == n)
		return NULL;
	back = dh < dc || (dh == dc && rh < rc);
	ed = back ? agedge(b->g, n, t, NULL, 1) : agedge(b->g, t, n, NULL, 1);
	if (back)
		set_str(ed, "dir", "back");
	/* SVG classes: "call" or "residual", plus "back" when drawn reversed. */
	snprintf(cls, sizeof(cls), "%s%s", kind, back ? " back" : "");
	set_str(ed, "class", cls);
	return ed;
}

/* The tooltip "caller -> callee" of an arc between items. */
static void put_arc_names(struct build *b, uint32_t c, uint32_t h, const char *via)
{
	strbuf_reset(&b->val);
	if (c < b->v->nthreads)
		put_text(&b->val, &b->tmp, b->v->threads[c].name, 0);
	else
		put_display(b, &b->val, &b->v->methods[c - b->v->nthreads]);
	strbuf_puts(&b->val, via);
	put_display(b, &b->val, &b->v->methods[h - b->v->nthreads]);
}

static void add_edge(struct build *b, const struct cg_pedge *e)
{
	uint32_t c = caller_item(b->v, e), h = callee_item(b->v, e);
	char ms[32], pw[16], color[8];
	unsigned pos;
	Agedge_t *ed;

	if (c == UINT32_MAX || h == UINT32_MAX)
		return;
	ed = forward_edge(b, c, h, "call");
	if (!ed) {
		/* A self-edge is drawn as the recursion loop; others are inside
		 * a chain. */
		b->inside += c != h;
		return;
	}
	b->drawn++;
	strbuf_reset(&b->val);
	strbuf_printf(&b->val, "%llu %s%s\\n%s ms", (unsigned long long)e->calls,
		      b->sampled ? "stack change" : "call", e->calls == 1 ? "" : "s",
		      fmt_ms(ms, e->incl_us));
	set_val(ed, "label", b);
	if (b->waiting[h - b->v->nthreads]) {
		/* Into a wait: thin and grey, whatever its time. */
		set_str(ed, "penwidth", "1");
		set_str(ed, "color", "#a0a0a0");
		set_str(ed, "fontcolor", "#707070");
	} else {
		/* Pen width 1 to 5 and colour on the nodes' scale. */
		pos = scale_pos(e->incl_us, b->v->total_us);
		snprintf(pw, sizeof(pw), "%u.%02u", (100 + 4 * pos / 10) / 100, (100 + 4 * pos / 10) % 100);
		set_str(ed, "penwidth", pw);
		scale_color(color, pos);
		set_str(ed, "color", color);
	}
	put_arc_names(b, c, h, " -> ");
	set_val(ed, "tooltip", b);
}

/* A residual edge: the caller reaches the callee through frames not drawn. */
static void add_residual(struct build *b, const struct cg_residual *rs)
{
	uint32_t h = (uint32_t)b->v->nthreads + rs->to;
	Agedge_t *ed = forward_edge(b, rs->from, h, "residual");

	if (!ed)
		return;
	set_str(ed, "style", "dotted");
	set_str(ed, "color", "#808080");
	put_arc_names(b, rs->from, h, " -> \xe2\x80\xa6 -> ");
	strbuf_puts(&b->val, " (through frames not drawn)");
	set_val(ed, "tooltip", b);
}

static void add_loop(struct build *b, size_t pos)
{
	const struct cg_pmethod *pm = &b->v->methods[pos];
	Agedge_t *ed = agedge(b->g, b->mnode[pos], b->mnode[pos], NULL, 1);

	b->drawn++;
	strbuf_reset(&b->val);
	strbuf_printf(&b->val, "%llu recursive", (unsigned long long)pm->rec_calls);
	set_val(ed, "label", b);
	set_str(ed, "style", "dashed");
	strbuf_reset(&b->val);
	put_display(b, &b->val, pm);
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

		if (!n || !row || b->fold->chain_of[i] != FOLD_NONE)
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
	struct cg_graph_sel sel;
	struct cg_graph_rules rules;
	struct cg_fold fold;
	struct build b;
	struct gv_saved saved;
	GVC_t *gvc = NULL;
	char *data = NULL;
	unsigned int len = 0;
	int bad_format, dot_source, laid_out = 0, rc = -1;
	size_t i;

	memset(&b, 0, sizeof(b));
	memset(&sel, 0, sizeof(sel));
	memset(&fold, 0, sizeof(fold));
	strbuf_init(&b.val);
	strbuf_init(&b.tmp);
	strbuf_init(&b.name);
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
	rules.pct = r->threshold;
	rules.node_pct = r->node_pct;
	rules.edge_pct = r->edge_pct;
	rules.hot_pct = CG_DEFAULT_HOT_PCT;
	rules.max_nodes = r->max_nodes;
	if (filter_select(v, &rules, &sel, err) < 0)
		goto done;
	fold_chains(v, &sel, !r->no_fold, &fold);

	b.v = v;
	b.fold = &fold;
	b.sampled = r->profile && profile_sampling(r->profile);
	b.overloads = r->st ? javaname_overloads(r->st) : NULL;
	b.waiting = xcalloc(v->nmethods ? v->nmethods : 1, 1);
	for (i = 0; i < v->nmethods; i++) {
		b.waiting[i] = (unsigned char)waiting_method(v, &v->methods[i]);
		if (sel.keep_method[i] && !b.waiting[i] && v->methods[i].excl_us > b.max_self)
			b.max_self = v->methods[i].excl_us;
	}
	b.g = agopen("callgraph", Agdirected, &disc);
	if (!b.g) {
		cg_error_set(err, -1, "cannot create the graph: %s", log_message("agopen failed"));
		goto done;
	}
	b.mnode = xcalloc(v->nmethods ? v->nmethods : 1, sizeof(*b.mnode));
	b.tnode = xcalloc(v->nthreads ? v->nthreads : 1, sizeof(*b.tnode));
	b.cnode = xcalloc(fold.nchains ? fold.nchains : 1, sizeof(*b.cnode));
	set_defaults(b.g);
	agnode(b.g, "legend", 1);  /* first in the file; labelled at the end */
	for (i = 0; i < v->nthreads; i++)
		if (sel.keep_thread[i])
			add_root(&b, i);
	for (i = 0; i < v->nmethods; i++) {
		if (!sel.keep_method[i])
			continue;
		if (fold.chain_of[i] == FOLD_NONE)
			add_method(&b, i);
		else if (fold.members[fold.start[fold.chain_of[i]]] == i)
			add_chain(&b, fold.chain_of[i]);
	}
	compute_depths(&b, &sel);
	for (i = 0; i < v->nedges; i++)
		if (sel.keep_edge[i])
			add_edge(&b, &v->edges[i]);
	for (i = 0; i < sel.nresidual; i++)
		add_residual(&b, &sel.residual[i]);
	for (i = 0; i < v->nmethods; i++)
		if (sel.keep_method[i] && v->methods[i].rec_calls && fold.chain_of[i] == FOLD_NONE)
			add_loop(&b, i);
	add_legend(&b, r, &rules, &sel);
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
	free(b.cnode);
	free(b.depth);
	free(b.overloads);
	free(b.waiting);
	strbuf_free(&b.val);
	strbuf_free(&b.tmp);
	strbuf_free(&b.name);
	fold_free(&fold);
	filter_sel_free(&sel);
	return rc;
}

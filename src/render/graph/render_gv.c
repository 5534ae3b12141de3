/* render_gv.c - the call graph through libcgraph and libgvc: formats, the
 * Graphviz context, layout and rendering.  Graphviz is included only here
 * and in the files split from it (gv_build.c, gv_legend.c, gv_log.c).
 *
 * The graph is built by gv_build_graph.  Dot source is written with agwrite
 * into the output buffer; every other format is laid out with dot and
 * rendered with gvRenderData.
 */
#include "render/graph/render_gv.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cgraph.h>
#include <gvc.h>

#include "model/filter.h"
#include "model/fold.h"
#include "model/roots.h"
#include "render/graph/gv_build.h"
#include "render/graph/gv_layout.h"
#include "render/graph/gv_log.h"

/* Longest format name accepted ("png:cairo:cairo" fits easily). */
#define FORMAT_MAX 64

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
	struct strbuf warnings; /* of the last render_graph call, one a line */
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
	struct gv_stderr quiet;
	struct strbuf lines;
	GVC_t *gvc;
	int ok = 0;

	if (format_norm(format, buf, base) < 0)
		return 0;
	if (is_dot_source(base))
		return 1;
	if (interactive_device(base))
		return 0;
	gv_log_begin(&saved, NULL);
	strbuf_init(&lines);
	gv_log_stderr_begin(&quiet);
	gvc = gv_context();
	gv_log_stderr_end(&quiet, &lines);
	strbuf_free(&lines);
	if (gvc)
		ok = format_known(base);
	gv_log_end(&saved);
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


/* Largest side of a sane bitmap: the graph's size attribute caps a drawing
 * at 41 inches, 3936 pixels at 96 dpi. */
#define BITMAP_SIDE_MAX 8192

/* ---- address space ------------------------------------------------------------
 * Under `ulimit -v` Graphviz's font stack crashes rather than fail: glib
 * aborts when it cannot start a thread (Pango sorts font sets in one),
 * fontconfig and cairo dereference failed allocations.  So the room is
 * estimated before Graphviz runs and a run without enough is refused.
 * Measured with the smallest graph (tests/bad/atomic.sh, ulimit-v-*):
 * SVG needs 48 MB of address space in all, PNG 56 MB, of which the process
 * itself holds about 20 MB before Graphviz starts.  AS_FONTS covers the
 * font stack with a margin, AS_BITMAP a bitmap of the largest size the
 * graph's size attribute allows (3936 x 3936 pixels, 4 bytes each), and
 * AS_PER_NODE the layout's memory per node of dot's positioning graph
 * (about 3 KB measured on the worst graphs of gv_layout.c). */
#define AS_FONTS (64u << 20)
#define AS_BITMAP (64u << 20)
#define AS_PER_NODE 4096u

/* Bitmap devices: their drawing is one surface of width x height pixels. */
static int bitmap_device(const char *base)
{
	static const char *const bitmaps[] = { "png", "jpg", "jpeg", "jpe", "bmp", "gif",
					       "tif", "tiff", "webp", "wbmp" };
	size_t i;

	for (i = 0; i < sizeof(bitmaps) / sizeof(bitmaps[0]); i++)
		if (strcmp(base, bitmaps[i]) == 0)
			return 1;
	return 0;
}

/* Address space the process maps now (/proc/self/statm), 0 when unknown. */
static unsigned long long address_space_used(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long long pages = 0;
	long page = sysconf(_SC_PAGESIZE);

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &pages) != 1)
		pages = 0;
	fclose(f);
	return page > 0 ? pages * (unsigned long long)page : 0;
}

/* 0 when the address-space limit leaves room to draw a graph of cost c
 * (NULL: before it is built) as base, else -1 with err set. */
static int room_check(const char *base, const struct gv_layout_cost *c, enum gv_engine engine,
		      struct cg_error *err)
{
	struct rlimit lim;
	unsigned long long used, need = AS_FONTS;

	if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
		return 0;
	if (bitmap_device(base))
		need += AS_BITMAP;
	if (c)
		need += (unsigned long long)AS_PER_NODE *
			(engine == GV_SFDP ? c->nodes + c->edges : c->aux);
	used = address_space_used();
	if ((unsigned long long)lim.rlim_cur >= used + need)
		return 0;
	cg_error_set(err, -1,
		     "not enough address space to draw the graph as %s: it needs about %llu MB more than "
		     "the %llu MB in use, and ulimit -v allows %llu MB",
		     base, need >> 20, used >> 20, (unsigned long long)lim.rlim_cur >> 20);
	return -1;
}

int render_graph_check(const char *base, const void *bytes, size_t len, struct cg_error *err)
{
	const unsigned char *data = bytes;
	uint32_t w, h;

	if (len == 0) {
		cg_error_set(err, -1, "cannot render the graph as %s: Graphviz wrote nothing", base);
		return -1;
	}
	if (strcmp(base, "png") != 0)
		return 0;
	if (len < 24 || memcmp(data, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(data + 12, "IHDR", 4) != 0) {
		cg_error_set(err, -1, "cannot render the graph as png: Graphviz wrote no PNG image");
		return -1;
	}
	w = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 | (uint32_t)data[18] << 8 | data[19];
	h = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 | (uint32_t)data[22] << 8 | data[23];
	if (w < 2 || h < 2 || w > BITMAP_SIDE_MAX || h > BITMAP_SIDE_MAX) {
		cg_error_set(err, -1, "cannot render the graph as png: Graphviz drew %" PRIu32 " x %" PRIu32 " pixels",
			     w, h);
		return -1;
	}
	return 0;
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
	struct cg_roots roots;
	struct gv_build b;
	struct gv_saved saved;
	struct gv_layout_cost cost;
	enum gv_engine engine;
	struct gv_stderr quiet;
	int status;
	GVC_t *gvc = NULL;
	char *data = NULL;
	unsigned int len = 0;
	int bad_format, dot_source, laid_out = 0, rc = -1;

	memset(&b, 0, sizeof(b));
	memset(&sel, 0, sizeof(sel));
	memset(&fold, 0, sizeof(fold));
	memset(&roots, 0, sizeof(roots));
	strbuf_reset(&gv_proc.warnings);
	gv_log_begin(&saved, &gv_proc.warnings);
	bad_format = format_norm(format, fmt, base) < 0 || interactive_device(base);
	dot_source = !bad_format && is_dot_source(base);
	if (!dot_source) {
		/* One malloc arena: each thread Pango starts would otherwise
		 * reserve 64 MB of address space for its own, and under ulimit -v
		 * glib aborts when it cannot start one. */
		mallopt(M_ARENA_MAX, 1);
		if (!bad_format && room_check(base, NULL, GV_DOT, err) < 0)
			goto done;
		gv_log_stderr_begin(&quiet);
		gvc = gv_context();
		gv_log_stderr_end(&quiet, &gv_proc.warnings);
		if (!gvc) {
			cg_error_set(err, -1, "cannot start Graphviz: %s", gv_log_message("gvContext failed"));
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
	roots_make(v, !r->no_merge_threads, rules.hot_pct, &roots);
	if (filter_select(&roots.view, &rules, &sel, err) < 0)
		goto done;
	fold_chains(&roots.view, &sel, !r->no_fold, &fold);

	if (gv_build_graph(&b, r, &roots, &sel, &fold, &rules, &disc, err) < 0)
		goto done;

	if (dot_source) {
		if (agwrite(b.g, out) == EOF) {
			cg_error_set(err, -1, "cannot write the graph: %s", gv_log_message("agwrite failed"));
			goto done;
		}
		rc = 0;
		goto done;
	}
	gv_layout_cost(b.g, &cost);
	engine = gv_layout_bound(b.g, &cost);
	if (engine == GV_DOT_BOUNDED) {
		gv_legend_note(&b, "layout: effort bounded (large graph)");
	} else if (engine == GV_SFDP) {
		gv_legend_note(&b, "layout: sfdp, not layered (too deep for dot)");
		strbuf_printf(&gv_proc.warnings,
			      "graph too deep to layer within seconds (%zu nodes, %zu edges, %zu ranks); "
			      "drawn with sfdp: lower --max-nodes or raise -t for a layered graph\n",
			      sel.nodes_kept, cost.edges, cost.ranks);
	}
	if (room_check(base, &cost, engine, err) < 0)
		goto done;
	gv_log_stderr_begin(&quiet);
	status = gvLayout(gvc, b.g, gv_layout_name(engine));
	if (status == 0) {
		laid_out = 1;
		status = gvRenderData(gvc, b.g, fmt, &data, &len);
	}
	gv_log_stderr_end(&quiet, &gv_proc.warnings);
	if (!laid_out) {
		cg_error_set(err, -1, "graph layout failed: %s", gv_log_message("gvLayout failed"));
		goto done;
	}
	if (status != 0 || !data) {
		cg_error_set(err, -1, "cannot render the graph as %s: %s", fmt,
			     gv_log_message("gvRenderData failed"));
		goto done;
	}
	if (render_graph_check(base, data, len, err) < 0)
		goto done;
	strbuf_add(out, data, len);
	rc = 0;

done:
	if (data)
		gvFreeRenderData(data);
	if (laid_out) {
		gv_log_stderr_begin(&quiet);
		status = gvFreeLayout(gvc, b.g);
		gv_log_stderr_end(&quiet, &gv_proc.warnings);
		if (status != 0 && rc == 0) {
			cg_error_set(err, -1, "graph layout cleanup failed: %s",
				     gv_log_message("gvFreeLayout failed"));
			rc = -1;
		}
	}
	gv_build_free(&b);
	gv_log_end(&saved);
	fold_free(&fold);
	filter_sel_free(&sel);
	roots_free(&roots);
	return rc;
}

const char *render_graph_warnings(void)
{
	return gv_proc.warnings.len ? gv_proc.warnings.data : NULL;
}

/* outputs.c - the table of output kinds (see outputs.h). */
#include "cli/outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/output.h"
#include "render/export/render_callgrind.h"
#include "render/export/render_chrome.h"
#include "render/text/render_diff.h"
#include "render/export/render_folded.h"
#include "render/graph/render_gv.h"
#include "render/report/render_html.h"
#include "render/text/render_json.h"
#include "render/text/render_runs.h"
#include "render/export/render_pprof.h"
#include "render/export/render_speedscope.h"
#include "render/text/render_text.h"

/* Paths: one function per option. */
static const char *single(const struct cg_opts *o, const char *path)
{
	return o->diff_base ? NULL : path;
}
#define PATH_FN(fn, expr)                                                                \
	static const char *fn(const struct cg_opts *o, const char *gfmt, char **owned)  \
	{                                                                                \
		(void)gfmt;                                                              \
		(void)owned;                                                             \
		return expr;                                                             \
	}
PATH_FN(path_text, single(o, o->text ? "-" : NULL))
PATH_FN(path_json, single(o, o->json))
PATH_FN(path_html, single(o, o->html ? o->html : o->html_stdout ? "-" : NULL))
PATH_FN(path_folded, single(o, o->folded))
PATH_FN(path_pprof, single(o, o->pprof))
PATH_FN(path_speedscope, single(o, o->speedscope))
PATH_FN(path_chrome, single(o, o->chrome))
PATH_FN(path_callgrind, single(o, o->callgrind))
PATH_FN(path_dump, single(o, o->dump ? "-" : NULL))
PATH_FN(path_diff_text, o->diff_base && !o->runs && o->text ? "-" : NULL)
PATH_FN(path_diff_html, !o->diff_base || o->runs ? NULL : o->html ? o->html : o->html_stdout ? "-" : NULL)
PATH_FN(path_runs_text, o->runs && o->text ? "-" : NULL)
PATH_FN(path_runs_json, o->runs ? o->json : NULL)
PATH_FN(path_runs_html, !o->runs ? NULL : o->html ? o->html : o->html_stdout ? "-" : NULL)
PATH_FN(path_graph, o->graph)

/* -k: FILE.dot beside an image (a dot graph is its own source). */
static const char *path_graph_dot(const struct cg_opts *o, const char *gfmt, char **owned)
{
	if (!o->graph || !o->keep_dot || strcasecmp(gfmt, "dot") == 0 ||
	    strcasecmp(gfmt, "gv") == 0)
		return NULL;
	*owned = xmalloc(strlen(o->graph) + 5);
	sprintf(*owned, "%s.dot", o->graph);
	return *owned;
}

/* Renders: the single-trace renderers through their cg_renderer. */
#define RENDER_FN(fn, renderer)                                                        \
	static int fn(const struct cg_job *j, struct strbuf *out, struct cg_error *err) \
	{                                                                              \
		return renderer.render(j->r, out, err);                                \
	}
RENDER_FN(do_text, render_text)
RENDER_FN(do_json, render_json)
RENDER_FN(do_html, render_html)
RENDER_FN(do_folded, render_folded)
RENDER_FN(do_pprof, render_pprof)
RENDER_FN(do_speedscope, render_speedscope)
RENDER_FN(do_chrome, render_chrome)
RENDER_FN(do_callgrind, render_callgrind)

static int do_diff_text(const struct cg_job *j, struct strbuf *out, struct cg_error *err)
{
	return render_diff_text(j->r, out, err);
}

static int do_diff_html(const struct cg_job *j, struct strbuf *out, struct cg_error *err)
{
	return render_diff_html(j->r, out, err);
}

static int do_runs_text(const struct cg_job *j, struct strbuf *out, struct cg_error *err)
{
	return render_runs_text(j->r, out, err);
}

static int do_runs_json(const struct cg_job *j, struct strbuf *out, struct cg_error *err)
{
	return render_runs_json(j->r, out, err);
}

static int do_runs_html(const struct cg_job *j, struct strbuf *out, struct cg_error *err)
{
	return render_runs_html(j->r, out, err);
}

static int do_graph(const struct cg_job *j, struct strbuf *out, struct cg_error *err)
{
	return render_graph(j->r, profile_view(j->r->profile, -1), j->graph_format, out, err);
}

static int do_graph_dot(const struct cg_job *j, struct strbuf *out, struct cg_error *err)
{
	return render_graph(j->r, profile_view(j->r->profile, -1), "dot", out, err);
}

/* In the order outputs are opened, rendered and committed. */
static const struct cg_output_kind table[] = {
	{ "diff-text", "-d BASE", NEED_VIEW, path_diff_text, do_diff_text },
	{ "diff-html", "-d BASE with -h or --html FILE", NEED_VIEW, path_diff_html, do_diff_html },
	{ "runs-text", "-d with repeated runs", NEED_VIEW, path_runs_text, do_runs_text },
	{ "runs-json", "-d with --json FILE", NEED_VIEW, path_runs_json, do_runs_json },
	{ "runs-html", "-d with repeated runs and -h or --html FILE", NEED_VIEW, path_runs_html,
	  do_runs_html },
	{ "text", "(default)", NEED_VIEW | NEED_EDGES, path_text, do_text },
	{ "json", "--json FILE", NEED_VIEW | NEED_EDGES, path_json, do_json },
	{ "html", "-h, --html FILE",
	  NEED_CCT | NEED_TIMELINE | NEED_VIEW | NEED_EDGES | NEED_THREAD_VIEWS | NEED_THREAD_METHODS,
	  path_html, do_html },
	{ "folded", "--folded FILE", NEED_CCT, path_folded, do_folded },
	{ "pprof", "--pprof FILE", NEED_CCT, path_pprof, do_pprof },
	{ "speedscope", "--speedscope FILE", NEED_EVENTS, path_speedscope, do_speedscope },
	{ "chrome", "--chrome-trace FILE", NEED_EVENTS, path_chrome, do_chrome },
	{ "callgrind", "--callgrind FILE", NEED_VIEW | NEED_EDGES, path_callgrind, do_callgrind },
	{ "dump", "-o", NEED_READ, path_dump, NULL },
	{ "graph", "-g FILE", NEED_VIEW | NEED_EDGES | NEED_THREAD_METHODS, path_graph, do_graph },
	{ "graph-dot", "-k", NEED_VIEW | NEED_EDGES | NEED_THREAD_METHODS, path_graph_dot,
	  do_graph_dot },
};
#define NKINDS (sizeof(table) / sizeof(table[0]))

_Static_assert(NKINDS <= OUTPUT_MAX_OPEN, "every kind of output can be open at once");

const struct cg_output_kind *outputs_table(size_t *n)
{
	*n = NKINDS;
	return table;
}

void outputs_plan(const struct cg_opts *o, const char *graph_format, struct cg_plan *plan)
{
	size_t i;

	memset(plan, 0, sizeof(*plan));
	plan->out = xcalloc(NKINDS, sizeof(*plan->out));
	for (i = 0; i < NKINDS; i++) {
		char *owned = NULL;
		const char *path = table[i].path(o, graph_format, &owned);

		if (!path)
			continue;
		plan->out[plan->n].kind = &table[i];
		plan->out[plan->n].path = path;
		plan->out[plan->n].owned = owned;
		plan->needs |= table[i].needs;
		plan->n++;
	}
}

void outputs_plan_free(struct cg_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		free(plan->out[i].owned);
	free(plan->out);
	memset(plan, 0, sizeof(*plan));
}

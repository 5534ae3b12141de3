/* main.c - argv -> options -> read the trace once -> render -> exit code.
 *
 * Exit status: 0 success, 1 unreadable or invalid input, I/O or rendering
 * failure, 2 usage error.  Every output is rendered to memory first and
 * written atomically afterwards, so a failing run leaves no file behind. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cct.h"
#include "cli.h"
#include "diff.h"
#include "dump.h"
#include "output.h"
#include "profile.h"
#include "render_diff.h"
#include "render_folded.h"
#include "render_gv.h"
#include "render_html.h"
#include "render_json.h"
#include "render_text.h"
#include "report.h"
#include "selection.h"
#include "source.h"
#include "strbuf.h"
#include "timeline.h"
#include "trace.h"

#define BATCH 4096
#define PROGRESS_MIN (64u << 20)

struct loaded {
	struct cg_source *src;
	struct cg_trace *trace;
	struct cg_profile *profile;
	struct cg_cct *cct;        /* built only for --folded */
	struct cg_timeline *timeline; /* built only for an HTML report (with a cct) */
};

static void report_error(const char *file, const struct cg_error *err)
{
	if (err->has_offset)
		fprintf(stderr, "callgraph: %s: offset %" PRIu64 ": %s\n", file, err->offset, err->msg);
	else
		fprintf(stderr, "callgraph: %s: %s\n", file, err->msg);
}

static void loaded_free(struct loaded *L)
{
	profile_free(L->profile);
	cct_free(L->cct);
	timeline_free(L->timeline);
	trace_free(L->trace);
	source_free(L->src);
	memset(L, 0, sizeof(*L));
}

static void progress(const struct cg_source *src, int *last)
{
	uint64_t done, total;
	int pct;

	source_progress(src, &done, &total);
	if (total < PROGRESS_MIN)
		return;
	pct = (int)(done * 100 / total);
	if (pct != *last) {
		fprintf(stderr, "\rcallgraph: reading %d%%", pct);
		*last = pct;
	}
}

/* Erase the progress line: with ESC[K, or with blanks on a terminal that
 * knows no escapes (TERM=dumb, or no TERM). */
static void progress_clear(void)
{
	const char *term = getenv("TERM");

	if (!term || !term[0] || strcmp(term, "dumb") == 0)
		fprintf(stderr, "\r%*s\r", (int)sizeof("callgraph: reading 100%"), "");
	else
		fprintf(stderr, "\r\033[K");
}

/* Read path once into L with the options of o (clock, threads, focus,
 * hide), dumping records when dump_out is set and building the
 * calling-context tree when with_cct is.  Both traces of -d load through
 * here with the same options.  Returns 0 or 1 (error already printed). */
static int load(const char *path, const struct cg_opts *o, FILE *dump_out, int with_cct,
		struct loaded *L)
{
	struct cg_profile_opts po = {
		.clock = o->clock, .threads = o->threads, .max_depth = 0,
		.focus = o->focus, .hide = o->hide,
	};
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_record *recs = NULL;
	struct cg_dump *dump = NULL;
	/* No progress line when a dump goes to the same terminal: it would land
	 * inside the dump's lines. */
	int show = isatty(STDERR_FILENO) && !o->quiet && !(dump_out && isatty(STDOUT_FILENO));
	int last = -1, rc;
	size_t n;

	memset(L, 0, sizeof(*L));
	L->src = source_open(path, &err);
	if (!L->src)
		goto fail;
	L->trace = trace_open(L->src, &err);
	if (!L->trace)
		goto fail;
	po.pid = trace_info(L->trace)->pid;
	L->profile = profile_create(trace_symtab(L->trace), &po);
	if (with_cct) {
		struct cg_observer obs;

		L->cct = cct_create();
		cct_observer(L->cct, &obs);
		profile_set_observer(L->profile, &obs);
	}
	if ((o->html || o->html_stdout) && !o->diff_base) {
		/* HTML timeline and flame graph: the timeline observer, chained
		 * in front of the calling-context tree's. */
		struct cg_observer co, obs;

		if (!L->cct)
			L->cct = cct_create();
		L->timeline = timeline_create();
		cct_observer(L->cct, &co);
		timeline_observer(L->timeline, &co, &obs);
		profile_set_observer(L->profile, &obs);
	}
	recs = xmalloc(BATCH * sizeof(*recs));
	if (dump_out) {
		dump = dump_create(dump_out);
		dump_header(dump, path, trace_info(L->trace), trace_symtab(L->trace));
	}
	do {
		rc = trace_next(L->trace, recs, BATCH, &n, &err);
		if (dump)
			dump_records(dump, trace_symtab(L->trace), recs, n);
		if (profile_add(L->profile, recs, n, &err) < 0)
			rc = -1;
		if (show)
			progress(L->src, &last);
	} while (rc == 1);
	if (show && last >= 0)
		progress_clear();
	if (rc < 0)
		goto fail;
	profile_finish(L->profile, trace_info(L->trace));
	if (L->timeline)
		timeline_finish(L->timeline, L->profile);
	if (dump)
		dump_footer(dump, trace_info(L->trace), trace_symtab(L->trace),
			    trace_key_text(L->trace));
	dump_free(dump);
	free(recs);
	return 0;
fail:
	report_error(path, &err);
	dump_free(dump);
	free(recs);
	loaded_free(L);
	return 1;
}

static void print_warnings(const char *file, struct cg_profile *p)
{
	const struct cg_warning *w;
	size_t n = profile_warnings(p, &w), i;

	for (i = 0; i < n; i++)
		fprintf(stderr, "callgraph: %s: warning: %s\n", file, w[i].message);
}

/* Selections (--thread, --focus, --hide) that matched nothing, with the
 * candidates. */
static void print_selection_warnings(const char *file, const struct cg_opts *o,
				     const struct loaded *L)
{
	struct cg_profile_opts po = {
		.clock = o->clock, .threads = o->threads, .focus = o->focus, .hide = o->hide,
		.pid = trace_info(L->trace)->pid,
	};
	struct strbuf sb;
	const char *s, *nl;

	strbuf_init(&sb);
	selection_warnings(trace_symtab(L->trace), &po, &sb);
	for (s = sb.data; s && *s; s = nl + 1) {
		nl = strchr(s, '\n');
		fprintf(stderr, "callgraph: %s: warning: %.*s\n", file, (int)(nl - s), s);
	}
	strbuf_free(&sb);
}

struct pending {
	const char *path;
	char *alloc_path; /* owned when the path was built here */
	struct strbuf data;
};

static int render_to(const struct cg_renderer *rd, const struct cg_report *r, const char *path,
		     struct pending *out, size_t *nout)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct pending *pd = &out[(*nout)++];

	pd->path = path;
	if (rd->render(r, &pd->data, &err) < 0) {
		report_error(r->file, &err);
		return 1;
	}
	return 0;
}

/* 1 when path is the file trace names, or one file of the legacy pair it
 * names (trace.key/.data, or the twin of a .key/.data path). */
static int names_input(const char *path, const char *trace)
{
	char *key, *data;
	int hit;

	source_pair_names(trace, &key, &data);
	hit = output_same_file(path, trace) || output_same_file(path, key) ||
	      output_same_file(path, data);
	free(key);
	free(data);
	return hit;
}

static int check_outputs(const struct cg_opts *o, const char *graph_format)
{
	const char *outs[6] = { o->graph, o->html, o->json, o->folded, NULL, NULL };
	char *dot = NULL;
	size_t i;

	if (o->graph && !graph_format) {
		fprintf(stderr, "callgraph: %s: cannot tell the graph format from the name; use -T FORMAT\n",
			o->graph);
		return 1;
	}
	if (graph_format && !render_graph_has_format(graph_format)) {
		fprintf(stderr, "callgraph: %s: unknown graph format '%s'\n", o->graph, graph_format);
		return 1;
	}
	if (o->graph && o->keep_dot) {
		dot = xmalloc(strlen(o->graph) + 5);
		sprintf(dot, "%s.dot", o->graph);
		outs[4] = dot;
	}
	for (i = 0; i < 5; i++) {
		if (outs[i] && (names_input(outs[i], o->trace) ||
				(o->diff_base && names_input(outs[i], o->diff_base)))) {
			fprintf(stderr, "callgraph: %s: refusing to overwrite an input trace\n", outs[i]);
			free(dot);
			return 1;
		}
	}
	free(dot);
	return 0;
}

static void report_fill(struct cg_report *r, const char *file, const struct cg_opts *o,
			const struct loaded *L)
{
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->info = trace_info(L->trace);
	r->profile = L->profile;
	r->st = trace_symtab(L->trace);
	r->clock = o->clock;
	r->threshold = o->threshold;
	r->node_pct = o->node_pct;
	r->edge_pct = o->edge_pct;
	r->no_fold = o->no_fold;
	r->max_nodes = o->max_nodes;
	r->short_names = o->short_names;
	r->cct = L->cct;
	r->timeline = L->timeline;
}

/* -d: the comparison as text or HTML, rendered like the other outputs. */
static int render_diff_to(int (*fn)(const struct cg_report *, const struct cg_report *,
				    struct strbuf *, struct cg_error *),
			  const struct cg_report *base, const struct cg_report *later,
			  const char *path, struct pending *out, size_t *nout)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct pending *pd = &out[(*nout)++];

	pd->path = path;
	if (fn(base, later, &pd->data, &err) < 0) {
		report_error(later->file, &err);
		return 1;
	}
	return 0;
}

static int run(const struct cg_opts *o)
{
	struct loaded L, B;
	struct cg_report r, rb;
	struct cg_diff *diff = NULL;
	struct pending out[8];
	struct cg_staged *staged[8] = { NULL };
	size_t nout = 0, i;
	const char *gfmt = o->graph ? (o->format ? o->format : render_graph_format_for(o->graph)) : NULL;
	int rc = 0;

	if (check_outputs(o, gfmt))
		return 1;
	memset(&B, 0, sizeof(B));
	if (o->diff_base) {
		if (load(o->diff_base, o, NULL, 0, &B))
			return 1;
		if (!o->quiet)
			print_warnings(o->diff_base, B.profile);
	}
	if (load(o->trace, o, o->dump ? stdout : NULL, o->folded != NULL, &L)) {
		loaded_free(&B);
		return 1;
	}
	if (!o->quiet) {
		print_warnings(o->trace, L.profile);
		print_selection_warnings(o->trace, o, &L);
	}
	memset(out, 0, sizeof(out));
	for (i = 0; i < 8; i++)
		strbuf_init(&out[i].data);
	report_fill(&r, o->trace, o, &L);
	if (o->diff_base) {
		report_fill(&rb, o->diff_base, o, &B);
		diff = diff_create(profile_view(B.profile, -1), profile_view(L.profile, -1));
		r.diff = diff;
	}

	if (o->diff_base) {
		if (o->text)
			rc |= render_diff_to(render_diff_text, &rb, &r, "-", out, &nout);
		if (!rc && (o->html || o->html_stdout))
			rc |= render_diff_to(render_diff_html, &rb, &r, o->html ? o->html : "-", out,
					     &nout);
	} else {
		if (o->text)
			rc |= render_to(&render_text, &r, "-", out, &nout);
		if (!rc && o->json)
			rc |= render_to(&render_json, &r, o->json, out, &nout);
		if (!rc && (o->html || o->html_stdout))
			rc |= render_to(&render_html, &r, o->html ? o->html : "-", out, &nout);
		if (!rc && o->folded)
			rc |= render_to(&render_folded, &r, o->folded, out, &nout);
	}
	if (!rc && o->graph) {
		struct cg_error err = { { 0 }, 0, 0 };
		const struct cg_view *v = profile_view(L.profile, -1);
		struct pending *pd = &out[nout++];

		pd->path = o->graph;
		if (render_graph(&r, v, gfmt, &pd->data, &err) < 0) {
			report_error(o->trace, &err);
			rc = 1;
		} else if (o->keep_dot && strcasecmp(gfmt, "dot") != 0 && strcasecmp(gfmt, "gv") != 0) {
			pd = &out[nout++];
			pd->alloc_path = xmalloc(strlen(o->graph) + 5);
			sprintf(pd->alloc_path, "%s.dot", o->graph);
			pd->path = pd->alloc_path;
			if (render_graph(&r, v, "dot", &pd->data, &err) < 0) {
				report_error(o->trace, &err);
				rc = 1;
			}
		}
	}
	/* Every output is staged (written to a temporary file) before any is
	 * committed, so that a failing run leaves no new or changed file. */
	for (i = 0; !rc && i < nout; i++) {
		struct cg_error err = { { 0 }, 0, 0 };

		staged[i] = output_stage(out[i].path, out[i].data.data ? out[i].data.data : "",
					 out[i].data.len, &err);
		if (!staged[i]) {
			fprintf(stderr, "callgraph: %s\n", err.msg);
			rc = 1;
		}
	}
	for (i = 0; i < nout; i++) {
		struct cg_error err = { { 0 }, 0, 0 };

		if (rc) {
			output_abort(staged[i]);
		} else if (output_commit(staged[i], &err) < 0) {
			fprintf(stderr, "callgraph: %s\n", err.msg);
			rc = 1;
		}
	}
	for (i = 0; i < 8; i++) {
		strbuf_free(&out[i].data);
		free(out[i].alloc_path);
	}
	diff_free(diff);
	loaded_free(&L);
	loaded_free(&B);
	return rc;
}

int main(int argc, char **argv)
{
	struct cg_opts o;
	int rc = cli_parse(argc, argv, &o);

	if (rc == CLI_USAGE)
		return 2;
	if (rc == CLI_OK) {
		rc = run(&o);
		cli_free(&o);
	} else {
		rc = 0;
	}
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (rc == 0)
			fprintf(stderr, "callgraph: cannot write standard output: %s\n", strerror(errno));
		rc = 1;
	}
	return rc;
}

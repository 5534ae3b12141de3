/* run.c - read, render, commit (see run.h).
 *
 * Every output file is opened (as an unnamed temporary file) before the
 * trace is read and linked into place only when every output is complete,
 * so a failing run -- or one killed by a signal -- leaves no file behind.
 * Outputs are streamed: a renderer's bytes reach the temporary file (or
 * standard output) in bounded chunks, never held whole. */
#include "cli/run.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/gate.h"
#include "cli/load.h"
#include "cli/output.h"
#include "cli/outputs.h"
#include "model/diff.h"
#include "model/frames.h"
#include "model/profile.h"
#include "model/runs.h"
#include "render/graph/render_gv.h"
#include "render/report.h"
#include "util/writer.h"

void run_install_oom_hook(void)
{
	load_install_oom_hook();
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

/* 1 when path is the file open on standard input and a trace is read
 * from there: "callgraph --json in.trace - < in.trace". */
static int names_stdin(const char *path, const struct cg_opts *o)
{
	size_t i;
	int any = 0;

	for (i = 0; i < o->nbases; i++)
		any |= strcmp(o->bases[i], "-") == 0;
	for (i = 0; i < o->ntraces; i++)
		any |= strcmp(o->traces[i], "-") == 0;
	return any && output_same_as_fd(path, STDIN_FILENO);
}

/* 1 when path is one of the traces read. */
static int names_any_input(const char *path, const struct cg_opts *o)
{
	size_t i;

	for (i = 0; i < o->nbases; i++)
		if (names_input(path, o->bases[i]))
			return 1;
	for (i = 0; i < o->ntraces; i++)
		if (names_input(path, o->traces[i]))
			return 1;
	return 0;
}

/* The graph format is known and offered, and no output is an input.
 * 0, or 1 with the one line printed. */
static int check_outputs(const struct cg_opts *o, const char *gfmt, const struct cg_plan *plan)
{
	size_t i;

	if (o->graph && !gfmt) {
		fprintf(stderr, "callgraph: %s: cannot tell the graph format from the name; use -T FORMAT\n",
			o->graph);
		return 1;
	}
	if (gfmt && !render_graph_has_format(gfmt)) {
		fprintf(stderr, "callgraph: %s: unknown graph format '%s'\n", o->graph, gfmt);
		return 1;
	}
	for (i = 0; i < plan->n; i++) {
		const char *p = plan->out[i].path;

		if (names_any_input(p, o) || names_stdin(p, o)) {
			fprintf(stderr, "callgraph: %s: refusing to overwrite an input trace\n", p);
			return 1;
		}
		if ((o->mapping && output_same_file(p, o->mapping)) ||
		    (o->base_mapping && output_same_file(p, o->base_mapping))) {
			fprintf(stderr, "callgraph: %s: refusing to overwrite a mapping file\n", p);
			return 1;
		}
	}
	return 0;
}

static void report_fill(struct cg_report *r, const char *file, const struct cg_opts *o,
			const struct loaded *L, const struct cg_window_spec *win)
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
	r->no_merge_threads = o->no_merge_threads;
	r->max_nodes = o->max_nodes;
	r->short_names = o->short_names;
	r->cct = L->cct;
	r->timeline = L->timeline;
	r->events = L->events;
	r->pagelog = L->pagelog;
	r->slash_names = o->slash_names;
	r->frames = L->frames;
	r->frames_section = o->frames;
	r->origin = L->origin;
	r->threads = load_jobs(o) >= 2;
	if (win && L->cuts) {
		r->has_range = 1;
		r->range_from_us = win->from_us;
		r->range_to_us = win->to_us;
		r->range_frame = o->range_frame;
		r->range_kept = L->kept;
	}
}

/* The -d base, loaded and reduced to what the comparison reads, so that
 * its profile is freed before the later trace is read; its warnings are
 * kept in warn.  NULL, with the one line printed, when it cannot be read. */
static struct cg_diff_base *base_load(const struct cg_opts *o, struct strbuf *warn)
{
	struct loaded B;
	struct cg_report rb;
	struct cg_diff_run run;
	struct cg_diff_base *base;
	const struct cg_view *v;

	memset(&B, 0, sizeof(B));
	if (load_trace(o->diff_base, o->base_mapping, o, NEED_VIEW, NULL, o->range_text ? &o->range : NULL, &B))
		return NULL;
	report_fill(&rb, o->diff_base, o, &B, o->range_text ? &o->range : NULL);
	v = profile_view(B.profile, -1);
	diff_run_fill(&run, o->diff_base, report_clock_name(&rb), v);
	base = diff_base_create(v, &run);
	load_warnings_text(o->diff_base, &B, warn);
	load_free(&B);
	return base;
}

/* --range frame:N: frame N's window, from a first reading of the trace
 * that looks for the frames.  0, 1 (bad input, or no wall clock; the one
 * line printed) or 2 (no such frame, or standard input, which cannot be
 * read twice). */
static int frame_window(const struct cg_opts *o, struct cg_window_spec *spec)
{
	struct cg_opts fo = *o;
	struct cg_error err = { { 0 }, 0, 0 };
	struct loaded P;
	const struct cg_frame *f;
	size_t n;

	if (strcmp(o->trace, "-") == 0) {
		fprintf(stderr, "callgraph: --range frame:%" PRIu64 " reads the trace twice: give a file, not standard input\n",
			o->range_frame);
		return 2;
	}
	fo.frames = 1;
	fo.range_text = NULL;
	if (load_trace(o->trace, o->mapping, &fo, 0, NULL, NULL, &P))
		return 1;
	if (load_wall_clock(&P, &err) < 0) {
		load_report_error(o->trace, &err);
		load_free(&P);
		return 1;
	}
	n = frames_count(P.frames);
	if (o->range_frame > n) {
		fprintf(stderr, "callgraph: %s: --range frame:%" PRIu64 ": the trace has %zu frame%s of %s\n",
			o->trace, o->range_frame, n, n == 1 ? "" : "s", frames_pattern(P.frames));
		load_free(&P);
		return 2;
	}
	f = &frames_list(P.frames)[o->range_frame - 1];
	spec->from_us = (int64_t)(f->start - P.origin);
	spec->to_us = spec->from_us + (int64_t)f->wall_us;
	load_free(&P);
	return 0;
}

/* Repeated runs: every base, and every later trace but the last, read
 * one at a time and reduced to its summary; their warnings are kept in
 * warn.  0, or 1 with the one line printed. */
static int runs_load(const struct cg_opts *o, struct cg_runs *rs, struct strbuf *warn)
{
	size_t side, i;

	for (side = 0; side < 2; side++) {
		const char **list = side ? o->traces : o->bases;
		size_t n = side ? o->ntraces - 1 : o->nbases;

		for (i = 0; i < n; i++) {
			struct loaded B;
			struct cg_report rb;

			memset(&B, 0, sizeof(B));
			if (load_trace(list[i], side ? o->mapping : o->base_mapping, o, NEED_VIEW, NULL,
				 o->range_text ? &o->range : NULL, &B))
				return 1;
			report_fill(&rb, list[i], o, &B, o->range_text ? &o->range : NULL);
			runs_add(rs, (enum cg_runs_side)side, profile_view(B.profile, -1), list[i],
				 report_clock_name(&rb));
			load_warnings_text(list[i], &B, warn);
			load_free(&B);
		}
	}
	return 0;
}

/* Render planned output i into its staged output, in chunks; with threaded,
 * they are written on a thread of their own while rendering goes on
 * (writer.h).  0, or 1 with the one line printed. */
static int render_one(const struct cg_planned *pd, struct cg_staged *s, const struct cg_job *j,
		      int threaded)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct strbuf out;
	struct cg_writer *wr = threaded ? writer_create(output_sink, s) : NULL;
	int rc = 0, rendered, written;

	strbuf_init(&out);
	if (wr)
		strbuf_set_sink(&out, writer_sink, wr);
	else
		strbuf_set_sink(&out, output_sink, s);
	rendered = pd->kind->render(j, &out, &err);
	written = rendered < 0 ? 0 : strbuf_flush(&out);
	/* Every chunk written (or dropped) before anything is printed. */
	if (writer_close(wr) < 0)
		written = -1;
	if (rendered < 0) {
		load_report_error(j->r->file, &err);
		rc = 1;
	} else if (written < 0) {
		fprintf(stderr, "callgraph: %s\n", output_failure(s));
		rc = 1;
	}
	/* A graph's warnings: a layout drawn another way, Graphviz's own
	 * messages. */
	if (!rc && !j->quiet && strcmp(pd->kind->name, "graph") == 0 && render_graph_warnings()) {
		const char *w = render_graph_warnings(), *nl;

		for (; (nl = strchr(w, '\n')); w = nl + 1)
			fprintf(stderr, "callgraph: %s: warning: %.*s\n", j->r->file, (int)(nl - w), w);
	}
	strbuf_free(&out);
	return rc;
}

/* Open every planned output: a path that cannot be written fails at once,
 * not after minutes of reading.  0, or 1 with the one line printed. */
static int open_outputs(const struct cg_plan *plan, int stdout_closed,
			struct cg_output_set *set, struct cg_staged **staged)
{
	size_t i;

	for (i = 0; stdout_closed && i < plan->n; i++) {
		if (strcmp(plan->out[i].path, "-") == 0) {
			fprintf(stderr, "callgraph: cannot write standard output: %s\n", strerror(EBADF));
			return 1;
		}
	}
	for (i = 0; i < plan->n; i++) {
		struct cg_error err = { { 0 }, 0, 0 };

		staged[i] = output_set_open(set, plan->out[i].path, &err);
		if (!staged[i]) {
			fprintf(stderr, "callgraph: %s\n", err.msg);
			return 1;
		}
	}
	return 0;
}

/* The planned -o dump's stream, or NULL; *which gets its plan index. */
static FILE *dump_stream(const struct cg_plan *plan, struct cg_staged **staged, size_t *which)
{
	size_t i;

	for (i = 0; i < plan->n; i++) {
		if (plan->out[i].kind->needs & NEED_READ) {
			*which = i;
			return output_stream(staged[i]);
		}
	}
	return NULL;
}

enum cg_exit run(const struct cg_opts *o, int stdout_closed)
{
	struct loaded L;
	struct cg_report r;
	struct cg_job job = { &r, NULL, 0 };
	struct cg_diff_base *base = NULL;
	struct cg_diff *diff = NULL;
	struct cg_runs *runs = NULL;
	struct strbuf base_warn;
	struct cg_plan plan;
	struct cg_output_set *set = output_set_create();
	struct cg_staged **staged;
	struct cg_error err = { { 0 }, 0, 0 };
	FILE *dump_out = NULL;
	size_t i, pass, dump_at = 0;
	int rc = 0, usage = 0, threaded;
	struct cg_window_spec frame_spec;

	memset(&L, 0, sizeof(L));
	strbuf_init(&base_warn);
	job.graph_format = o->graph ? (o->format ? o->format : render_graph_format_for(o->graph)) : NULL;
	job.quiet = o->quiet;
	outputs_plan(o, job.graph_format, &plan);
	staged = xcalloc(plan.n + 1, sizeof(*staged));
	if (check_outputs(o, job.graph_format, &plan) ||
	    open_outputs(&plan, stdout_closed, set, staged)) {
		rc = 1;
		goto done;
	}
	if (o->runs) {
		runs = runs_create();
		if (runs_load(o, runs, &base_warn)) {
			rc = 1;
			goto done;
		}
	} else if (o->diff_base && !(base = base_load(o, &base_warn))) {
		rc = 1;
		goto done;
	}
	dump_out = dump_stream(&plan, staged, &dump_at);
	if (o->range_frame) {
		int k = frame_window(o, &frame_spec);

		if (k) {
			rc = 1;
			usage = k == 2;
			goto done;
		}
	}
	if (load_trace(o->trace, o->mapping, o, plan.needs, dump_out,
		 o->range_frame ? &frame_spec : o->range_text ? &o->range : NULL, &L)) {
		rc = 1;
		goto done;
	}
	/* The base's warnings come only once the later trace has loaded, so a
	 * failing run prints its one error line and nothing else. */
	if (!o->quiet && base_warn.len)
		fputs(base_warn.data, stderr);
	if (!o->quiet) {
		load_print_warnings(o->trace, &L);
		load_print_selection_warnings(o->trace, o, &L);
	}
	report_fill(&r, o->trace, o, &L,
		    o->range_frame ? &frame_spec : o->range_text ? &o->range : NULL);
	if (L.window && !L.kept && !o->quiet)
		fprintf(stderr, "callgraph: %s: warning: the window %s holds no record\n", o->trace,
			o->range_text);
	if (base) {
		diff = diff_create(base, profile_view(L.profile, -1));
		base = NULL;
		r.diff = diff;
	}
	if (runs) {
		runs_add(runs, CG_RUNS_LATER, profile_view(L.profile, -1), o->trace,
			 report_clock_name(&r));
		runs_finish(runs);
		r.runs = runs;
		r.normalise = o->normalise;
	}
	/* Files first, then standard output and devices, which cannot be taken
	 * back: a failure while rendering leaves the terminal untouched. */
	threaded = load_jobs(o) >= 2;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; !rc && i < plan.n; i++) {
			if (!plan.out[i].kind->render || output_is_staged(staged[i]) != (pass == 0))
				continue;
			rc = render_one(&plan.out[i], staged[i], &job, threaded);
		}
	}
done:
	if (dump_out && output_stream_close(staged[dump_at], dump_out) != 0 && !rc) {
		fprintf(stderr, "callgraph: cannot write standard output: %s\n", strerror(errno));
		rc = 1;
	}
	if (rc) {
		output_set_abort(set);
	} else if (output_set_commit(set, &err) < 0) {
		fprintf(stderr, "callgraph: %s\n", err.msg);
		rc = 1;
	}
	if (!rc && runs && o->fail_slower >= 0 && gate_check(&r, o->fail_slower))
		rc = -1;
	free(staged);
	outputs_plan_free(&plan);
	runs_free(runs);
	diff_free(diff);
	diff_base_free(base);
	strbuf_free(&base_warn);
	load_free(&L);
	return usage ? CG_EXIT_USAGE : rc < 0 ? CG_EXIT_SLOWER : rc ? CG_EXIT_FAILURE : CG_EXIT_OK;
}

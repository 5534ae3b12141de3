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

#include "model/cct.h"
#include "model/observe_async.h"
#include "model/diff.h"
#include "render/text/dump.h"
#include "model/runs.h"
#include "cli/gate.h"
#include "model/events.h"
#include "model/pagelog.h"
#include "model/frames.h"
#include "model/window.h"
#include "cli/output.h"
#include "cli/outputs.h"
#include "cli/replay.h"
#include "model/profile.h"
#include "render/graph/render_gv.h"
#include "render/report.h"
#include "model/selection.h"
#include "read/mapping.h"
#include "read/source.h"
#include "util/strbuf.h"
#include "model/timeline.h"
#include "read/trace.h"

#define BATCH 4096
#define PROGRESS_MIN (64u << 20)

/* The file being read, named by the out-of-memory report.  Global because
 * the allocation-failure hook can reach nothing else. */
static const char *current_file = "-";

static void on_oom(size_t n)
{
	fprintf(stderr, "callgraph: %s: out of memory (%zu bytes)\n", current_file, n);
	output_signal_cleanup();
	_exit(CG_EXIT_FAILURE);
}

void run_install_oom_hook(void)
{
	util_set_oom_hook(on_oom);
}

struct loaded {
	struct cg_source *src;
	struct cg_trace *trace;
	struct cg_profile *profile;
	struct cg_cct *cct;           /* NEED_CCT */
	struct cg_timeline *timeline; /* NEED_TIMELINE */
	struct cg_events *events;     /* NEED_EVENTS */
	struct cg_pagelog *pagelog;   /* NEED_TIMELINE: the HTML report's call log */
	struct cg_observe_async *async; /* feeds the three above on a thread of its own */
	struct cg_frames *frames;     /* the frames, when looked for */
	struct cg_window *window;     /* --range */
	uint64_t origin;              /* raw wall time of the first record */
	int any_record;
	uint64_t kept;                /* with a window: the trace's records it kept */
	int cuts;                     /* the window left out or made records */
	struct cg_mapping *map;       /* --mapping or --base-mapping */
	const char *map_path;
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
	observe_async_free(L->async);
	profile_free(L->profile);
	cct_free(L->cct);
	timeline_free(L->timeline);
	events_free(L->events);
	pagelog_free(L->pagelog);
	frames_free(L->frames);
	window_free(L->window);
	trace_free(L->trace);
	source_free(L->src);
	mapping_free(L->map);
	memset(L, 0, sizeof(*L));
}

/* The progress line at done of total, when the percentage moved. */
static void progress_at(uint64_t done, uint64_t total, int *last)
{
	int pct = (int)((done < total ? done : total) * 100 / total);

	if (pct != *last) {
		fprintf(stderr, "\rcallgraph: reading %d%%", pct);
		*last = pct;
	}
}

static void progress(const struct cg_source *src, int *last)
{
	uint64_t done, total;

	source_progress(src, &done, &total);
	if (total >= PROGRESS_MIN)
		progress_at(done, total, last);
}

/* Records replayed in ranges so far (replay_split's progress). */
static void progress_records(void *ctx, uint64_t done, uint64_t total)
{
	progress_at(done, total ? total : 1, ctx);
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

/* The threads -j asks for, or the cores this process may run on. */
static unsigned jobs_asked(const struct cg_opts *o)
{
	return o->jobs ? o->jobs : replay_cores();
}

/* Observers of the replay, chained: the calling-context tree's first, then
 * the HTML timeline's, then the event log's, each only when needs asks.
 * The tree and the timeline cost about as much as the replay: with them,
 * the chain runs on a thread of its own unless there is one core (or
 * -j 1).  The event log alone costs less than handing it the calls. */
static void observe(struct loaded *L, const struct cg_opts *o, unsigned needs)
{
	struct cg_observer co = { 0 }, to = { 0 }, eo = { 0 }, ao = { 0 }, fo = { 0 }, po = { 0 };
	const struct cg_observer *next = NULL;

	if (!(needs & (NEED_CCT | NEED_TIMELINE | NEED_EVENTS)) && !L->frames)
		return;
	if (needs & NEED_CCT) {
		L->cct = cct_create();
		cct_observer(L->cct, &co);
		next = &co;
	}
	if (needs & NEED_TIMELINE) {
		L->timeline = timeline_create();
		timeline_observer(L->timeline, next, &to);
		next = &to;
		L->pagelog = pagelog_create();
		pagelog_observer(L->pagelog, next, &po);
		next = &po;
	}
	if (needs & NEED_EVENTS) {
		L->events = events_create();
		events_observer(L->events, next, &eo);
		next = &eo;
	}
	if ((needs & (NEED_CCT | NEED_TIMELINE)) && jobs_asked(o) >= 2) {
		L->async = observe_async_create(next);
		observe_async_observer(L->async, &ao);
		next = &ao;
	}
	if (L->frames) {
		/* On the replay's thread: the frames are few, the hand-over
		 * would cost more than they do. */
		frames_observer(L->frames, next, &fo);
		next = &fo;
	}
	profile_set_observer(L->profile, next);
}

/* Below this many records, or this many per method in the key, a trace is
 * replayed in one piece unless -j asks (threads would cost more than they
 * save). */
#define SPLIT_MIN (1u << 20)
#define SPLIT_PER_METHOD 64
#define DEFAULT_JOBS 8

/* How many ranges to replay the trace in at once: 0 or 1 to replay it in
 * order.  Only the profile's own tables can be summed: observers (the
 * calling-context tree, timeline, event log), the dump, --focus, --hide and
 * --thread replay in order, as does a trace that trace_span refuses (gzip,
 * streaming, V2, standard input). */
static unsigned split_ranges(const struct cg_opts *o, unsigned needs, const struct loaded *L,
			     uint64_t *count)
{
	uint64_t first;
	unsigned n = jobs_asked(o);

	/* Each range holds its own tables until they are summed: by default
	 * no more than DEFAULT_JOBS of them. */
	if (!o->jobs && n > DEFAULT_JOBS)
		n = DEFAULT_JOBS;
	if (n < 2 || (needs & (NEED_CCT | NEED_TIMELINE | NEED_EVENTS | NEED_READ)) || L->frames ||
	    o->range_text ||
	    (o->focus && o->focus[0]) || (o->hide && o->hide[0]) ||
	    (o->threads && o->threads[0]) || !trace_span(L->trace, &first, count) ||
	    *count < (o->jobs ? 2 : SPLIT_MIN))
		return 0;
	/* Each range builds the tables of what it meets: with few records per
	 * method, the ranges would hold most tables twice and save no time. */
	if (!o->jobs && *count / SPLIT_PER_METHOD < symtab_method_count(trace_symtab(L->trace)))
		return 0;
	return *count < n ? (unsigned)*count : n;
}

/* 1 when the frames are looked for in a trace with this symtab: with
 * --frames, or for the JSON and HTML outputs when a method of the key (or,
 * where methods come with the records, any method) may be a frame method. */
static int want_frames(const struct cg_opts *o, const struct loaded *L)
{
	const struct cg_symtab *st = trace_symtab(L->trace);
	const char *pat = o->frame_pattern ? o->frame_pattern : frames_default_pattern;
	struct cg_method_info tmp;
	struct strbuf name;
	size_t i, n = symtab_method_count(st);
	int hit = 0;

	if (o->frames)
		return 1;
	if (!o->json && !o->html && !o->html_stdout)
		return 0;
	/* Streaming and V2 traces define methods among their records. */
	if (trace_info(L->trace)->layout == CG_LAYOUT_STREAMING || trace_info(L->trace)->version >= 4)
		return 1;
	strbuf_init(&name);
	for (i = 0; i < n && !hit; i++) {
		strbuf_reset(&name);
		symtab_put_display(&name, symtab_method_peek(st, (uint32_t)i, &tmp));
		hit = profile_pattern_match(pat, name.len ? name.data : "");
	}
	strbuf_free(&name);
	return hit;
}

/* The window's records instead of recs[0..*n), and the origin. */
static const struct cg_record *windowed(struct loaded *L, const struct cg_record *recs,
					 size_t *n)
{
	if (*n && !L->any_record) {
		L->any_record = 1;
		L->origin = recs[0].t_wall;
	}
	if (!L->window)
		return recs;
	return (*n = window_add(L->window, recs, *n, &recs), recs);
}

/* The origin of a span replayed where it is read: its first record's wall
 * time.  0, or -1 with err filled. */
static int first_record(struct loaded *L, struct cg_error *err)
{
	unsigned char *buf = xmalloc((size_t)trace_info(L->trace)->record_size + 1);
	struct cg_record r;
	ssize_t n = trace_read_at(L->trace, 0, 1, buf, &r, err);

	free(buf);
	if (n < 0)
		return -1;
	L->any_record = 1;
	L->origin = r.t_wall;
	return 0;
}

/* After the replay of a window: its edges' records are not the trace's;
 * a trace without a wall clock has no window.  0, or -1 with err set. */
static int window_done(struct loaded *L, struct cg_error *err)
{
	const struct cg_window_thread *mt;
	size_t i, n;

	if (!L->window)
		return 0;
	if (trace_info(L->trace)->clock == CG_CLOCK_CPU) {
		cg_error_set(err, -1, "--range needs a wall clock, and this trace has only thread-CPU time");
		return -1;
	}
	n = window_made(L->window, &mt);
	for (i = 0; i < n; i++)
		profile_discount(L->profile, mt[i].tid, mt[i].made);
	L->kept = window_kept(L->window);
	L->cuts = window_cuts(L->window);
	return 0;
}

/* Read path once into L with the options of o (clock, threads, focus,
 * hide), its methods renamed by the mapping file map_path when it is set,
 * building what needs asks for and dumping records to dump_out when it is
 * set, within the window win when it is set.  Every trace of -d loads
 * through here.  Returns 0 or 1 (error already printed). */
static int load(const char *path, const char *map_path, const struct cg_opts *o,
		unsigned needs, FILE *dump_out, const struct cg_window_spec *win, struct loaded *L)
{
	struct cg_profile_opts po = {
		.clock = o->clock, .threads = o->threads, .max_depth = 0,
		.focus = o->focus, .hide = o->hide, .no_views = !(needs & NEED_VIEW),
		.no_edges = !(needs & NEED_EDGES),
		.no_thread_views = !(needs & NEED_THREAD_VIEWS),
	};
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_record *recs = NULL;
	struct cg_dump *dump = NULL;
	/* No progress line when a dump goes to the same terminal: it would land
	 * inside the dump's lines. */
	int show = isatty(STDERR_FILENO) && !o->quiet && !(dump_out && isatty(STDOUT_FILENO));
	int last = -1, rc, failed = 0, split = 0;
	unsigned ranges;
	uint64_t count, first;
	size_t n;

	memset(L, 0, sizeof(*L));
	if (map_path) {
		current_file = map_path;
		L->map = mapping_open(map_path, &err);
		if (!L->map) {
			report_error(map_path, &err);
			return 1;
		}
		L->map_path = map_path;
	}
	current_file = path;
	L->src = source_open(path, &err);
	if (!L->src)
		goto fail;
	L->trace = L->map ? trace_open_renamed(L->src, mapping_rename, L->map, &err)
			  : trace_open(L->src, &err);
	if (!L->trace)
		goto fail;
	po.pid = trace_info(L->trace)->pid;
	if (win) {
		if (trace_info(L->trace)->clock == CG_CLOCK_CPU) {
			cg_error_set(&err, -1, "--range needs a wall clock, and this trace has only thread-CPU time");
			goto fail;
		}
		L->window = window_create(win);
	}
	if (want_frames(o, L))
		L->frames = frames_create(trace_symtab(L->trace), o->frame_pattern);
	if (!dump_out && (ranges = split_ranges(o, needs, L, &count)) >= 2) {
		uint64_t done, total;
		struct cg_progress pr = { progress_records, &last };

		source_progress(L->src, &done, &total);
		L->profile = replay_split(L->trace, &po, count, ranges,
					  show && total >= PROGRESS_MIN ? &pr : NULL, &failed, &err);
		if (failed)
			goto fail;
		split = L->profile != NULL;
	}
	if (!L->profile)
		L->profile = profile_create(trace_symtab(L->trace), &po);
	observe(L, o, needs);
	/* A span not replayed in ranges: decoded where it is read, unless the
	 * dump reads it too. */
	if (!dump_out && !split && !L->window && trace_span(L->trace, &first, &count)) {
		uint64_t done, total;
		struct cg_progress pr = { progress_records, &last };

		if (count && first_record(L, &err) < 0)
			goto fail;
		source_progress(L->src, &done, &total);
		if (replay_span(L->trace, L->profile, count,
				show && total >= PROGRESS_MIN ? &pr : NULL, &err) < 0)
			goto fail;
	}
	recs = xmalloc(BATCH * sizeof(*recs));
	if (dump_out) {
		dump = dump_create(dump_out);
		dump_header(dump, path, trace_info(L->trace), trace_symtab(L->trace));
	}
	do {
		const struct cg_record *rs;

		rc = trace_next(L->trace, recs, BATCH, &n, &err);
		rs = windowed(L, recs, &n);
		if (dump)
			dump_records(dump, trace_symtab(L->trace), rs, n);
		if (profile_add(L->profile, rs, n, &err) < 0)
			rc = -1;
		if (show)
			progress(L->src, &last);
	} while (rc == 1);
	if (show && last >= 0)
		progress_clear();
	if (rc < 0 || window_done(L, &err) < 0)
		goto fail;
	profile_finish(L->profile, trace_info(L->trace));
	if (L->frames)
		frames_finish(L->frames, L->profile);
	if (L->timeline)
		timeline_finish(L->timeline, L->profile);
	if (dump)
		dump_footer(dump, trace_info(L->trace), trace_symtab(L->trace));
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

/* The profile's warnings, one line each, appended to sb; then the
 * mapping's, when none of the trace's classes is in it. */
static void warnings_text(const char *file, const struct loaded *L, struct strbuf *sb)
{
	const struct cg_warning *w;
	size_t n = profile_warnings(L->profile, &w), i;

	for (i = 0; i < n; i++)
		strbuf_printf(sb, "callgraph: %s: warning: %s\n", file, w[i].message);
	if (L->map && !mapping_classes_used(L->map))
		strbuf_printf(sb, "callgraph: %s: warning: maps no class of %s (wrong build?)\n",
			      L->map_path, file);
}

static void print_warnings(const char *file, const struct loaded *L)
{
	struct strbuf sb;

	strbuf_init(&sb);
	warnings_text(file, L, &sb);
	if (sb.len)
		fputs(sb.data, stderr);
	strbuf_free(&sb);
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
	if (load(o->diff_base, o->base_mapping, o, NEED_VIEW, NULL, o->range_text ? &o->range : NULL, &B))
		return NULL;
	report_fill(&rb, o->diff_base, o, &B, o->range_text ? &o->range : NULL);
	v = profile_view(B.profile, -1);
	diff_run_fill(&run, o->diff_base, report_clock_name(&rb), v);
	base = diff_base_create(v, &run);
	warnings_text(o->diff_base, &B, warn);
	loaded_free(&B);
	return base;
}

/* --range frame:N: frame N's window, from a first reading of the trace
 * that looks for the frames.  0, 1 (bad input, the one line printed) or 2
 * (no such frame, or standard input, which cannot be read twice). */
static int frame_window(const struct cg_opts *o, struct cg_window_spec *spec)
{
	struct cg_opts fo = *o;
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
	if (load(o->trace, o->mapping, &fo, 0, NULL, NULL, &P))
		return 1;
	n = frames_count(P.frames);
	if (o->range_frame > n || trace_info(P.trace)->clock == CG_CLOCK_CPU) {
		if (trace_info(P.trace)->clock == CG_CLOCK_CPU)
			fprintf(stderr, "callgraph: %s: --range needs a wall clock, and this trace has only thread-CPU time\n",
				o->trace);
		else
			fprintf(stderr, "callgraph: %s: --range frame:%" PRIu64 ": the trace has %zu frame%s of %s\n",
				o->trace, o->range_frame, n, n == 1 ? "" : "s",
				o->frame_pattern ? o->frame_pattern : frames_default_pattern);
		loaded_free(&P);
		return 2;
	}
	f = &frames_list(P.frames)[o->range_frame - 1];
	spec->from_us = (int64_t)(f->start - P.origin);
	spec->to_us = spec->from_us + (int64_t)f->wall_us;
	loaded_free(&P);
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
			if (load(list[i], side ? o->mapping : o->base_mapping, o, NEED_VIEW, NULL,
				 o->range_text ? &o->range : NULL, &B))
				return 1;
			report_fill(&rb, list[i], o, &B, o->range_text ? &o->range : NULL);
			runs_add(rs, (enum cg_runs_side)side, profile_view(B.profile, -1), list[i],
				 report_clock_name(&rb));
			warnings_text(list[i], &B, warn);
			loaded_free(&B);
		}
	}
	return 0;
}

/* Render planned output i into its staged output, in chunks.  0, or 1 with
 * the one line printed. */
static int render_one(const struct cg_planned *pd, struct cg_staged *s, const struct cg_job *j)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct strbuf out;
	int rc = 0;

	strbuf_init(&out);
	strbuf_set_sink(&out, output_sink, s);
	if (pd->kind->render(j, &out, &err) < 0) {
		report_error(j->r->file, &err);
		rc = 1;
	} else if (strbuf_flush(&out) < 0) {
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
	int rc = 0, usage = 0;
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
	if (load(o->trace, o->mapping, o, plan.needs, dump_out,
		 o->range_frame ? &frame_spec : o->range_text ? &o->range : NULL, &L)) {
		rc = 1;
		goto done;
	}
	/* The base's warnings come only once the later trace has loaded, so a
	 * failing run prints its one error line and nothing else. */
	if (!o->quiet && base_warn.len)
		fputs(base_warn.data, stderr);
	if (!o->quiet) {
		print_warnings(o->trace, &L);
		print_selection_warnings(o->trace, o, &L);
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
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; !rc && i < plan.n; i++) {
			if (!plan.out[i].kind->render || output_is_staged(staged[i]) != (pass == 0))
				continue;
			rc = render_one(&plan.out[i], staged[i], &job);
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
	loaded_free(&L);
	return usage ? CG_EXIT_USAGE : rc < 0 ? CG_EXIT_SLOWER : rc ? CG_EXIT_FAILURE : CG_EXIT_OK;
}

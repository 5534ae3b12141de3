/* load.c - one trace read into memory (see load.h). */
#include "cli/load.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/output.h"
#include "cli/outputs.h"
#include "cli/replay.h"
#include "cli/run.h"
#include "model/cct.h"
#include "model/cct_sums.h"
#include "model/events.h"
#include "model/frames.h"
#include "model/observe_async.h"
#include "model/pagelog.h"
#include "model/profile.h"
#include "model/selection.h"
#include "model/timeline.h"
#include "read/mapping.h"
#include "read/source.h"
#include "render/text/dump.h"

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

void load_install_oom_hook(void)
{
	util_set_oom_hook(on_oom);
}


void load_report_error(const char *file, const struct cg_error *err)
{
	if (err->has_offset)
		fprintf(stderr, "callgraph: %s: offset %" PRIu64 ": %s\n", file, err->offset, err->msg);
	else
		fprintf(stderr, "callgraph: %s: %s\n", file, err->msg);
}

void load_free(struct loaded *L)
{
	observe_async_free(L->async);
	profile_free(L->profile);
	cct_sums_free(L->cct_sums);
	cct_sums_free(L->cct_sums2);
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
unsigned load_jobs(const struct cg_opts *o)
{
	return o->jobs ? o->jobs : replay_cores();
}

/* Observers of the replay, chained: the calling-context tree's first, then
 * the HTML timeline's, then the event log's, each only when needs asks.
 * The tree and the timeline cost about as much as the replay: with them,
 * the chain runs on a thread of its own unless there is one core (or
 * -j 1), or the trace was replayed in ranges (split: each range built its
 * own tree, summed into L->cct).  The event log alone costs less than
 * handing it the calls.  The HTML report's call log (pagelog) goes behind
 * the hand-over with the tree and the timeline: in front of it, on the
 * replay's thread, that thread was the one the other waited on.  With side
 * (beside_wanted) there is no hand-over: the tree and the call log observe
 * side, which replay_beside replays on a thread of its own, and the rest
 * observe L->profile, so that both threads take about as long (HTML report
 * of the 1 GiB program trace of make bench, neither replay building tables
 * (views_from_sums): the side, with the tree and the call log, ends 0.1 to
 * 0.3 s after the other, of about 2 s; with the call log beside the
 * timeline, the other ended 0.1 to 0.3 s after the side; the hand-over of
 * every call cost more than the replay beside).  The frames stay on the
 * replay's thread (below). */
static int want_frames(const struct cg_opts *o);

/* A new tree for L: keyed by raw method id (cct_create_ids) where it will
 * be the profile's only observer, which no observer (the frames', below)
 * can come in front of later; so are the trees of ranges (split). */
static struct cg_cct *tree_new(const struct loaded *L, const struct cg_opts *o, unsigned needs,
			       int split)
{
	if (!(needs & (NEED_TIMELINE | NEED_EVENTS)) && !want_frames(o) &&
	    (split || load_jobs(o) < 2))
		return cct_create_ids(trace_symtab(L->trace));
	return cct_create();
}

static void observe(struct loaded *L, const struct cg_opts *o, unsigned needs, int split,
		    struct cg_profile *side)
{
	struct cg_observer co = { 0 }, to = { 0 }, eo = { 0 }, ao = { 0 }, fo = { 0 }, po = { 0 };
	const struct cg_observer *next = NULL;

	if (!(needs & (NEED_CCT | NEED_TIMELINE | NEED_EVENTS)) && !L->frames)
		return;
	if (needs & NEED_CCT) {
		if (!L->cct)
			L->cct = side ? cct_create() : tree_new(L, o, needs, split);
		cct_observer(L->cct, &co);
		if (side)
			profile_set_observer(side, &co); /* replay_beside */
		else
			next = &co;
	}
	if (needs & NEED_TIMELINE) {
		L->timeline = timeline_create();
		timeline_observer(L->timeline, next, &to);
		next = &to;
		L->pagelog = pagelog_create();
	}
	if (needs & NEED_EVENTS) {
		L->events = events_create();
		events_observer(L->events, next, &eo);
		next = &eo;
	}
	if (L->pagelog && side) {
		/* Beside the tree, where the replays take about as long. */
		pagelog_observer(L->pagelog, &co, &po);
		profile_set_observer(side, &po);
	} else if (L->pagelog) {
		pagelog_observer(L->pagelog, next, &po);
		next = &po;
	}
	if (!side && (needs & (NEED_CCT | NEED_TIMELINE)) && load_jobs(o) >= 2 && !split) {
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
 * order.  Only the profile's own tables and, in global tables (global),
 * the calling-context tree can be summed: the other observers (timeline,
 * event log), the dump, --focus, --hide and --thread replay in order, as
 * does a trace that trace_span refuses (gzip, streaming, V2, standard
 * input). */
static unsigned split_ranges(const struct cg_opts *o, unsigned needs, int global,
			     const struct loaded *L, uint64_t *count)
{
	uint64_t first;
	unsigned n = load_jobs(o);

	/* Each range holds its own tables until they are summed: by default
	 * no more than DEFAULT_JOBS of them. */
	if (!o->jobs && n > DEFAULT_JOBS)
		n = DEFAULT_JOBS;
	if (n < 2 || (needs & (NEED_TIMELINE | NEED_EVENTS | NEED_READ)) ||
	    ((needs & NEED_CCT) && !global) || L->frames ||
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

/* How the frames are looked for: 1, with --frames, from the start; 2, for
 * the JSON and HTML outputs, once a method of the trace may be a frame
 * method; 0, not at all. */
static int want_frames(const struct cg_opts *o)
{
	if (o->frames)
		return 1;
	if (!o->json && !o->html && !o->html_stdout)
		return 0;
	return 2;
}

/* 1 when the trace defines methods among its records (streaming, V2). */
static int methods_inband(const struct loaded *L)
{
	return trace_info(L->trace)->layout == CG_LAYOUT_STREAMING ||
	       trace_info(L->trace)->version >= 4;
}

/* The frames observer in front of the replay's, from now on: before a
 * record of the batch about to be replayed enters a frame method, since a
 * trace defines a method before its records name it.  Not with --focus or
 * --hide (their frames are taken from the start instead). */
static void frames_attach(const struct cg_opts *o, struct loaded *L)
{
	struct cg_observer fo;

	L->frames = frames_create(trace_symtab(L->trace), o->frame_pattern);
	frames_observer(L->frames, profile_observer(L->profile), &fo);
	profile_set_observer(L->profile, &fo);
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

int load_wall_clock(const struct loaded *L, struct cg_error *err)
{
	if (trace_info(L->trace)->clock != CG_CLOCK_CPU)
		return 0;
	cg_error_set(err, -1, "--range needs a wall clock, and this trace has only thread-CPU time");
	return -1;
}

/* After the replay of a window: its edges' records are not the trace's;
 * a trace without a wall clock has no window.  0, or -1 with err set. */
static int window_done(struct loaded *L, struct cg_error *err)
{
	const struct cg_window_thread *mt;
	size_t i, n;

	if (!L->window)
		return 0;
	if (load_wall_clock(L, err) < 0)
		return -1;
	n = window_made(L->window, &mt);
	for (i = 0; i < n; i++)
		profile_discount(L->profile, mt[i].tid, mt[i].made);
	L->kept = window_kept(L->window);
	L->cuts = window_cuts(L->window);
	return 0;
}

/* 1 when the observers of the HTML report's tree and timeline are better
 * fed by a replay of their own beside L->profile's (replay_beside) than by
 * a hand-over of every call (observe_async.c): with two cores, a span
 * replayed in order into global tables, unfiltered, every thread. */
static int beside_wanted(const struct cg_opts *o, const struct cg_profile_opts *po,
			 unsigned needs, int split, const FILE *dump_out, struct loaded *L)
{
	uint64_t first, count;

	return (needs & NEED_CCT) && (needs & NEED_VIEW) && load_jobs(o) >= 2 && !split &&
	       !dump_out && !L->window && po->global && !(o->threads && o->threads[0]) &&
	       trace_span(L->trace, &first, &count) && count > 0;
}

/* The observers of a replay that was abandoned, gone, so that observe()
 * makes them anew: the frames too, made as they were. */
static void observers_drop(struct loaded *L, const struct cg_opts *o)
{
	cct_free(L->cct);
	timeline_free(L->timeline);
	events_free(L->events);
	pagelog_free(L->pagelog);
	L->cct = NULL;
	L->timeline = NULL;
	L->events = NULL;
	L->pagelog = NULL;
	if (L->frames) {
		frames_free(L->frames);
		L->frames = frames_create(trace_symtab(L->trace), o->frame_pattern);
	}
}

/* Read path once into L (load.h). */
int load_trace(const char *path, const char *map_path, const struct cg_opts *o,
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
	int last = -1, rc, failed = 0, split = 0, want;
	struct cg_profile *side = NULL; /* replayed beside L->profile (beside_wanted) */
	int filtered = (o->focus && o->focus[0]) || (o->hide && o->hide[0]);
	size_t scanned = 0;
	unsigned ranges;
	uint64_t count, first;
	size_t n;

	memset(L, 0, sizeof(*L));
	if (map_path) {
		current_file = map_path;
		L->map = mapping_open(map_path, &err);
		if (!L->map) {
			load_report_error(map_path, &err);
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
		if (load_wall_clock(L, &err) < 0)
			goto fail;
		L->window = window_create(win);
	}
	/* With --frames, or where the key holds a frame method, the frames
	 * observer is there from the start; JSON and HTML look for one in the
	 * methods that come with the records, and take the observer (whose
	 * replay costs more) only when one does. */
	want = want_frames(o);
	if (want == 1 ||
	    (want == 2 && frames_method_in(trace_symtab(L->trace), o->frame_pattern, &scanned)) ||
	    (want == 2 && filtered && methods_inband(L)))
		L->frames = frames_create(trace_symtab(L->trace), o->frame_pattern);
	/* One table for all threads where nothing reads a thread's own
	 * methods, or the calling-context tree gives them, and the records
	 * can be read again (the correction pass). */
	po.global = !dump_out && !L->window && !filtered &&
		    (!(needs & (NEED_THREAD_VIEWS | NEED_THREAD_METHODS)) || (needs & NEED_CCT)) &&
		    trace_span(L->trace, &first, &count);
	if (!dump_out && (ranges = split_ranges(o, needs, po.global, L, &count)) >= 2) {
		uint64_t done, total;
		struct cg_progress pr = { progress_records, &last };

		if (needs & NEED_CCT)
			L->cct = tree_new(L, o, needs, 1);
		source_progress(L->src, &done, &total);
		L->profile = replay_split(L->trace, &po, L->cct, count, ranges,
					  show && total >= PROGRESS_MIN ? &pr : NULL, &failed, &err);
		if (failed)
			goto fail;
		split = L->profile != NULL;
		if (!split) {
			/* Fed with part of the trace: the replay in order starts
			 * a tree of its own. */
			cct_free(L->cct);
			L->cct = NULL;
		}
	}
	/* A tree of every record gives the view of all threads too: the
	 * replay that would build the tables only follows the stacks. */
	po.views_from_sums = po.global && (needs & NEED_CCT) && (needs & NEED_VIEW) && !split;
	if (!L->profile && beside_wanted(o, &po, needs, split, dump_out, L)) {
		struct cg_profile_opts so = po;

		/* Both replays take the symtab as it is: a method id missing
		 * from the key abandons them, and the replay starts again in
		 * order (below). */
		po.shared_symtab = so.shared_symtab = 1;
		so.no_views = so.no_edges = so.no_thread_views = 1;
		side = profile_create(trace_symtab(L->trace), &so);
	}
	if (!L->profile)
		L->profile = profile_create(trace_symtab(L->trace), &po);
	observe(L, o, needs, split, side);
	/* A span not replayed in ranges: decoded where it is read, unless the
	 * dump reads it too. */
	if (!dump_out && !split && !L->window && trace_span(L->trace, &first, &count)) {
		uint64_t done, total;
		struct cg_progress pr = { progress_records, &last };
		const struct cg_progress *prog;
		int side_done = 0;

		/* Only the frames and the page's call log read the origin. */
		if (count && (L->frames || L->pagelog) && first_record(L, &err) < 0)
			goto fail;
		source_progress(L->src, &done, &total);
		prog = show && total >= PROGRESS_MIN ? &pr : NULL;
		if (side) {
			/* Done, side's observers have ended on its thread; nothing
			 * else of it is read. */
			rc = replay_beside(L->trace, L->profile, side, count, prog, &side_done, &err);
			profile_free(side);
			side = NULL;
			if (rc < 0)
				goto fail;
			if (!side_done) {
				/* Abandoned: in order, from the start, as without a
				 * replay beside. */
				observers_drop(L, o);
				profile_free(L->profile);
				po.shared_symtab = 0;
				L->profile = profile_create(trace_symtab(L->trace), &po);
				observe(L, o, needs, split, NULL);
			}
		}
		if (!side_done && replay_span(L->trace, L->profile, count, prog, &err) < 0)
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
		if (want == 2 && !L->frames &&
		    frames_method_in(trace_symtab(L->trace), o->frame_pattern, &scanned))
			frames_attach(o, L);
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
	/* The timeline watches L->profile wherever the call log is: a replay
	 * beside tells the same calls as this one, both replaying every record. */
	if (L->pagelog)
		pagelog_count_calls(L->pagelog, profile_calls_told(L->profile));
	if (po.global && L->cct) {
		/* The threads' own views, and their idle methods, from the tree;
		 * with two cores, read by two threads at once. */
		size_t nm = symtab_method_count(trace_symtab(L->trace));

		L->cct_sums = cct_sums_create(L->cct, nm);
		if (load_jobs(o) >= 2)
			L->cct_sums2 = cct_sums_create(L->cct, nm);
		profile_set_thread_sums(L->profile, cct_sums_thread, L->cct_sums, L->cct_sums2);
	}
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
	profile_free(side);
	load_report_error(path, &err);
	dump_free(dump);
	free(recs);
	load_free(L);
	return 1;
}

/* The profile's warnings, one line each, appended to sb; then the
 * mapping's, when none of the trace's classes is in it. */
void load_warnings_text(const char *file, const struct loaded *L, struct strbuf *sb)
{
	const struct cg_warning *w;
	size_t n = profile_warnings(L->profile, &w), i;

	for (i = 0; i < n; i++)
		strbuf_printf(sb, "callgraph: %s: warning: %s\n", file, w[i].message);
	if (L->map && !mapping_classes_used(L->map))
		strbuf_printf(sb, "callgraph: %s: warning: maps no class of %s (wrong build?)\n",
			      L->map_path, file);
}

void load_print_warnings(const char *file, const struct loaded *L)
{
	struct strbuf sb;

	strbuf_init(&sb);
	load_warnings_text(file, L, &sb);
	if (sb.len)
		fputs(sb.data, stderr);
	strbuf_free(&sb);
}

/* Selections (--thread, --focus, --hide) that matched nothing, with the
 * candidates. */
void load_print_selection_warnings(const char *file, const struct cg_opts *o,
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

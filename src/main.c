/* main.c - argv -> options -> read the trace once -> render -> exit code.
 *
 * Exit status: 0 success, 1 unreadable or invalid input, I/O or rendering
 * failure or memory exhaustion, 2 usage error.  Every output file is opened
 * (as an unnamed temporary file) before the trace is read and linked into
 * place only when every output is complete, so a failing run -- or one
 * killed by a signal -- leaves no file behind. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cct.h"
#include "cli.h"
#include "diff.h"
#include "dump.h"
#include "events.h"
#include "output.h"
#include "profile.h"
#include "render_diff.h"
#include "render_folded.h"
#include "render_callgrind.h"
#include "render_chrome.h"
#include "render_gv.h"
#include "render_html.h"
#include "render_json.h"
#include "render_pprof.h"
#include "render_speedscope.h"
#include "render_text.h"
#include "report.h"
#include "selection.h"
#include "source.h"
#include "strbuf.h"
#include "termsafe.h"
#include "timeline.h"
#include "trace.h"

#define BATCH 4096
#define PROGRESS_MIN (64u << 20)

/* The file being read, named by the out-of-memory report.  Global because
 * the allocation-failure hook can reach nothing else. */
static const char *current_file = "-";

static void on_oom(size_t n)
{
	fprintf(stderr, "callgraph: %s: out of memory (%zu bytes)\n", current_file, n);
	output_signal_cleanup();
	_exit(1);
}

static void on_fatal_signal(int sig)
{
	output_signal_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Temporary files go when the run is interrupted; SIGXFSZ (ulimit -f) is
 * ignored so that the write fails with EFBIG and is reported. */
static void signals_setup(void)
{
	static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT };
	size_t i;

	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction sa, old;

		if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue; /* nohup and friends: keep ignoring */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal[i], &sa, NULL);
	}
	signal(SIGXFSZ, SIG_IGN);
}

/* Descriptors 0, 1 and 2 closed by the caller (">&-") get /dev/null, so
 * that no file we open takes their number; returns a bit per descriptor
 * that was closed. */
static int std_fds_setup(void)
{
	int fd, closed = 0;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
			int nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);

			closed |= 1 << fd;
			if (nfd >= 0 && nfd != fd) {
				dup2(nfd, fd);
				close(nfd);
			}
		}
	}
	return closed;
}

/* The -o dump to a terminal: a stdio stream that filters what it is given
 * (termsafe.h) before it reaches standard output. */
static int emit_stdout(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	return fwrite(p, 1, n, stdout) != n;
}

static ssize_t tty_write(void *cookie, const char *p, size_t n)
{
	return termsafe_feed(cookie, p, n, 0, emit_stdout, NULL) ? -1 : (ssize_t)n;
}

static int tty_close(void *cookie)
{
	int rc = termsafe_feed(cookie, "", 0, 1, emit_stdout, NULL);

	free(cookie);
	return rc ? EOF : 0;
}

static FILE *tty_filter_open(void)
{
	cookie_io_functions_t io = { NULL, tty_write, NULL, tty_close };
	struct cg_termsafe *ts = xmalloc(sizeof(*ts));
	FILE *f;

	termsafe_init(ts);
	f = fopencookie(ts, "w", io);
	if (!f)
		free(ts);
	return f;
}

struct loaded {
	struct cg_source *src;
	struct cg_trace *trace;
	struct cg_profile *profile;
	struct cg_cct *cct;        /* built for --folded, --pprof, HTML and the event log */
	struct cg_timeline *timeline; /* built only for an HTML report (with a cct) */
	struct cg_events *events;  /* built only for --speedscope and --chrome-trace */
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
	events_free(L->events);
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
 * hide), dumping records when dump_out is set, building the
 * calling-context tree when with_cct is and the event log when an
 * evented export is asked for.  Both traces of -d load through
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
	current_file = path;
	L->src = source_open(path, &err);
	if (!L->src)
		goto fail;
	L->trace = trace_open(L->src, &err);
	if (!L->trace)
		goto fail;
	po.pid = trace_info(L->trace)->pid;
	L->profile = profile_create(trace_symtab(L->trace), &po);
	if (with_cct) {
		struct cg_observer obs = { 0 };

		L->cct = cct_create();
		cct_observer(L->cct, &obs);
		profile_set_observer(L->profile, &obs);
	}
	if (((o->html || o->html_stdout) || o->speedscope || o->chrome) && !o->diff_base) {
		/* Observers chained in front of the calling-context tree's: the
		 * HTML timeline, the event log of the evented exports. */
		struct cg_observer co = { 0 }, to = { 0 }, obs = { 0 };
		const struct cg_observer *next;

		if (!L->cct)
			L->cct = cct_create();
		cct_observer(L->cct, &co);
		next = &co;
		if (o->html || o->html_stdout) {
			L->timeline = timeline_create();
			timeline_observer(L->timeline, next, &to);
			next = &to;
		}
		if (o->speedscope || o->chrome) {
			L->events = events_create();
			events_observer(L->events, next, &obs);
			next = &obs;
		}
		profile_set_observer(L->profile, next);
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
	return (strcmp(o->trace, "-") == 0 || (o->diff_base && strcmp(o->diff_base, "-") == 0)) &&
	       output_same_as_fd(path, STDIN_FILENO);
}

static int check_outputs(const struct cg_opts *o, const char *graph_format)
{
	const char *outs[10] = { o->graph, o->html, o->json, o->folded, NULL,
				 o->pprof, o->speedscope, o->chrome, o->callgrind, NULL };
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
	for (i = 0; i < 9; i++) {
		if (outs[i] && (names_input(outs[i], o->trace) || names_stdin(outs[i], o) ||
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
	r->events = L->events;
	r->slash_names = o->slash_names;
}

/* What an output holds. */
enum what {
	W_TEXT, W_JSON, W_HTML, W_FOLDED, W_PPROF, W_SPEEDSCOPE, W_CHROME, W_CALLGRIND, W_GRAPH,
	W_GRAPH_DOT, W_DIFF_TEXT, W_DIFF_HTML
};

struct pending {
	enum what what;
	const char *path;
	char *alloc_path;          /* owned when the path was built here */
	struct cg_staged *staged;
	struct strbuf data;
};

#define MAX_OUT 12

/* The outputs o asks for, in the order they are rendered. */
static size_t plan_outputs(const struct cg_opts *o, const char *gfmt, struct pending *out)
{
	size_t n = 0;

	memset(out, 0, MAX_OUT * sizeof(*out));
	if (o->diff_base) {
		if (o->text)
			out[n].what = W_DIFF_TEXT, out[n++].path = "-";
		if (o->html || o->html_stdout)
			out[n].what = W_DIFF_HTML, out[n++].path = o->html ? o->html : "-";
	} else {
		if (o->text)
			out[n].what = W_TEXT, out[n++].path = "-";
		if (o->json)
			out[n].what = W_JSON, out[n++].path = o->json;
		if (o->html || o->html_stdout)
			out[n].what = W_HTML, out[n++].path = o->html ? o->html : "-";
		if (o->folded)
			out[n].what = W_FOLDED, out[n++].path = o->folded;
		if (o->pprof)
			out[n].what = W_PPROF, out[n++].path = o->pprof;
		if (o->speedscope)
			out[n].what = W_SPEEDSCOPE, out[n++].path = o->speedscope;
		if (o->chrome)
			out[n].what = W_CHROME, out[n++].path = o->chrome;
		if (o->callgrind)
			out[n].what = W_CALLGRIND, out[n++].path = o->callgrind;
	}
	if (o->graph) {
		out[n].what = W_GRAPH, out[n++].path = o->graph;
		if (o->keep_dot && strcasecmp(gfmt, "dot") != 0 && strcasecmp(gfmt, "gv") != 0) {
			out[n].what = W_GRAPH_DOT;
			out[n].alloc_path = xmalloc(strlen(o->graph) + 5);
			sprintf(out[n].alloc_path, "%s.dot", o->graph);
			out[n].path = out[n].alloc_path;
			n++;
		}
	}
	return n;
}

static int render_one(struct pending *pd, const struct cg_report *r, const struct cg_report *rb,
		      const struct cg_view *v, const char *gfmt, int quiet)
{
	struct cg_error err = { { 0 }, 0, 0 };
	int rc = 0;

	switch (pd->what) {
	case W_TEXT: rc = render_text.render(r, &pd->data, &err); break;
	case W_JSON: rc = render_json.render(r, &pd->data, &err); break;
	case W_HTML: rc = render_html.render(r, &pd->data, &err); break;
	case W_FOLDED: rc = render_folded.render(r, &pd->data, &err); break;
	case W_PPROF: rc = render_pprof.render(r, &pd->data, &err); break;
	case W_SPEEDSCOPE: rc = render_speedscope.render(r, &pd->data, &err); break;
	case W_CHROME: rc = render_chrome.render(r, &pd->data, &err); break;
	case W_CALLGRIND: rc = render_callgrind.render(r, &pd->data, &err); break;
	case W_GRAPH:
		rc = render_graph(r, v, gfmt, &pd->data, &err);
		if (rc == 0 && !quiet && render_graph_warnings()) {
			const char *s = render_graph_warnings(), *nl;

			for (; (nl = strchr(s, '\n')); s = nl + 1)
				fprintf(stderr, "callgraph: %s: warning: %.*s\n", r->file, (int)(nl - s), s);
		}
		break;
	case W_GRAPH_DOT: rc = render_graph(r, v, "dot", &pd->data, &err); break;
	case W_DIFF_TEXT: rc = render_diff_text(rb, r, &pd->data, &err); break;
	case W_DIFF_HTML: rc = render_diff_html(rb, r, &pd->data, &err); break;
	}
	if (rc < 0) {
		report_error(r->file, &err);
		return 1;
	}
	return 0;
}

static int run(const struct cg_opts *o, int stdout_closed)
{
	struct loaded L, B;
	struct cg_report r, rb;
	struct cg_diff *diff = NULL;
	struct pending out[MAX_OUT];
	FILE *dump_out = NULL;
	size_t nout, i, pass;
	const char *gfmt = o->graph ? (o->format ? o->format : render_graph_format_for(o->graph)) : NULL;
	int rc = 0;

	memset(&L, 0, sizeof(L));
	memset(&B, 0, sizeof(B));
	if (check_outputs(o, gfmt))
		return 1;
	nout = plan_outputs(o, gfmt, out);
	for (i = 0; i < MAX_OUT; i++)
		strbuf_init(&out[i].data);
	if (stdout_closed) {
		int uses = o->dump;

		for (i = 0; i < nout; i++)
			uses |= strcmp(out[i].path, "-") == 0;
		if (uses) {
			fprintf(stderr, "callgraph: cannot write standard output: %s\n", strerror(EBADF));
			rc = 1;
			goto done;
		}
	}
	/* Every output is opened before the trace is read: a path that cannot
	 * be written fails at once, not after minutes of reading. */
	for (i = 0; i < nout; i++) {
		struct cg_error err = { { 0 }, 0, 0 };

		out[i].staged = output_open(out[i].path, &err);
		if (!out[i].staged) {
			fprintf(stderr, "callgraph: %s\n", err.msg);
			rc = 1;
			goto done;
		}
	}
	if (o->diff_base && load(o->diff_base, o, NULL, 0, &B)) {
		rc = 1;
		goto done;
	}
	if (o->dump)
		dump_out = isatty(STDOUT_FILENO) ? tty_filter_open() : stdout;
	if (load(o->trace, o, dump_out ? dump_out : (o->dump ? stdout : NULL),
		 o->folded || o->pprof, &L)) {
		rc = 1;
		goto done;
	}
	/* The base's warnings come only once the later trace has loaded, so a
	 * failing run prints its one error line and nothing else. */
	if (!o->quiet && o->diff_base)
		print_warnings(o->diff_base, B.profile);
	if (!o->quiet) {
		print_warnings(o->trace, L.profile);
		print_selection_warnings(o->trace, o, &L);
	}
	report_fill(&r, o->trace, o, &L);
	if (o->diff_base) {
		report_fill(&rb, o->diff_base, o, &B);
		diff = diff_create(profile_view(B.profile, -1), profile_view(L.profile, -1));
		r.diff = diff;
	}
	for (i = 0; !rc && i < nout; i++)
		rc = render_one(&out[i], &r, &rb, profile_view(L.profile, -1), gfmt, o->quiet);
	/* Files first, then standard output and devices, which cannot be taken
	 * back: a full disk leaves the terminal untouched. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; !rc && i < nout; i++) {
			struct cg_error err = { { 0 }, 0, 0 };

			if (output_is_staged(out[i].staged) != (pass == 0))
				continue;
			if (output_write(out[i].staged, out[i].data.data ? out[i].data.data : "",
					 out[i].data.len, &err) < 0) {
				fprintf(stderr, "callgraph: %s\n", err.msg);
				rc = 1;
			}
		}
	}
done:
	if (dump_out && dump_out != stdout && fclose(dump_out) != 0 && !rc) {
		fprintf(stderr, "callgraph: cannot write standard output: %s\n", strerror(errno));
		rc = 1;
	}
	for (i = 0; i < nout; i++) {
		struct cg_error err = { { 0 }, 0, 0 };

		if (rc) {
			output_abort(out[i].staged);
		} else if (output_commit(out[i].staged, &err) < 0) {
			fprintf(stderr, "callgraph: %s\n", err.msg);
			rc = 1;
		}
	}
	for (i = 0; i < MAX_OUT; i++) {
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
	int closed = std_fds_setup(), rc;

	util_set_oom_hook(on_oom);
	signals_setup();
	rc = cli_parse(argc, argv, &o);
	if (rc == CLI_USAGE)
		return 2;
	if (rc == CLI_OK) {
		rc = run(&o, closed & 2);
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

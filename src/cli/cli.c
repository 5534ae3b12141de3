/* cli.c - getopt_long table, usage text and option checks. */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/filter.h"
#include "util/util.h"

#ifndef CG_VERSION
#define CG_VERSION "0.1.0"
#endif

enum {
	OPT_HTML = 256, OPT_JSON, OPT_FOLDED, OPT_CLOCK, OPT_THREAD, OPT_MAX_NODES,
	OPT_HELP, OPT_VERSION, OPT_FOCUS, OPT_HIDE, OPT_SHORT_NAMES, OPT_PPROF, OPT_SPEEDSCOPE,
	OPT_CHROME, OPT_CALLGRIND, OPT_SLASH_NAMES, OPT_NODE_FRACTION, OPT_EDGE_FRACTION, OPT_NO_FOLD,
	OPT_RANGE, OPT_FRAMES,
	OPT_NORMALISE, OPT_FAIL_SLOWER,
	OPT_NO_MERGE_THREADS,
};

struct opt_doc {
	struct option lo;  /* long option (name may be NULL for short-only) */
	int short_opt;
	const char *arg;
	const char *help;
};

/* The one table: getopt's options and the usage text both come from it. */
static const struct opt_doc table[] = {
	{ { NULL, 0, NULL, 0 }, 'g', "FILE", "call graph to FILE; format from its extension (.dot .gv .png .svg .pdf ...)" },
	{ { NULL, 0, NULL, 0 }, 'T', "FORMAT", "graph format regardless of the extension" },
	{ { NULL, 0, NULL, 0 }, 'k', NULL, "with -g to an image, also keep the dot source as FILE.dot" },
	{ { NULL, 0, NULL, 0 }, 't', "PCT", "graph: also drop caller->callee edges under PCT% of the caller's time (default 0: off)" },
	{ { "node-fraction", required_argument, NULL, OPT_NODE_FRACTION }, 0, "F", "graph: drop nodes under F of the total, 0.005 or 0.5% (default 0.5%)" },
	{ { "edge-fraction", required_argument, NULL, OPT_EDGE_FRACTION }, 0, "F", "graph: drop edges under F of the total, 0.001 or 0.1% (default 0.1%)" },
	{ { "no-fold", no_argument, NULL, OPT_NO_FOLD }, 0, NULL, "graph: draw pass-through chains frame by frame" },
	{ { "no-merge-threads", no_argument, NULL, OPT_NO_MERGE_THREADS }, 0, NULL, "graph: a root per thread; no pools merged, no idle threads folded" },
	{ { NULL, 0, NULL, 0 }, 'h', NULL, "HTML report on standard output" },
	{ { "html", required_argument, NULL, OPT_HTML }, 0, "FILE", "HTML report to FILE" },
	{ { NULL, 0, NULL, 0 }, 'o', NULL, "dump the header, threads and every record with its depth" },
	{ { NULL, 0, NULL, 0 }, 'd', "BASE", "compare: BASE is the earlier trace, TRACE the later one; repeat -d, quote a glob ('before/*.trace') and give several TRACEs to compare repeated runs" },
	{ { "normalise", no_argument, NULL, OPT_NORMALISE }, 0, NULL, "repeated runs: compare each run's share of its total instead of its times" },
	{ { "fail-if-slower", required_argument, NULL, OPT_FAIL_SLOWER }, 0, "PCT", "repeated runs: exit 3 when the total, or a method with at least 1% of it, is significantly more than PCT% slower" },
	{ { "json", required_argument, NULL, OPT_JSON }, 0, "FILE", "the whole profile as JSON to FILE (- for stdout), both clocks of a dual-clock trace" },
	{ { "folded", required_argument, NULL, OPT_FOLDED }, 0, "FILE", "folded stacks (thread;a;b;c us) to FILE (- for stdout)" },
	{ { "slash-names", no_argument, NULL, OPT_SLASH_NAMES }, 0, NULL, "folded frames as java/lang/String.equals (flamegraph.pl --colors java)" },
	{ { "pprof", required_argument, NULL, OPT_PPROF }, 0, "FILE", "pprof profile (gzipped protobuf) to FILE (- for stdout)" },
	{ { "speedscope", required_argument, NULL, OPT_SPEEDSCOPE }, 0, "FILE", "speedscope JSON, one evented profile per thread, to FILE (- for stdout)" },
	{ { "chrome-trace", required_argument, NULL, OPT_CHROME }, 0, "FILE", "Chrome trace event JSON (B/E events) to FILE (- for stdout)" },
	{ { "callgrind", required_argument, NULL, OPT_CALLGRIND }, 0, "FILE", "callgrind profile for KCachegrind to FILE (- for stdout)" },
	{ { "clock", required_argument, NULL, OPT_CLOCK }, 0, "wall|cpu", "dual-clock trace: the clock that sorts and gives % (default wall); the other is shown beside it" },
	{ { "thread", required_argument, NULL, OPT_THREAD }, 0, "T", "only threads whose id or name is T (repeatable)" },
	{ { "max-nodes", required_argument, NULL, OPT_MAX_NODES }, 0, "N", "at most N nodes in the graph, thread roots included (default 80, at most 500: layout time)" },
	{ { "focus", required_argument, NULL, OPT_FOCUS }, 0, "PATTERN", "only time under methods whose Class.method matches the glob (repeatable)" },
	{ { "hide", required_argument, NULL, OPT_HIDE }, 0, "PATTERN", "hide matching methods; their time goes to their callers (repeatable)" },
	{ { "range", required_argument, NULL, OPT_RANGE }, 0, "FROM:TO", "only the window FROM..TO ms (wall clock, from the first event; FROM: or :TO open), or frame:N" },
	{ { "frames", optional_argument, NULL, OPT_FRAMES }, 0, "[=METHOD]", "frames section: outermost calls of METHOD (default Choreographer.doFrame), slowest first" },
	{ { "short-names", no_argument, NULL, OPT_SHORT_NAMES }, 0, NULL, "shorten packages in displayed names (com.example.Foo -> c.e.Foo)" },
	{ { "jobs", required_argument, NULL, 'j' }, 'j', "N", "replay with N threads (default: the number of cores, at most 8; 1: one thread)" },
	{ { "quiet", no_argument, NULL, 'q' }, 'q', NULL, "no warnings" },
	{ { "help", no_argument, NULL, OPT_HELP }, 0, NULL, "this help" },
	{ { "version", no_argument, NULL, OPT_VERSION }, 0, NULL, "print the version" },
};
#define NOPTS (sizeof(table) / sizeof(table[0]))

static void usage_short(FILE *f)
{
	fprintf(f, "usage: callgraph [OPTIONS] TRACE   (callgraph --help for options)\n");
}

static void usage_long(FILE *f)
{
	size_t i;

	fprintf(f, "usage: callgraph [OPTIONS] TRACE\n"
		   "       callgraph [OPTIONS] -d BASE [-d BASE...] TRACE [TRACE...]\n"
		   "Android method trace (.trace, .trace.gz, NAME.key+NAME.data, - for stdin)\n"
		   "to a text profile (default), call graph, HTML report, JSON or dump.\n\n");
	for (i = 0; i < NOPTS; i++) {
		char left[64];
		int n = 0;

		if (table[i].short_opt && table[i].lo.name)
			n = snprintf(left, sizeof(left), "-%c, --%s", table[i].short_opt, table[i].lo.name);
		else if (table[i].short_opt)
			n = snprintf(left, sizeof(left), "-%c", table[i].short_opt);
		else
			n = snprintf(left, sizeof(left), "    --%s", table[i].lo.name);
		if (table[i].arg)
			snprintf(left + n, sizeof(left) - (size_t)n, table[i].arg[0] == '[' ? "%s" : " %s",
				 table[i].arg);
		fprintf(f, "  %-24s %s\n", left, table[i].help);
	}
	fprintf(f, "\nExit status: 0 success, 1 bad input or I/O or rendering failure, 2 usage error,\n"
		   "3 --fail-if-slower found a significant slowdown.\n"
		   "\nExamples:\n"
		   "  callgraph app.trace                        text profile\n"
		   "  callgraph -g graph.svg app.trace           call graph (.png .pdf .dot ...)\n"
		   "  callgraph --html report.html app.trace     HTML report with timeline\n"
		   "  callgraph --thread main --focus '*.onDraw' app.trace\n"
		   "  callgraph -d before.trace after.trace      compare two runs\n"
		   "  callgraph --frames app.trace               the slowest frames and what ran in them\n"
		   "  callgraph --range 1200:1500 app.trace      the profile of 1.2 s to 1.5 s\n"
		   "  callgraph -d 'before/*.trace' after/*.trace   repeated runs, with statistics\n");
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "callgraph: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage_short(stderr);
	return CLI_USAGE;
}

/* A fraction of the total: "0.005" or "0.5%", as a percentage (0.5);
 * -1 when not a number from 0 to 1 (0 % to 100 %). */
static int parse_fraction(const char *s, double *out)
{
	char *end;
	double v;
	int pct;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		return -1;
	pct = *end == '%';
	if (end[pct])
		return -1;
	if (!pct)
		v *= 100.0;
	if (v < 0 || v > 100)
		return -1;
	*out = v;
	return 0;
}

static int parse_number(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

static void list_add(const char ***list, size_t *n, const char *s)
{
	*list = xrealloc(*list, (*n + 2) * sizeof(**list));
	(*list)[(*n)++] = s;
	(*list)[*n] = NULL;
}

/* A trace argument onto a list: as given, unless it names no file and has
 * a glob character, then the files it matches in glob(3)'s sorted order
 * (none: as given, so that reading it names it). */
static void add_traces(struct cg_opts *o, const char ***list, size_t *n, const char *arg)
{
	struct stat st;
	glob_t g;
	size_t i;

	if (!strpbrk(arg, "*?[") || stat(arg, &st) == 0 ||
	    glob(arg, 0, NULL, &g) != 0) {
		list_add(list, n, arg);
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		o->owned = xrealloc(o->owned, (o->nowned + 1) * sizeof(*o->owned));
		o->owned[o->nowned] = xstrdup(g.gl_pathv[i]);
		list_add(list, n, o->owned[o->nowned++]);
	}
	globfree(&g);
}

int cli_parse(int argc, char **argv, struct cg_opts *o)
{
	struct option longs[NOPTS + 1];
	char shorts[64];
	size_t i, nl = 0, ns = 0;
	int c, stdout_users;
	double v;

	memset(o, 0, sizeof(*o));
	o->threshold = CG_DEFAULT_THRESHOLD;
	o->node_pct = CG_DEFAULT_NODE_PCT;
	o->edge_pct = CG_DEFAULT_EDGE_PCT;
	o->max_nodes = CG_DEFAULT_MAX_NODES;
	o->clock = CG_USE_WALL;
	o->fail_slower = -1;
	shorts[ns++] = ':';
	for (i = 0; i < NOPTS; i++) {
		if (table[i].lo.name)
			longs[nl++] = table[i].lo;
		if (table[i].short_opt) {
			shorts[ns++] = (char)table[i].short_opt;
			if (table[i].arg)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	memset(&longs[nl], 0, sizeof(longs[nl]));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		switch (c) {
		case 'g': o->graph = optarg; break;
		case 'T': o->format = optarg; break;
		case 'k': o->keep_dot = 1; break;
		case 't':
			if (parse_number(optarg, &v) || v < 0 || v > 100)
				return cli_free(o), bad("-t wants a percentage from 0 to 100, not '%s'", optarg);
			o->threshold = v;
			break;
		case OPT_NODE_FRACTION:
		case OPT_EDGE_FRACTION:
			if (parse_fraction(optarg, &v))
				return cli_free(o), bad(c == OPT_NODE_FRACTION
						? "--node-fraction wants a fraction from 0 to 1 (or 0%% to 100%%), not '%s'"
						: "--edge-fraction wants a fraction from 0 to 1 (or 0%% to 100%%), not '%s'",
							optarg);
			*(c == OPT_NODE_FRACTION ? &o->node_pct : &o->edge_pct) = v;
			break;
		case OPT_NO_FOLD: o->no_fold = 1; break;
		case OPT_NO_MERGE_THREADS: o->no_merge_threads = 1; break;
		case 'h': o->html_stdout = 1; break;
		case OPT_HTML: o->html = optarg; break;
		case 'o': o->dump = 1; break;
		case 'd': add_traces(o, &o->bases, &o->nbases, optarg); break;
		case OPT_NORMALISE: o->normalise = 1; break;
		case OPT_FAIL_SLOWER:
			if (parse_number(optarg, &v) || v < 0 || v > 1e6)
				return cli_free(o), bad("--fail-if-slower wants a percentage of at least 0, not '%s'", optarg);
			o->fail_slower = v;
			break;
		case OPT_JSON: o->json = optarg; break;
		case OPT_FOLDED: o->folded = optarg; break;
		case OPT_PPROF: o->pprof = optarg; break;
		case OPT_SPEEDSCOPE: o->speedscope = optarg; break;
		case OPT_CHROME: o->chrome = optarg; break;
		case OPT_CALLGRIND: o->callgrind = optarg; break;
		case OPT_SLASH_NAMES: o->slash_names = 1; break;
		case OPT_CLOCK:
			if (strcmp(optarg, "wall") == 0)
				o->clock = CG_USE_WALL;
			else if (strcmp(optarg, "cpu") == 0)
				o->clock = CG_USE_CPU;
			else
				return cli_free(o), bad("--clock wants wall or cpu, not '%s'", optarg);
			break;
		case OPT_THREAD:
			o->threads = xrealloc(o->threads, (o->nthreads + 2) * sizeof(*o->threads));
			o->threads[o->nthreads++] = optarg;
			o->threads[o->nthreads] = NULL;
			break;
		case OPT_MAX_NODES:
			if (parse_number(optarg, &v) || v < 1 || v > 1e6 || v != (double)(size_t)v)
				return cli_free(o), bad("--max-nodes wants a whole number from 1 to 1000000, not '%s'", optarg);
			o->max_nodes = (size_t)v;
			break;
		case OPT_FOCUS:
		case OPT_HIDE: {
			const char ***list = c == OPT_FOCUS ? &o->focus : &o->hide;
			size_t *n = c == OPT_FOCUS ? &o->nfocus : &o->nhide;

			if (!optarg[0])
				return cli_free(o), bad("%s wants a non-empty pattern such as '*.Debug.*'",
							c == OPT_FOCUS ? "--focus" : "--hide");
			*list = xrealloc(*list, (*n + 2) * sizeof(**list));
			(*list)[(*n)++] = optarg;
			(*list)[*n] = NULL;
			break;
		}
		case OPT_SHORT_NAMES: o->short_names = 1; break;
		case OPT_RANGE: {
			int k = window_parse(optarg, &o->range, &o->range_frame);

			if (k < 0) {
				/* One line: the form is in it. */
				fprintf(stderr, "callgraph: --range wants FROM:TO in ms (FROM <= TO, at most 3 decimals; FROM: or :TO open), or frame:N with N >= 1, not '%s'\n",
					optarg);
				return cli_free(o), CLI_USAGE;
			}
			o->range_text = optarg;
			break;
		}
		case OPT_FRAMES:
			if (optarg && !optarg[0])
				return cli_free(o), bad("%s", "--frames= wants a method pattern such as 'GLThread.guardedRun'");
			o->frames = 1;
			o->frame_pattern = optarg;
			break;
		case 'j':
			if (parse_number(optarg, &v) || v < 1 || v > CG_MAX_JOBS || v != (double)(size_t)v)
				return cli_free(o), bad("-j wants a whole number of threads from 1 to " CG_MAX_JOBS_TEXT ", not '%s'", optarg);
			o->jobs = (unsigned)v;
			break;
		case 'q': o->quiet = 1; break;
		case OPT_HELP:
			usage_long(stdout);
			cli_free(o);
			return CLI_EXIT_OK;
		case OPT_VERSION:
			printf("callgraph %s\n", CG_VERSION);
			cli_free(o);
			return CLI_EXIT_OK;
		case ':':
			/* optopt is the option's val: a long-only option's is >= 256. */
			if (optopt > 0 && optopt < 256)
				return cli_free(o), bad("option -%s needs an argument", (char[]){ (char)optopt, 0 });
			return cli_free(o), bad("option %s needs an argument", argv[optind - 1]);
		default:
			if (optopt)
				return cli_free(o), bad("unknown option -%s", (char[]){ (char)optopt, 0 });
			return cli_free(o), bad("unknown option %s", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return cli_free(o), bad("%s", "no TRACE given");
	if (optind + 1 < argc && !o->nbases)
		return cli_free(o), bad("one TRACE only; unexpected '%s'", argv[optind + 1]);
	for (; optind < argc; optind++)
		add_traces(o, &o->traces, &o->ntraces, argv[optind]);
	o->trace = o->traces[o->ntraces - 1];
	o->diff_base = o->nbases ? o->bases[0] : NULL;
	o->runs = o->nbases > 1 || o->ntraces > 1 || (o->nbases && o->json) || o->normalise ||
		  o->fail_slower >= 0;
	if (!o->nbases && (o->normalise || o->fail_slower >= 0))
		return cli_free(o), bad("%s", o->normalise ? "--normalise goes with -d"
							   : "--fail-if-slower goes with -d");
	if (o->fail_slower >= 0 && (o->nbases < 2 || o->ntraces < 2))
		return cli_free(o), bad("--fail-if-slower needs at least two runs a side (%s)",
					o->nbases < 2 ? "give more -d BASE traces" : "give more TRACEs");
	if (o->runs && (o->graph || o->dump || o->folded || o->pprof || o->speedscope ||
			o->chrome || o->callgrind))
		return cli_free(o), bad("%s", "-d with repeated runs goes with the text, -h or --json outputs");
	if (o->keep_dot && !o->graph)
		return cli_free(o), bad("%s", "-k goes with -g");
	if (o->format && !o->graph)
		return cli_free(o), bad("%s", "-T goes with -g");
	o->text = !o->graph && !o->html_stdout && !o->html && !o->dump && !o->json && !o->folded &&
		  !o->pprof && !o->speedscope && !o->chrome && !o->callgrind;
	stdout_users = o->text + o->html_stdout + o->dump + (o->json && strcmp(o->json, "-") == 0) +
		       (o->folded && strcmp(o->folded, "-") == 0) +
		       (o->pprof && strcmp(o->pprof, "-") == 0) +
		       (o->speedscope && strcmp(o->speedscope, "-") == 0) +
		       (o->chrome && strcmp(o->chrome, "-") == 0) +
		       (o->callgrind && strcmp(o->callgrind, "-") == 0) +
		       (o->graph && strcmp(o->graph, "-") == 0) + (o->html && strcmp(o->html, "-") == 0);
	if (stdout_users > 1)
		return cli_free(o), bad("%s", "only one output can go to standard output");
	if (o->slash_names && !o->folded)
		return cli_free(o), bad("%s", "--slash-names goes with --folded");
	if (o->diff_base && !o->runs && (o->dump || o->json || o->folded || o->pprof || o->speedscope ||
			     o->chrome || o->callgrind))
		return cli_free(o), bad("%s", "-d compares two traces; it goes with the text, -h or -g outputs");
	if (o->range_frame && o->diff_base)
		return cli_free(o), bad("%s", "--range frame:N picks a frame of one trace; with -d give FROM:TO");
	if (o->max_nodes > CG_MAX_NODES_LIMIT) {
		if (o->graph && !o->quiet)
			fprintf(stderr, "callgraph: warning: --max-nodes %zu lowered to %d, the most that Graphviz lays out within seconds\n",
				o->max_nodes, CG_MAX_NODES_LIMIT);
		o->max_nodes = CG_MAX_NODES_LIMIT;
	}
	return CLI_OK;
}

void cli_free(struct cg_opts *o)
{
	size_t i;

	for (i = 0; i < o->nowned; i++)
		free(o->owned[i]);
	free(o->owned);
	o->owned = NULL;
	o->nowned = 0;
	free(o->bases);
	o->bases = NULL;
	free(o->traces);
	o->traces = NULL;
	free(o->threads);
	o->threads = NULL;
	free(o->focus);
	o->focus = NULL;
	free(o->hide);
	o->hide = NULL;
}

/* cli.h - command-line options: one table drives parsing and usage. */
#ifndef CG_CLI_H
#define CG_CLI_H

#include <stddef.h>

#include "model/profile.h"
#include "model/window.h"

/* -j at most: threads beyond the cores only split the work finer. */
#define CG_MAX_JOBS 64
#define CG_MAX_JOBS_TEXT "64"

struct cg_opts {
	const char *trace;       /* TRACE argument ("-" = stdin) */
	const char *graph;       /* -g FILE */
	const char *format;      /* -T FORMAT */
	int keep_dot;            /* -k */
	double threshold;        /* -t PCT (0 = off) */
	double node_pct;         /* --node-fraction, as a percentage */
	double edge_pct;         /* --edge-fraction, as a percentage */
	int no_fold;             /* --no-fold */
	int no_merge_threads;    /* --no-merge-threads */
	int html_stdout;         /* -h */
	const char *html;        /* --html FILE */
	int dump;                /* -o */
	const char *diff_base;   /* -d BASE: the first base */
	const char **bases;      /* every -d BASE, patterns expanded */
	size_t nbases;
	const char **traces;     /* every TRACE operand, patterns expanded; trace is the last */
	size_t ntraces;
	int runs;                /* compare repeated runs (runs.h): more than one trace
	                          * a side, or --json, --normalise or --fail-if-slower */
	int normalise;           /* --normalise */
	double fail_slower;      /* --fail-if-slower PCT; < 0 when not asked */
	char **owned;            /* pattern expansions, freed by cli_free */
	size_t nowned;
	const char *json;        /* --json FILE ("-" = stdout) */
	const char *folded;      /* --folded FILE ("-" = stdout) */
	const char *pprof;       /* --pprof FILE ("-" = stdout) */
	const char *speedscope;  /* --speedscope FILE ("-" = stdout) */
	const char *chrome;      /* --chrome-trace FILE ("-" = stdout) */
	const char *callgrind;   /* --callgrind FILE ("-" = stdout) */
	int slash_names;         /* --slash-names */
	enum cg_clock_sel clock; /* --clock */
	const char **threads;    /* --thread T..., NULL-terminated */
	size_t nthreads;
	size_t max_nodes;        /* --max-nodes */
	const char **focus;      /* --focus PATTERN..., NULL-terminated */
	size_t nfocus;
	const char **hide;       /* --hide PATTERN..., NULL-terminated */
	size_t nhide;
	int short_names;         /* --short-names */
	unsigned jobs;           /* -j N; 0 = not given (the number of cores) */
	int quiet;               /* -q */
	int text;                /* text profile on stdout */
	const char *range_text;  /* --range as given, NULL without */
	struct cg_window_spec range; /* --range FROM:TO */
	uint64_t range_frame;    /* --range frame:N: N, else 0 */
	int frames;              /* --frames: the frames section of the text profile */
	const char *frame_pattern; /* --frames=PATTERN, NULL: the default */
};

enum { CLI_OK = 0, CLI_EXIT_OK = 1, CLI_USAGE = 2 };

/* Parse argv into o.  Returns CLI_OK, CLI_EXIT_OK after --help/--version
 * (printed to stdout), or CLI_USAGE after a one-line error and the short
 * usage on stderr.  cli is the only module besides main that prints. */
int cli_parse(int argc, char **argv, struct cg_opts *o);
void cli_free(struct cg_opts *o);

#endif

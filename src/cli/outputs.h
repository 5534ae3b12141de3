/* outputs.h - the table of output kinds: each output callgraph can write
 * (text, JSON, HTML, folded stacks, the exports, the -o dump, the -d
 * comparison, the graph) is one entry saying which option asks for it, what
 * it needs built while the trace is read, and how it is rendered.
 *
 * outputs_plan turns the options into the list of outputs of one run, in
 * the order they are opened, rendered and committed.  The table is static;
 * a plan owns the paths it made (FILE.dot) and is freed with
 * outputs_plan_free.
 */
#ifndef CG_OUTPUTS_H
#define CG_OUTPUTS_H

#include <stddef.h>

#include "cli/cli.h"
#include "render/report.h"
#include "util/strbuf.h"
#include "util/util.h"

/* What an output needs built while the trace is read. */
enum {
	NEED_CCT = 1,      /* the calling-context tree */
	NEED_TIMELINE = 2, /* the HTML timeline (with the cct) */
	NEED_EVENTS = 4,   /* the event log of the evented exports (with the cct) */
	NEED_READ = 8,     /* written while reading (the -o dump): no render step */
	NEED_VIEW = 16,    /* the profile's views (methods summed) */
	NEED_EDGES = 32,   /* the views' edges (with NEED_VIEW) */
	NEED_THREAD_VIEWS = 64, /* views of single threads besides the all-threads one */
	NEED_THREAD_METHODS = 128, /* each thread's own method sums (the graph's idle threads) */
};

/* What a render step is given. */
struct cg_job {
	const struct cg_report *r;    /* the trace; the later one under -d */
	const char *graph_format;     /* -g: the graph's format */
	int quiet;                    /* -q: no warnings */
};

struct cg_output_kind {
	const char *name;   /* "text", "json", ... */
	const char *option; /* the option that asks for it, as the man page names it */
	unsigned needs;     /* NEED_* */
	/* The path the options ask this kind to write ("-" = standard
	 * output), or NULL when it is not asked for.  May allocate into
	 * *owned (freed with the plan). */
	const char *(*path)(const struct cg_opts *o, const char *graph_format, char **owned);
	/* Append the output to out: 0, or -1 with err filled. */
	int (*render)(const struct cg_job *j, struct strbuf *out, struct cg_error *err);
};

/* The table, in plan order; *n gets its length. */
const struct cg_output_kind *outputs_table(size_t *n);

struct cg_planned {
	const struct cg_output_kind *kind;
	const char *path;
	char *owned; /* path when this plan made it */
};

struct cg_plan {
	struct cg_planned *out;
	size_t n;
	unsigned needs; /* union of the planned kinds' needs */
};

/* The outputs o asks for, with graph_format the -g format (NULL without
 * -g).  Never fails. */
void outputs_plan(const struct cg_opts *o, const char *graph_format, struct cg_plan *plan);
void outputs_plan_free(struct cg_plan *plan);

#endif

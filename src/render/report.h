/* report.h - what every renderer is given: the finished profile and the facts
 * about the trace, plus the options that shape output.
 *
 * Renderers borrow everything here; they append their output to a strbuf
 * (never writing files themselves) and may call strbuf_spill between rows
 * so that a large output is written in chunks (run.c hands the chunks to a
 * staged output, output.h, which appears whole or not at all).  A renderer
 * returns 0, or -1 with err filled.
 */
#ifndef CG_REPORT_H
#define CG_REPORT_H

#include <stddef.h>

#include "model/profile.h"
#include "util/strbuf.h"
#include "read/symtab.h"
#include "read/trace.h"
#include "util/util.h"

struct cg_cct;   /* cct.h */
struct cg_timeline; /* timeline.h */
struct cg_diff;  /* diff.h */
struct cg_events; /* events.h */
struct cg_pagelog; /* pagelog.h */

struct cg_report {
	const char *file;                  /* trace path as given on the command line */
	const struct cg_trace_info *info;
	struct cg_profile *profile;        /* finished; views built on demand */
	struct cg_symtab *st;
	enum cg_clock_sel clock;           /* clock used for times */
	double threshold;                  /* -t PCT (0 = no edge rule) */
	double node_pct;                   /* --node-fraction, in percent of the view total */
	double edge_pct;                   /* --edge-fraction, in percent of the view total */
	int no_fold;                       /* --no-fold: draw pass-through chains frame by frame */
	size_t max_nodes;                  /* --max-nodes */
	int short_names;                   /* --short-names: c.e.a.Foo in display (javaname.h) */
	const struct cg_cct *cct;          /* calling-context tree (--folded); NULL when not built */
	const struct cg_timeline *timeline; /* HTML timeline spans (finished); NULL when not built */
	const struct cg_diff *diff;        /* -d: change per method of this (later) trace; else NULL */
	const struct cg_events *events;    /* every enter/leave (--speedscope, --chrome-trace); else NULL */
	const struct cg_pagelog *pagelog;  /* the HTML report's call log, both clocks; else NULL */
	int slash_names;                   /* --slash-names: folded frames as java/lang/String.equals */
	/* The HTML report's threads: thread_map[i] is thread i's index in the
	 * page, or -1 when it is folded into one "idle threads" entry; NULL
	 * lists every thread as itself.  Set by render_html for its parts. */
	const int32_t *thread_map;
};

/* A renderer that turns the report into bytes. */
struct cg_renderer {
	const char *name;
	int (*render)(const struct cg_report *r, struct strbuf *out, struct cg_error *err);
};

/* "wall" or "cpu": the clock the numbers are on. */
const char *report_clock_name(const struct cg_report *r);

#endif

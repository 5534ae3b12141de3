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
struct cg_runs;  /* runs.h */
struct cg_events; /* events.h */
struct cg_pagelog; /* pagelog.h */
struct cg_frames; /* frames.h */

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
	int no_merge_threads;              /* --no-merge-threads: a graph root per thread (roots.h) */
	size_t max_nodes;                  /* --max-nodes */
	int short_names;                   /* --short-names: c.e.a.Foo in display (javaname.h) */
	const struct cg_cct *cct;          /* calling-context tree (--folded); NULL when not built */
	const struct cg_timeline *timeline; /* HTML timeline spans (finished); NULL when not built */
	const struct cg_diff *diff;        /* -d: change per method of this (later) trace; else NULL */
	const struct cg_runs *runs;        /* -d with repeated runs: every run matched; else NULL */
	int normalise;                     /* --normalise: runs compared by share of their total */
	const struct cg_events *events;    /* every enter/leave (--speedscope, --chrome-trace); else NULL */
	const struct cg_pagelog *pagelog;  /* the HTML report's call log, both clocks; else NULL */
	int slash_names;                   /* --slash-names: folded frames as java/lang/String.equals */
	/* The HTML report's threads: thread_map[i] is thread i's index in the
	 * page, or -1 when it is folded into one "idle threads" entry; NULL
	 * lists every thread as itself.  Set by render_html for its parts. */
	const int32_t *thread_map;
	/* Frames (frames.h), or NULL when they were not looked for; frames
	 * asks for the text profile's frames section (--frames). */
	const struct cg_frames *frames;
	int frames_section;
	/* --range: the window on the axis, in us from the origin
	 * (WINDOW_OPEN_FROM / WINDOW_OPEN_TO for an open side), the frame it
	 * came from (0: none), and the trace's records it kept. */
	int has_range;
	int64_t range_from_us, range_to_us;
	uint64_t range_frame;
	uint64_t range_kept;
	/* The axis origin: the raw wall time of the trace's first record. */
	uint64_t origin;
	/* A renderer may do part of its work on a thread of its own (-j 2 or
	 * more, or the default on more than one core): the bytes are the
	 * same. */
	int threads;
};

/* A renderer that turns the report into bytes. */
struct cg_renderer {
	const char *name;
	int (*render)(const struct cg_report *r, struct strbuf *out, struct cg_error *err);
};

/* The --range window as a person reads it: "1203.125 to 1240.500 ms
 * (frame 17)", "from 5.000 ms", "up to 20.000 ms" (ms on the wall clock
 * from the trace's first event). */
void report_window_text(const struct cg_report *r, struct strbuf *sb);

/* The off-CPU % of a time on both clocks (profile_off_cpu) with two
 * decimals into buf (at least 32 bytes): "-" when wall is 0. */
char *report_off_cpu(char *buf, uint64_t cpu, uint64_t wall);

/* "wall" or "cpu": the clock the numbers are on. */
const char *report_clock_name(const struct cg_report *r);

#endif

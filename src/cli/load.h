/* load.h - one trace read into memory: its source, reader, profile and the
 * observers its outputs need (calling-context tree, timeline, event log,
 * the HTML report's call log, frames), through a --range window and a
 * mapping file when asked for, replayed in ranges on several threads where
 * it can be (replay.h).  Errors and warnings are printed here, one line
 * each, "callgraph: FILE: ...". */
#ifndef CG_LOAD_H
#define CG_LOAD_H

#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"
#include "model/window.h"
#include "read/trace.h"
#include "util/strbuf.h"

struct cg_source;
struct cg_profile;
struct cg_cct;
struct cg_timeline;
struct cg_events;
struct cg_pagelog;
struct cg_observe_async;
struct cg_cct_sums;
struct cg_frames;
struct cg_window;
struct cg_mapping;

struct loaded {
	struct cg_source *src;
	struct cg_trace *trace;
	struct cg_profile *profile;
	struct cg_cct *cct;           /* NEED_CCT */
	struct cg_cct_sums *cct_sums; /* the threads' own sums of a global profile, from cct */
	struct cg_cct_sums *cct_sums2; /* a second reader of them, for a second thread, or NULL */
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

/* Read path once into L with the options of o (clock, threads, focus,
 * hide), its methods renamed by the mapping file map_path when it is set,
 * building what needs asks for and dumping records to dump_out when it is
 * set, within the window win when it is set.  Every trace of -d loads
 * through here.  Returns 0 or 1 (error already printed). */
int load_trace(const char *path, const char *map_path, const struct cg_opts *o,
	       unsigned needs, FILE *dump_out, const struct cg_window_spec *win, struct loaded *L);
void load_free(struct loaded *L);
/* The threads -j asks for: N, or the cores this process may run on. */
unsigned load_jobs(const struct cg_opts *o);

/* 0 when L's trace has a wall clock, the axis of --range (a streaming
 * trace's clock is known once it is read); else -1 with err set. */
int load_wall_clock(const struct loaded *L, struct cg_error *err);

/* "callgraph: FILE: offset N: what" (or without the offset) on stderr. */
void load_report_error(const char *file, const struct cg_error *err);
/* The profile's warnings, one line each, appended to sb; then the
 * mapping's, when none of the trace's classes is in it. */
void load_warnings_text(const char *file, const struct loaded *L, struct strbuf *sb);
void load_print_warnings(const char *file, const struct loaded *L);
/* Selections (--thread, --focus, --hide) that matched nothing, with the
 * candidates. */
void load_print_selection_warnings(const char *file, const struct cg_opts *o,
				   const struct loaded *L);

/* Report memory exhaustion as a failure of the file being read (one line,
 * temporary files removed, exit status 1) rather than aborting. */
void load_install_oom_hook(void);

#endif

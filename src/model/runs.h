/* runs.h - comparing repeated runs: several traces a side (-d with more
 * than one trace on a side, or --json).
 *
 * Each run is reduced, as it is added, to a packed summary (diff_base:
 * per match key its names and sums) and its threads' sums by name, so its
 * profile can be freed before the next trace is read: memory grows with
 * the distinct methods and threads of the runs, never with their records.
 * runs_finish matches the runs' keys (methods by class, name and
 * signature, as -d does; threads by name, summed) into rows that hold
 * every run's value of every metric; a key missing from a run counts 0
 * there.
 *
 * Per row and metric, runs_stat gives each side's median and range, the
 * change of the medians, the Mann-Whitney U test (stats.h) and whether the
 * change is significant (p <= CG_RUNS_LEVEL); the normalised view divides
 * every run's value by that run's total on the same clock first.
 *
 * Ownership: the comparison owns its summaries and strings; views given
 * to runs_add are only read during the call. */
#ifndef CG_RUNS_H
#define CG_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"
#include "model/stats.h"

#define CG_RUNS_LEVEL 0.05
/* The normalised view's unit: parts per billion of the run's total. */
#define CG_RUNS_NORM_UNIT 1000000000ull

enum cg_runs_side { CG_RUNS_BASE = 0, CG_RUNS_LATER = 1 };
enum cg_runs_kind { CG_RUNS_TOTAL, CG_RUNS_THREAD, CG_RUNS_METHOD };

/* The metrics of a row; a total row has inclusive times only, calls are
 * a method's calls plus recursive calls. */
enum cg_runs_metric {
	CG_RM_INCL, CG_RM_EXCL,       /* primary clock */
	CG_RM_O_INCL, CG_RM_O_EXCL,   /* the other clock (0 unless runs_has_other) */
	CG_RM_CALLS,
	CG_RM_COUNT
};

struct cg_runs;

/* A row's statistics on one metric. */
struct cg_runs_stat {
	struct cg_spread side[2];  /* base, later */
	struct cg_mwu test;
	double change;             /* (later median - base median) / base median, in %;
	                            * HUGE_VAL when only the later side ran it,
	                            * 0 when neither did */
	int significant;           /* p <= CG_RUNS_LEVEL */
	int calls_changed;         /* the medians of the calls differ (methods) */
};

struct cg_runs *runs_create(void);
void runs_free(struct cg_runs *rs);

/* Add the finished all-thread view v of the trace file (its clock's name
 * clock) to a side.  Before runs_finish only. */
void runs_add(struct cg_runs *rs, enum cg_runs_side side, const struct cg_view *v,
	      const char *file, const char *clock);

/* Match the runs into rows.  Once, after the last runs_add. */
void runs_finish(struct cg_runs *rs);

/* Runs of a side, and run i's file, clock name and totals (primary clock,
 * *o_total on the other one). */
size_t runs_count(const struct cg_runs *rs, enum cg_runs_side side);
const char *runs_file(const struct cg_runs *rs, enum cg_runs_side side, size_t i);
const char *runs_clock(const struct cg_runs *rs, enum cg_runs_side side, size_t i);
uint64_t runs_total(const struct cg_runs *rs, enum cg_runs_side side, size_t i, uint64_t *o_total);

/* 1 when every run carries both clocks on the same primary clock; *primary
 * (may be NULL) gets the primary clock. */
int runs_has_other(const struct cg_runs *rs, enum cg_clock_sel *primary);

/* Rows: the total (row 0), the threads by name, the methods by key. */
size_t runs_rows(const struct cg_runs *rs);
enum cg_runs_kind runs_kind(const struct cg_runs *rs, size_t row);
/* A thread row's name. */
const char *runs_thread(const struct cg_runs *rs, size_t row);
/* A method row's class, name and signature, filled into *tmp (source ""). */
const struct cg_method_info *runs_method(const struct cg_runs *rs, size_t row,
					 struct cg_method_info *tmp);
/* 1 when the row has the metric (total: inclusive times only; threads:
 * times only; the other clock's only with runs_has_other). */
int runs_has_metric(const struct cg_runs *rs, size_t row, enum cg_runs_metric m);

/* The row's value of metric m in run i of a side: microseconds (or calls),
 * or with norm the share of the run's total on the metric's clock in
 * CG_RUNS_NORM_UNIT (calls are never normalised). */
uint64_t runs_value(const struct cg_runs *rs, size_t row, enum cg_runs_metric m, int norm,
		    enum cg_runs_side side, size_t i);

/* The row's statistics on metric m. */
void runs_stat(const struct cg_runs *rs, size_t row, enum cg_runs_metric m, int norm,
	       struct cg_runs_stat *out);

/* order[] (runs_rows entries) gets the rows in display order for metric m:
 * the total, then the threads, then the methods (rows without the metric
 * left out; returns how many were written); within threads and methods
 * significant changes first, by the size of the change in % (new ones
 * first), then the rest by the larger median, then by name. */
size_t runs_order(const struct cg_runs *rs, enum cg_runs_metric m, int norm, size_t *order);

#endif

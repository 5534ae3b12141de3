/* diff.h - comparing two profiles (-d BASE TRACE): methods matched by class
 * (with '/' read as '.'), name and signature; per method the inclusive and
 * exclusive time and calls of each run, the difference (later - base) and
 * the ratio (later / base) of inclusive time.  Rows are compared and sorted
 * on the primary clock; when both traces have both clocks, the other clock's
 * times and differences ride along (the o_* fields, else 0).
 *
 * Methods that ran in only one run are kept as rows of their own.  Several
 * ids with the same class, name and signature in one trace (a redefined
 * method) are summed into one row.
 *
 * The base is first reduced to what the comparison reads (diff_base_create):
 * per match key its names and sums, in key order and packed (a class written
 * once for its methods, numbers as varints), so its profile can be freed
 * before the later trace is read.  A comparison keeps a small row per key
 * (offsets into the base and the later view) and fills whole rows when they
 * are read.
 *
 * Ownership: the diff owns the base it is given; it borrows the later view
 * and its symtab, which must outlive it.
 */
#ifndef CG_DIFF_H
#define CG_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "model/profile.h"

enum cg_diff_status {
	CG_DIFF_BOTH,       /* ran in both runs */
	CG_DIFF_BASE_ONLY,  /* ran only in the base (earlier) run */
	CG_DIFF_LATER_ONLY, /* ran only in the later run */
};

struct cg_diff_side {
	int ran;                            /* 0 when the method did not run */
	uint32_t index;                     /* later side: its symtab index; base: 0 */
	uint64_t incl_us, excl_us, calls, rec_calls;
	uint64_t o_incl_us, o_excl_us;      /* other clock (0 unless diff_has_other) */
};

struct cg_diff_row {
	enum cg_diff_status status;
	struct cg_diff_side base, later;
	int64_t d_incl_us, d_excl_us;       /* later - base (a missing side counts 0) */
	int64_t d_calls;                    /* (calls + rec_calls) later - base */
	int64_t d_o_incl_us, d_o_excl_us;   /* the same on the other clock */
	size_t id;                          /* its position in display order */
};

/* What a summary line says of one run. */
struct cg_diff_run {
	const char *file;        /* the trace as given */
	const char *clock;       /* the clock of its times: "wall", "cpu", ... */
	size_t nthreads;
	const char *names[4];    /* the threads' names when nthreads <= 4 */
};

struct cg_diff_base;
struct cg_diff;

/* *run filled from a finished all-thread view v: file and clock as given,
 * its thread count, and the threads' names when at most four (pointing
 * into v). */
void diff_run_fill(struct cg_diff_run *run, const char *file, const char *clock,
		   const struct cg_view *v);

/* The finished all-thread view of the base, reduced to its keys, names and
 * sums; run's strings are copied.  The view and its profile may be freed
 * afterwards.  Never fails. */
struct cg_diff_base *diff_base_create(const struct cg_view *base, const struct cg_diff_run *run);
void diff_base_free(struct cg_diff_base *b);

/* The entries of a base in key order: *off starts at 0 and *klass at NULL;
 * each call fills *side (ran = 1) and the key (class with its '/' as in the
 * trace, name, signature; strings live as long as the base) and moves *off
 * on.  Returns 0 when every entry has been read. */
int diff_base_entry(const struct cg_diff_base *b, size_t *off, const char **klass,
		    const char **name, const char **sig, struct cg_diff_side *side);

/* The base's total on its primary clock and *o_total (may be NULL) on the
 * other one; *has_other (may be NULL) 1 when it carries both clocks, with
 * *primary (may be NULL) its primary clock. */
uint64_t diff_base_totals(const struct cg_diff_base *b, uint64_t *o_total, int *has_other,
			  enum cg_clock_sel *primary);

/* The order of match keys: < 0, 0 or > 0 as a sorts before b. */
int diff_key_cmp(const char *ka, const char *na, const char *sa, const char *kb, const char *nb,
		 const char *sb);

/* Compare the base with the finished view later; the diff takes base over.
 * Never fails. */
struct cg_diff *diff_create(struct cg_diff_base *base, const struct cg_view *later);
void diff_free(struct cg_diff *d);

/* The base run's summary facts. */
const struct cg_diff_run *diff_base_run(const struct cg_diff *d);

/* The number of rows; counts[status] (3 entries, may be NULL) gets the
 * number of each. */
size_t diff_count(const struct cg_diff *d, size_t counts[3]);

/* Row i (< diff_count) in display order, filled into *tmp and returned:
 * first CG_DIFF_BOTH by |inclusive difference| desc (then slower first,
 * then later inclusive desc, then class.name signature), then
 * CG_DIFF_BASE_ONLY by base inclusive desc, then CG_DIFF_LATER_ONLY by
 * later inclusive desc. */
const struct cg_diff_row *diff_row(const struct cg_diff *d, size_t i, struct cg_diff_row *tmp);

/* Totals of the two views (sum of their threads' inclusive time). */
uint64_t diff_base_total(const struct cg_diff *d);
uint64_t diff_later_total(const struct cg_diff *d);

/* 1 when both views carry the other clock on the same primary clock (the o_*
 * fields and totals are filled), else 0.  *primary (may be NULL) gets the
 * later view's primary clock. */
int diff_has_other(const struct cg_diff *d, enum cg_clock_sel *primary);
uint64_t diff_base_o_total(const struct cg_diff *d);
uint64_t diff_later_o_total(const struct cg_diff *d);

/* The row of method index midx of the later trace (its symtab index),
 * filled into *tmp, or NULL when that method did not run in the later trace.
 * A row's status says whether it is new; its d_incl_us > 0 means slower. */
const struct cg_diff_row *diff_change(const struct cg_diff *d, uint32_t midx,
				      struct cg_diff_row *tmp);

/* The method of a row that diff_row or diff_change filled, as the later run
 * defines it, else as the base does (class, name and signature only); *tmp
 * as for symtab_method_peek, valid while the diff lives. */
const struct cg_method_info *diff_method(const struct cg_diff *d, const struct cg_diff_row *row,
					 struct cg_method_info *tmp);

/* later / base inclusive time; a negative value when base is 0 (no ratio). */
double diff_ratio(const struct cg_diff_row *row);

#endif

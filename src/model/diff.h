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
 * Ownership: the diff owns its rows; it borrows both views' symtabs, which
 * must outlive it.
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
	uint32_t index;                     /* its symtab index in that run */
	uint64_t incl_us, excl_us, calls, rec_calls;
	uint64_t o_incl_us, o_excl_us;      /* other clock (0 unless diff_has_other) */
};

struct cg_diff_row {
	enum cg_diff_status status;
	struct cg_diff_side base, later;
	int64_t d_incl_us, d_excl_us;       /* later - base (a missing side counts 0) */
	int64_t d_calls;                    /* (calls + rec_calls) later - base */
	int64_t d_o_incl_us, d_o_excl_us;   /* the same on the other clock */
};

struct cg_diff;

/* Compare the finished views base and later.  Never fails. */
struct cg_diff *diff_create(const struct cg_view *base, const struct cg_view *later);
void diff_free(struct cg_diff *d);

/* Rows in display order: first CG_DIFF_BOTH by |inclusive difference| desc
 * (then slower first, then later inclusive desc, then class.name signature),
 * then CG_DIFF_BASE_ONLY by base inclusive desc, then CG_DIFF_LATER_ONLY by
 * later inclusive desc.  counts[status] (3 entries, may be NULL) gets the
 * number of each. */
size_t diff_rows(const struct cg_diff *d, const struct cg_diff_row **rows, size_t counts[3]);

/* Totals of the two views (sum of their threads' inclusive time). */
uint64_t diff_base_total(const struct cg_diff *d);
uint64_t diff_later_total(const struct cg_diff *d);

/* 1 when both views carry the other clock on the same primary clock (the o_*
 * fields and totals are filled), else 0.  *primary (may be NULL) gets the
 * later view's primary clock. */
int diff_has_other(const struct cg_diff *d, enum cg_clock_sel *primary);
uint64_t diff_base_o_total(const struct cg_diff *d);
uint64_t diff_later_o_total(const struct cg_diff *d);

/* The row of method index midx of the later trace (its symtab index), or
 * NULL when that method did not run in the later trace.  A row's status says
 * whether it is new; its d_incl_us > 0 means slower. */
const struct cg_diff_row *diff_change(const struct cg_diff *d, uint32_t midx);

/* The row's method as the later run defines it, else as the base does;
 * *tmp as for symtab_method_peek. */
const struct cg_method_info *diff_method(const struct cg_diff *d, const struct cg_diff_row *row,
					 struct cg_method_info *tmp);

/* later / base inclusive time; a negative value when base is 0 (no ratio). */
double diff_ratio(const struct cg_diff_row *row);

#endif

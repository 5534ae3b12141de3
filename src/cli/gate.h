/* gate.h - --fail-if-slower PCT over a comparison of repeated runs: the
 * rows that got significantly slower (p <= 0.05) by more than PCT % on the
 * primary clock: the total's inclusive time, and a method's inclusive or
 * self time when its median on either side is at least GATE_FLOOR_PCT % of
 * the base's median total (in the normalised view under --normalise).
 * Each such row is printed on stderr, one line each:
 *   callgraph: slower: ROW: METRIC +CHANGE% (p=P)
 */
#ifndef CG_GATE_H
#define CG_GATE_H

#include "render/report.h"

#define GATE_FLOOR_PCT 1

/* The number of offending rows of r->runs, each printed. */
size_t gate_check(const struct cg_report *r, double pct);

#endif

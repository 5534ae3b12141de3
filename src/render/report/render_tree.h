/* render_tree.h - the HTML report's Top Down and Bottom Up trees: markup,
 * a JSON data block from the calling-context tree (cct.h) and the script
 * (src/render/report/assets/tree.js) that builds both trees from it.
 *
 * Data: per thread, the thread's calling-context tree in preorder.  Bound:
 * within a thread, a node whose inclusive time is under the thread's time /
 * TREE_FRACTION, or deeper than TREE_DEPTH, is left out with its subtree;
 * when all threads together still keep more than TREE_BUDGET nodes, the
 * all-threads total / TREE_FRACTION is used for every thread instead and
 * nodes past the budget are left out (roots count: past the budget whole
 * threads are left out, and the page says so).  Left-out time is not lost: the page
 * shows it as one "smaller calls" row under the parent (incl - excl - kept
 * children), and the Bottom Up tree takes each method's self time from the
 * exact profile, listing what falls under the bound as one row too.
 * Borrows everything; writes only to out.
 */
#ifndef CG_RENDER_TREE_H
#define CG_RENDER_TREE_H

#include <stddef.h>

#include "model/cct.h"
#include "model/profile.h"
#include "render/report.h"
#include "util/strbuf.h"

#define TREE_FRACTION 20000
#define TREE_DEPTH 400
#define TREE_BUDGET 50000

/* Append {"fraction","depth","budget","global","kept","dropped",
 * "threadsLeftOut","other","otherName","drops",
 * "threads":[[thread index, root..., nodes...]]}.  Each node (the root
 * first) is k, incl, excl, calls, then with "other" = 1 o_incl, o_excl on
 * the other clock, then its number of kept children; k is the method's
 * position in the all-threads view (-1 for the root, whose incl is the
 * thread's time and excl the thread's own time).  Children follow their
 * parent in preorder, sorted by inclusive time desc, then method index.
 * other: 1 when the trace has both clocks, otherName the other clock.
 * drops: per kept thread, [thread index, then k, excl, o_excl, calls per
 * method] summing the thread's left-out nodes. */
void tree_json(const struct cg_cct *c, const struct cg_report *r, struct strbuf *out);

/* The data block (tree_json) made on a thread of its own while the page's
 * other parts are made: with r->threads and r->cct, else NULL (the block
 * is then made when its section is written).  r, with r->thread_map, is
 * read until tree_job_free, which waits for the thread. */
struct tree_job;
struct tree_job *tree_job_create(const struct cg_report *r);
void tree_job_free(struct tree_job *job);

/* Append the Top Down and Bottom Up sections (markup, data, script) to out,
 * the data from job when not NULL (its bytes are those of tree_json).
 * Needs r->cct; without it, a short note.  Returns 0. */
int render_tree_section(const struct cg_report *r, struct tree_job *job, struct strbuf *out,
			struct cg_error *err);

#endif

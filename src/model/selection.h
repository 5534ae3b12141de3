/* selection.h - say why --thread, --focus or --hide selected nothing.
 *
 * After the replay, each pattern that matched no thread (or no method of
 * the key) gets one warning line naming the candidates: the trace's
 * threads with their ids, or the methods whose names contain the pattern's
 * last word.  The lines are appended to out, each ending in '\n', without
 * the "callgraph: FILE: warning: " prefix, which main adds.  Everything is
 * borrowed.
 */
#ifndef CG_SELECTION_H
#define CG_SELECTION_H

#include "model/profile.h"
#include "util/strbuf.h"
#include "read/symtab.h"

/* Append the warnings for the selections of o that matched nothing in st
 * (threads: those of the key or seen in the records, as symtab has them). */
void selection_warnings(const struct cg_symtab *st, const struct cg_profile_opts *o,
			struct strbuf *out);

#endif

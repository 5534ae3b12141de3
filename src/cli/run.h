/* run.h - one run: read the trace (and the -d base) once, render every
 * output the options ask for (outputs.h), commit them together, and say
 * how it went as an exit status.  Errors and warnings are printed here, one
 * line each, "callgraph: FILE: ...". */
#ifndef CG_RUN_H
#define CG_RUN_H

#include "cli/cli.h"

/* Exit status of callgraph (man/callgraph.1, EXIT STATUS). */
enum cg_exit {
	CG_EXIT_OK = 0,      /* every output written */
	CG_EXIT_FAILURE = 1, /* unreadable or invalid input, I/O or rendering
	                      * failure, memory exhaustion */
	CG_EXIT_USAGE = 2,   /* bad options or arguments */
	CG_EXIT_SLOWER = 3,  /* --fail-if-slower: every output written, and a row
	                      * got significantly slower than allowed */
};

/* Report memory exhaustion as a failure of the file being read (one line,
 * temporary files removed, CG_EXIT_FAILURE) rather than aborting. */
void run_install_oom_hook(void);

/* Run o.  stdout_closed: the caller closed standard output (">&-"), so an
 * output there fails.  Returns CG_EXIT_OK, CG_EXIT_FAILURE or
 * CG_EXIT_SLOWER. */
enum cg_exit run(const struct cg_opts *o, int stdout_closed);

#endif

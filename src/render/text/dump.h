/* dump.h - the -o record dump, written while the trace is read (records are
 * never held): header, threads, then one line per record with its
 * per-thread depth.  The dump borrows the symtab; it owns its depth table. */
#ifndef CG_DUMP_H
#define CG_DUMP_H

#include <stdio.h>

#include "read/trace.h"

struct cg_dump;

struct cg_dump *dump_create(FILE *out);
void dump_free(struct cg_dump *d);
/* Header lines: what the key and binary header said. */
void dump_header(struct cg_dump *d, const char *file, const struct cg_trace_info *info,
		 struct cg_symtab *st);
void dump_records(struct cg_dump *d, struct cg_symtab *st, const struct cg_record *recs, size_t n);
/* Closing lines (streaming: threads and keys from the summary). */
void dump_footer(struct cg_dump *d, const struct cg_trace_info *info, struct cg_symtab *st);

#endif

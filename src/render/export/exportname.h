/* exportname.h - one distinct display name per method for the exporters
 * (pprof, callgrind, speedscope, Chrome trace), whose consumers merge
 * frames by name.
 *
 * A method is "Class.method" (javaname_put_method with the given JN_
 * flags).  Overloads that would share that name get their decoded
 * descriptor ("Foo.bar(int)"), and methods still sharing a name after that
 * (the same name defined under two ids) get " [id]" with the key's id.
 * Names are built for the methods whose used[] byte is set (all when used
 * is NULL); the others are NULL.  Deterministic for the same symtab.
 *
 * The table owns its strings; they stay valid until exportname_free. */
#ifndef CG_EXPORTNAME_H
#define CG_EXPORTNAME_H

#include <stddef.h>

#include "read/symtab.h"

struct cg_exportnames;

struct cg_exportnames *exportname_build(const struct cg_symtab *st, const unsigned char *used,
					unsigned flags);
void exportname_free(struct cg_exportnames *n);
/* The name of method index midx, or NULL when it was not built. */
const char *exportname_get(const struct cg_exportnames *n, uint32_t midx);

#endif

/* strpool.h - stable, compact string storage.
 *
 * Bytes are carved out of large blocks, so a string costs its length plus
 * its NUL and never moves until the pool is freed; there is no per-string
 * allocation.  Interned strings (class names, signatures, source files, which
 * repeat across thousands of methods) are stored once and named by a dense
 * 32-bit id.
 */
#ifndef CG_STRPOOL_H
#define CG_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct cg_strpool;

struct cg_strpool *strpool_create(void);
void strpool_free(struct cg_strpool *sp);

/* n bytes aligned to `align` (a power of two up to 8), valid until
 * strpool_free. */
void *strpool_alloc(struct cg_strpool *sp, size_t n, size_t align);
/* A copy of the n bytes at s with a NUL after them. */
char *strpool_dup(struct cg_strpool *sp, const char *s, size_t n);
/* The id of the string s (stored once however often it is interned). */
uint32_t strpool_intern(struct cg_strpool *sp, const char *s);
const char *strpool_str(const struct cg_strpool *sp, uint32_t id);

#endif

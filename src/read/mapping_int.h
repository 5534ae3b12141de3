/* mapping_int.h - what mapping.c (the file and its class index) and
 * mapping_rename.c (members, and the original of a traced method) share. */
#ifndef CG_MAPPING_INT_H
#define CG_MAPPING_INT_H

#include <stdint.h>

#include "read/mapping.h"
#include "util/strbuf.h"
#include "util/strpool.h"

#define NONE UINT32_MAX

struct mclass {
	const char *obf, *orig;  /* dotted names */
	const char *source;      /* sourceFile metadata, NULL when absent */
	uint64_t off, end;       /* its member lines: bytes [off, end) */
	uint32_t line;           /* line number of the class line */
	uint32_t first, n;       /* its members in members[]; first NONE until read */
	uint64_t hash;
};

struct member {
	const char *klass;       /* original class (dotted) */
	const char *name;        /* original name */
	const char *desc;        /* original descriptor, '/' separators */
	const char *obf;         /* obfuscated name */
	const char *residual;    /* residual signature, NULL when absent */
	int64_t lo, hi;          /* minified line range, -1 when absent */
	int caller;              /* its original position is one line: the
				  * caller of the frame above it in an inline chain */
};

struct cg_mapping {
	int fd;                  /* the file, or the temporary copy of a pipe */
	const unsigned char *mem;/* or the bytes, for mapping_open_mem */
	size_t nmem;
	struct mclass *classes;
	size_t nclasses, cap_classes, used;
	uint32_t *slots;         /* open addressing over classes: index + 1 */
	size_t nslots;
	struct member *members;
	size_t nmembers, cap_members;
	struct cg_strpool *pool;
	/* mapping_rename's results, valid until the next call */
	struct strbuf obf, klass, name, sig, note, tmp, desc;
	uint32_t *cand, *inl;
	size_t cap_cand, cap_inl;
};

/* The class whose obfuscated (dotted) name is s[0..n), or NULL. */
struct mclass *mapping_class_find(const struct cg_mapping *map, const char *s, size_t n);

#endif

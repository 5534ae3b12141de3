/* mapping.h - R8 and ProGuard mapping files (mapping.txt): the original
 * names of a minified app's classes and methods.
 *
 * mapping_open reads the file once, line by line, checking every line and
 * keeping an index of its classes only (obfuscated name, original name,
 * source file, where its members lie); a class's members are read back
 * from the file the first time a method of that class is renamed, so
 * memory follows the classes a trace uses, not the size of the mapping.
 * Input that is not a regular file (a pipe) is copied to an unnamed
 * temporary file as it is read.
 *
 * Line forms (R8's doc/retrace.md): "original.Class -> obfuscated.Class:";
 * members indented below it: fields "type name -> obf", methods
 * "[a:b:]ret [original.Class.]name(args)[:c[:d]] -> obf"; "#" comments,
 * and "# {json}" metadata, of which sourceFile (after a class line) and
 * com.android.tools.r8.residualsignature (after a member) are read and
 * the others accepted.
 *
 * Which original a method was (mapping_rename):
 *  - its class is the class whose obfuscated name the trace gives; a class
 *    the mapping does not list keeps its name;
 *  - the members of that class with the trace's method name are grouped
 *    in inline chains (consecutive lines with the same minified line
 *    range); a method trace records the method that ran, the outermost
 *    frame of a chain (its last line), and the inner frames are code
 *    inlined into it;
 *  - of those outermost frames, the ones whose descriptor equals the
 *    trace's (obfuscated types mapped back; or the residual signature when
 *    the mapping gives one) are kept; when none is, all are;
 *  - one candidate left: its name, class and descriptor; several: the
 *    first (in the file's order) with the others after " | ", as
 *    "bar | com.x.Foo.baz", and a note listing them; none: the trace's
 *    name with its descriptor's types mapped.
 * The types of every descriptor are mapped back, in any class.
 *
 * Errors are returned, never printed: cg_error without an offset, its
 * message starting "line N: ".
 */
#ifndef CG_MAPPING_H
#define CG_MAPPING_H

#include <stddef.h>

#include "read/symtab.h"
#include "util/util.h"

struct cg_mapping;

/* Read and check the mapping file at path.  NULL with err filled when it
 * cannot be opened or read, or a line is malformed. */
struct cg_mapping *mapping_open(const char *path, struct cg_error *err);
/* The same from n bytes in memory (copied), for tests and fuzzing. */
struct cg_mapping *mapping_open_mem(const void *data, size_t n, struct cg_error *err);
void mapping_free(struct cg_mapping *map);

/* A cg_rename_fn (symtab.h) over map: the original of the method the
 * trace names klass.name sig.  Returns 1 with *out filled (strings valid
 * until the next call) when the mapping changes anything, else 0. */
int mapping_rename(void *map, const char *klass, const char *name, const char *sig,
		   const char *source, struct cg_renamed *out);

/* Number of classes the mapping lists, and how many distinct ones of them
 * mapping_rename was asked about (0: the trace and mapping share no
 * class: a mapping of another build?). */
size_t mapping_class_count(const struct cg_mapping *map);
size_t mapping_classes_used(const struct cg_mapping *map);

#endif

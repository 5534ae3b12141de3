/* javaname.h - Java names for display.
 *
 * Class names are shown with '/' as '.', optionally with their packages
 * shortened to one character each (--short-names: com.example.app.Foo ->
 * c.e.a.Foo), and JVM method descriptors are decoded:
 * (Ljava/lang/String;I)V -> (String, int), [I -> int[], the return type
 * optional (": void").  Argument types use the simple class name.
 * Only display uses these forms: JSON and tooltips keep the raw names.
 *
 * Everything appends to a caller-owned strbuf; nothing is allocated or kept.
 * Names are bytes (possibly invalid UTF-8) and pass through unchanged apart
 * from the rewriting above; callers escape for their output syntax.
 */
#ifndef CG_JAVANAME_H
#define CG_JAVANAME_H

#include <stddef.h>

#include "util/strbuf.h"
#include "read/symtab.h"

enum {
	JN_SHORT = 1,   /* shorten packages to their first character */
	JN_SIG = 2,     /* javaname_put_method: append the decoded descriptor */
	JN_RETURN = 4,  /* with a decoded descriptor: append ": <return type>" */
	JN_SLASH = 8,   /* javaname_put_class/_method: packages joined by '/'
			 * (java/lang/String), as flamegraph.pl's java palette wants */
};

/* Append class name klass ("java/lang/Object" or "java.lang.Object") with
 * slashes as dots (dots as slashes under JN_SLASH), packages shortened
 * under JN_SHORT.  A package's first
 * character is its first UTF-8 sequence (a stray byte counts as one). */
void javaname_put_class(struct strbuf *sb, const char *klass, unsigned flags);

/* Append one field type descriptor starting at desc ("I" -> "int",
 * "[[Ljava/lang/String;" -> "String[][]", "V" -> "void" only when allow_void).
 * Returns the number of bytes of desc consumed, or 0 (nothing appended) when
 * desc does not start with a valid type. */
size_t javaname_put_type(struct strbuf *sb, const char *desc, int allow_void);

/* Append the decoded method descriptor sig: "(String, int)", plus ": void"
 * under JN_RETURN.  Returns 0; or -1 when sig is not a valid method
 * descriptor, in which case sig is appended unchanged.  An empty sig appends
 * nothing and returns 0. */
int javaname_put_sig(struct strbuf *sb, const char *sig, unsigned flags);

/* Append "Class.method" (as javaname_put_class, then '.' and the name when
 * the name is not empty), then under JN_SIG the decoded descriptor. */
void javaname_put_method(struct strbuf *sb, const struct cg_method_info *m, unsigned flags);

/* Which methods of st share their "Class.method" with another method (their
 * overloads): a calloc'd array by symtab method index, 1 for each such
 * method.  The caller frees it. */
unsigned char *javaname_overloads(const struct cg_symtab *st);

/* The one label rule of every output: "Class.method" (as
 * javaname_put_method; packages as initials under JN_SHORT), followed by
 * the decoded argument list only when the method is overloaded (another
 * method of its class has its name). */
void javaname_put_label(struct strbuf *sb, const struct cg_method_info *m, unsigned flags,
			int overloaded);

#endif

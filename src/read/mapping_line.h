/* mapping_line.h - the syntax of one line of a mapping file (mapping.c's
 * parser): class lines, member lines, metadata; Java type names to JVM
 * descriptors.  Nothing is allocated; results point into the line. */
#ifndef CG_MAPPING_LINE_H
#define CG_MAPPING_LINE_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/* A span of a line. */
struct mspan {
	const char *p;
	size_t n;
};

/* A member line: "[lo:hi:]ret qname[(args)][:c[:d]] -> obf". */
struct mmember {
	struct mspan ret, qname, args, obf;
	int64_t lo, hi;   /* minified line range; -1 when absent */
	int method;       /* 1 for a method (it has an argument list) */
	int orig_lines;   /* numbers after the argument list: 0, 1 (an inlined
			   * frame's caller line) or 2 (an original range) */
};

/* Parse the class line s[0..n) ("orig -> obf:"): 0 with orig and obf set,
 * or -1 with *why set to what is wrong. */
int mapline_class(const char *s, size_t n, struct mspan *orig, struct mspan *obf,
		  const char **why);
/* Parse the member line s[0..n) (leading blanks included): 0, or -1 with
 * *why set. */
int mapline_member(const char *s, size_t n, struct mmember *m, const char **why);
/* The string value of "key" in the one-line JSON object s[0..n), as a
 * span of s (no unescaping: names hold no escapes); 0, or -1 when absent. */
int mapline_json_str(const char *s, size_t n, const char *key, struct mspan *val);
/* Append the JVM descriptor of the Java type name t ("int", "a.B[]") with
 * '/' separators to sb. */
void mapline_put_type(struct strbuf *sb, const char *t, size_t n);
/* Append the descriptor "(args)ret" of a member to sb. */
void mapline_put_desc(struct strbuf *sb, const struct mmember *m);

#endif

/* symtab.h - the trace's method and thread names.
 *
 * Methods get a dense index (0, 1, 2, ...) in the order they are defined or
 * first referenced; ids missing from the key are added on first use as
 * "unknown.0x<id>" and flagged.  Methods are looked up by the 32-bit key that
 * records carry; for v1-v3 traces the key is the id itself, for V2 traces the
 * reader maps each 64-bit id to a key and records the full id with
 * symtab_set_id.  Threads are keyed by their 16-bit id.
 * The symtab owns every string; the model and renderers borrow them for the
 * symtab's lifetime.
 *
 * Memory follows what ran: a definition is stored compactly (its class,
 * signature and source interned, no per-field allocation) and its
 * cg_method_info is built the first time symtab_method asks for it, so a
 * key of a million methods of which ten ran costs tens of bytes a method.
 * That first request writes to the symtab: symtab_method is not safe to call
 * from two threads at once.
 */
#ifndef CG_SYMTAB_H
#define CG_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct cg_method_info {
	uint64_t id;        /* the method id in full: the key's raw id (low two
			     * bits zero), or a V2 trace's 64-bit ArtMethod*.
			     * What records carry (the raw id, or for V2 traces a
			     * 32-bit key the reader assigns to each 64-bit id)
			     * is the symtab's: symtab_find_method maps it back. */
	const char *klass;  /* as written: "java/lang/Object" or "java.lang.Object" */
	const char *name;   /* method name, "" when the key line had none */
	const char *sig;    /* JVM descriptor, "" when absent */
	const char *source; /* source file, "" when absent */
	int line;           /* Dalvik line number; 0 when absent */
	int unknown;        /* 1 when the id was never defined */
	const char *id_text;/* the id exactly as the key wrote it ("0", "0x01a4");
			     * NULL when absent, or when the key wrote "0x" and
			     * id in lowercase hex without leading zeros, the
			     * form to print then */
	char text[12];      /* an unknown id's "0x<hex>": its name and id_text */
	const char *obfuscated; /* renamed by a mapping: the method as the trace
				 * wrote it, "a.b.c(La/d;)V"; else NULL */
	const char *mapping_note; /* NULL, or what else the mapping says: the
				   * candidates of an ambiguous name, the
				   * frames inlined into the method */
};

struct cg_thread_info {
	uint32_t tid;      /* id as in the records: 16 bits (v1-v3) or 32 (V2) */
	const char *name;  /* "thread <tid>" when never named */
	int named;
};

struct cg_symtab;

struct cg_symtab *symtab_create(void);
void symtab_free(struct cg_symtab *st);

/* A method's original names, as a mapping file gives them (mapping.h). */
struct cg_renamed {
	const char *klass, *name, *sig, *source;
	const char *note;   /* NULL, or the candidates and inlined frames */
};
/* Fill *out with the original of the method klass.name sig (source: the
 * trace's source file); 1 when it differs from what the trace wrote, else
 * 0.  out's strings need only last until the next call. */
typedef int (*cg_rename_fn)(void *ctx, const char *klass, const char *name, const char *sig,
			    const char *source, struct cg_renamed *out);
/* Rename every method defined from now on through fn (NULL: none): the one
 * place where names change, so every output shows the originals.  ctx is
 * borrowed. */
void symtab_set_rename(struct cg_symtab *st, cg_rename_fn fn, void *ctx);

/* Define (or redefine: last definition wins for names) a method.  Strings are
 * copied.  Returns its index. */
uint32_t symtab_define_method(struct cg_symtab *st, uint32_t key, const char *klass,
			      const char *name, const char *sig, const char *source, int line);
/* Define a method of a text key: as symtab_define_method, with the id as the
 * key spelled it ("0", "0x1a4"; copied). */
uint32_t symtab_define_key_method(struct cg_symtab *st, uint32_t key, const char *id_text,
				  const char *klass, const char *name, const char *sig,
				  const char *source, int line);
/* Define a method whose full id is not its key (V2): as symtab_define_method
 * followed by symtab_set_id. */
uint32_t symtab_define_method_id(struct cg_symtab *st, uint32_t key, uint64_t id,
				 const char *klass, const char *name, const char *sig,
				 const char *source, int line);
/* Record the id as the key spelled it (copied). */
void symtab_set_id_text(struct cg_symtab *st, uint32_t index, const char *text);
/* Set the method's full id (default: its key) and its text "0x<hex>". */
void symtab_set_id(struct cg_symtab *st, uint32_t index, uint64_t id);
/* Index of the method with this key; -1 when it is not defined. */
int64_t symtab_find_method(const struct cg_symtab *st, uint32_t key);
/* Index of the method with this key, adding an "unknown.0x<key>" entry when
 * needed (a few bytes until its cg_method_info is asked for). */
uint32_t symtab_method_index(struct cg_symtab *st, uint32_t key);
size_t symtab_method_count(const struct cg_symtab *st);
const struct cg_method_info *symtab_method(const struct cg_symtab *st, uint32_t index);
/* The method's cg_method_info without building it when it is not built
 * yet: then *tmp is filled and returned, to be read before tmp is reused.
 * Its strings are the symtab's, valid for the symtab's lifetime, except an
 * unknown id's name and id_text, which are tmp's text.  For passes that
 * read every method once (dumps, exports, views), which would otherwise
 * keep about 100 bytes per method. */
const struct cg_method_info *symtab_method_peek(const struct cg_symtab *st, uint32_t index,
						struct cg_method_info *tmp);
/* The method's full id, as symtab_method gives it, without building its
 * cg_method_info (for sorting by id). */
uint64_t symtab_method_id(const struct cg_symtab *st, uint32_t index);
/* The method's id as text when it has one (V2 string ids; else NULL), and
 * its full id in *id, without building its cg_method_info: for outputs
 * that name methods by id (an unknown id's text, "0x<id>", is its id in
 * hex). */
const char *symtab_method_id_text(const struct cg_symtab *st, uint32_t index, uint64_t *id);
/* Methods a and b (indices) in the order of their full ids, then of their
 * indices: a total order, for sorts. */
int symtab_method_cmp_id(const struct cg_symtab *st, uint32_t a, uint32_t b);
/* Class names compared with '/' and '.' as the same character (bytes as
 * unsigned chars, a string's end before any byte). */
int symtab_class_cmp(const char *a, const char *b);
/* The class and name of a method, as symtab_method gives them, without
 * building its cg_method_info (for passes over every method of the key);
 * an unknown id's name is tmp's text, as symtab_method_peek leaves it. */
void symtab_method_names(const struct cg_symtab *st, uint32_t index, const char **klass,
			 const char **name, struct cg_method_info *tmp);
/* Number of distinct ids that were referenced but never defined. */
size_t symtab_unknown_count(const struct cg_symtab *st);

/* Name a thread.  The first name given is kept unless `replace` is set. */
void symtab_define_thread(struct cg_symtab *st, uint32_t tid, const char *name, int replace);
/* The thread's info (creates "thread <tid>" on first use). */
const struct cg_thread_info *symtab_thread(struct cg_symtab *st, uint32_t tid);
/* Threads named in the key or in-band, in definition order. */
size_t symtab_thread_count(const struct cg_symtab *st);
const struct cg_thread_info *symtab_thread_at(const struct cg_symtab *st, size_t i);

struct strbuf;
/* Append "pkg.Class.method" (slashes shown as dots) to sb, unbounded. */
void symtab_put_display(struct strbuf *sb, const struct cg_method_info *m);

#endif

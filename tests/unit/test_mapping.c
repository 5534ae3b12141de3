/* test_mapping.c - R8/ProGuard mapping files: each line form, the rule
 * for several originals, errors with their line, members read back by
 * offset from a file read in chunks, and renaming in the symtab. */
#include <stdlib.h>
#include <unistd.h>

#include "read/mapping.h"
#include "read/symtab.h"
#include "util/strbuf.h"
#include "unit.h"

static const char MAP[] =
	"# compiler: R8\n"
	"# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}\n"
	"com.ex.Player -> a.a:\n"
	"# {\"id\":\"sourceFile\",\"fileName\":\"Player.kt\"}\n"
	"    int position -> a\n"
	"    1:4:void play(com.ex.Track):20:23 -> a\n"
	"    5:5:void seek(int):30:30 -> a\n"
	"    6:6:void stop():40:40 -> b\n"
	"    7:7:void stopNow():44:44 -> b\n"
	"    1:2:int com.ex.Clock.now():5:6 -> c\n"
	"    1:2:long elapsed():50 -> c\n"
	"    void pause() -> d\n"
	"    1:1:com.ex.Track next(com.ex.Track[]):60:60 -> e\n"
	"      # {\"id\":\"com.android.tools.r8.residualsignature\",\"signature\":\"()La/b;\"}\n"
	"    java.lang.String com.ex.Util.format(long) -> f\n"
	"\r\n"
	"com.ex.Track -> a.b:\r\n"
	"    1:1:java.lang.String title():5:5 -> a\r\n"
	"com.ex.Kept -> com.ex.Kept:\n"
	"    void run() -> run\n";

/* Rename klass.name sig through map into *out; returns what rename did. */
static int map_rename(struct cg_mapping *map, const char *klass, const char *name, const char *sig,
		  struct cg_renamed *out)
{
	return mapping_rename(map, klass, name, sig, "SourceFile", out);
}

UNIT_TEST(mapping_line_forms)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_mapping *map = mapping_open_mem(MAP, sizeof(MAP) - 1, &err);
	struct cg_renamed r;

	CHECK(map != NULL);
	CHECK_EQ_U64(mapping_class_count(map), 3);
	CHECK_EQ_U64(mapping_classes_used(map), 0);
	/* one obfuscated name, told apart by descriptor (types mapped back) */
	CHECK_EQ_U64(map_rename(map, "a/a", "a", "(La/b;)V", &r), 1);
	CHECK_EQ_STR(r.klass, "com/ex/Player");
	CHECK_EQ_STR(r.name, "play");
	CHECK_EQ_STR(r.sig, "(Lcom/ex/Track;)V");
	CHECK_EQ_STR(r.source, "Player.kt");
	CHECK(r.note == NULL);
	CHECK_EQ_U64(map_rename(map, "a.a", "a", "(I)V", &r), 1);
	CHECK_EQ_STR(r.klass, "com.ex.Player");
	CHECK_EQ_STR(r.name, "seek");
	/* two originals with the same descriptor: both, and a note */
	CHECK_EQ_U64(map_rename(map, "a/a", "b", "()V", &r), 1);
	CHECK_EQ_STR(r.name, "stop | com.ex.Player.stopNow");
	CHECK_EQ_STR(r.note, "ambiguous: com.ex.Player.stop()V | com.ex.Player.stopNow()V");
	/* an inline chain: the outermost frame ran */
	CHECK_EQ_U64(map_rename(map, "a/a", "c", "()J", &r), 1);
	CHECK_EQ_STR(r.name, "elapsed");
	CHECK_EQ_STR(r.note, "inlined: com.ex.Clock.now()I");
	/* no line range */
	CHECK_EQ_U64(map_rename(map, "a/a", "d", "()V", &r), 1);
	CHECK_EQ_STR(r.name, "pause");
	/* residual signature */
	CHECK_EQ_U64(map_rename(map, "a/a", "e", "()La/b;", &r), 1);
	CHECK_EQ_STR(r.name, "next");
	CHECK_EQ_STR(r.sig, "([Lcom/ex/Track;)Lcom/ex/Track;");
	/* moved from another class: that class, the trace's source */
	CHECK_EQ_U64(map_rename(map, "a/a", "f", "(J)Ljava/lang/String;", &r), 1);
	CHECK_EQ_STR(r.klass, "com/ex/Util");
	CHECK_EQ_STR(r.name, "format");
	CHECK_EQ_STR(r.source, "SourceFile");
	/* CRLF lines, after a blank line */
	CHECK_EQ_U64(map_rename(map, "a/b", "a", "()Ljava/lang/String;", &r), 1);
	CHECK_EQ_STR(r.klass, "com/ex/Track");
	CHECK_EQ_STR(r.name, "title");
	/* kept as it is: nothing to rename */
	CHECK_EQ_U64(map_rename(map, "com/ex/Kept", "run", "()V", &r), 0);
	/* a class the mapping does not list keeps its name, not its types */
	CHECK_EQ_U64(map_rename(map, "java/util/List", "add", "(Ljava/lang/Object;)Z", &r), 0);
	CHECK_EQ_U64(map_rename(map, "x/Y", "m", "([La/b;I)V", &r), 1);
	CHECK_EQ_STR(r.klass, "x/Y");
	CHECK_EQ_STR(r.sig, "([Lcom/ex/Track;I)V");
	/* no original has the descriptor: every original of the name */
	CHECK_EQ_U64(map_rename(map, "a/a", "a", "(J)V", &r), 1);
	CHECK_EQ_STR(r.name, "play | com.ex.Player.seek");
	CHECK_EQ_STR(r.note, "no original has the traced descriptor; ambiguous: "
			     "com.ex.Player.play(Lcom/ex/Track;)V | com.ex.Player.seek(I)V");
	CHECK_EQ_U64(mapping_classes_used(map), 3);
	mapping_free(map);
	return 0;
}

static int open_error_n(const char *text, size_t n, const char *want)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_mapping *map = mapping_open_mem(text, n, &err);

	CHECK(map == NULL);
	CHECK_EQ_U64(err.has_offset, 0);
	CHECK_EQ_STR(err.msg, want);
	return 0;
}

static int open_error(const char *text, const char *want)
{
	return open_error_n(text, strlen(text), want);
}

UNIT_TEST(mapping_errors_name_their_line)
{
	CHECK(open_error("", "line 1: not a mapping file: no 'original.Class -> obfuscated.Class:' line") == 0);
	CHECK(open_error("# only a comment\n", "line 1: not a mapping file: no 'original.Class -> obfuscated.Class:' line") == 0);
	CHECK(open_error("hello\n", "line 1: not a mapping file: expected 'original.Class -> obfuscated.Class:'") == 0);
	CHECK(open_error("a.B -> c:\n    void f() = > a\n", "line 2: expected ' -> ' between the original and the obfuscated name") == 0);
	CHECK(open_error("a.B -> c:\n    void f() -> \n", "line 2: expected one obfuscated name after ' -> '") == 0);
	CHECK(open_error("a.B -> c:\n    void f( -> a\n", "line 2: malformed method: expected 'name(types)'") == 0);
	CHECK(open_error("a.B -> c:\n    void f():x -> a\n", "line 2: malformed original line range after the method") == 0);
	CHECK(open_error("a.B -> c:\n    void f() junk -> a\n", "line 2: unexpected text after the method's argument list") == 0);
	CHECK(open_error("a.B -> c:\n    12345678901:1:void f() -> a\n", "line 2: malformed line range: expected 'first:last:'") == 0);
	CHECK(open_error("a.B -> c:\n    f -> a\n", "line 2: expected 'type name' before ' -> '") == 0);
	CHECK(open_error("a.B -> c:\nd.E -> c:\n", "line 2: class 'c' is mapped twice (first at line 1)") == 0);
	CHECK(open_error("a.B -> c\n", "line 1: class line does not end with ':'") == 0);
	CHECK(open_error("a.B -> c:\n    void f(", "line 2: expected ' -> ' between the original and the obfuscated name (truncated?)") == 0);
	CHECK(open_error("a.B -> c:\n\x1f\x8b\x08", "line 2: binary data: not a mapping file (truncated?)") == 0);
	CHECK(open_error_n("a.B -> c:\n    void f()\0 -> a\n", 29, "line 2: binary data: not a mapping file") == 0);
	return 0;
}

/* A byte-order mark before the first line is not part of it. */
UNIT_TEST(mapping_byte_order_mark)
{
	static const char text[] = "\xef\xbb\xbf" "a.B -> c:\n    void f() -> a\n";
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_mapping *map = mapping_open_mem(text, sizeof(text) - 1, &err);
	struct cg_renamed r;

	CHECK(map != NULL);
	CHECK_EQ_U64(map_rename(map, "c", "a", "()V", &r), 1);
	CHECK_EQ_STR(r.klass, "a/B");
	mapping_free(map);
	return 0;
}

/* A last line without its newline is a line. */
UNIT_TEST(mapping_last_line_unterminated)
{
	static const char text[] = "a.B -> c:\n    void f() -> a";
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_mapping *map = mapping_open_mem(text, sizeof(text) - 1, &err);
	struct cg_renamed r;

	CHECK(map != NULL);
	CHECK_EQ_U64(map_rename(map, "c", "a", "()V", &r), 1);
	CHECK_EQ_STR(r.klass, "a/B");
	CHECK_EQ_STR(r.name, "f");
	mapping_free(map);
	return 0;
}

/* A mapping file of one class whose member line is longer than the
 * reader's 1 MB chunk, then a small class: their members are read back by
 * offset. */
UNIT_TEST(mapping_members_read_back_from_the_file)
{
	char path[] = "/tmp/cgmapXXXXXX";
	int fd = mkstemp(path);
	struct strbuf sb;
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_mapping *map;
	struct cg_renamed r;
	size_t i;
	int ok;

	CHECK(fd >= 0);
	strbuf_init(&sb);
	strbuf_puts(&sb, "com.ex.Long -> a:\n    void f(");
	for (i = 0; i < 150000; i++)
		strbuf_puts(&sb, i ? ",com.ex.T" : "com.ex.T");
	strbuf_puts(&sb, ") -> b\ncom.ex.Short -> c:\n    1:1:void g():3:3 -> d\n");
	ok = write(fd, sb.data, sb.len) == (ssize_t)sb.len;
	close(fd);
	strbuf_free(&sb);
	CHECK(ok);
	map = mapping_open(path, &err);
	unlink(path);
	CHECK(map != NULL);
	CHECK_EQ_U64(mapping_class_count(map), 2);
	CHECK_EQ_U64(map_rename(map, "c", "d", "()V", &r), 1);
	CHECK_EQ_STR(r.klass, "com/ex/Short");
	CHECK_EQ_STR(r.name, "g");
	CHECK_EQ_U64(mapping_classes_used(map), 1);
	CHECK_EQ_U64(map_rename(map, "a", "b", "", &r), 1);
	CHECK_EQ_STR(r.klass, "com/ex/Long");
	CHECK_EQ_STR(r.name, "f");
	CHECK_EQ_U64(strlen(r.sig), 2 + 150000 * 10 + 1);
	mapping_free(map);
	return 0;
}

UNIT_TEST(mapping_missing_file)
{
	struct cg_error err = { { 0 }, 0, 0 };

	CHECK(mapping_open("/nonexistent/mapping.txt", &err) == NULL);
	CHECK_EQ_STR(err.msg, "cannot open the mapping file: No such file or directory");
	return 0;
}

/* The symtab renames as it defines: every reader of names sees the
 * original, the obfuscated name and note beside it. */
UNIT_TEST(mapping_renames_in_the_symtab)
{
	struct cg_error err = { { 0 }, 0, 0 };
	struct cg_mapping *map = mapping_open_mem(MAP, sizeof(MAP) - 1, &err);
	struct cg_symtab *st = symtab_create();
	const struct cg_method_info *m;
	struct cg_method_info tmp;
	const char *klass, *name;
	uint32_t a, b, k, u;

	CHECK(map != NULL);
	symtab_set_rename(st, mapping_rename, map);
	a = symtab_define_key_method(st, 0x4, "0x4", "a/a", "c", "()J", "SourceFile", 0);
	b = symtab_define_method(st, 0x8, "a/a", "b", "()V", "", 0);
	k = symtab_define_method(st, 0xc, "com/ex/Kept", "run", "()V", "", 0);
	u = symtab_method_index(st, 0x10);
	m = symtab_method_peek(st, a, &tmp);
	CHECK_EQ_STR(m->klass, "com/ex/Player");
	CHECK_EQ_STR(m->name, "elapsed");
	CHECK_EQ_STR(m->source, "Player.kt");
	CHECK_EQ_STR(m->obfuscated, "a/a.c()J");
	CHECK_EQ_STR(m->mapping_note, "inlined: com.ex.Clock.now()I");
	symtab_method_names(st, b, &klass, &name, &tmp);
	CHECK_EQ_STR(name, "stop | com.ex.Player.stopNow");
	m = symtab_method(st, b);
	CHECK_EQ_STR(m->obfuscated, "a/a.b()V");
	CHECK(symtab_method(st, k)->obfuscated == NULL);
	CHECK(symtab_method(st, u)->obfuscated == NULL);
	CHECK_EQ_STR(symtab_method(st, u)->klass, "unknown");
	/* a redefinition is renamed too, over the built info */
	symtab_define_method(st, 0x8, "a/a", "a", "(I)V", "", 0);
	CHECK_EQ_STR(symtab_method(st, b)->name, "seek");
	CHECK_EQ_STR(symtab_method(st, b)->obfuscated, "a/a.a(I)V");
	CHECK(symtab_method(st, b)->mapping_note == NULL);
	symtab_free(st);
	mapping_free(map);
	return 0;
}

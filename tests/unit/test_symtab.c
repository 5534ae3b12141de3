/* test_symtab.c - the method table: definitions kept compact until asked
 * for, redefinitions, unknown ids, full V2 ids, and overloads counted over
 * every method of the key. */
#include <stdlib.h>

#include "render/javaname.h"
#include "read/symtab.h"
#include "unit.h"

/* com/ex/A.run()V of A.java line 12, id 0x4 spelled "0x0004" in the key. */
static uint32_t define_run(struct cg_symtab *st)
{
	return symtab_define_key_method(st, 0x4, "0x0004", "com/ex/A", "run", "()V", "A.java", 12);
}

/* m is define_run's method, as its info (built or peeked) gives it. */
static int check_run(const struct cg_method_info *m)
{
	CHECK_EQ_U64(m->id, 0x4);
	CHECK_EQ_STR(m->id_text, "0x0004");
	CHECK_EQ_STR(m->klass, "com/ex/A");
	CHECK_EQ_STR(m->name, "run");
	CHECK_EQ_STR(m->sig, "()V");
	CHECK_EQ_STR(m->source, "A.java");
	CHECK_EQ_U64(m->line, 12);
	CHECK_EQ_U64(m->unknown, 0);
	return 0;
}

UNIT_TEST(symtab_definitions_built_on_request)
{
	struct cg_symtab *st = symtab_create();
	uint32_t a = define_run(st);
	uint32_t b = symtab_define_method(st, 0x8, "com/ex/A", "stop", "(I)V", "", 0);
	uint32_t u = symtab_method_index(st, 0x100);
	const struct cg_method_info *m, *m2;
	struct cg_method_info tmp;
	const char *klass, *name;

	CHECK_EQ_U64(symtab_method_count(st), 3);
	CHECK_EQ_U64(symtab_unknown_count(st), 1);
	symtab_method_names(st, b, &klass, &name, &tmp);
	CHECK_EQ_STR(klass, "com/ex/A");
	CHECK_EQ_STR(name, "stop");
	m = symtab_method(st, a);
	CHECK_EQ_U64(symtab_find_method(st, 0x4), a);
	CHECK(check_run(m) == 0);
	CHECK(symtab_method(st, b)->id_text == NULL);
	CHECK_EQ_STR(symtab_method(st, b)->sig, "(I)V");
	m2 = symtab_method(st, u);
	CHECK_EQ_STR(m2->klass, "unknown");
	CHECK_EQ_STR(m2->name, "0x100");
	CHECK_EQ_STR(m2->id_text, "0x100");
	CHECK_EQ_U64(m2->unknown, 1);
	symtab_method_names(st, u, &klass, &name, &tmp);
	CHECK_EQ_STR(name, "0x100");

	/* The last definition wins, in the same cg_method_info. */
	CHECK_EQ_U64(symtab_define_key_method(st, 0x4, "0x4", "com/ex/B", "go", "", "", 0), a);
	CHECK(symtab_method(st, a) == m);
	CHECK_EQ_STR(m->klass, "com/ex/B");
	CHECK_EQ_STR(m->name, "go");
	CHECK_EQ_STR(m->id_text, "0x4");
	CHECK_EQ_U64(m->line, 0);
	/* An unknown id defined later is known, built or not. */
	symtab_define_method(st, 0x100, "com/ex/C", "late", "()V", "", 0);
	CHECK_EQ_U64(symtab_unknown_count(st), 0);
	CHECK_EQ_U64(m2->unknown, 0);
	CHECK_EQ_STR(m2->name, "late");
	symtab_method_index(st, 0x200);
	CHECK_EQ_U64(symtab_unknown_count(st), 1);
	/* Its names without building it: the name is tmp's. */
	symtab_method_names(st, symtab_method_index(st, 0x200), &klass, &name, &tmp);
	CHECK_EQ_STR(klass, "unknown");
	CHECK_EQ_STR(name, "0x200");
	CHECK(name == tmp.text);
	CHECK(symtab_method_peek(st, symtab_method_index(st, 0x200), &tmp) == &tmp);
	symtab_define_method(st, 0x200, "com/ex/D", "d", "()V", "", 0);
	CHECK_EQ_U64(symtab_unknown_count(st), 0);
	CHECK_EQ_U64(symtab_method(st, symtab_method_index(st, 0x200))->unknown, 0);
	symtab_free(st);
	return 0;
}

/* Three kinds of method: define_run's (a key's), a V2 method with a 64-bit
 * id (key 0x8), and an id never defined (0x100). */
static void define_three(struct cg_symtab *st, uint32_t *a, uint32_t *v, uint32_t *u)
{
	*a = define_run(st);
	*v = symtab_define_method_id(st, 0x8, 0x7f001234abcdULL, "b/B", "f", "", "", 0);
	*u = symtab_method_index(st, 0x100);
}

/* A peek reads a definition without building its info: it fills the
 * caller's struct until someone builds the info, then returns that. */
UNIT_TEST(symtab_peek_builds_nothing)
{
	struct cg_symtab *st = symtab_create();
	uint32_t a, v, u;
	struct cg_method_info tmp, tmp2;
	const struct cg_method_info *m, *built;

	define_three(st, &a, &v, &u);
	m = symtab_method_peek(st, a, &tmp);
	CHECK(m == &tmp);
	CHECK(check_run(m) == 0);
	/* Still not built. */
	CHECK(symtab_method_peek(st, a, &tmp) == &tmp);
	m = symtab_method_peek(st, v, &tmp);
	CHECK_EQ_U64(m->id, 0x7f001234abcdULL);
	CHECK_EQ_U64(symtab_find_method(st, 0x8), v);
	CHECK(m->id_text == NULL); /* printed as "0x7f001234abcd" */
	CHECK_EQ_STR(m->name, "f");
	/* An unknown id too: its text lives in the caller's struct. */
	m = symtab_method_peek(st, u, &tmp);
	CHECK(m == &tmp);
	CHECK_EQ_STR(m->name, "0x100");
	CHECK_EQ_STR(m->id_text, "0x100");
	CHECK_EQ_STR(m->klass, "unknown");
	CHECK_EQ_STR(m->sig, "");
	CHECK_EQ_STR(m->source, "");
	CHECK_EQ_U64(m->id, 0x100);
	CHECK_EQ_U64(m->unknown, 1);
	CHECK(symtab_method_peek(st, u, &tmp2) == &tmp2);
	CHECK(tmp2.name != tmp.name);
	built = symtab_method(st, a);
	CHECK(built != &tmp);
	CHECK(symtab_method_peek(st, a, &tmp) == built);
	/* Once built, the peek gives the same strings from the symtab. */
	built = symtab_method(st, u);
	CHECK(built != &tmp && built != &tmp2);
	CHECK_EQ_STR(built->name, "0x100");
	CHECK_EQ_STR(built->klass, "unknown");
	CHECK(symtab_method_peek(st, u, &tmp) == built);
	symtab_free(st);
	return 0;
}

/* A method's full id without building its info: the key, a V2 method's
 * 64-bit id, an unknown id's key, and a built info's id. */
UNIT_TEST(symtab_method_id_builds_nothing)
{
	struct cg_symtab *st = symtab_create();
	uint32_t a, v, u;
	struct cg_method_info tmp;

	define_three(st, &a, &v, &u);
	CHECK_EQ_U64(symtab_method_id(st, a), 0x4);
	CHECK_EQ_U64(symtab_method_id(st, v), 0x7f001234abcdULL);
	CHECK_EQ_U64(symtab_method_id(st, u), 0x100);
	CHECK(symtab_method_peek(st, a, &tmp) == &tmp);
	CHECK(symtab_method_peek(st, v, &tmp) == &tmp);
	CHECK_EQ_U64(symtab_method(st, v)->id, 0x7f001234abcdULL);
	CHECK_EQ_U64(symtab_method_id(st, v), 0x7f001234abcdULL);
	symtab_free(st);
	return 0;
}

/* A key's id text is kept only when it is not the form printed without
 * one ("0x" and lowercase hex without leading zeros). */
UNIT_TEST(symtab_id_text_kept_when_not_canonical)
{
	struct cg_symtab *st = symtab_create();
	uint32_t a = symtab_define_key_method(st, 0x10, "0x10", "a/A", "f", "()V", "", 0);
	uint32_t b = symtab_define_key_method(st, 0x14, "0x0014", "a/A", "g", "()V", "", 0);
	uint32_t c = symtab_define_key_method(st, 0x18, "0X18", "a/A", "h", "()V", "", 0);
	uint32_t d = symtab_define_key_method(st, 0x1c, "28", "a/A", "i", "()V", "", 0);
	uint32_t z = symtab_define_key_method(st, 0x0, "0x0", "a/A", "j", "()V", "", 0);
	uint32_t u = symtab_define_key_method(st, 0xab0, "0xAB0", "a/A", "k", "()V", "", 0);
	struct cg_method_info tmp;

	CHECK(symtab_method_peek(st, a, &tmp)->id_text == NULL);
	CHECK_EQ_STR(symtab_method_peek(st, b, &tmp)->id_text, "0x0014");
	CHECK_EQ_STR(symtab_method_peek(st, c, &tmp)->id_text, "0X18");
	CHECK_EQ_STR(symtab_method_peek(st, d, &tmp)->id_text, "28");
	CHECK(symtab_method_peek(st, z, &tmp)->id_text == NULL);
	CHECK_EQ_STR(symtab_method_peek(st, u, &tmp)->id_text, "0xAB0");
	CHECK_EQ_U64(symtab_method(st, a)->id, 0x10);
	symtab_free(st);
	return 0;
}

UNIT_TEST(symtab_full_ids)
{
	struct cg_symtab *st = symtab_create();
	uint32_t a = symtab_define_method_id(st, 0, 0x7f001234abcdULL, "a/A", "f", "()V", "", 0);
	uint32_t u = symtab_method_index(st, 1);
	const struct cg_method_info *m;

	/* A redefinition without an id keeps the full id. */
	symtab_define_method(st, 0, "a/A", "g", "()V", "", 0);
	m = symtab_method(st, a);
	CHECK_EQ_U64(m->id, 0x7f001234abcdULL);
	CHECK_EQ_STR(m->name, "g");
	symtab_set_id(st, u, 0x7f0000000010ULL);
	m = symtab_method(st, u);
	CHECK_EQ_U64(m->id, 0x7f0000000010ULL);
	CHECK_EQ_STR(m->id_text, "0x7f0000000010");
	CHECK_EQ_STR(m->name, "0x7f0000000010");
	CHECK_EQ_U64(symtab_find_method(st, 1), u);
	symtab_free(st);
	return 0;
}

UNIT_TEST(symtab_overloads_count_every_method)
{
	struct cg_symtab *st = symtab_create();
	uint32_t f1 = symtab_define_method(st, 0x4, "com/ex/A", "f", "(I)V", "", 0);
	uint32_t g = symtab_define_method(st, 0x8, "com/ex/A", "g", "()V", "", 0);
	uint32_t f2 = symtab_define_method(st, 0xc, "com.ex.A", "f", "()V", "", 0);
	uint32_t h = symtab_define_method(st, 0x10, "com/ex/B", "f", "()V", "", 0);
	uint32_t u = symtab_method_index(st, 0x14);
	unsigned char *over;

	/* Only f1 has been asked for; f2, never built, still makes it an
	 * overload. */
	symtab_method(st, f1);
	over = javaname_overloads(st);
	CHECK_EQ_U64(over[f1], 1);
	CHECK_EQ_U64(over[f2], 1);
	CHECK_EQ_U64(over[g], 0);
	CHECK_EQ_U64(over[h], 0);
	CHECK_EQ_U64(over[u], 0);
	free(over);
	symtab_free(st);
	return 0;
}

/* Display names, as --focus, --hide and --frames match them: class, a dot
 * and the name, every slash of both shown as a dot, appended after what
 * the buffer held (its slashes untouched). */
UNIT_TEST(symtab_display_names)
{
	static const struct { const char *klass, *name, *want; } cases[] = {
		{ "com/ex/Foo$Bar", "run", "x/y:com.ex.Foo$Bar.run" },
		{ "com.ex.Dotted", "m", "x/y:com.ex.Dotted.m" },
		{ "/a//b/", "", "x/y:.a..b." },
		{ "a", "c/d", "x/y:a.c.d" },
		{ "", "", "x/y:" },
		{ "", "n", "x/y:.n" },
	};
	struct strbuf sb;
	size_t i;

	strbuf_init(&sb);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cg_method_info m;

		memset(&m, 0, sizeof(m));
		m.klass = cases[i].klass;
		m.name = cases[i].name;
		m.sig = m.source = "";
		strbuf_reset(&sb);
		strbuf_puts(&sb, "x/y:");
		symtab_put_display(&sb, &m);
		CHECK_EQ_STR(sb.data, cases[i].want);
	}
	strbuf_free(&sb);
	/* From an empty buffer, nothing to write. */
	strbuf_init(&sb);
	{
		struct cg_method_info m;

		memset(&m, 0, sizeof(m));
		m.klass = m.name = m.sig = m.source = "";
		symtab_put_display(&sb, &m);
		CHECK(sb.len == 0);
	}
	strbuf_free(&sb);
	return 0;
}

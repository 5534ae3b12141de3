/* test_javaname.c - display forms of Java names and descriptors. */
#include "render/javaname.h"
#include "unit.h"

static const char *sig(struct strbuf *sb, const char *s, unsigned flags, int *rc)
{
	strbuf_reset(sb);
	*rc = javaname_put_sig(sb, s, flags);
	return sb->len ? sb->data : "";
}

UNIT_TEST(javaname_sig_decodes)
{
	struct strbuf sb;
	int rc;

	strbuf_init(&sb);
	CHECK_EQ_STR(sig(&sb, "(Ljava/lang/String;I)V", 0, &rc), "(String, int)");
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_STR(sig(&sb, "(Ljava/lang/String;I)V", JN_RETURN, &rc), "(String, int): void");
	CHECK_EQ_STR(sig(&sb, "()V", 0, &rc), "()");
	CHECK_EQ_STR(sig(&sb, "([I[[Ljava/lang/Object;JZBCSFD)[B", JN_RETURN, &rc),
		     "(int[], Object[][], long, boolean, byte, char, short, float, double): byte[]");
	CHECK_EQ_U64(rc, 0);
	CHECK_EQ_STR(sig(&sb, "(Landroid/view/View$OnClickListener;)Ljava/util/List;", JN_RETURN, &rc),
		     "(View$OnClickListener): List");
	CHECK_EQ_STR(sig(&sb, "(Ljava.lang.String;)V", 0, &rc), "(String)");
	CHECK_EQ_STR(sig(&sb, "", 0, &rc), "");
	CHECK_EQ_U64(rc, 0);
	strbuf_free(&sb);
	return 0;
}

UNIT_TEST(javaname_sig_invalid_passes_through)
{
	static const char *const bad[] = {
		"V", "(", "(I", "(I)", "(V)V", "(Ljava/lang/String)V", "(L;)V", "(I)VV", "(Q)V",
		"([)V", "(I)[V", "(Ljava/lang/;)V", "<init>",
	};
	struct strbuf sb;
	size_t i;
	int rc;

	strbuf_init(&sb);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ_STR(sig(&sb, bad[i], JN_RETURN, &rc), bad[i]);
		CHECK_EQ_U64((uint64_t)(int64_t)rc, (uint64_t)(int64_t)-1);
	}
	strbuf_free(&sb);
	return 0;
}

UNIT_TEST(javaname_type)
{
	struct strbuf sb;

	strbuf_init(&sb);
	CHECK_EQ_U64(javaname_put_type(&sb, "[I", 0), 2);
	CHECK_EQ_STR(sb.data, "int[]");
	strbuf_reset(&sb);
	CHECK_EQ_U64(javaname_put_type(&sb, "Ljava/lang/String;I", 0), 18);
	CHECK_EQ_STR(sb.data, "String");
	strbuf_reset(&sb);
	CHECK_EQ_U64(javaname_put_type(&sb, "V", 0), 0);
	CHECK_EQ_U64(sb.len, 0);
	CHECK_EQ_U64(javaname_put_type(&sb, "V", 1), 1);
	CHECK_EQ_STR(sb.data, "void");
	strbuf_free(&sb);
	return 0;
}

static const char *cls(struct strbuf *sb, const char *k, unsigned flags)
{
	strbuf_reset(sb);
	javaname_put_class(sb, k, flags);
	return sb->len ? sb->data : "";
}

UNIT_TEST(javaname_class_and_short_names)
{
	struct strbuf sb;

	strbuf_init(&sb);
	CHECK_EQ_STR(cls(&sb, "com/example/app/Foo", 0), "com.example.app.Foo");
	CHECK_EQ_STR(cls(&sb, "com/example/app/Foo", JN_SHORT), "c.e.a.Foo");
	CHECK_EQ_STR(cls(&sb, "com.example.app.Foo$Bar", JN_SHORT), "c.e.a.Foo$Bar");
	CHECK_EQ_STR(cls(&sb, "Foo", JN_SHORT), "Foo");
	CHECK_EQ_STR(cls(&sb, "", JN_SHORT), "");
	CHECK_EQ_STR(cls(&sb, "a//B", JN_SHORT), "a..B");
	/* A multi-byte first character is kept whole; a stray byte counts as one. */
	CHECK_EQ_STR(cls(&sb, "\xc3\xa9t\xc3\xa9/\xff\xfe/K", JN_SHORT), "\xc3\xa9.\xff.K");
	strbuf_free(&sb);
	return 0;
}

UNIT_TEST(javaname_method)
{
	struct cg_method_info m;
	struct strbuf sb;

	memset(&m, 0, sizeof(m));
	m.klass = "com/example/app/Foo";
	m.name = "<init>";
	m.sig = "(Ljava/lang/String;I)V";
	m.source = "";
	strbuf_init(&sb);
	javaname_put_method(&sb, &m, 0);
	CHECK_EQ_STR(sb.data, "com.example.app.Foo.<init>");
	strbuf_reset(&sb);
	javaname_put_method(&sb, &m, JN_SIG | JN_SHORT);
	CHECK_EQ_STR(sb.data, "c.e.a.Foo.<init>(String, int)");
	strbuf_reset(&sb);
	m.name = "";
	m.sig = "";
	javaname_put_method(&sb, &m, JN_SIG);
	CHECK_EQ_STR(sb.data, "com.example.app.Foo");
	strbuf_free(&sb);
	return 0;
}

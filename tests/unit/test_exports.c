/* Exporter building blocks: the protocol buffer encodings against the
 * examples of the protobuf encoding guide (150 as field 1 is 08 96 01; a
 * string "testing" as field 2 is 12 07 74 65 73 74 69 6e 67; packed 3, 270,
 * 86942 as field 4 is 22 06 03 8e 02 9e a7 05), and the distinct export
 * names of overloaded methods. */
#include <string.h>

#include "render/export/exportname.h"
#include "render/javaname.h"
#include "render/export/protobuf.h"
#include "util/strbuf.h"
#include "read/symtab.h"
#include "unit.h"

static int bytes_eq(const struct strbuf *sb, const unsigned char *want, size_t n)
{
	return sb->len == n && memcmp(sb->data, want, n) == 0;
}

UNIT_TEST(protobuf_encoding_guide_examples)
{
	static const unsigned char v150[] = { 0x08, 0x96, 0x01 };
	static const unsigned char str[] = { 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g' };
	static const unsigned char packed[] = { 0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05 };
	static const unsigned char big[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint64_t vals[] = { 3, 270, 86942 };
	struct strbuf sb;

	strbuf_init(&sb);
	pb_uint(&sb, 1, 150, 0);
	CHECK(bytes_eq(&sb, v150, sizeof(v150)));
	strbuf_reset(&sb);
	pb_uint(&sb, 1, 0, 0);
	CHECK_EQ_U64(sb.len, 0);
	pb_uint(&sb, 1, 0, 1);
	CHECK_EQ_U64(sb.len, 2);
	strbuf_reset(&sb);
	pb_bytes(&sb, 2, "testing", 7);
	CHECK(bytes_eq(&sb, str, sizeof(str)));
	strbuf_reset(&sb);
	pb_packed(&sb, 4, vals, 3);
	CHECK(bytes_eq(&sb, packed, sizeof(packed)));
	strbuf_reset(&sb);
	pb_packed(&sb, 4, vals, 0);
	CHECK_EQ_U64(sb.len, 0);
	pb_varint(&sb, UINT64_MAX);
	CHECK(bytes_eq(&sb, big, sizeof(big)));
	strbuf_free(&sb);
	return 0;
}

UNIT_TEST(export_names_distinct)
{
	struct cg_symtab *st = symtab_create();
	struct cg_exportnames *x;
	uint32_t a, b, c, d, e;

	a = symtab_define_method(st, 0x4, "com/ex/A", "f", "(I)V", "A.java", 0);
	b = symtab_define_method(st, 0x8, "com/ex/A", "f", "(Ljava/lang/String;)V", "A.java", 0);
	c = symtab_define_method(st, 0xc, "com/ex/A", "g", "()V", "A.java", 0);
	d = symtab_define_method(st, 0x10, "com/ex/B", "h", "()V", "B.java", 0);
	e = symtab_define_method(st, 0x14, "com.ex.B", "h", "()V", "B.java", 0);
	x = exportname_build(st, NULL, 0);
	CHECK_EQ_STR(exportname_get(x, a), "com.ex.A.f(int)");
	CHECK_EQ_STR(exportname_get(x, b), "com.ex.A.f(String)");
	CHECK_EQ_STR(exportname_get(x, c), "com.ex.A.g");
	CHECK_EQ_STR(exportname_get(x, d), "com.ex.B.h() [0x10]");
	CHECK_EQ_STR(exportname_get(x, e), "com.ex.B.h() [0x14]");
	exportname_free(x);
	x = exportname_build(st, NULL, JN_SIG | JN_SHORT);
	CHECK_EQ_STR(exportname_get(x, c), "c.e.A.g()");
	exportname_free(x);
	symtab_free(st);
	return 0;
}

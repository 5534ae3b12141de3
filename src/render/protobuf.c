/* protobuf.c - protocol buffer wire encoding (see protobuf.h). */
#include "render/protobuf.h"

void pb_varint(struct strbuf *sb, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	do {
		b[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	strbuf_add(sb, b, n);
}

void pb_uint(struct strbuf *sb, uint32_t field, uint64_t v, int always)
{
	if (!v && !always)
		return;
	pb_varint(sb, (uint64_t)field << 3);
	pb_varint(sb, v);
}

void pb_bytes(struct strbuf *sb, uint32_t field, const void *p, size_t n)
{
	pb_varint(sb, (uint64_t)field << 3 | 2);
	pb_varint(sb, n);
	if (n)
		strbuf_add(sb, p, n);
}

void pb_packed(struct strbuf *sb, uint32_t field, const uint64_t *v, size_t n)
{
	size_t i, len = 0;

	if (!n)
		return;
	for (i = 0; i < n; i++) {
		uint64_t x = v[i];

		do {
			len++;
			x >>= 7;
		} while (x);
	}
	pb_varint(sb, (uint64_t)field << 3 | 2);
	pb_varint(sb, len);
	for (i = 0; i < n; i++)
		pb_varint(sb, v[i]);
}

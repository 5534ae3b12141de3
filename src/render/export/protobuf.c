/* protobuf.c - protocol buffer wire encoding (see protobuf.h). */
#include "render/export/protobuf.h"

/* v's varint at p (room for 10 bytes); returns the bytes written. */
static size_t put_varint(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

void pb_varint(struct strbuf *sb, uint64_t v)
{
	strbuf_grow(sb, 10);
	sb->len += put_varint((unsigned char *)sb->data + sb->len, v);
	sb->data[sb->len] = '\0';
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
	unsigned char *p;

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
	/* The values' bytes at once: len of them, counted above. */
	strbuf_grow(sb, len);
	p = (unsigned char *)sb->data + sb->len;
	for (i = 0; i < n; i++)
		p += put_varint(p, v[i]);
	sb->len += len;
	sb->data[sb->len] = '\0';
}

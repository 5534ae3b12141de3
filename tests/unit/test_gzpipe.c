/* The gzip stream fed piece by piece (gzpipe.h): with its thread or
 * without, the same bytes, which zlib inflates back to every byte handed
 * over, in order; a buffer shorter than a piece waits for more. */
#include <stdlib.h>
#include <zlib.h>

#include "render/export/gzpipe.h"
#include "unit.h"

/* Byte k of the input: compressible, but not trivially. */
static char byte_at(size_t k)
{
	return (char)("abcdefgh"[k % 8] + (k * 2654435761u >> 29));
}

/* Feed `total` bytes through a pipe (threaded or not) in appends of
 * varying size, pumping after each; the compressed stream in *out. */
static int feed(struct strbuf *out, size_t total, int threaded)
{
	struct cg_gzpipe *g = gzpipe_create(out, threaded);
	struct strbuf in;
	struct cg_error err = { { 0 }, 0, 0 };
	size_t at = 0, step = 1;
	char buf[70000];

	strbuf_init(&in);
	while (at < total) {
		size_t n = step < total - at ? step : total - at, i;

		for (i = 0; i < n; i++)
			buf[i] = byte_at(at + i);
		strbuf_add(&in, buf, n);
		at += n;
		step = step * 7 % 69997 + 1;
		gzpipe_pump(g, &in, 0);
	}
	gzpipe_pump(g, &in, 1);
	strbuf_free(&in);
	return gzpipe_end(g, &err);
}

/* 1 when the gzip stream in s inflates to exactly total bytes of byte_at. */
static int inflates_to(const struct strbuf *s, size_t total)
{
	z_stream z;
	unsigned char buf[65536];
	size_t at = 0, i;
	int rc, ok = 1;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)s->data;
	z.avail_in = (uInt)s->len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		rc = inflate(&z, Z_NO_FLUSH);
		for (i = 0; i < sizeof(buf) - z.avail_out; i++, at++)
			ok &= buf[i] == (unsigned char)byte_at(at);
	} while (rc == Z_OK);
	inflateEnd(&z);
	return ok && rc == Z_STREAM_END && at == total && z.avail_in == 0;
}

UNIT_TEST(gzpipe_thread_same_bytes)
{
	/* Several pieces, and a last one shorter than a piece. */
	size_t total = 5 * GZPIPE_PIECE + 12345;
	struct strbuf a, b;

	strbuf_init(&a);
	strbuf_init(&b);
	CHECK_EQ_U64(feed(&a, total, 0), 0);
	CHECK_EQ_U64(feed(&b, total, 1), 0);
	CHECK(a.len > 0);
	CHECK_EQ_U64(a.len, b.len);
	CHECK(memcmp(a.data, b.data, a.len) == 0);
	CHECK(inflates_to(&a, total));
	CHECK(inflates_to(&b, total));
	strbuf_free(&a);
	strbuf_free(&b);
	return 0;
}

UNIT_TEST(gzpipe_empty_and_small)
{
	struct strbuf a, b;

	strbuf_init(&a);
	strbuf_init(&b);
	CHECK_EQ_U64(feed(&a, 0, 1), 0);
	CHECK(inflates_to(&a, 0));
	CHECK_EQ_U64(feed(&b, 100, 1), 0);
	CHECK(inflates_to(&b, 100));
	strbuf_free(&a);
	strbuf_free(&b);
	return 0;
}

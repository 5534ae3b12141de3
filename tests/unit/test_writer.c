/* The sink run on a thread of its own (writer.h): every byte reaches the
 * sink behind it, in order, through slots and past them (chunks larger than
 * a slot); once the sink refuses a chunk it is called no more and the
 * writer says so. */
#include <stdlib.h>

#include "util/writer.h"
#include "unit.h"

struct sunk {
	unsigned char *p;
	size_t n, cap;
	size_t calls;
	size_t fail_at;   /* the call (1-based) that fails; 0: none */
	size_t after;     /* calls made after the failing one */
};

static int record(void *ctx, const void *p, size_t n)
{
	struct sunk *s = ctx;

	s->calls++;
	if (s->fail_at && s->calls > s->fail_at) {
		s->after++;
		return -1;
	}
	if (s->fail_at && s->calls == s->fail_at)
		return -1;
	if (s->n + n > s->cap)
		return -1;
	memcpy(s->p + s->n, p, n);
	s->n += n;
	return 0;
}

/* Chunk i's size: mostly about a spill's, now and then one byte, and every
 * ninth larger than a slot holds. */
static size_t chunk_size(size_t i)
{
	if (i % 9 == 8)
		return 4 * STRBUF_SPILL + 1 + i;
	if (i % 5 == 4)
		return 1;
	return STRBUF_SPILL + i * 37 % 4096;
}

static unsigned char byte_at(size_t k)
{
	return (unsigned char)(k * 2654435761u >> 13);
}

/* The bytes of nchunk chunks (returned, NULL on failure), s ready to take
 * them (failing at call fail_at, 0: never), and a writer onto s in *w. */
static unsigned char *setup(struct sunk *s, size_t nchunk, size_t fail_at, struct cg_writer **w)
{
	size_t total = 0, i, k;
	unsigned char *src;

	for (i = 0; i < nchunk; i++)
		total += chunk_size(i);
	src = malloc(total);
	s->p = malloc(total);
	s->cap = total;
	s->fail_at = fail_at;
	*w = src && s->p ? writer_create(record, s) : NULL;
	if (!*w) {
		free(src);
		free(s->p);
		return NULL;
	}
	for (k = 0; k < total; k++)
		src[k] = byte_at(k);
	return src;
}

UNIT_TEST(writer_in_order)
{
	enum { NCHUNK = 30 };
	struct sunk s = { 0 };
	struct cg_writer *w;
	unsigned char *src = setup(&s, NCHUNK, 0, &w);
	size_t total = s.cap, i, k, at = 0, bad = 0;

	CHECK(src != NULL);
	for (i = 0; i < NCHUNK; i++) {
		CHECK_EQ_U64(writer_sink(w, src + at, chunk_size(i)), 0);
		at += chunk_size(i);
	}
	CHECK_EQ_U64(writer_close(w), 0);
	CHECK_EQ_U64(s.n, total);
	CHECK_EQ_U64(s.calls, NCHUNK);
	for (k = 0; k < total; k++)
		bad += s.p[k] != src[k];
	CHECK_EQ_U64(bad, 0);
	free(src);
	free(s.p);
	return 0;
}

UNIT_TEST(writer_refused)
{
	enum { NCHUNK = 24, FAIL = 7 };
	struct sunk s = { 0 };
	struct cg_writer *w;
	unsigned char *src = setup(&s, NCHUNK, FAIL, &w);
	size_t i, k, at = 0, bad = 0, refused = 0;

	CHECK(src != NULL);
	for (i = 0; i < NCHUNK; i++) {
		refused += writer_sink(w, src + at, chunk_size(i)) != 0;
		at += chunk_size(i);
	}
	CHECK_EQ_U64(writer_close(w), (uint64_t)-1);
	/* The sink saw the chunks before the one it refused, in order, and
	 * nothing after it; the caller heard of it before the end. */
	CHECK_EQ_U64(s.calls, FAIL);
	CHECK_EQ_U64(s.after, 0);
	for (i = 0, at = 0; i + 1 < FAIL; i++)
		at += chunk_size(i);
	CHECK_EQ_U64(s.n, at);
	for (k = 0; k < s.n; k++)
		bad += s.p[k] != src[k];
	CHECK_EQ_U64(bad, 0);
	CHECK(refused > 0);
	free(src);
	free(s.p);
	return 0;
}

UNIT_TEST(writer_close_null)
{
	CHECK_EQ_U64(writer_close(NULL), 0);
	return 0;
}

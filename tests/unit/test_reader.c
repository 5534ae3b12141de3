/* Reader tests: each variant written byte by byte here, read back through
 * source_open_mem / trace_open / trace_next. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "model/profile.h"
#include "read/source.h"
#include "util/strbuf.h"
#include "read/trace.h"
#include "bytes.h"
#include "unit.h"

/* 32-byte header: magic, version, offset 32, start, record size (v >= 3). */
static void header(struct strbuf *b, unsigned version, unsigned recsize)
{
	size_t start = b->len;

	strbuf_puts(b, "SLOW");
	put16(b, version);
	put16(b, 32);
	put64(b, 1000);
	put16(b, version >= 3 ? recsize : 0);
	while (b->len - start < 32)
		strbuf_putc(b, '\0');
}

static const char KEY_METHODS[] =
	"*methods\n"
	"0x10\tcom/ex/Foo\ta\t()V\tFoo.java\t12\n"
	"0\tcom.ex.Zero\tz\t(I)V\tZero.java\n"
	"*end\n";

static void key(struct strbuf *b, int version, const char *clock)
{
	strbuf_printf(b, "*version\n%d\ndata-file-overflow=false\nclock=%s\n"
			 "elapsed-time-usec=99\nnum-method-calls=2\nvm=art\npid=77\n"
			 "*threads\n1\tmain\n7\tAsyncTask #1\n",
		      version, clock);
	strbuf_puts(b, KEY_METHODS);
}

struct readout {
	struct cg_record r[16];
	size_t n;
	int rc;
	struct cg_error err;
	struct cg_trace_info info;
	char name0[64];
};

/* Read the whole trace in bytes; rc is 0 when it opened and read to the end. */
static void read_all(const struct strbuf *b, struct readout *o)
{
	struct cg_source *src = source_open_mem(b->data, b->len);
	struct cg_trace *t;
	size_t n;
	int rc;

	memset(o, 0, sizeof(*o));
	t = trace_open(src, &o->err);
	if (!t) {
		o->rc = -1;
		source_free(src);
		return;
	}
	do {
		rc = trace_next(t, o->r + o->n, 16 - o->n, &n, &o->err);
		o->n += n;
	} while (rc == 1 && o->n < 16);
	o->rc = rc < 0 ? -1 : 0;
	o->info = *trace_info(t);
	{
		int64_t i = symtab_find_method(trace_symtab(t), 0x10);

		if (i >= 0)
			snprintf(o->name0, sizeof(o->name0), "%s",
				 symtab_method(trace_symtab(t), (uint32_t)i)->name);
	}
	trace_free(t);
	source_free(src);
}

UNIT_TEST(reader_v1_thread_cpu)
{
	struct strbuf b;
	struct readout o;

	strbuf_init(&b);
	key(&b, 1, "thread-cpu");
	header(&b, 1, 0);
	/* u1 thread, u4 method|action, u4 time */
	strbuf_putc(&b, 1), put32(&b, 0x10 | 0), put32(&b, 5);
	strbuf_putc(&b, 1), put32(&b, 0x10 | 1), put32(&b, 45);
	read_all(&b, &o);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 2);
	CHECK_EQ_U64(o.info.record_size, 9);
	CHECK_EQ_U64(o.info.clock, CG_CLOCK_CPU);
	CHECK_EQ_U64(o.r[1].t_cpu, 45);
	CHECK_EQ_U64(o.r[1].t_wall, 45);
	CHECK_EQ_U64(o.r[1].action, CG_EXIT);
	CHECK_EQ_U64(o.r[0].method, 0x10);
	CHECK_EQ_STR(o.name0, "a");
	strbuf_free(&b);
	return 0;
}

UNIT_TEST(reader_v2_wall)
{
	struct strbuf b;
	struct readout o;

	strbuf_init(&b);
	key(&b, 2, "wall");
	header(&b, 2, 0);
	put16(&b, 7), put32(&b, 0x0 | 0), put32(&b, 100);
	put16(&b, 7), put32(&b, 0x0 | 2), put32(&b, 130);
	read_all(&b, &o);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 2);
	CHECK_EQ_U64(o.info.record_size, 10);
	CHECK_EQ_U64(o.r[1].tid, 7);
	CHECK_EQ_U64(o.r[1].action, CG_UNWIND);
	CHECK_EQ_U64(o.r[1].t_wall, 130);
	CHECK_EQ_U64(o.info.pid, 77);
	strbuf_free(&b);
	return 0;
}

UNIT_TEST(reader_v3_dual_and_extra_bytes)
{
	struct strbuf b;
	struct readout o;

	strbuf_init(&b);
	key(&b, 3, "dual");
	header(&b, 3, 18); /* 4 extra bytes per record are skipped */
	put16(&b, 1), put32(&b, 0x10), put32(&b, 11), put32(&b, 22), put32(&b, 0xdeadbeef);
	put16(&b, 1), put32(&b, 0x11), put32(&b, 33), put32(&b, 44), put32(&b, 0xdeadbeef);
	read_all(&b, &o);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 2);
	CHECK_EQ_U64(o.r[0].t_cpu, 11);
	CHECK_EQ_U64(o.r[0].t_wall, 22);
	CHECK_EQ_U64(o.r[1].t_cpu, 33);
	CHECK_EQ_U64(o.r[1].t_wall, 44);
	CHECK_EQ_U64(o.info.version, 3);
	CHECK_EQ_U64(o.info.clock, CG_CLOCK_DUAL);
	strbuf_free(&b);
	return 0;
}

UNIT_TEST(reader_short_final_record_is_truncation)
{
	struct strbuf b;
	struct readout o;

	strbuf_init(&b);
	key(&b, 3, "dual");
	header(&b, 3, 14);
	put16(&b, 1), put32(&b, 0x10), put32(&b, 11), put32(&b, 22);
	put16(&b, 1), put32(&b, 0x11); /* 6 of 14 bytes */
	read_all(&b, &o);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 1);
	CHECK(o.info.truncated);
	strbuf_free(&b);
	return 0;
}

static void stream_method(struct strbuf *b, const char *line)
{
	put16(b, 0);
	strbuf_putc(b, 1);
	put16(b, (unsigned)strlen(line));
	strbuf_puts(b, line);
}

UNIT_TEST(reader_streaming)
{
	struct strbuf b;
	struct readout o;
	const char *summary = "*version\n3\nclock=dual\nvm=art\n*threads\n3\tlate\n*methods\n*end\n";

	strbuf_init(&b);
	header(&b, 0xf3, 14);
	stream_method(&b, "0x10\tcom.ex.Foo\ta\t()V\tFoo.java\n");
	put16(&b, 0), strbuf_putc(&b, 2), put16(&b, 3), put16(&b, 4), strbuf_puts(&b, "main");
	put16(&b, 3), put32(&b, 0x10), put32(&b, 1), put32(&b, 2);
	stream_method(&b, "0x14\tcom.ex.Foo\tb\t()V\tFoo.java\n");
	put16(&b, 3), put32(&b, 0x15), put32(&b, 3), put32(&b, 4);
	put16(&b, 0), strbuf_putc(&b, 3), put32(&b, (uint32_t)strlen(summary)), strbuf_puts(&b, summary);
	read_all(&b, &o);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 2);
	CHECK_EQ_U64(o.info.layout, CG_LAYOUT_STREAMING);
	CHECK(o.info.has_summary);
	CHECK(!o.info.truncated);
	CHECK_EQ_U64(o.r[1].method, 0x14);
	CHECK_EQ_U64(o.r[1].action, CG_EXIT);
	CHECK_EQ_U64(o.r[1].t_wall, 4);
	CHECK_EQ_STR(o.name0, "a");
	strbuf_free(&b);
	return 0;
}

UNIT_TEST(reader_streaming_without_summary)
{
	struct strbuf b;
	struct readout o;

	strbuf_init(&b);
	header(&b, 0xf3, 14);
	put16(&b, 3), put32(&b, 0x10), put32(&b, 1), put32(&b, 2);
	put16(&b, 3), put32(&b, 0x11); /* killed mid-record */
	read_all(&b, &o);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 1);
	CHECK(o.info.truncated);
	CHECK_EQ_U64(o.info.clock, CG_CLOCK_DUAL);
	strbuf_free(&b);
	return 0;
}

UNIT_TEST(reader_gzip)
{
	struct strbuf b, gz;
	struct readout o;
	z_stream z;
	unsigned char out[4096];

	strbuf_init(&b);
	strbuf_init(&gz);
	key(&b, 2, "wall");
	header(&b, 2, 0);
	put16(&b, 1), put32(&b, 0x10), put32(&b, 100);
	memset(&z, 0, sizeof(z));
	CHECK(deflateInit2(&z, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	z.next_in = (unsigned char *)b.data;
	z.avail_in = (uInt)b.len;
	z.next_out = out;
	z.avail_out = sizeof(out);
	CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
	strbuf_add(&gz, out, sizeof(out) - z.avail_out);
	deflateEnd(&z);
	read_all(&gz, &o);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 1);
	CHECK(o.info.gzip);
	/* A truncated gzip stream is an error with an offset. */
	gz.len -= 10;
	read_all(&gz, &o);
	CHECK(o.rc == -1);
	CHECK(strstr(o.err.msg, "gzip") != NULL);
	strbuf_free(&b);
	strbuf_free(&gz);
	return 0;
}

UNIT_TEST(reader_split_pair)
{
	char dir[] = "/tmp/cgsplitXXXXXX", path[256];
	struct strbuf k, d;
	struct cg_error err;
	struct cg_source *src;
	struct cg_trace *t;
	struct cg_record r[4];
	size_t n;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	strbuf_init(&k);
	strbuf_init(&d);
	key(&k, 2, "thread-cpu");
	header(&d, 2, 0);
	put16(&d, 1), put32(&d, 0x10), put32(&d, 9);
	snprintf(path, sizeof(path), "%s/t.key", dir);
	f = fopen(path, "wb");
	fwrite(k.data, 1, k.len, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/t.data", dir);
	f = fopen(path, "wb");
	fwrite(d.data, 1, d.len, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/t", dir);
	src = source_open(path, &err);
	CHECK(src != NULL);
	t = trace_open(src, &err);
	CHECK(t != NULL);
	CHECK(trace_next(t, r, 4, &n, &err) == 0);
	CHECK_EQ_U64(n, 1);
	CHECK_EQ_U64(trace_info(t)->layout, CG_LAYOUT_SPLIT);
	trace_free(t);
	source_free(src);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.key", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.data", dir);
	unlink(path);
	rmdir(dir);
	strbuf_free(&k);
	strbuf_free(&d);
	return 0;
}

static int open_error(const char *bytes, size_t len, const char *want, uint64_t offset)
{
	struct cg_source *src = source_open_mem(bytes, len);
	struct cg_error err;
	struct cg_trace *t = trace_open(src, &err);
	int bad = t != NULL || strstr(err.msg, want) == NULL || !err.has_offset || err.offset != offset;

	if (bad)
		fprintf(stderr, "  got \"%s\" at %llu, want \"%s\" at %llu\n", t ? "(opened)" : err.msg,
			(unsigned long long)err.offset, want, (unsigned long long)offset);
	trace_free(t);
	source_free(src);
	return bad;
}

UNIT_TEST(reader_rejects_bad_headers)
{
	struct strbuf b;
	size_t keylen;

	/* A V2 header cut short; a long-running-method dump (0xF6), refused. */
	strbuf_init(&b);
	header(&b, 0xf5, 0);
	CHECK(open_error(b.data, 20, "truncated V2 header (20 of 32 bytes)", 0) == 0);
	strbuf_reset(&b);
	header(&b, 0xf6, 0);
	CHECK(open_error(b.data, b.len, "long-running-method dump", 4) == 0);
	/* Not a trace at all. */
	CHECK(open_error("hello world\n", 12, "not an Android method trace", 0) == 0);
	/* Record size 0 after a valid key (corpus: a text-mangled file). */
	strbuf_reset(&b);
	key(&b, 3, "dual");
	keylen = b.len;
	header(&b, 3, 0);
	CHECK(open_error(b.data, b.len, "record size 0", keylen + 16) == 0);
	/* Wrong magic after the key. */
	b.data[keylen] = 'X';
	CHECK(open_error(b.data, b.len, "bad magic", keylen) == 0);
	/* Header version disagreeing with *version. */
	strbuf_reset(&b);
	key(&b, 3, "dual");
	header(&b, 2, 14);
	CHECK(open_error(b.data, b.len, "does not match", keylen + 4) == 0);
	/* Unknown *version. */
	CHECK(open_error("*version\n9\n*end\n", 16, "unknown trace version 9", 9) == 0);
	/* Key section without *end. */
	CHECK(open_error("*version\n3\nclock=dual\n", 22, "no *end", 22) == 0);
	strbuf_free(&b);
	return 0;
}

/* The ids keep the key's spelling ("0" for id 0 in ART traces). */
UNIT_TEST(reader_id_text)
{
	struct strbuf b;
	struct cg_source *src;
	struct cg_trace *t;
	struct cg_error err;
	int64_t i;

	strbuf_init(&b);
	key(&b, 2, "wall");
	header(&b, 2, 0);
	src = source_open_mem(b.data, b.len);
	t = trace_open(src, &err);
	CHECK(t != NULL);
	i = symtab_find_method(trace_symtab(t), 0);
	CHECK(i >= 0);
	CHECK_EQ_STR(symtab_method(trace_symtab(t), (uint32_t)i)->id_text, "0");
	CHECK_EQ_STR(symtab_method(trace_symtab(t), (uint32_t)i)->source, "Zero.java");
	trace_free(t);
	source_free(src);
	strbuf_free(&b);
	return 0;
}

/* A key whose *methods section is `methods`, opened; NULL with err filled
 * when it does not open. */
static struct cg_trace *open_key(const char *methods, struct strbuf *b, struct cg_source **src,
				 struct cg_error *err, size_t methods_len)
{
	strbuf_init(b);
	strbuf_puts(b, "*version\n3\nclock=dual\n*threads\n1\tmain\n*methods\n");
	strbuf_add(b, methods, methods_len);
	strbuf_puts(b, "*end\n");
	header(b, 3, 14);
	*src = source_open_mem(b->data, b->len);
	return trace_open(*src, err);
}

/* The spellings of ids real keys and hand-made ones use, each as strtoull
 * in base 16 reads it after one optional 0x, the two action bits cleared;
 * a NUL byte in a line shows as '?'. */
UNIT_TEST(reader_key_id_spellings)
{
	static const char methods[] =
		"0x1F\tA\ta\t()V\tA.java\n"
		"1f4\tB\tb\t()V\tB.java\n"
		"0X2a8\tC\tc\t()V\tC.java\n"
		"0x0x3c\tD\td\t()V\tD.java\n"
		"000000040\tE\te\t()V\tE.java\n"
		"ffffFFFF\tF\tf\t()V\tF.java\n"
		"0x50\tG\0H\tg\t()V\tG.java\n";
	static const struct { uint32_t id; const char *klass; } want[] = {
		{ 0x1c, "A" }, { 0x1f4, "B" }, { 0x2a8, "C" }, { 0x3c, "D" },
		{ 0x40, "E" }, { 0xfffffffc, "F" }, { 0x50, "G?H" },
	};
	struct strbuf b;
	struct cg_source *src;
	struct cg_error err;
	struct cg_trace *t = open_key(methods, &b, &src, &err, sizeof(methods) - 1);
	size_t k;

	CHECK(t != NULL);
	CHECK(symtab_method_count(trace_symtab(t)) == 7);
	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		int64_t i = symtab_find_method(trace_symtab(t), want[k].id);

		CHECK(i >= 0);
		CHECK_EQ_STR(symtab_method(trace_symtab(t), (uint32_t)i)->klass, want[k].klass);
	}
	trace_free(t);
	source_free(src);
	strbuf_free(&b);
	return 0;
}

/* Ids that are no 32-bit hex number stop the key with one message. */
UNIT_TEST(reader_key_bad_ids)
{
	static const char *const bad[] = {
		"0x100000000\tX\tx\t()V\tX.java\n", "0xg\tX\tx\t()V\tX.java\n",
		"0x\tX\tx\t()V\tX.java\n", "12345678g\tX\tx\t()V\tX.java\n",
		"-1\tX\tx\t()V\tX.java\n", " 5\tX\tx\t()V\tX.java\n", "1 2\tX\tx\t()V\tX.java\n",
		NULL,
	};
	size_t k;

	for (k = 0; bad[k]; k++) {
		struct strbuf b;
		struct cg_source *src;
		struct cg_error err;
		struct cg_trace *t = open_key(bad[k], &b, &src, &err, strlen(bad[k]));

		if (t) {
			fprintf(stderr, "accepted: %s", bad[k]);
			trace_free(t);
			source_free(src);
			strbuf_free(&b);
			return 1;
		}
		CHECK(strstr(err.msg, "bad method line (expected a hex id)") != NULL);
		source_free(src);
		strbuf_free(&b);
	}
	return 0;
}

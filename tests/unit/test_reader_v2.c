/* V2 reader tests: each trace assembled byte by byte here (LEB128 by the
 * helpers below, expected values worked out by hand in the comments), read
 * back through source_open_mem / trace_open / trace_next. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/profile.h"
#include "read/source.h"
#include "util/strbuf.h"
#include "model/timeline.h"
#include "read/trace.h"
#include "unit.h"

static void le(struct strbuf *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_putc(b, (char)(unsigned char)(v >> (8 * i)));
}

static void uleb(struct strbuf *b, uint64_t v)
{
	do {
		unsigned char c = v & 0x7f;

		v >>= 7;
		strbuf_putc(b, (char)(c | (v ? 0x80 : 0)));
	} while (v);
}

static void sleb(struct strbuf *b, int64_t v)
{
	for (;;) {
		unsigned char c = (unsigned char)(v & 0x7f);

		v >>= 7;
		if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
			strbuf_putc(b, (char)c);
			return;
		}
		strbuf_putc(b, (char)(c | 0x80));
	}
}

/* SLOW, u2 version, u8 start at 6, u8 counter start at 14, u8 frequency at
 * 22, zeros to 32. */
static void v2_header(struct strbuf *b, unsigned version, uint64_t start, uint64_t freq)
{
	strbuf_puts(b, "SLOW");
	le(b, version, 2);
	le(b, start, 8);
	le(b, freq ? 1000 : 0, 8);
	le(b, freq, 8);
	le(b, 0, 2);
}

static void thread_pkt(struct strbuf *b, uint32_t tid, const char *name)
{
	strbuf_putc(b, 0);
	le(b, tid, 4);
	le(b, strlen(name), 2);
	strbuf_puts(b, name);
}

static void method_pkt(struct strbuf *b, uint64_t id, const char *text)
{
	strbuf_putc(b, 1);
	le(b, id, 8);
	le(b, strlen(text), 2);
	strbuf_puts(b, text);
}

/* A 12-byte block header (layouts B and C) and its payload. */
static void block(struct strbuf *b, uint32_t tid, uint32_t count, const struct strbuf *payload)
{
	strbuf_putc(b, 2);
	le(b, tid, 4);
	le(b, count, 3);
	le(b, payload->len, 4);
	strbuf_add(b, payload->data, payload->len);
}

static void summary_pkt(struct strbuf *b, const char *text)
{
	strbuf_putc(b, 3);
	le(b, strlen(text), 2);
	strbuf_puts(b, text);
}

struct v2out {
	struct cg_record r[16];
	size_t n;
	int rc;
	struct cg_error err;
	struct cg_trace_info info;
};

/* Read all of b; when keep is given the trace stays open there (and src too). */
static void v2_read(const struct strbuf *b, struct v2out *o, struct cg_trace **keep,
		    struct cg_source **keep_src)
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
	if (keep) {
		*keep = t;
		*keep_src = src;
		return;
	}
	trace_free(t);
	source_free(src);
}

#define RUN 0x7a5c1e2d40ull
#define INVOKE 0x7a5c1e3f80ull

/* Perfetto's V2 diff test (test_art_method_v2_smoke) expects, on thread
 * "main": RuntimeInit$MethodAndArgsCaller.run at 1 100 000 ns for 400 000 ns
 * and Method.invoke at 1 200 000 ns for 100 000 ns.  Layout C, header start
 * 0, counter 19.2 MHz: 1100 us = 21120 ticks, 1200 us = 23040, 1300 us =
 * 24960, 1500 us = 28800.  Records: SLEB (ticks << 2 | action) delta, SLEB
 * thread-CPU delta (dual), then on entries a SLEB method delta. */
static void perfetto_trace(struct strbuf *b)
{
	struct strbuf p;

	strbuf_init(&p);
	v2_header(b, 0xf5, 0, 19200000);
	thread_pkt(b, 4321, "main");
	method_pkt(b, RUN, "com.android.internal.os.RuntimeInit$MethodAndArgsCaller\trun\t()V\t"
			   "RuntimeInit.java\t548\n");
	method_pkt(b, INVOKE, "java.lang.reflect.Method\tinvoke\t"
			      "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;\t"
			      "Method.java\t598\n");
	sleb(&p, 21120 << 2), sleb(&p, 7), sleb(&p, (int64_t)RUN);
	sleb(&p, (23040 - 21120) << 2), sleb(&p, 3), sleb(&p, (int64_t)(INVOKE - RUN));
	sleb(&p, ((24960 - 23040) << 2) + 1), sleb(&p, 2);
	sleb(&p, ((28800 << 2) + 1) - ((24960 << 2) + 1)), sleb(&p, 5);
	block(b, 4321, 4, &p);
	summary_pkt(b, "*version\n5\ndata-file-overflow=false\nclock=dual\n"
		       "elapsed-time-nsec=500000\nclock-call-overhead-nsec=0\nvm=art\npid=1\n*end\n");
	strbuf_free(&p);
}

UNIT_TEST(reader_v2_perfetto_slices)
{
	struct strbuf b;
	struct v2out o;
	struct cg_trace *t;
	struct cg_source *src;
	struct cg_symtab *st;
	struct cg_profile_opts opts = { .clock = CG_USE_WALL };
	struct cg_profile *p;
	struct cg_timeline *tl;
	struct cg_observer obs = { 0 };
	const struct cg_tl_span *s;
	const struct cg_method_info *m;
	int64_t irun, iinv;

	strbuf_init(&b);
	perfetto_trace(&b);
	v2_read(&b, &o, &t, &src);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 4);
	CHECK_EQ_U64(o.info.v2_gen, 'C');
	CHECK_EQ_U64(o.info.clock, CG_CLOCK_WALL);
	CHECK_EQ_U64(o.info.has_summary, 1);
	CHECK_EQ_U64(o.r[0].t_wall, 1100);
	CHECK_EQ_U64(o.r[1].t_wall, 1200);
	CHECK_EQ_U64(o.r[2].t_wall, 1300);
	CHECK_EQ_U64(o.r[3].t_wall, 1500);
	CHECK_EQ_U64(o.r[2].action, CG_EXIT);
	CHECK_EQ_U64(o.r[2].method, o.r[1].method); /* exits take the open entry */
	CHECK_EQ_U64(o.r[3].method, o.r[0].method);
	st = trace_symtab(t);
	irun = symtab_find_method(st, o.r[0].method);
	iinv = symtab_find_method(st, o.r[1].method);
	CHECK(irun >= 0 && iinv >= 0);
	m = symtab_method(st, (uint32_t)irun);
	CHECK_EQ_U64(m->id, RUN);
	CHECK(m->id_text == NULL); /* printed as "0x7a5c1e2d40" */
	CHECK_EQ_STR(m->klass, "com.android.internal.os.RuntimeInit$MethodAndArgsCaller");
	CHECK_EQ_STR(m->name, "run");
	CHECK_EQ_U64(m->line, 548);
	CHECK_EQ_U64(symtab_method(st, (uint32_t)iinv)->line, 598);
	CHECK_EQ_STR(symtab_thread(st, 4321)->name, "main");

	/* the timeline of the one thread: the two slices, in us */
	p = profile_create(st, &opts);
	tl = timeline_create();
	timeline_observer(tl, NULL, &obs);
	profile_set_observer(p, &obs);
	CHECK(profile_add(p, o.r, o.n, &o.err) == 0);
	profile_finish(p, &o.info);
	timeline_finish(tl, p);
	CHECK_EQ_U64(timeline_thread_count(tl), 1);
	CHECK_EQ_U64(timeline_spans(tl, 0, &s), 2);
	CHECK_EQ_U64(s[0].midx, (uint64_t)irun);
	CHECK_EQ_U64(s[0].start, 1100);
	CHECK_EQ_U64(s[0].dur, 400);
	CHECK_EQ_U64(s[0].depth, 0);
	CHECK_EQ_U64(s[1].midx, (uint64_t)iinv);
	CHECK_EQ_U64(s[1].start, 1200);
	CHECK_EQ_U64(s[1].dur, 100);
	CHECK_EQ_U64(s[1].depth, 1);
	timeline_free(tl);
	profile_free(p);
	trace_free(t);
	source_free(src);
	strbuf_free(&b);
	return 0;
}

/* Layout B in ns (start 5*10^12 ns): times round down to the us; a wall time
 * of 2^32 us + 7 keeps its low 32 bits (7) as v1-v3 records do.
 *   enter 0x10 at 1999 ns  -> 1 us  (cpu 500 ns -> 0)
 *   exit  0x10 at 2000 ns  -> 2 us  (cpu 1500 ns -> 1)
 *   enter 0x10 at (2^32 + 7) us + 999 ns -> 7 */
UNIT_TEST(reader_v2_b_ns_rounding)
{
	struct strbuf b, p;
	struct v2out o;
	uint64_t far = ((1ull << 32) + 7) * 1000 + 999;
	size_t blk_at;

	strbuf_init(&b);
	strbuf_init(&p);
	v2_header(&b, 5, 5000000000000ull, 0);
	method_pkt(&b, 0x10, "a.B\tc\t()V\tB.java\n");
	sleb(&p, 0x10), uleb(&p, 1999), uleb(&p, 500);
	sleb(&p, 1), uleb(&p, 1), uleb(&p, 1000);
	sleb(&p, -1), uleb(&p, far - 2000), uleb(&p, 0);
	blk_at = b.len;
	block(&b, 3, 3, &p);
	summary_pkt(&b, "*version\n5\nclock=dual\nelapsed-time-nsec=9\n*end\n");
	v2_read(&b, &o, NULL, NULL);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 3);
	CHECK_EQ_U64(o.info.v2_gen, 'B');
	CHECK_EQ_U64(o.info.v2_ns, 1);
	CHECK_EQ_U64(o.info.start_us, 5000000000ull);
	CHECK_EQ_U64(o.r[0].t_wall, 1);
	CHECK_EQ_U64(o.r[0].t_cpu, 0);
	CHECK_EQ_U64(o.r[1].t_wall, 2);
	CHECK_EQ_U64(o.r[1].t_cpu, 1);
	CHECK_EQ_U64(o.r[1].action, CG_EXIT);
	CHECK_EQ_U64(o.r[2].t_wall, 7);
	CHECK_EQ_U64(o.r[2].tid, 3);
	CHECK_EQ_U64(o.r[2].offset, blk_at + 12 + 5 + 4); /* after records of 5 and 4 bytes */
	strbuf_free(&p);
	strbuf_free(&b);
	return 0;
}

/* Two ids equal in their low 32 bits stay two methods. */
UNIT_TEST(reader_v2_64bit_ids)
{
	struct strbuf b, p;
	struct v2out o;
	struct cg_trace *t;
	struct cg_source *src;
	int64_t i0, i1;

	strbuf_init(&b);
	strbuf_init(&p);
	v2_header(&b, 0xf4, 100, 0);
	method_pkt(&b, 0x100000010ull, "a.One\tm\t()V\t\n");
	method_pkt(&b, 0x200000010ull, "a.Two\tm\t()V\t\n");
	sleb(&p, 0x100000010ll), uleb(&p, 10);
	sleb(&p, 0x100000000ll), uleb(&p, 5);
	block(&b, 1, 2, &p);
	summary_pkt(&b, "*version\n4\nclock=wall\nelapsed-time-usec=15\n*end\n");
	v2_read(&b, &o, &t, &src);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 2);
	CHECK(o.r[0].method != o.r[1].method);
	i0 = symtab_find_method(trace_symtab(t), o.r[0].method);
	i1 = symtab_find_method(trace_symtab(t), o.r[1].method);
	CHECK_EQ_STR(symtab_method(trace_symtab(t), (uint32_t)i0)->klass, "a.One");
	CHECK_EQ_STR(symtab_method(trace_symtab(t), (uint32_t)i1)->klass, "a.Two");
	CHECK_EQ_U64(symtab_method(trace_symtab(t), (uint32_t)i1)->id, 0x200000010ULL);
	/* "0x200000010", the form printed when a method has no id text. */
	CHECK(symtab_method(trace_symtab(t), (uint32_t)i1)->id_text == NULL);
	trace_free(t);
	source_free(src);
	strbuf_free(&p);
	strbuf_free(&b);
	return 0;
}

/* Layout A (Android 15): 21-byte block header (single clock) holding the
 * first record (method|action u8, time u4), then u2 count - 1, u2 size.
 * A method-info packet after the block defines the method late. */
UNIT_TEST(reader_v2_a_layout)
{
	struct strbuf b, p;
	struct v2out o;

	strbuf_init(&b);
	strbuf_init(&p);
	v2_header(&b, 0xf4, 100, 0);
	sleb(&p, 1), uleb(&p, 40);              /* exit at 50 + 40 = 90 */
	strbuf_putc(&b, 2);
	le(&b, 9, 4);
	le(&b, 0x7000000040ull, 8);             /* enter */
	le(&b, 50, 4);
	le(&b, 1, 2);                           /* 2 records */
	le(&b, p.len, 2);
	strbuf_add(&b, p.data, p.len);
	method_pkt(&b, 0x7000000040ull, "a.B\tc\t()V\tB.java\n");
	summary_pkt(&b, "*version\n4\nclock=wall\nelapsed-time-usec=90\n*end\n");
	v2_read(&b, &o, NULL, NULL);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 2);
	CHECK_EQ_U64(o.info.v2_gen, 'A');
	CHECK_EQ_U64(o.info.clock, CG_CLOCK_WALL);
	CHECK_EQ_U64(o.r[0].t_wall, 50);
	CHECK_EQ_U64(o.r[0].offset, 32);
	CHECK_EQ_U64(o.r[1].t_wall, 90);
	CHECK_EQ_U64(o.r[1].action, CG_EXIT);
	CHECK_EQ_U64(o.r[1].method, o.r[0].method);
	strbuf_free(&p);
	strbuf_free(&b);
	return 0;
}

/* One layout-B file, start 400 days of uptime in µs (3.456 * 10^13, read as
 * ns by a guess from its size), a block of thread 1: enter 0x10 at 1500,
 * exit at 1500 + 2250 = 3750.  The summary alone gives the unit:
 *   usec: 1500 and 3750 us, start 34 560 000 000 000 us;
 *   nsec: 1 and 3 us (1500 / 1000, 3750 / 1000 rounded down), start
 *         34 560 000 000 us;
 *   none: refused at the block (offset 32 + 11 + 11 = 54: the header and the
 *         method-info packet), saying why. */
static void b_unit_file(struct strbuf *b, const char *summary)
{
	struct strbuf p;

	strbuf_init(&p);
	v2_header(b, 0xf4, 34560000000000ull, 0);
	method_pkt(b, 0x10, "a.B\tc\t()V\t\n");
	sleb(&p, 0x10), uleb(&p, 1500);
	sleb(&p, 1), uleb(&p, 2250);
	block(b, 1, 2, &p);
	if (summary)
		summary_pkt(b, summary);
	strbuf_free(&p);
}

UNIT_TEST(reader_v2_b_unit_from_summary)
{
	struct strbuf b;
	struct v2out o;

	strbuf_init(&b);
	b_unit_file(&b, "*version\n4\nclock=wall\nelapsed-time-usec=3750\n*end\n");
	v2_read(&b, &o, NULL, NULL);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 2);
	CHECK_EQ_U64(o.info.v2_ns, 0);
	CHECK_EQ_U64(o.info.start_us, 34560000000000ull);
	CHECK_EQ_U64(o.r[0].t_wall, 1500);
	CHECK_EQ_U64(o.r[1].t_wall, 3750);
	strbuf_reset(&b);
	b_unit_file(&b, "*version\n4\nclock=wall\nelapsed-time-nsec=3750\n*end\n");
	v2_read(&b, &o, NULL, NULL);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.info.v2_ns, 1);
	CHECK_EQ_U64(o.info.start_us, 34560000000ull);
	CHECK_EQ_U64(o.r[0].t_wall, 1);
	CHECK_EQ_U64(o.r[1].t_wall, 3);
	strbuf_reset(&b);
	b_unit_file(&b, NULL);
	v2_read(&b, &o, NULL, NULL);
	CHECK(o.rc < 0);
	CHECK_EQ_U64(o.err.offset, 54);
	CHECK_EQ_STR(o.err.msg, "layout B event block: its times are in us or ns, and only the "
				"summary says which, but it has no summary at its end");
	strbuf_reset(&b);
	b_unit_file(&b, "*version\n4\nclock=wall\n*end\n");
	v2_read(&b, &o, NULL, NULL);
	CHECK(o.rc < 0);
	CHECK_EQ_STR(o.err.msg, "layout B event block: its times are in us or ns, and only the "
				"summary says which, but its summary gives neither "
				"elapsed-time-usec nor elapsed-time-nsec");
	strbuf_free(&b);
	return 0;
}

/* Tids 65 536 + 1 and 1 share their low 16 bits; in layout C each keeps
 * its own stack, so the exit of 65537 pops 0x20, not thread 1's 0x10.
 * Ticks at 1 MHz are µs.  Blocks: thread 1 enters 0x10 at 5; thread
 * 65537 enters 0x20 at 6 and exits at 6 + 3 = 9. */
UNIT_TEST(reader_v2_full_tids)
{
	struct strbuf b, p;
	struct v2out o;
	struct cg_trace *t;
	struct cg_source *src;

	strbuf_init(&b);
	strbuf_init(&p);
	v2_header(&b, 0xf4, 0, 1000000);
	thread_pkt(&b, 1, "one");
	thread_pkt(&b, 65537, "big");
	method_pkt(&b, 0x10, "a.B\tc\t()V\t\n");
	method_pkt(&b, 0x20, "a.B\td\t()V\t\n");
	sleb(&p, 5 << 2), sleb(&p, 0x10);
	block(&b, 1, 1, &p);
	strbuf_reset(&p);
	sleb(&p, 6 << 2), sleb(&p, 0x20);
	sleb(&p, 3 << 2 | 1);
	block(&b, 65537, 2, &p);
	v2_read(&b, &o, &t, &src);
	CHECK(o.rc == 0);
	CHECK_EQ_U64(o.n, 3);
	CHECK_EQ_U64(o.r[0].tid, 1);
	CHECK_EQ_U64(o.r[1].tid, 65537);
	CHECK_EQ_U64(o.r[2].tid, 65537);
	CHECK_EQ_U64(o.r[2].action, CG_EXIT);
	CHECK_EQ_U64(o.r[2].t_wall, 9);
	CHECK_EQ_U64(o.r[2].method, o.r[1].method);
	CHECK(o.r[2].method != o.r[0].method);
	CHECK_EQ_U64(symtab_thread_count(trace_symtab(t)), 2);
	CHECK_EQ_STR(symtab_thread(trace_symtab(t), 1)->name, "one");
	CHECK_EQ_STR(symtab_thread(trace_symtab(t), 65537)->name, "big");
	CHECK_EQ_U64(symtab_thread(trace_symtab(t), 65537)->tid, 65537);
	trace_free(t);
	source_free(src);
	strbuf_free(&p);
	strbuf_free(&b);
	return 0;
}

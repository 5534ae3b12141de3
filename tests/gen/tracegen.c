/* tracegen.c - write Android method traces (.trace) from a short text description.
 *
 * Usage: tracegen [-o OUT] [DESC]
 *
 * Reads the description from DESC (or stdin when DESC is absent or "-") and writes
 * the trace to OUT (or stdout).  The description language is documented in
 * tests/gen/README.md; the byte layouts are those of shared/formats.md sections 2,
 * 3 and 7.  Everything written is little-endian.
 *
 * The description is small and is kept in memory as a list of operations; the
 * records it expands to (a `repeat` block can produce gigabytes) are streamed
 * through a 1 MiB buffer and never held.  Regular and split layouts need the
 * record count and the elapsed time in the key, which precedes the records, so
 * the operations are run twice: once counting, once writing.
 *
 * Exit status: 0 success, 1 I/O error, 2 usage or description error.
 * Self-contained on purpose (C11 + zlib): tests build it without the project.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define SINK_BUF (1u << 20)
#define NTHREADS 65536u          /* per-thread state slots (tslot) */
#define MAX_NEST 16              /* repeat nesting */
#define MAX_RDEPTH (1u << 20)     /* @r stack depth per thread */

/* ------------------------------------------------------------------------- */
/* Small helpers                                                              */

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("tracegen: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p) {
		fputs("tracegen: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("tracegen: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

/* A growable byte string; p is not NUL-terminated unless buf_cstr is used. */
struct buf {
	char *p;
	size_t len, cap;
};

static void buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		while (cap < b->len + n)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

static void buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void buf_printf(struct buf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof tmp) {
		buf_add(b, tmp, (size_t)n);
		return;
	}
	{
		char *big = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		buf_add(b, big, (size_t)n);
		free(big);
	}
}

/* A list of byte strings (key lines, thread lines, method lines). */
struct strlist {
	struct buf *v;
	size_t n, cap;
};

static void strlist_add(struct strlist *l, const char *p, size_t n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	memset(&l->v[l->n], 0, sizeof l->v[l->n]);
	buf_add(&l->v[l->n], p, n);
	l->n++;
}

static void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].p);
	free(l->v);
}

static void put16(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* ------------------------------------------------------------------------- */
/* Output sink: buffer -> optional truncation -> optional gzip -> FILE        */

struct sink {
	FILE *fp;
	const char *path;        /* for messages; "-" or "<stdout>" for stdout */
	unsigned char *buf;
	size_t len;
	uint64_t pos;            /* bytes accepted so far (after truncation) */
	uint64_t limit;          /* UINT64_MAX when not truncating */
	int gz;
	z_stream zs;
	unsigned char *zbuf;
	int failed;
};

/* Write n bytes straight to the file, through gzip when enabled.  finish ends
 * the gzip stream.  Sets s->failed on a write or zlib error. */
static void sink_drain(struct sink *s, const unsigned char *p, size_t n, int finish)
{
	if (!s->gz) {
		if (n && fwrite(p, 1, n, s->fp) != n)
			s->failed = 1;
		return;
	}
	s->zs.next_in = (Bytef *)(uintptr_t)p;
	s->zs.avail_in = (uInt)n;
	for (;;) {
		int rc;
		s->zs.next_out = s->zbuf;
		s->zs.avail_out = SINK_BUF;
		rc = deflate(&s->zs, finish ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR) {
			s->failed = 1;
			return;
		}
		{
			size_t have = SINK_BUF - s->zs.avail_out;
			if (have && fwrite(s->zbuf, 1, have, s->fp) != have)
				s->failed = 1;
		}
		if (finish ? rc == Z_STREAM_END : s->zs.avail_out != 0)
			break;
	}
}

static void sink_flush(struct sink *s)
{
	sink_drain(s, s->buf, s->len, 0);
	s->len = 0;
}

static void sink_put(struct sink *s, const void *p, size_t n)
{
	const unsigned char *src = p;

	if (s->limit - s->pos < n)
		n = (size_t)(s->limit - s->pos);
	s->pos += n;
	while (n) {
		size_t room = SINK_BUF - s->len;
		size_t k = n < room ? n : room;
		memcpy(s->buf + s->len, src, k);
		s->len += k;
		src += k;
		n -= k;
		if (s->len == SINK_BUF)
			sink_flush(s);
	}
}

static void sink_zeros(struct sink *s, uint64_t n)
{
	static const unsigned char z[256];
	while (n) {
		size_t k = n < sizeof z ? (size_t)n : sizeof z;
		sink_put(s, z, k);
		n -= k;
	}
}

/* Open path ("-" or NULL: stdout) for writing.  Returns 0, or -1 with a message
 * printed. */
static int sink_open(struct sink *s, const char *path, int gz, int gzlevel, uint64_t limit)
{
	memset(s, 0, sizeof *s);
	if (!path || strcmp(path, "-") == 0) {
		s->fp = stdout;
		s->path = "<stdout>";
	} else {
		s->fp = fopen(path, "wb");
		s->path = path;
		if (!s->fp) {
			fprintf(stderr, "tracegen: %s: %s\n", path, strerror(errno));
			return -1;
		}
	}
	setvbuf(s->fp, NULL, _IOFBF, SINK_BUF);
	s->buf = xmalloc(SINK_BUF);
	s->limit = limit;
	s->gz = gz;
	if (gz) {
		s->zbuf = xmalloc(SINK_BUF);
		if (deflateInit2(&s->zs, gzlevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			fprintf(stderr, "tracegen: %s: deflateInit2 failed\n", s->path);
			return -1;
		}
	}
	return 0;
}

/* Flush everything, end the gzip stream and close the file.  Returns 0, or -1
 * with a message printed. */
static int sink_close(struct sink *s)
{
	int rc = 0;

	if (!s->fp)
		return 0;
	sink_flush(s);
	if (s->gz) {
		sink_drain(s, NULL, 0, 1);
		deflateEnd(&s->zs);
	}
	if (fflush(s->fp) != 0 || ferror(s->fp))
		s->failed = 1;
	if (s->fp != stdout) {
		if (fclose(s->fp) != 0)
			s->failed = 1;
	}
	if (s->failed) {
		fprintf(stderr, "tracegen: %s: write error: %s\n", s->path, strerror(errno ? errno : EIO));
		rc = -1;
	}
	s->fp = NULL;
	free(s->buf);
	free(s->zbuf);
	s->buf = s->zbuf = NULL;
	return rc;
}

/* ------------------------------------------------------------------------- */
/* The parsed description                                                     */

enum layout { L_REGULAR, L_STREAMING, L_SPLIT, L_V2 };
enum clock { C_DUAL, C_WALL, C_CPU, C_GLOBAL };
static const char *const clock_names[] = { "dual", "wall", "thread-cpu", "global" };

struct v2w;

enum opkind { OP_EVENT, OP_RAW, OP_THREAD, OP_METHOD, OP_REPEAT, OP_END, OP_PROGRAM };

struct program;

struct timespec_ {
	uint8_t rel;             /* "+D": add to the thread's current time */
	uint64_t v;
};

struct op {
	uint8_t kind;
	uint8_t action;          /* OP_EVENT: 0..3 */
	uint8_t rr;              /* OP_EVENT: method is @r */
	uint8_t ntimes;          /* OP_EVENT: 1 or 2 */
	uint8_t inband;          /* OP_THREAD: emitted in-band in streaming */
	int line;
	uint32_t tid, mid;
	struct timespec_ t[2];
	uint64_t count;          /* OP_REPEAT */
	size_t end;              /* OP_REPEAT: index of its OP_END */
	char *text;              /* OP_RAW bytes, OP_THREAD name, OP_METHOD line */
	size_t textlen;
	struct program *prog;    /* OP_PROGRAM */
};

/* Standard key lines that `no-key NAME` can suppress. */
enum {
	K_OVERFLOW = 1, K_CLOCK = 2, K_ELAPSED = 4, K_NUMCALLS = 8,
	K_OVERHEAD = 16, K_VM = 32, K_PID = 64
};

struct per_thread_rr {
	uint32_t *v;             /* stack of auto-method indexes entered via @r */
	uint32_t n, cap;
};

struct tg {
	/* header directives */
	int layout, v2stream;
	int version, version_set;
	int clock;
	long recsize;            /* -1: default */
	long hversion;           /* -1: default */
	long hoffset;
	unsigned char magic[4];
	uint64_t start;
	int overflow, nokeys, no_summary, no_end, crlf, no_header, summary_methods;
	int gzip, gzlevel;
	uint64_t truncate;       /* UINT64_MAX: none */
	int v2gen;               /* layout v2 block layout: 'A', 'B' (default) or 'C' */
	int v2ns;                /* 'B' with times in ns */
	uint64_t v2idbase;       /* added to every method id in V2 packets */
	const char *v2_unfit;    /* a directive V2 packets cannot express */
	struct v2w *v2;          /* V2 packet writer state */
	struct strlist extra_keys, key_threads, methods;

	/* operations */
	struct op *ops;
	size_t nops, capops;
	uint32_t *auto_ids;
	size_t nauto;

	/* derived layout */
	int twidth, dual;
	uint32_t natural, pad;
	uint32_t hv;

	/* run state */
	int dry;
	struct sink *out;        /* where records, raw bytes and in-band items go */
	uint64_t *cur_w, *cur_c;
	struct per_thread_rr *rst;
	uint64_t *tmap;          /* V2: (tid << 32 | slot + 1) by hash, 2 * NTHREADS */
	uint32_t ntslots;
	uint64_t rr_next;
	uint64_t nrec, maxwall;
	int rt_failed;           /* a runtime error was reported */
};


/* `program RECORDS [NAME=VALUE...]`: RECORDS records of a fixed random
 * program (see tests/gen/README.md).  Every run of the op replays the same
 * walk from the same seed. */
struct program {
	uint64_t records;
	uint64_t seed;
	uint32_t threads;        /* thread ids 1..threads */
	uint32_t fanout10;       /* callees per method, in tenths; 0 = any method */
	uint32_t depth;          /* stack depth cap */
	uint32_t recursion;      /* per mille of calls that recurse directly */
	uint32_t longcalls;      /* per mille of returns after a long (mostly off-CPU) call */
	uint32_t unknown;        /* distinct method ids not in the key, called as leaves */
	uint64_t jitter;         /* seed of the run's timing noise; 0 = none */
	uint32_t jitter_pct;     /* the run's speed factor within +-jitter_pct % */
	uint32_t slow_method;    /* auto method whose own time is slowed */
	uint32_t slow_pct;       /* by this many %; 0 = none */
};

static void program_free(struct program *pr)
{
	free(pr);
}

static void tg_free(struct tg *g)
{
	for (size_t i = 0; i < g->nops; i++) {
		free(g->ops[i].text);
		program_free(g->ops[i].prog);
	}
	free(g->ops);
	free(g->auto_ids);
	strlist_free(&g->extra_keys);
	strlist_free(&g->key_threads);
	strlist_free(&g->methods);
	free(g->cur_w);
	free(g->cur_c);
	free(g->tmap);
	if (g->rst) {
		for (size_t i = 0; i < NTHREADS; i++)
			free(g->rst[i].v);
		free(g->rst);
	}
}

static struct op *tg_addop(struct tg *g, int kind, int line)
{
	struct op *o;

	if (g->nops == g->capops) {
		g->capops = g->capops ? g->capops * 2 : 64;
		g->ops = xrealloc(g->ops, g->capops * sizeof *g->ops);
	}
	o = &g->ops[g->nops++];
	memset(o, 0, sizeof *o);
	o->kind = (uint8_t)kind;
	o->line = line;
	return o;
}

/* ------------------------------------------------------------------------- */
/* Parsing                                                                    */

struct parser {
	struct tg *g;
	int line;
	int seen_data;           /* an event, raw or repeat was seen */
	size_t stack[MAX_NEST];  /* open repeat op indexes */
	int depth;
	int errors;
	/* the current line: tokens point into work, rest-of-line into orig */
	char *orig, *work;
	char **tok;
	size_t ntok, captok;
};

static void perr(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Report a description error on the current line; parsing stops at the first one. */
static void perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tracegen: %d: ", ps->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	ps->errors++;
}

static void pwarn(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void pwarn(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tracegen: %d: warning: ", ps->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Split ps->work into tokens; a token starting with '#' ends the line. */
static void tokenize(struct parser *ps)
{
	char *p = ps->work;

	ps->ntok = 0;
	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p || *p == '#')
			break;
		if (ps->ntok == ps->captok) {
			ps->captok = ps->captok ? ps->captok * 2 : 16;
			ps->tok = xrealloc(ps->tok, ps->captok * sizeof *ps->tok);
		}
		ps->tok[ps->ntok++] = p;
		while (*p && !is_blank(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

/* The original line after skipping k whitespace-separated words and the blank
 * run that follows them ('#' is not special here). */
static const char *rest_of_line(const struct parser *ps, size_t k)
{
	const char *p = ps->orig;

	while (is_blank(*p))
		p++;
	while (k--) {
		while (*p && !is_blank(*p))
			p++;
		while (is_blank(*p))
			p++;
	}
	return p;
}

/* Append s with escapes decoded (\t \n \r \\ \xHH) to out.  Returns 0, or -1
 * after reporting a bad escape. */
static int unescape(struct parser *ps, const char *s, struct buf *out)
{
	while (*s) {
		if (*s != '\\') {
			buf_addc(out, *s++);
			continue;
		}
		s++;
		switch (*s) {
		case 't': buf_addc(out, '\t'); s++; break;
		case 'n': buf_addc(out, '\n'); s++; break;
		case 'r': buf_addc(out, '\r'); s++; break;
		case '\\': buf_addc(out, '\\'); s++; break;
		case 'x': {
			int hi = hexval((unsigned char)s[1]);
			int lo = hi < 0 ? -1 : hexval((unsigned char)s[2]);
			if (lo < 0) {
				perr(ps, "bad \\x escape (need two hex digits)");
				return -1;
			}
			buf_addc(out, (char)(hi << 4 | lo));
			s += 3;
			break;
		}
		default:
			perr(ps, "unknown escape '\\%c' (use \\t \\n \\r \\\\ \\xHH)", *s ? *s : ' ');
			return -1;
		}
	}
	return 0;
}

/* Parse an unsigned decimal (no sign, at least one digit) into *v.  Returns 0
 * or -1 (not a number, or above 2^64-1). */
static int parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

static int parse_num(struct parser *ps, const char *s, uint64_t max, const char *what, uint64_t *v)
{
	if (parse_u64(s, v) < 0 || *v > max) {
		perr(ps, "bad %s '%s' (want a decimal number 0..%llu)", what, s,
		     (unsigned long long)max);
		return -1;
	}
	return 0;
}

/* A method id: 0x<hex> (up to 32 bits) or 0. */
static int parse_mid_literal(struct parser *ps, const char *s, uint32_t *v)
{
	uint64_t x = 0;
	const char *p = s;

	if (strcmp(s, "0") == 0) {
		*v = 0;
		return 0;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && p[2]) {
		for (p += 2; *p; p++) {
			int h = hexval((unsigned char)*p);
			if (h < 0 || x > 0xFFFFFFFull)
				goto bad;
			x = x << 4 | (uint64_t)h;
		}
		*v = (uint32_t)x;
		return 0;
	}
bad:
	perr(ps, "bad method id '%s' (want 0x<hex> up to 32 bits, or 0)", s);
	return -1;
}

/* A method token in an event: literal id, @k or @r. */
static int parse_mid(struct parser *ps, const char *s, struct op *o)
{
	struct tg *g = ps->g;

	if (s[0] != '@')
		return parse_mid_literal(ps, s, &o->mid);
	if (!g->nauto) {
		perr(ps, "'%s' used before auto-methods", s);
		return -1;
	}
	if (strcmp(s, "@r") == 0) {
		if (ps->depth == 0) {
			perr(ps, "@r is only allowed inside a repeat block");
			return -1;
		}
		o->rr = 1;
		return 0;
	}
	{
		uint64_t k;
		if (parse_u64(s + 1, &k) < 0 || k >= g->nauto) {
			perr(ps, "bad auto method '%s' (want @r or @0..@%zu)", s, g->nauto - 1);
			return -1;
		}
		o->mid = g->auto_ids[k];
	}
	return 0;
}

static int parse_time(struct parser *ps, const char *s, struct timespec_ *t)
{
	t->rel = s[0] == '+';
	if (parse_u64(s + t->rel, &t->v) < 0) {
		perr(ps, "bad time '%s' (want a decimal number or +D)", s);
		return -1;
	}
	return 0;
}

static int want_args(struct parser *ps, size_t lo, size_t hi, const char *usage)
{
	size_t n = ps->ntok - 1;
	if (n < lo || n > hi) {
		perr(ps, "usage: %s", usage);
		return -1;
	}
	return 0;
}

static int parse_tid(struct parser *ps, const char *s, uint32_t *tid)
{
	uint64_t v;
	if (parse_num(ps, s, UINT32_MAX, "thread id", &v) < 0)
		return -1;
	*tid = (uint32_t)v;
	return 0;
}

/* enter|exit|unwind|action3 TID MID T1 [T2] */
static void parse_event(struct parser *ps, int action)
{
	static const char *const usage[] = {
		"enter TID MID T1 [T2]", "exit TID MID T1 [T2]",
		"unwind TID MID T1 [T2]", "action3 TID MID T1 [T2]"
	};
	struct tg *g = ps->g;
	struct op o;

	if (want_args(ps, 3, 4, usage[action]) < 0)
		return;
	memset(&o, 0, sizeof o);
	o.kind = OP_EVENT;
	o.line = ps->line;
	o.action = (uint8_t)action;
	if (parse_tid(ps, ps->tok[1], &o.tid) < 0 || parse_mid(ps, ps->tok[2], &o) < 0 ||
	    parse_time(ps, ps->tok[3], &o.t[0]) < 0)
		return;
	o.ntimes = 1;
	if (ps->ntok == 5) {
		if (parse_time(ps, ps->tok[4], &o.t[1]) < 0)
			return;
		o.ntimes = 2;
	}
	if (g->layout == L_STREAMING && (o.tid & 0xFFFF) == 0)
		pwarn(ps, "thread id %u is written as 0, the streaming escape code", o.tid);
	*tg_addop(g, OP_EVENT, ps->line) = o;
}

/* call TID MID T_IN T_OUT */
static void parse_call(struct parser *ps)
{
	struct tg *g = ps->g;
	struct op o;

	if (want_args(ps, 4, 4, "call TID MID T_IN T_OUT") < 0)
		return;
	memset(&o, 0, sizeof o);
	o.kind = OP_EVENT;
	o.line = ps->line;
	o.ntimes = 1;
	if (parse_tid(ps, ps->tok[1], &o.tid) < 0 || parse_mid(ps, ps->tok[2], &o) < 0 ||
	    parse_time(ps, ps->tok[3], &o.t[0]) < 0)
		return;
	if (g->layout == L_STREAMING && (o.tid & 0xFFFF) == 0)
		pwarn(ps, "thread id %u is written as 0, the streaming escape code", o.tid);
	*tg_addop(g, OP_EVENT, ps->line) = o;
	o.action = 1;
	if (parse_time(ps, ps->tok[4], &o.t[0]) < 0)
		return;
	*tg_addop(g, OP_EVENT, ps->line) = o;
}

static void parse_raw(struct parser *ps)
{
	struct buf b = { 0 };

	for (size_t i = 1; i < ps->ntok; i++) {
		const char *s = ps->tok[i];
		size_t n = strlen(s);
		if (n % 2) {
			perr(ps, "raw: odd number of hex digits in '%s'", s);
			free(b.p);
			return;
		}
		for (size_t j = 0; j < n; j += 2) {
			int hi = hexval((unsigned char)s[j]), lo = hexval((unsigned char)s[j + 1]);
			if (hi < 0 || lo < 0) {
				perr(ps, "raw: bad hex byte '%.2s'", s + j);
				free(b.p);
				return;
			}
			buf_addc(&b, (char)(hi << 4 | lo));
		}
	}
	{
		struct op *o = tg_addop(ps->g, OP_RAW, ps->line);
		o->text = b.p;
		o->textlen = b.len;
	}
}

/* thread / summary-thread / inband-thread TID NAME... */
static void parse_thread(struct parser *ps, int in_key, int inband)
{
	struct tg *g = ps->g;
	struct buf name = { 0 };
	uint32_t tid;

	if (ps->ntok < 2) {
		perr(ps, "usage: %s TID NAME...", ps->tok[0]);
		return;
	}
	if (parse_tid(ps, ps->tok[1], &tid) < 0)
		return;
	if (unescape(ps, rest_of_line(ps, 2), &name) < 0) {
		free(name.p);
		return;
	}
	if (in_key) {
		struct buf line = { 0 };
		buf_adds(&line, ps->tok[1]);    /* the id exactly as written */
		buf_addc(&line, '\t');
		buf_add(&line, name.p, name.len);
		strlist_add(&g->key_threads, line.p, line.len);
		free(line.p);
	}
	{
		struct op *o = tg_addop(g, OP_THREAD, ps->line);
		o->tid = tid;
		o->inband = (uint8_t)inband;
		o->text = name.p;
		o->textlen = name.len;
	}
}

static void add_method_line(struct parser *ps, const char *p, size_t n)
{
	struct op *o;

	strlist_add(&ps->g->methods, p, n);
	o = tg_addop(ps->g, OP_METHOD, ps->line);
	o->text = xmalloc(n + 1);
	memcpy(o->text, p, n);
	o->text[n] = '\n';
	o->textlen = n + 1;
}

/* method ID CLASS NAME SIG [SOURCE [LINE]] */
static void parse_method(struct parser *ps)
{
	struct buf line = { 0 };
	uint32_t id;

	if (want_args(ps, 4, 6, "method ID CLASS NAME SIG [SOURCE [LINE]]") < 0)
		return;
	if (parse_mid_literal(ps, ps->tok[1], &id) < 0)
		return;
	buf_adds(&line, ps->tok[1]);
	for (size_t i = 2; i < ps->ntok; i++) {
		buf_addc(&line, '\t');
		if (strcmp(ps->tok[i], "-") != 0 && unescape(ps, ps->tok[i], &line) < 0) {
			free(line.p);
			return;
		}
	}
	add_method_line(ps, line.p, line.len);
	free(line.p);
}

static void parse_methodline(struct parser *ps)
{
	struct buf line = { 0 };

	if (unescape(ps, rest_of_line(ps, 1), &line) == 0)
		add_method_line(ps, line.p ? line.p : "", line.len);
	free(line.p);
}

/* auto-methods N CLASS */
static void parse_auto(struct parser *ps)
{
	struct tg *g = ps->g;
	struct buf cls = { 0 }, src = { 0 };
	uint64_t n;
	size_t b, e;

	if (want_args(ps, 2, 2, "auto-methods N CLASS") < 0)
		return;
	if (g->nauto) {
		perr(ps, "auto-methods given twice");
		return;
	}
	if (parse_num(ps, ps->tok[1], 0x3FFFFFFE, "method count", &n) < 0)
		return;
	if (n == 0) {
		perr(ps, "auto-methods: N must be at least 1");
		return;
	}
	if (unescape(ps, ps->tok[2], &cls) < 0) {
		free(cls.p);
		return;
	}
	/* source file: the simple class name up to any '$', plus ".java" */
	b = 0;
	for (size_t i = 0; i < cls.len; i++)
		if (cls.p[i] == '.' || cls.p[i] == '/')
			b = i + 1;
	for (e = b; e < cls.len && cls.p[e] != '$'; e++)
		;
	if (e > b)
		buf_add(&src, cls.p + b, e - b);
	else
		buf_adds(&src, "X");
	buf_adds(&src, ".java");

	g->nauto = (size_t)n;
	g->auto_ids = xmalloc(g->nauto * sizeof *g->auto_ids);
	for (size_t k = 0; k < g->nauto; k++) {
		struct buf line = { 0 };
		g->auto_ids[k] = (uint32_t)(4 * (k + 1));
		buf_printf(&line, "%#x\t", g->auto_ids[k]);
		buf_add(&line, cls.p, cls.len);
		buf_printf(&line, "\tm%zu\t()V\t", k);
		buf_add(&line, src.p, src.len);
		add_method_line(ps, line.p, line.len);
		free(line.p);
	}
	free(cls.p);
	free(src.p);
}


/* program RECORDS [seed=N] [threads=N] [fanout=F|any] [depth=N]
 *         [recursion=PERMILLE] [long=PERMILLE] [unknown=N] [jitter=SEED]
 *         [jitter-pct=P] [slow=K:P] */
static void parse_program(struct parser *ps)
{
	struct tg *g = ps->g;
	struct program pr = { 0, 1, 16, 17, 60, 20, 2, 0, 0, 5, 0, 0 };
	uint64_t v;

	if (ps->ntok < 2) {
		perr(ps, "usage: program RECORDS [seed=N] [threads=N] [fanout=F|any] [depth=N] "
		     "[recursion=PERMILLE] [long=PERMILLE] [unknown=N] [jitter=SEED] "
		     "[jitter-pct=P] [slow=K:P]");
		return;
	}
	if (!g->nauto) {
		perr(ps, "program needs auto-methods first");
		return;
	}
	if (parse_num(ps, ps->tok[1], UINT64_MAX, "record count", &pr.records) < 0)
		return;
	for (size_t k = 2; k < ps->ntok; k++) {
		const char *t = ps->tok[k], *eq = strchr(t, '=');
		size_t n = eq ? (size_t)(eq - t) : 0;

		if (!eq) {
			perr(ps, "program: '%s' is not NAME=VALUE", t);
			return;
		}
		eq++;
		if (n == 6 && strncmp(t, "fanout", 6) == 0) {
			if (strcmp(eq, "any") == 0) {
				pr.fanout10 = 0;
				continue;
			}
			/* F or F.D, in tenths */
			{
				uint64_t whole = 0, tenth = 0;
				const char *dot = strchr(eq, '.');
				char w[24];
				size_t wl = dot ? (size_t)(dot - eq) : strlen(eq);

				if (wl == 0 || wl >= sizeof w || (dot && (strlen(dot) != 2 ||
				    dot[1] < '0' || dot[1] > '9'))) {
					perr(ps, "program: fanout must be N, N.D or any");
					return;
				}
				memcpy(w, eq, wl);
				w[wl] = '\0';
				if (parse_num(ps, w, 100, "fanout", &whole) < 0)
					return;
				tenth = dot ? (uint64_t)(dot[1] - '0') : 0;
				pr.fanout10 = (uint32_t)(whole * 10 + tenth);
				if (pr.fanout10 < 10) {
					perr(ps, "program: fanout must be at least 1");
					return;
				}
			}
			continue;
		}
		if (n == 4 && strncmp(t, "seed", 4) == 0) {
			if (parse_num(ps, eq, UINT64_MAX, "seed", &pr.seed) < 0)
				return;
		} else if (n == 7 && strncmp(t, "threads", 7) == 0) {
			if (parse_num(ps, eq, 65535, "threads", &v) < 0)
				return;
			if (v == 0) {
				perr(ps, "program: threads must be at least 1");
				return;
			}
			pr.threads = (uint32_t)v;
		} else if (n == 5 && strncmp(t, "depth", 5) == 0) {
			if (parse_num(ps, eq, 100000, "depth", &v) < 0)
				return;
			if (v == 0) {
				perr(ps, "program: depth must be at least 1");
				return;
			}
			pr.depth = (uint32_t)v;
		} else if (n == 9 && strncmp(t, "recursion", 9) == 0) {
			if (parse_num(ps, eq, 1000, "recursion", &v) < 0)
				return;
			pr.recursion = (uint32_t)v;
		} else if (n == 4 && strncmp(t, "long", 4) == 0) {
			if (parse_num(ps, eq, 1000, "long", &v) < 0)
				return;
			pr.longcalls = (uint32_t)v;
		} else if (n == 6 && strncmp(t, "jitter", 6) == 0) {
			if (parse_num(ps, eq, UINT64_MAX, "jitter", &pr.jitter) < 0)
				return;
		} else if (n == 10 && strncmp(t, "jitter-pct", 10) == 0) {
			if (parse_num(ps, eq, 50, "jitter-pct", &v) < 0)
				return;
			pr.jitter_pct = (uint32_t)v;
		} else if (n == 4 && strncmp(t, "slow", 4) == 0) {
			char kb[24];
			const char *colon = strchr(eq, ':');

			if (!colon || colon == eq || (size_t)(colon - eq) >= sizeof kb) {
				perr(ps, "program: slow must be K:PERCENT");
				return;
			}
			memcpy(kb, eq, (size_t)(colon - eq));
			kb[colon - eq] = '\0';
			if (parse_num(ps, kb, g->nauto - 1, "slow method", &v) < 0)
				return;
			pr.slow_method = (uint32_t)v;
			if (parse_num(ps, colon + 1, 1000, "slow percent", &v) < 0)
				return;
			pr.slow_pct = (uint32_t)v;
		} else if (n == 7 && strncmp(t, "unknown", 7) == 0) {
			if (parse_num(ps, eq, 0x3FFFFFFEu - g->nauto, "unknown", &v) < 0)
				return;
			pr.unknown = (uint32_t)v;
		} else {
			perr(ps, "program: unknown setting '%.*s'", (int)n, t);
			return;
		}
	}
	tg_addop(g, OP_PROGRAM, ps->line)->prog = xmalloc(sizeof pr);
	*g->ops[g->nops - 1].prog = pr;
	if (g->layout == L_V2 && pr.unknown && !g->v2_unfit)
		g->v2_unfit = "program with unknown ids";
}

static int key_bit(const char *name)
{
	static const struct { const char *n; int bit; } k[] = {
		{ "data-file-overflow", K_OVERFLOW }, { "clock", K_CLOCK },
		{ "elapsed-time-usec", K_ELAPSED }, { "num-method-calls", K_NUMCALLS },
		{ "clock-call-overhead-nsec", K_OVERHEAD }, { "vm", K_VM }, { "pid", K_PID },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		if (strcmp(name, k[i].n) == 0)
			return k[i].bit;
	return 0;
}

/* "a", "b-us", "b-ns" or "c": the V2 block layout (docs/v2-format.md). */
static int v2_parse_gen(struct tg *g, const char *s)
{
	if (strcmp(s, "a") == 0 || strcmp(s, "b-us") == 0 || strcmp(s, "b-ns") == 0 ||
	    strcmp(s, "c") == 0) {
		g->v2gen = s[0] - 'a' + 'A';
		g->v2ns = strcmp(s, "b-ns") == 0;
		return 0;
	}
	return -1;
}

static int parse_hex64(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	int n = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	for (s += 2; *s; s++, n++) {
		int h = hexval((unsigned char)*s);
		if (h < 0 || n == 16)
			return -1;
		x = x << 4 | (uint64_t)h;
	}
	*v = x;
	return n ? 0 : -1;
}

/* Header directives.  Returns 1 if tok[0] was one (handled or reported), else 0. */
static int parse_header(struct parser *ps)
{
	struct tg *g = ps->g;
	const char *d = ps->tok[0];
	uint64_t v;

	if (strcmp(d, "layout") == 0) {
		if (want_args(ps, 1, 2, "layout regular|streaming|split|v2 [streaming]") < 0)
			return 1;
		g->v2stream = 0;
		if (strcmp(ps->tok[1], "regular") == 0 && ps->ntok == 2)
			g->layout = L_REGULAR;
		else if (strcmp(ps->tok[1], "streaming") == 0 && ps->ntok == 2)
			g->layout = L_STREAMING;
		else if (strcmp(ps->tok[1], "split") == 0 && ps->ntok == 2)
			g->layout = L_SPLIT;
		else if (strcmp(ps->tok[1], "v2") == 0 &&
			 (ps->ntok == 2 || strcmp(ps->tok[2], "streaming") == 0)) {
			g->layout = L_V2;
			g->v2stream = ps->ntok == 3;
		} else if (strcmp(ps->tok[1], "v2-streaming") == 0 && ps->ntok == 2) {
			g->layout = L_V2;
			g->v2stream = 1;
		} else
			perr(ps, "usage: layout regular|streaming|split|v2 [streaming]");
	} else if (strcmp(d, "v2-gen") == 0) {
		if (want_args(ps, 1, 1, "v2-gen a|b-us|b-ns|c") == 0 && v2_parse_gen(g, ps->tok[1]) < 0)
			perr(ps, "usage: v2-gen a|b-us|b-ns|c");
	} else if (strcmp(d, "v2-id-base") == 0) {
		if (want_args(ps, 1, 1, "v2-id-base 0x<hex>") == 0 &&
		    parse_hex64(ps->tok[1], &g->v2idbase) < 0)
			perr(ps, "usage: v2-id-base 0x<hex> (up to 64 bits)");
	} else if (strcmp(d, "version") == 0) {
		if (want_args(ps, 1, 1, "version N") == 0 &&
		    parse_num(ps, ps->tok[1], 15, "version", &v) == 0) {
			g->version = (int)v;
			g->version_set = 1;
		}
	} else if (strcmp(d, "clock") == 0) {
		int c = -1;
		if (want_args(ps, 1, 1, "clock dual|wall|thread-cpu|global") < 0)
			return 1;
		for (int i = 0; i < 4; i++)
			if (strcmp(ps->tok[1], clock_names[i]) == 0)
				c = i;
		if (c < 0)
			perr(ps, "usage: clock dual|wall|thread-cpu|global");
		else
			g->clock = c;
	} else if (strcmp(d, "record-size") == 0) {
		if (want_args(ps, 1, 1, "record-size N") == 0 &&
		    parse_num(ps, ps->tok[1], 65535, "record size", &v) == 0)
			g->recsize = (long)v;
	} else if (strcmp(d, "header-version") == 0) {
		if (want_args(ps, 1, 1, "header-version N") == 0 &&
		    parse_num(ps, ps->tok[1], 65535, "header version", &v) == 0)
			g->hversion = (long)v;
	} else if (strcmp(d, "header-offset") == 0) {
		if (want_args(ps, 1, 1, "header-offset N") == 0 &&
		    parse_num(ps, ps->tok[1], 65535, "header offset", &v) == 0)
			g->hoffset = (long)v;
	} else if (strcmp(d, "magic") == 0) {
		struct buf m = { 0 };
		if (want_args(ps, 1, 1, "magic XXXX") == 0 && unescape(ps, ps->tok[1], &m) == 0) {
			if (m.len != 4)
				perr(ps, "magic must be exactly 4 bytes (escapes allowed)");
			else
				memcpy(g->magic, m.p, 4);
		}
		free(m.p);
	} else if (strcmp(d, "start") == 0) {
		if (want_args(ps, 1, 1, "start N") == 0 &&
		    parse_num(ps, ps->tok[1], UINT64_MAX, "start time", &v) == 0)
			g->start = v;
	} else if (strcmp(d, "key") == 0) {
		struct buf k = { 0 };
		if (ps->ntok < 2)
			perr(ps, "usage: key NAME=VALUE");
		else if (unescape(ps, rest_of_line(ps, 1), &k) == 0)
			strlist_add(&g->extra_keys, k.p ? k.p : "", k.len);
		free(k.p);
	} else if (strcmp(d, "overflow") == 0) {
		if (want_args(ps, 0, 0, "overflow") == 0)
			g->overflow = 1;
	} else if (strcmp(d, "no-num-method-calls") == 0) {
		if (want_args(ps, 0, 0, "no-num-method-calls") == 0)
			g->nokeys |= K_NUMCALLS;
	} else if (strcmp(d, "no-elapsed") == 0) {
		if (want_args(ps, 0, 0, "no-elapsed") == 0)
			g->nokeys |= K_ELAPSED;
	} else if (strcmp(d, "no-key") == 0) {
		if (want_args(ps, 1, 100, "no-key NAME...") < 0)
			return 1;
		for (size_t i = 1; i < ps->ntok; i++) {
			int bit = key_bit(ps->tok[i]);
			if (!bit) {
				perr(ps, "no-key: '%s' is not a standard key (data-file-overflow clock "
				     "elapsed-time-usec num-method-calls clock-call-overhead-nsec vm pid)",
				     ps->tok[i]);
				return 1;
			}
			g->nokeys |= bit;
		}
	} else if (strcmp(d, "no-summary") == 0) {
		if (want_args(ps, 0, 0, "no-summary") == 0)
			g->no_summary = 1;
	} else if (strcmp(d, "no-end") == 0) {
		if (want_args(ps, 0, 0, "no-end") == 0)
			g->no_end = 1;
	} else if (strcmp(d, "no-header") == 0) {
		if (want_args(ps, 0, 0, "no-header") == 0)
			g->no_header = 1;
	} else if (strcmp(d, "crlf") == 0) {
		if (want_args(ps, 0, 0, "crlf") == 0)
			g->crlf = 1;
	} else if (strcmp(d, "summary-methods") == 0) {
		if (want_args(ps, 0, 0, "summary-methods") == 0)
			g->summary_methods = 1;
	} else if (strcmp(d, "gzip") == 0) {
		if (want_args(ps, 0, 1, "gzip [LEVEL]") < 0)
			return 1;
		g->gzip = 1;
		g->gzlevel = Z_DEFAULT_COMPRESSION;
		if (ps->ntok == 2 && parse_num(ps, ps->tok[1], 9, "gzip level", &v) == 0)
			g->gzlevel = (int)v;
	} else if (strcmp(d, "truncate") == 0) {
		if (want_args(ps, 1, 1, "truncate N") == 0 &&
		    parse_num(ps, ps->tok[1], UINT64_MAX - 1, "truncate length", &v) == 0)
			g->truncate = v;
	} else {
		return 0;
	}
	if (ps->seen_data)
		perr(ps, "header directive '%s' after the first event", d);
	return 1;
}

static void parse_line(struct parser *ps)
{
	struct tg *g = ps->g;
	const char *d;

	tokenize(ps);
	if (ps->ntok == 0)
		return;
	d = ps->tok[0];

	if (parse_header(ps))
		return;

	if (strcmp(d, "thread") == 0 || strcmp(d, "summary-thread") == 0 ||
	    strcmp(d, "inband-thread") == 0 || strcmp(d, "method") == 0 ||
	    strcmp(d, "methodline") == 0 || strcmp(d, "auto-methods") == 0) {
		if (ps->depth) {
			perr(ps, "'%s' is not allowed inside a repeat block", d);
			return;
		}
		if (strcmp(d, "thread") != 0 && strcmp(d, "method") != 0 &&
		    strcmp(d, "auto-methods") != 0 && !g->v2_unfit)
			g->v2_unfit = "summary-thread, inband-thread or methodline";
		if (strcmp(d, "thread") == 0)
			parse_thread(ps, 1, 1);
		else if (strcmp(d, "summary-thread") == 0)
			parse_thread(ps, 1, 0);
		else if (strcmp(d, "inband-thread") == 0)
			parse_thread(ps, 0, 1);
		else if (strcmp(d, "method") == 0)
			parse_method(ps);
		else if (strcmp(d, "methodline") == 0)
			parse_methodline(ps);
		else
			parse_auto(ps);
		return;
	}

	ps->seen_data = 1;
	if (strcmp(d, "enter") == 0)
		parse_event(ps, 0);
	else if (strcmp(d, "exit") == 0)
		parse_event(ps, 1);
	else if (strcmp(d, "unwind") == 0)
		parse_event(ps, 2);
	else if (strcmp(d, "action3") == 0)
		parse_event(ps, 3);
	else if (strcmp(d, "call") == 0)
		parse_call(ps);
	else if (strcmp(d, "program") == 0)
		parse_program(ps);
	else if (strcmp(d, "raw") == 0)
		parse_raw(ps);
	else if (strcmp(d, "repeat") == 0) {
		uint64_t n;
		if (want_args(ps, 1, 1, "repeat N") < 0 ||
		    parse_num(ps, ps->tok[1], UINT64_MAX, "repeat count", &n) < 0)
			return;
		if (ps->depth == MAX_NEST) {
			perr(ps, "repeat nested more than %d levels", MAX_NEST);
			return;
		}
		ps->stack[ps->depth++] = g->nops;
		tg_addop(g, OP_REPEAT, ps->line)->count = n;
	} else if (strcmp(d, "end") == 0) {
		if (want_args(ps, 0, 0, "end") < 0)
			return;
		if (!ps->depth) {
			perr(ps, "'end' without repeat");
			return;
		}
		g->ops[ps->stack[--ps->depth]].end = g->nops;
		tg_addop(g, OP_END, ps->line);
	} else {
		perr(ps, "unknown directive '%s'", d);
	}
}

/* Parse the whole description text (modified in place).  Returns 0, or -1
 * after printing the first error. */
static int parse_desc(struct tg *g, char *text, size_t len)
{
	struct parser ps;
	size_t pos = 0;
	int rc = 0;

	memset(&ps, 0, sizeof ps);
	ps.g = g;
	while (pos < len) {
		size_t e = pos, n;
		while (e < len && text[e] != '\n')
			e++;
		n = e - pos;
		ps.line++;
		if (n && text[pos + n - 1] == '\r')
			n--;
		if (memchr(text + pos, '\0', n)) {
			perr(&ps, "NUL byte in the description");
			rc = -1;
			break;
		}
		ps.orig = xmalloc(n + 1);
		memcpy(ps.orig, text + pos, n);
		ps.orig[n] = '\0';
		ps.work = xmalloc(n + 1);
		memcpy(ps.work, ps.orig, n + 1);
		parse_line(&ps);
		free(ps.orig);
		free(ps.work);
		pos = e + 1;
		if (ps.errors) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ps.depth) {
		ps.line = g->ops[ps.stack[ps.depth - 1]].line;
		perr(&ps, "repeat without end");
		rc = -1;
	}
	free(ps.tok);
	return rc;
}

/* ------------------------------------------------------------------------- */
/* V2 packets (docs/v2-format.md): THREAD-INFO, METHOD-INFO, event blocks,    */
/* SUMMARY.  Consecutive records of one thread form a block of at most        */
/* V2_BLOCK records, so the records keep the description's order.            */

#define V2_BLOCK 4096u
#define V2_FREQ 19200000u        /* C: counter ticks per second (19.2 MHz) */

struct v2w {
	struct buf blk;          /* the open block's payload */
	int open;
	uint32_t tid;
	uint64_t n;              /* records in the open block */
	uint64_t prev_ma, prev_w, prev_c, prev_ta, prev_m;
	uint64_t ma0;            /* A: the first record, kept in the header */
	uint32_t w0, c0;
	struct per_thread_rr *cst; /* C: each thread's open method ids */
};

static uint32_t tslot(struct tg *g, const struct op *o);

static void v2_uleb(struct buf *b, uint64_t v)
{
	do {
		unsigned char c = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			c |= 0x80;
		buf_addc(b, (char)c);
	} while (v);
}

static void v2_sleb(struct buf *b, uint64_t u)
{
	int64_t v = (int64_t)u;

	for (;;) {
		unsigned char c = (unsigned char)(v & 0x7f);
		v >>= 7;   /* arithmetic shift on every compiler this builds with */
		if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
			buf_addc(b, (char)c);
			return;
		}
		buf_addc(b, (char)(c | 0x80));
	}
}

/* µs to C's counter ticks, rounded up so that ticks * 10^6 / V2_FREQ,
 * rounded down, gives the µs back: 19.2 ticks per µs. */
static uint64_t v2_ticks(uint64_t us)
{
	return us * 19 + (us + 4) / 5;
}

static void v2_flush(struct tg *g)
{
	struct v2w *v = g->v2;
	unsigned char h[25];
	size_t n;

	if (!v->open)
		return;
	v->open = 0;
	if (v->n == 0)
		return;
	h[0] = 2;
	put32(h + 1, v->tid);
	if (g->v2gen == 'A') {
		put64(h + 5, v->ma0);
		n = 13;
		if (g->dual) {
			put32(h + n, v->c0);
			n += 4;
		}
		put32(h + n, v->w0);
		put16(h + n + 4, (uint32_t)(v->n - 1));
		put16(h + n + 6, (uint32_t)v->blk.len);
		n += 8;
	} else {
		h[5] = (unsigned char)v->n;
		h[6] = (unsigned char)(v->n >> 8);
		h[7] = (unsigned char)(v->n >> 16);
		put32(h + 8, (uint32_t)v->blk.len);
		n = 12;
	}
	sink_put(g->out, h, n);
	sink_put(g->out, v->blk.p, v->blk.len);
}

static void v2_fail(struct tg *g, const struct op *o, const char *what)
{
	if (!g->rt_failed)
		fprintf(stderr, "tracegen: %d: cannot write as V2: %s\n", o->line, what);
	g->rt_failed = 3;
}

/* One record: wall time w and cpu time c (µs, as the description gives). */
static void v2_event(struct tg *g, const struct op *o, uint32_t mid, uint64_t w, uint64_t c)
{
	struct v2w *v = g->v2;
	uint64_t id = g->v2idbase + mid, ma = id | o->action;
	struct buf *b = &v->blk;

	if (w >= (1ull << 50) || c >= (1ull << 50)) {
		v2_fail(g, o, "time over 2^50 us");
		return;
	}
	if (v->open && (v->tid != o->tid || v->n == V2_BLOCK || b->len > 65535 - 30))
		v2_flush(g);
	if (!v->open) {
		v->open = 1;
		v->tid = o->tid;
		v->n = 0;
		b->len = 0;
		v->prev_ma = v->prev_w = v->prev_c = v->prev_ta = v->prev_m = 0;
	}
	if (g->v2gen == 'C') {
		struct per_thread_rr *st = &v->cst[tslot(g, o)];
		uint64_t ta = v2_ticks(w) << 2 | o->action;

		if (o->action != 0 && (st->n == 0 || st->v[st->n - 1] != mid)) {
			v2_fail(g, o, "layout C exits name no method, so an exit must match "
				      "the innermost open entry of its thread");
			return;
		}
		v2_sleb(b, ta - v->prev_ta);
		v->prev_ta = ta;
		if (g->dual) {
			v2_sleb(b, v2_ticks(c) - v->prev_c);
			v->prev_c = v2_ticks(c);
		}
		if (o->action == 0) {
			v2_sleb(b, id - v->prev_m);
			v->prev_m = id;
			if (st->n == st->cap) {
				st->cap = st->cap ? st->cap * 2 : 64;
				st->v = xrealloc(st->v, st->cap * sizeof *st->v);
			}
			st->v[st->n++] = mid;
		} else {
			st->n--;
		}
		v->n++;
		return;
	}
	if (g->v2ns) {
		/* ns with a sub-µs part that the reader must round away */
		uint64_t jit = (g->nrec * 7919u) % 1000u;
		w = w * 1000 + jit;
		c = c * 1000 + jit;
	}
	if (g->v2gen == 'A' && v->n == 0) {
		v->ma0 = ma;
		v->w0 = (uint32_t)w;
		v->c0 = (uint32_t)c;
	} else {
		v2_sleb(b, ma - v->prev_ma);
		v2_uleb(b, w - v->prev_w);
		if (g->dual)
			v2_uleb(b, c - v->prev_c);
	}
	v->prev_ma = ma;
	/* Android 15 (A) and QPR1/QPR2 (B in µs) keep the previous times in 32
	 * bits; the ns writer keeps 64. */
	v->prev_w = g->v2ns ? w : (uint32_t)w;
	v->prev_c = g->v2ns ? c : (uint32_t)c;
	v->n++;
}

static void v2_thread_packet(struct tg *g, const struct op *o)
{
	unsigned char h[7];
	size_t n = o->textlen > 0xFFFF ? 0xFFFF : o->textlen;

	v2_flush(g);
	h[0] = 0;
	put32(h + 1, o->tid);
	put16(h + 5, (uint32_t)n);
	sink_put(g->out, h, sizeof h);
	sink_put(g->out, o->text, n);
}

/* The method line "ID\tclass\tname\tsig[\tsource[\tline]]\n" as a
 * METHOD-INFO packet: u1 1, u8 id, u2 len, "class\tname\tsig\tsource\n"
 * (C: "\tline" before the newline when the description gives one). */
static void v2_method_packet(struct tg *g, const struct op *o)
{
	const char *p = o->text, *end = o->text + o->textlen - 1, *f[6];
	size_t len[6];
	int nf = 0;
	uint64_t id = 0;
	struct buf t = { 0 };
	unsigned char h[11];

	v2_flush(g);
	while (nf < 6) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		f[nf] = p;
		len[nf++] = (size_t)((tab ? tab : end) - p);
		if (!tab)
			break;
		p = tab + 1;
	}
	for (size_t i = 2; i < len[0]; i++)
		id = id << 4 | (uint64_t)hexval((unsigned char)f[0][i]);
	for (int i = 1; i < 5; i++) {
		if (i > 1)
			buf_addc(&t, '\t');
		if (i < nf)
			buf_add(&t, f[i], len[i]);
	}
	if (nf == 6 && g->v2gen == 'C') {
		buf_addc(&t, '\t');
		buf_add(&t, f[5], len[5]);
	}
	buf_addc(&t, '\n');
	h[0] = 1;
	put64(h + 1, g->v2idbase + id);
	put16(h + 9, (uint32_t)t.len);
	sink_put(g->out, h, sizeof h);
	sink_put(g->out, t.p, t.len);
	free(t.p);
}

/* Whether the description can be written as V2 packets with the same
 * meaning: NULL, or why not. */
static const char *v2_check(const struct tg *g)
{
	uint32_t *ids = NULL;
	size_t nids = 0;
	const char *why = NULL;

	if (g->v2_unfit)
		return g->v2_unfit;
	if (g->version_set && g->version == 1)
		return "version 1 (8-bit thread ids)";
	if (g->clock == C_GLOBAL)
		return "clock global";
	if (g->recsize >= 0 || g->hversion >= 0 || g->hoffset != 32 || memcmp(g->magic, "SLOW", 4) ||
	    g->no_header || g->crlf || g->no_end || g->truncate != UINT64_MAX)
		return "a header, key or size directive of the format-1 layouts";
	if (g->no_summary && g->layout != L_STREAMING)
		return "no-summary in a non-streaming layout";
	if (g->v2gen == 'B' && (g->no_summary || (g->nokeys & K_ELAPSED)))
		return "no summary or no elapsed-time key (only they give layout B's time unit)";
	ids = xmalloc((g->nops + 1) * sizeof *ids);
	for (size_t i = 0; i < g->nops && !why; i++) {
		const struct op *o = &g->ops[i];
		if (o->kind == OP_RAW)
			why = "raw bytes";
		else if ((o->kind == OP_THREAD || o->kind == OP_EVENT) && o->tid > 0xFFFF)
			why = "thread id over 65535 (format-1 records keep 16 bits)";
		else if (o->kind == OP_METHOD) {
			char canon[16];
			uint64_t id = 0;
			size_t n = strcspn(o->text, "\t\n");
			int fields = 1;

			for (size_t k = 2; k < n && k < 10; k++)
				id = id << 4 | (uint64_t)(hexval((unsigned char)o->text[k]) & 15);
			snprintf(canon, sizeof canon, "%#llx", (unsigned long long)id);
			for (size_t k = 0; k < o->textlen; k++)
				fields += o->text[k] == '\t';
			if (id == 0 || strlen(canon) != n || memcmp(canon, o->text, n))
				why = "a method id other than 0x<hex> without leading zeros, or 0";
			else if (fields == 6 && g->v2gen != 'C')
				why = "a line number (only layout C carries one)";
			else
				ids[nids++] = (uint32_t)id;
		}
	}
	for (size_t i = 0; i < g->nops && !why; i++) {
		const struct op *o = &g->ops[i];
		size_t k;
		if (o->kind != OP_EVENT || o->rr)
			continue;
		for (k = 0; k < nids && ids[k] != o->mid; k++)
			;
		if (k == nids)
			why = "a method id no method line defines";
	}
	free(ids);
	return why;
}

static void v2_summary(struct tg *g)
{
	struct buf b = { 0 };
	unsigned char h[3];

	v2_flush(g);
	if (g->no_summary)
		return;
	buf_printf(&b, "*version\n%d\n", g->dual ? 5 : 4);
	if (!(g->nokeys & K_OVERFLOW))
		buf_printf(&b, "data-file-overflow=%s\n", g->overflow ? "true" : "false");
	if (!(g->nokeys & K_CLOCK))
		buf_printf(&b, "clock=%s\n", clock_names[g->clock]);
	if (!(g->nokeys & K_ELAPSED)) {
		if (g->v2ns || g->v2gen == 'C')
			buf_printf(&b, "elapsed-time-nsec=%llu\n", (unsigned long long)g->maxwall * 1000);
		else
			buf_printf(&b, "elapsed-time-usec=%llu\n", (unsigned long long)g->maxwall);
	}
	if (!g->v2stream && !(g->nokeys & K_NUMCALLS))
		buf_printf(&b, "num-method-calls=%llu\n", (unsigned long long)g->nrec);
	if (!(g->nokeys & K_OVERHEAD))
		buf_adds(&b, "clock-call-overhead-nsec=500\n");
	if (!(g->nokeys & K_VM))
		buf_adds(&b, "vm=art\n");
	if (!(g->nokeys & K_PID))
		buf_adds(&b, "pid=4242\n");
	for (size_t i = 0; i < g->extra_keys.n; i++) {
		buf_add(&b, g->extra_keys.v[i].p, g->extra_keys.v[i].len);
		buf_addc(&b, '\n');
	}
	buf_adds(&b, "*end\n");
	h[0] = 3;
	put16(h + 1, (uint32_t)(b.len > 0xFFFF ? 0xFFFF : b.len));
	sink_put(g->out, h, sizeof h);
	sink_put(g->out, b.p, b.len);
	free(b.p);
}

/* Whether layout v2 writes packets (else only its header and raw bytes). */
static int v2_packets(const struct tg *g)
{
	for (size_t i = 0; i < g->nops; i++)
		if (g->ops[i].kind == OP_EVENT || g->ops[i].kind == OP_THREAD ||
		    g->ops[i].kind == OP_METHOD)
			return 1;
	return 0;
}

/* Non-streaming: ART writes every thread and method packet before the
 * blocks, which it keeps in memory until tracing stops. */
static void v2_begin(struct tg *g)
{
	g->v2 = xcalloc(1, sizeof *g->v2);
	if (g->v2gen == 'C')
		g->v2->cst = xcalloc(NTHREADS, sizeof *g->v2->cst);
	if (g->v2stream)
		return;
	for (size_t i = 0; i < g->nops; i++) {
		if (g->ops[i].kind == OP_THREAD)
			v2_thread_packet(g, &g->ops[i]);
		else if (g->ops[i].kind == OP_METHOD)
			v2_method_packet(g, &g->ops[i]);
	}
}

static void v2_free(struct tg *g)
{
	if (!g->v2)
		return;
	if (g->v2->cst) {
		for (size_t i = 0; i < NTHREADS; i++)
			free(g->v2->cst[i].v);
		free(g->v2->cst);
	}
	free(g->v2->blk.p);
	free(g->v2);
	g->v2 = NULL;
}

/* ------------------------------------------------------------------------- */
/* Running                                                                    */

static void run_reset(struct tg *g)
{
	memset(g->cur_w, 0, NTHREADS * sizeof *g->cur_w);
	memset(g->cur_c, 0, NTHREADS * sizeof *g->cur_c);
	for (size_t i = 0; i < NTHREADS; i++)
		g->rst[i].n = 0;
	g->rr_next = 0;
	g->nrec = 0;
	g->maxwall = 0;
}

/* The per-thread state slot of tid: its low 16 bits in the v1-v3 layouts,
 * whose records keep 16 bits, and in V2, whose tids are 32-bit, a slot per
 * distinct tid in the order they appear (at most NTHREADS). */
static uint32_t tslot(struct tg *g, const struct op *o)
{
	uint32_t mask = 2 * NTHREADS - 1, i;

	if (g->layout != L_V2)
		return o->tid & 0xFFFF;
	if (!g->tmap)
		g->tmap = xcalloc(2 * NTHREADS, sizeof *g->tmap);
	for (i = (o->tid * 2654435761u) & mask; g->tmap[i]; i = (i + 1) & mask)
		if (g->tmap[i] >> 32 == o->tid)
			return (uint32_t)g->tmap[i] - 1;
	if (g->ntslots == NTHREADS) {
		if (!g->rt_failed)
			fprintf(stderr, "tracegen: %d: more than %u thread ids\n", o->line, NTHREADS);
		g->rt_failed = 1;
		return 0;
	}
	g->tmap[i] = (uint64_t)o->tid << 32 | ++g->ntslots;
	return g->ntslots - 1;
}

/* The auto method for an @r event: enters take the next one round-robin and
 * remember it; exits, unwinds and action3 take the most recent @r entry of
 * the thread that is still open, or the next one if there is none. */
static uint32_t rr_pick(struct tg *g, const struct op *o, uint32_t slot)
{
	struct per_thread_rr *s = &g->rst[slot];
	uint32_t k;

	if (o->action != 0 && s->n)
		return g->auto_ids[s->v[--s->n]];
	k = (uint32_t)(g->rr_next++ % g->nauto);
	if (o->action == 0) {
		if (s->n == s->cap) {
			if (s->cap >= MAX_RDEPTH) {
				if (!g->rt_failed)
					fprintf(stderr, "tracegen: %d: @r nesting on thread %u deeper than %u\n",
						o->line, o->tid, MAX_RDEPTH);
				g->rt_failed = 1;
				return g->auto_ids[k];
			}
			s->cap = s->cap ? s->cap * 2 : 64;
			s->v = xrealloc(s->v, s->cap * sizeof *s->v);
		}
		s->v[s->n++] = k;
	}
	return g->auto_ids[k];
}

static void do_event(struct tg *g, const struct op *o)
{
	uint32_t slot = tslot(g, o);
	uint64_t *w = &g->cur_w[slot], *c = &g->cur_c[slot];
	const struct timespec_ *tc = &o->t[o->ntimes - 1];
	uint32_t mid = o->rr ? rr_pick(g, o, slot) : o->mid;
	unsigned char r[16];
	size_t n;

	*w = o->t[0].rel ? *w + o->t[0].v : o->t[0].v;
	*c = tc->rel ? *c + tc->v : tc->v;
	g->nrec++;
	if (*w > g->maxwall)
		g->maxwall = *w;
	if (g->dry)
		return;
	if (g->v2) {
		v2_event(g, o, mid, *w, *c);
		return;
	}
	if (g->twidth == 1) {
		r[0] = (unsigned char)o->tid;
		n = 1;
	} else {
		put16(r, o->tid);
		n = 2;
	}
	put32(r + n, mid | o->action);
	n += 4;
	if (g->dual) {
		put32(r + n, (uint32_t)*c);
		put32(r + n + 4, (uint32_t)*w);
		n += 8;
	} else {
		put32(r + n, (uint32_t)*w);
		n += 4;
	}
	sink_put(g->out, r, n);
	if (g->pad)
		sink_zeros(g->out, g->pad);
}


/* splitmix64: the program's random numbers and its fixed call graph. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

/* Callee choice j among k, skewed: j with probability 2^-(j+1), the rest to
 * the last one. */
static uint32_t skew_pick(uint64_t r, uint32_t k)
{
	uint32_t j = 0;

	while (j + 1 < k && (r & 1)) {
		r >>= 1;
		j++;
	}
	return j;
}

/* One program record: an event at +dw wall, +dc cpu on thread tid. */
static void program_event(struct tg *g, const struct op *src, uint32_t tid, int action,
			  uint32_t mid, uint64_t dw, uint64_t dc)
{
	struct op o;

	memset(&o, 0, sizeof o);
	o.kind = OP_EVENT;
	o.line = src->line;
	o.action = (uint8_t)action;
	o.ntimes = 2;
	o.tid = tid;
	o.mid = mid;
	o.t[0].rel = 1;
	o.t[0].v = dw;
	o.t[1].rel = 1;
	o.t[1].v = dc;
	do_event(g, &o);
}

/* The walk: each thread has a stack of method indexes (index >= nauto: an
 * unknown id).  At each record, on the current thread: an empty stack enters
 * one of the thread's four entry methods; otherwise the top method calls one
 * of its callees (probability 49/100 while under the depth cap; itself with
 * `recursion` per mille; an unknown id with 1/4 when `unknown` is set) or
 * returns.  Method m's callees are `fanout` fixed methods drawn from a hash of
 * (seed, m) (any method when fanout=any).  Unknown ids are leaves.  Every
 * record advances the thread's wall clock by 1-4 us and its cpu clock by the
 * same or one less; a long call returns after 1-31 ms of wall and 1/16 of
 * that in cpu.  With probability 1/256 the next record is on a random thread.
 *
 * Timing noise (jitter=SEED) and a slowdown (slow=K:P) change the times and
 * never the walk: the run's speed factor f is drawn from SEED within
 * +-jitter-pct %, and each step of either clock becomes step * f, times
 * (100 + P) / 100 while auto method K is on top of the stack, rounded down
 * or up at random (from SEED) so that its expected value is exact. */
static uint64_t program_scale(const struct program *pr, uint64_t *js, uint64_t step, int slow)
{
	uint64_t f = 10000, spread = (uint64_t)pr->jitter_pct * 200 + 1, num;

	if (pr->jitter)
		f = 10000 - (uint64_t)pr->jitter_pct * 100 + mix64(pr->jitter ^ 0x717Eull) % spread;
	num = step * f * (100 + (slow ? pr->slow_pct : 0));
	return (num + (pr->jitter ? mix64((*js)++) % 1000000 : 0)) / 1000000;
}

static void run_program(struct tg *g, const struct op *o)
{
	const struct program *pr = o->prog;
	uint32_t nauto = (uint32_t)g->nauto, cur = 0, ucount = 0;
	uint32_t *stk = xmalloc((size_t)pr->threads * pr->depth * sizeof *stk);
	uint32_t *dep = xcalloc(pr->threads, sizeof *dep);
	uint64_t rs = mix64(pr->seed ^ 0x5EEDull), js = mix64(pr->jitter);
	int noisy = pr->jitter || pr->slow_pct;

	for (uint64_t n = 0; n < pr->records && !g->rt_failed; n++) {
		uint64_t r = mix64(rs++), r2 = mix64(rs++);
		uint32_t *s = stk + (size_t)cur * pr->depth, d = dep[cur];
		uint64_t dw = 1 + (r & 3), dc = dw - ((r >> 2) & 1);
		uint32_t tid = cur + 1, m;
		int slow = pr->slow_pct && d && s[d - 1] == pr->slow_method, enters;

		r >>= 3;
		/* an enter (on an empty stack, or a call); a return scales its
		 * steps below, once a long call has set them */
		enters = d == 0 || (s[d - 1] < nauto && d < pr->depth && r % 100 < 49);
		if (noisy && enters) {
			dw = program_scale(pr, &js, dw, slow);
			dc = program_scale(pr, &js, dc, slow);
		}
		if (d == 0) {
			uint32_t j = skew_pick(r2, 4);

			m = (uint32_t)(mix64(pr->seed ^ ((uint64_t)tid << 40) ^ j) % nauto);
			s[dep[cur]++] = m;
			program_event(g, o, tid, 0, g->auto_ids[m], dw, dc);
		} else if (s[d - 1] < nauto && d < pr->depth && r % 100 < 49) {
			uint32_t top = s[d - 1];

			r /= 100;
			if (r % 1000 < pr->recursion) {
				m = top;
			} else if (pr->unknown && (r2 & 3) == 0) {
				m = nauto + ucount++ % pr->unknown;
			} else if (pr->fanout10 == 0) {
				m = (uint32_t)(r2 % nauto);
			} else {
				uint64_t h = mix64(pr->seed ^ ((uint64_t)top << 20));
				uint32_t k = pr->fanout10 / 10 + ((h >> 32) % 10 < pr->fanout10 % 10);

				m = (uint32_t)(mix64(h + skew_pick(r2 >> 2, k)) % nauto);
			}
			s[dep[cur]++] = m;
			program_event(g, o, tid, 0, m < nauto ? g->auto_ids[m] : 4 * (m + 1), dw, dc);
		} else {
			m = s[--dep[cur]];
			if ((r / 100) % 1000 < pr->longcalls) {
				dw = 1000 + r2 % 30000;
				dc = dw / 16;
			}
			if (noisy) {
				dw = program_scale(pr, &js, dw, slow);
				dc = program_scale(pr, &js, dc, slow);
			}
			program_event(g, o, tid, 1, m < nauto ? g->auto_ids[m] : 4 * (m + 1), dw, dc);
		}
		if ((r2 >> 40) % 256 == 0)
			cur = (uint32_t)((r2 >> 48) % pr->threads);
	}
	free(stk);
	free(dep);
}

static void emit_thread_item(struct tg *g, const struct op *o)
{
	unsigned char h[7];
	size_t n = o->textlen > 0xFFFF ? 0xFFFF : o->textlen;

	put16(h, 0);
	h[2] = 2;
	put16(h + 3, o->tid);
	put16(h + 5, (uint32_t)n);
	sink_put(g->out, h, sizeof h);
	sink_put(g->out, o->text, n);
}

static void emit_method_item(struct tg *g, const struct op *o)
{
	unsigned char h[5];
	size_t n = o->textlen > 0xFFFF ? 0xFFFF : o->textlen;

	put16(h, 0);
	h[2] = 1;
	put16(h + 3, (uint32_t)n);
	sink_put(g->out, h, sizeof h);
	sink_put(g->out, o->text, n);
}

/* Run ops[lo, hi).  Stops early after a runtime error. */
static void run_ops(struct tg *g, size_t lo, size_t hi)
{
	int streaming = g->layout == L_STREAMING;

	for (size_t i = lo; i < hi && !g->rt_failed; i++) {
		const struct op *o = &g->ops[i];
		switch (o->kind) {
		case OP_EVENT:
			do_event(g, o);
			break;
		case OP_PROGRAM:
			run_program(g, o);
			break;
		case OP_RAW:
			if (!g->dry && g->v2)
				v2_flush(g);
			if (!g->dry)
				sink_put(g->out, o->text, o->textlen);
			break;
		case OP_THREAD:
			if (!g->dry && g->v2 && g->v2stream)
				v2_thread_packet(g, o);
			else if (!g->dry && streaming && o->inband)
				emit_thread_item(g, o);
			break;
		case OP_METHOD:
			if (!g->dry && g->v2 && g->v2stream)
				v2_method_packet(g, o);
			else if (!g->dry && streaming)
				emit_method_item(g, o);
			break;
		case OP_REPEAT:
			for (uint64_t k = 0; k < o->count && !g->rt_failed; k++)
				run_ops(g, i + 1, o->end);
			i = o->end;
			break;
		default:
			break;
		}
	}
}

/* ------------------------------------------------------------------------- */
/* Key text, headers                                                          */

static void key_line(const struct tg *g, struct buf *b, const char *p, size_t n)
{
	buf_add(b, p, n);
	buf_adds(b, g->crlf ? "\r\n" : "\n");
}

static void key_linef(const struct tg *g, struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void key_linef(const struct tg *g, struct buf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof tmp)
		n = (int)sizeof tmp - 1;
	key_line(g, b, tmp, (size_t)n);
}

/* The key section (regular/split) or the streaming summary text. */
static void build_key(const struct tg *g, struct buf *b, int summary)
{
	key_line(g, b, "*version", 8);
	key_linef(g, b, "%d", g->version);
	if (!(g->nokeys & K_OVERFLOW))
		key_linef(g, b, "data-file-overflow=%s", g->overflow ? "true" : "false");
	if (!(g->nokeys & K_CLOCK))
		key_linef(g, b, "clock=%s", clock_names[g->clock]);
	if (!(g->nokeys & K_ELAPSED))
		key_linef(g, b, "elapsed-time-usec=%llu", (unsigned long long)g->maxwall);
	if (!summary && !(g->nokeys & K_NUMCALLS))
		key_linef(g, b, "num-method-calls=%llu", (unsigned long long)g->nrec);
	if (!(g->nokeys & K_OVERHEAD))
		key_linef(g, b, "clock-call-overhead-nsec=500");
	if (!(g->nokeys & K_VM))
		key_linef(g, b, "vm=art");
	if (!(g->nokeys & K_PID))
		key_linef(g, b, "pid=4242");
	for (size_t i = 0; i < g->extra_keys.n; i++)
		key_line(g, b, g->extra_keys.v[i].p, g->extra_keys.v[i].len);
	key_line(g, b, "*threads", 8);
	for (size_t i = 0; i < g->key_threads.n; i++)
		key_line(g, b, g->key_threads.v[i].p, g->key_threads.v[i].len);
	key_line(g, b, "*methods", 8);
	if (!summary || g->summary_methods)
		for (size_t i = 0; i < g->methods.n; i++)
			key_line(g, b, g->methods.v[i].p, g->methods.v[i].len);
	if (!g->no_end)
		key_line(g, b, "*end", 4);
}

/* The 32-byte format-1 header, plus zeros up to the data offset. */
static void write_header(struct tg *g, struct sink *s)
{
	unsigned char h[32];

	if (g->no_header)
		return;
	memset(h, 0, sizeof h);
	memcpy(h, g->magic, 4);
	put16(h + 4, g->hv);
	if (g->layout == L_V2) {
		put64(h + 6, g->start);
		if (g->v2gen == 'C') {
			put64(h + 14, 1000000);   /* counter at the start (unused by readers) */
			put64(h + 22, V2_FREQ);
		}
		sink_put(s, h, sizeof h);
		return;
	}
	put16(h + 6, (uint32_t)g->hoffset);
	put64(h + 8, g->start);
	if (g->hv >= 3)
		put16(h + 16, (uint32_t)g->recsize);
	sink_put(s, h, sizeof h);
	if (g->hoffset > 32)
		sink_zeros(s, (uint64_t)(g->hoffset - 32));
}

/* Fill in defaults that depend on several directives. */
static void derive(struct tg *g)
{
	g->dual = g->clock == C_DUAL;
	if (!g->version_set)
		g->version = g->dual ? 3 : 2;
	g->twidth = g->version == 1 ? 1 : 2;
	g->natural = (uint32_t)(g->twidth + 4 + (g->dual ? 8 : 4));
	if (g->recsize < 0)
		g->recsize = (long)g->natural;
	g->pad = (uint32_t)g->recsize > g->natural ? (uint32_t)g->recsize - g->natural : 0;
	if (g->hversion >= 0)
		g->hv = (uint32_t)g->hversion;
	else if (g->layout == L_V2)
		g->hv = (g->dual ? 5u : 4u) | (g->v2stream ? 0xF0u : 0u);
	else if (g->layout == L_STREAMING)
		g->hv = 0xF0u | (uint32_t)g->version;
	else
		g->hv = (uint32_t)g->version;
}

/* ------------------------------------------------------------------------- */
/* main                                                                       */

static void usage(FILE *f)
{
	fputs("usage: tracegen [-o OUT] [--v2 a|b-us|b-ns|c [--v2-streaming]] [DESC]\n"
	      "Write an Android method trace described by DESC (default stdin) to OUT\n"
	      "(default stdout).  The language is described in tests/gen/README.md.\n", f);
}

/* Read all of f into a NUL-terminated buffer.  Returns NULL on a read error. */
static char *read_all(FILE *f, size_t *len)
{
	struct buf b = { 0 };
	char tmp[65536];
	size_t n;

	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_add(&b, tmp, n);
	if (ferror(f)) {
		free(b.p);
		return NULL;
	}
	buf_addc(&b, '\0');
	*len = b.len - 1;
	return b.p;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *in = NULL, *v2opt = NULL;
	int v2stream_opt = 0;
	struct tg g;
	struct sink s1, s2;
	char *text, *keypath = NULL, *datapath = NULL;
	size_t len;
	int rc = 0, argi, made1 = 0, made2 = 0;
	FILE *f;

	for (argi = 1; argi < argc; argi++) {
		const char *a = argv[argi];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "-o") == 0) {
			if (++argi == argc) {
				usage(stderr);
				return 2;
			}
			out = argv[argi];
		} else if (strncmp(a, "-o", 2) == 0) {
			out = a + 2;
		} else if (strcmp(a, "--v2") == 0 && argi + 1 < argc) {
			v2opt = argv[++argi];
		} else if (strcmp(a, "--v2-streaming") == 0) {
			v2stream_opt = 1;
		} else if (strcmp(a, "--") == 0) {
			argi++;
			break;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tracegen: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		} else {
			break;
		}
	}
	if (argi < argc)
		in = argv[argi++];
	if (argi < argc) {
		usage(stderr);
		return 2;
	}

	if (!in || strcmp(in, "-") == 0) {
		text = read_all(stdin, &len);
		in = "<stdin>";
	} else {
		f = fopen(in, "rb");
		if (!f) {
			fprintf(stderr, "tracegen: %s: %s\n", in, strerror(errno));
			return 2;
		}
		text = read_all(f, &len);
		fclose(f);
	}
	if (!text) {
		fprintf(stderr, "tracegen: %s: read error\n", in);
		return 2;
	}

	memset(&g, 0, sizeof g);
	g.recsize = -1;
	g.hversion = -1;
	g.hoffset = 32;
	memcpy(g.magic, "SLOW", 4);
	g.truncate = UINT64_MAX;
	g.gzlevel = Z_DEFAULT_COMPRESSION;
	if (parse_desc(&g, text, len) < 0) {
		free(text);
		tg_free(&g);
		return 2;
	}
	free(text);
	if (v2opt) {
		const char *why = v2_parse_gen(&g, v2opt) < 0 ? "unknown layout (a, b-us, b-ns or c)"
							     : v2_check(&g);
		if (why) {
			fprintf(stderr, "tracegen: %s: cannot write as V2: %s\n", in, why);
			tg_free(&g);
			return 3;
		}
		if (v2stream_opt && g.no_summary && g.layout != L_STREAMING)
			g.no_summary = 0;
		g.layout = L_V2;
		g.v2stream = v2stream_opt;
		/* the description's start is in µs; ns and C headers hold ns */
		if (g.v2ns || g.v2gen == 'C')
			g.start *= 1000;
	}
	if (g.layout == L_V2 && !g.v2gen)
		g.v2gen = 'B';
	derive(&g);
	if (g.layout == L_SPLIT && (!out || strcmp(out, "-") == 0)) {
		fputs("tracegen: layout split needs -o BASE (writes BASE.key and BASE.data)\n", stderr);
		tg_free(&g);
		return 2;
	}
	g.cur_w = xcalloc(NTHREADS, sizeof *g.cur_w);
	g.cur_c = xcalloc(NTHREADS, sizeof *g.cur_c);
	g.rst = xcalloc(NTHREADS, sizeof *g.rst);

	memset(&s1, 0, sizeof s1);
	memset(&s2, 0, sizeof s2);

	/* Regular and split keys need the count and elapsed time first. */
	if ((g.layout == L_REGULAR || g.layout == L_SPLIT) &&
	    (g.nokeys & (K_NUMCALLS | K_ELAPSED)) != (K_NUMCALLS | K_ELAPSED)) {
		g.dry = 1;
		run_reset(&g);
		run_ops(&g, 0, g.nops);
		g.dry = 0;
		if (g.rt_failed) {
			rc = 2;
			goto done;
		}
	}

	if (g.layout == L_SPLIT) {
		size_t n = strlen(out);
		keypath = xmalloc(n + 6);
		datapath = xmalloc(n + 6);
		snprintf(keypath, n + 6, "%s.key", out);
		snprintf(datapath, n + 6, "%s.data", out);
		if (sink_open(&s1, keypath, g.gzip, g.gzlevel, UINT64_MAX) < 0) {
			rc = 1;
			goto done;
		}
		made1 = 1;
		if (sink_open(&s2, datapath, g.gzip, g.gzlevel, g.truncate) < 0) {
			rc = 1;
			goto done;
		}
		made2 = 1;
	} else {
		if (sink_open(&s1, out, g.gzip, g.gzlevel, g.truncate) < 0) {
			rc = 1;
			goto done;
		}
		made1 = 1;
	}

	if (g.layout == L_REGULAR || g.layout == L_SPLIT) {
		struct buf key = { 0 };
		struct sink *data = g.layout == L_SPLIT ? &s2 : &s1;
		uint64_t nrec = g.nrec, maxwall = g.maxwall;

		run_reset(&g);
		g.nrec = nrec;
		g.maxwall = maxwall;
		build_key(&g, &key, 0);
		sink_put(&s1, key.p, key.len);
		free(key.p);
		write_header(&g, data);
		g.out = data;
		run_reset(&g);
		run_ops(&g, 0, g.nops);
	} else if (g.layout == L_STREAMING) {
		write_header(&g, &s1);
		g.out = &s1;
		run_reset(&g);
		run_ops(&g, 0, g.nops);
		if (!g.no_summary && !g.rt_failed) {
			struct buf sum = { 0 };
			unsigned char h[7];
			build_key(&g, &sum, 1);
			put16(h, 0);
			h[2] = 3;
			put32(h + 3, (uint32_t)sum.len);
			sink_put(&s1, h, sizeof h);
			sink_put(&s1, sum.p, sum.len);
			free(sum.p);
		}
	} else {
		write_header(&g, &s1);
		g.out = &s1;
		run_reset(&g);
		if (g.layout == L_V2 && v2_packets(&g))
			v2_begin(&g);
		run_ops(&g, 0, g.nops);
		if (g.v2 && !g.rt_failed)
			v2_summary(&g);
	}
	if (g.rt_failed)
		rc = g.rt_failed == 3 ? 3 : 2;

done:
	if (sink_close(&s1) < 0 && !rc)
		rc = 1;
	if (sink_close(&s2) < 0 && !rc)
		rc = 1;
	if (rc) {
		/* do not leave a half-written trace behind */
		if (g.layout == L_SPLIT) {
			if (made1)
				remove(keypath);
			if (made2)
				remove(datapath);
		} else if (made1 && out && strcmp(out, "-") != 0) {
			remove(out);
		}
	}
	free(keypath);
	free(datapath);
	v2_free(&g);
	tg_free(&g);
	return rc;
}

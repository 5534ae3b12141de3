/* trace_v2.c - the V2 packet layout (header versions 4, 5, 0xF4, 0xF5).
 *
 * After a 32-byte header come typed packets: THREAD-INFO (0), METHOD-INFO (1,
 * a 64-bit ArtMethod* id and its text), event blocks (2, one thread's records
 * delta-encoded in LEB128) and the SUMMARY (3, text, last).  Three layouts
 * share those version numbers (docs/v2-format.md gives the sources):
 *   A  Android 15: 21/25-byte block header holding the first record, µs;
 *   B  Android 15 QPR1 on: 12-byte block header, SLEB method|action delta,
 *      then ULEB wall and thread-CPU deltas, in µs (QPR1/QPR2) or ns (2025);
 *   C  what Perfetto reads: a counter frequency in the header, SLEB
 *      (ticks << 2 | action) first, a method delta on entries only.
 * C is told by a non-zero counter frequency at header offset 22; A from B by
 * which block header is consistent with the bytes that follow the first
 * block.  µs from ns (B) by the header start time, checked against the
 * summary's elapsed-time key at the end.
 *
 * Each 64-bit id gets a 32-bit key (what cg_record carries); the symtab keeps
 * the full id.  Memory is bounded by methods, threads and (C) stack depth.
 */
#include "trace_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symtab.h"
#include "util.h"

enum { GEN_UNKNOWN, GEN_A = 'A', GEN_B = 'B', GEN_C = 'C' };
enum { U_US, U_NS, U_TICKS };

#define HEADER_SIZE 32
#define MAX_REC_BYTES 30          /* three LEB128 values of at most 10 bytes */
#define CHUNK (1u << 20)
#define PROBE_MAX (16u << 20)     /* look-ahead allowed to tell A from B */
#define MAX_FREQ 1000000000000ULL /* 1 THz: above it the frequency is garbage */
#define NS_START 1000000000000ULL /* header start >= this: ns (B), see below */
#define MAX_STACK (1u << 24)

struct v2_meth {
	uint64_t id;
	uint64_t first_ref;   /* offset of the first record using it */
	uint32_t key;
	uint32_t defined;
};

struct v2_stack {
	uint32_t *key;
	size_t n, cap;
};

struct cg_v2 {
	int gen, unit, dual, streaming;
	uint64_t freq, start_raw;

	struct v2_meth *m;
	size_t nm, capm;
	uint32_t *slots;      /* open addressing: index + 1, 0 = empty */
	size_t nslots;
	uint64_t last_id;
	uint32_t last_key;
	int last_valid;

	uint32_t *tid_full;   /* by low 16 bits: full tid + 1, 0 = unseen */
	struct v2_stack *stacks; /* C: each thread's open entries */

	int in_block;
	uint32_t tid;
	uint64_t left, count, end, blk_off;
	uint64_t prev_ma, prev_wall, prev_cpu, prev_ta, prev_m;
	int pending_first;
	struct cg_record first;
};

/* ---- method ids -------------------------------------------------------- */

static size_t meth_slot(const struct cg_v2 *v, uint64_t id)
{
	size_t mask = v->nslots - 1, i = (size_t)hash64(id) & mask;

	while (v->slots[i] && v->m[v->slots[i] - 1].id != id)
		i = (i + 1) & mask;
	return i;
}

/* The entry of id, created (undefined, first used at `off`) when new. */
static struct v2_meth *meth_get(struct cg_trace *t, uint64_t id, uint64_t off, int *created)
{
	struct cg_v2 *v = t->v2;
	size_t s;
	struct v2_meth *e;

	*created = 0;
	s = meth_slot(v, id);
	if (v->slots[s])
		return &v->m[v->slots[s] - 1];
	if ((v->nm + 1) * 2 > v->nslots) {
		free(v->slots);
		v->nslots *= 2;
		v->slots = xcalloc(v->nslots, sizeof(*v->slots));
		for (size_t i = 0; i < v->nm; i++)
			v->slots[meth_slot(v, v->m[i].id)] = (uint32_t)i + 1;
		s = meth_slot(v, id);
	}
	v->m = xgrow(v->m, &v->capm, v->nm + 1, sizeof(*v->m));
	e = &v->m[v->nm];
	e->id = id;
	e->first_ref = off;
	e->key = (uint32_t)v->nm;
	e->defined = 0;
	v->slots[s] = (uint32_t)++v->nm;
	*created = 1;
	return e;
}

/* The key of a method id used by a record at `off`. */
static uint32_t meth_key(struct cg_trace *t, uint64_t id, uint64_t off)
{
	struct cg_v2 *v = t->v2;
	struct v2_meth *e;
	int created;

	if (v->last_valid && v->last_id == id)
		return v->last_key;
	e = meth_get(t, id, off, &created);
	if (created)
		symtab_set_id(t->st, symtab_method_index(t->st, e->key), id);
	v->last_id = id;
	v->last_key = e->key;
	v->last_valid = 1;
	return e->key;
}

/* ---- threads ----------------------------------------------------------- */

/* Threads are keyed by their low 16 bits downstream; two tids sharing them
 * cannot both be read. */
static int tid_check(struct cg_trace *t, uint32_t tid, uint64_t off, struct cg_error *err)
{
	uint32_t *slot = &t->v2->tid_full[tid & 0xffff];

	if (*slot == 0) {
		*slot = tid + 1;
		return 0;
	}
	if (*slot != tid + 1) {
		cg_error_set(err, (int64_t)off,
			     "thread ids %" PRIu32 " and %" PRIu32 " share their low 16 bits, "
			     "which callgraph keys threads by (not supported)",
			     *slot - 1, tid);
		return -1;
	}
	return 0;
}

/* ---- LEB128 -------------------------------------------------------------- */

/* 1: decoded; 0: ran into lim; -1: longer than 10 bytes.  A signed value
 * is sign-extended from the last byte's bit 6. */
static inline int leb(const unsigned char **pp, const unsigned char *lim, uint64_t *out,
		      int is_signed)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;

	for (int i = 0; i < 10; i++) {
		unsigned char b;

		if (p >= lim)
			return 0;
		b = *p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (is_signed && shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			*out = v;
			*pp = p;
			return 1;
		}
	}
	return -1;
}

static inline int uleb(const unsigned char **pp, const unsigned char *lim, uint64_t *out)
{
	return leb(pp, lim, out, 0);
}

static inline int sleb(const unsigned char **pp, const unsigned char *lim, uint64_t *out)
{
	return leb(pp, lim, out, 1);
}

/* ---- times ----------------------------------------------------------------- */

/* A raw time to whole µs, rounded down (ART's own ns -> µs conversion in
 * the v1-v3 writer divides too), kept modulo 2^32 as v1-v3 records are. */
static inline uint32_t to_us(const struct cg_v2 *v, uint64_t raw)
{
	switch (v->unit) {
	case U_NS:
		return (uint32_t)(raw / 1000);
	case U_TICKS: {
		uint64_t q = raw / v->freq, r = raw % v->freq;

		/* freq <= 10^12, so r * 10^6 < 2^64 */
		return (uint32_t)(q * 1000000u + r * 1000000u / v->freq);
	}
	default:
		return (uint32_t)raw;
	}
}

/* ---- records ----------------------------------------------------------------- */

/* Decode one record at *pp (bytes up to lim).  1: done (state committed);
 * 0: ran into lim; -1: a LEB128 over 10 bytes (err set). */
static int decode_ab(struct cg_trace *t, const unsigned char **pp, const unsigned char *lim,
		     uint64_t off, struct cg_record *r, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	const unsigned char *p = *pp, *at;
	uint64_t d, ma, wall, cpu = 0;
	int rc;

	at = p;
	if ((rc = sleb(&p, lim, &d)) <= 0)
		goto leb;
	ma = v->prev_ma + d;
	at = p;
	if ((rc = uleb(&p, lim, &d)) <= 0)
		goto leb;
	wall = v->prev_wall + d;
	if (v->dual) {
		at = p;
		if ((rc = uleb(&p, lim, &d)) <= 0)
			goto leb;
		cpu = v->prev_cpu + d;
	}
	v->prev_ma = ma;
	v->prev_wall = wall;
	v->prev_cpu = cpu;
	r->tid = v->tid;
	r->action = (uint8_t)(ma & 3);
	r->method = meth_key(t, ma & ~(uint64_t)3, off);
	r->t_wall = to_us(v, wall);
	r->t_cpu = v->dual ? to_us(v, cpu) : r->t_wall;
	r->offset = off;
	*pp = p;
	return 1;
leb:
	if (rc < 0)
		cg_error_set(err, (int64_t)(off + (uint64_t)(at - *pp)),
			     "LEB128 value longer than 10 bytes in an event block");
	*pp = at;
	return rc;
}

static int decode_c(struct cg_trace *t, const unsigned char **pp, const unsigned char *lim,
		    uint64_t off, struct cg_record *r, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	const unsigned char *p = *pp, *at;
	uint64_t d, ta, m = v->prev_m;
	struct v2_stack *s = &v->stacks[v->tid & 0xffff];
	int rc, action;
	uint32_t key;

	at = p;
	if ((rc = sleb(&p, lim, &d)) <= 0)
		goto leb;
	ta = v->prev_ta + d;
	action = (int)(ta & 3);
	if (v->dual) {   /* thread-CPU: its unit is not established; skipped */
		at = p;
		if ((rc = sleb(&p, lim, &d)) <= 0)
			goto leb;
	}
	if (action == CG_ENTER) {
		at = p;
		if ((rc = sleb(&p, lim, &d)) <= 0)
			goto leb;
		m += d;
		if (s->n >= MAX_STACK) {
			cg_error_set(err, (int64_t)off,
				     "call stack of thread %" PRIu32 " deeper than %u frames (hard limit)",
				     v->tid, MAX_STACK);
			return -1;
		}
	}
	v->prev_ta = ta;
	v->prev_m = m;
	if (action == CG_ENTER) {
		key = meth_key(t, m, off);
		s->key = xgrow(s->key, &s->cap, s->n + 1, sizeof(*s->key));
		s->key[s->n++] = key;
	} else if (s->n) {
		key = s->key[--s->n];   /* exits carry no method */
	} else {
		key = meth_key(t, m, off); /* as Perfetto: the block's last method */
	}
	r->tid = v->tid;
	r->action = (uint8_t)action;
	r->method = key;
	r->t_wall = r->t_cpu = to_us(v, ta >> 2);
	r->offset = off;
	*pp = p;
	return 1;
leb:
	if (rc < 0)
		cg_error_set(err, (int64_t)(off + (uint64_t)(at - *pp)),
			     "LEB128 value longer than 10 bytes in an event block");
	*pp = at;
	return rc;
}

/* ---- packets ------------------------------------------------------------------- */

static int past_end(struct cg_trace *t, uint64_t off, const char *what, uint64_t need,
		    ssize_t avail, struct cg_error *err)
{
	cg_error_set(err, (int64_t)off,
		     "%s needs %" PRIu64 " bytes but the file ends %zd bytes later", what, need, avail);
	(void)t;
	return -1;
}

/* THREAD-INFO: u1 0, u4 tid, u2 len, name. */
static int thread_info(struct cg_trace *t, struct cg_error *err)
{
	uint64_t off = trace_off(t, t->pos);
	ssize_t a = trace_ensure(t, 7, err);
	size_t len;
	uint32_t tid;
	char *name;

	if (a < 0)
		return -1;
	if (a < 7)
		return past_end(t, off, "thread-info packet header", 7, a, err);
	tid = get_le32(t->buf + t->pos + 1);
	len = get_le16(t->buf + t->pos + 5);
	a = trace_ensure(t, 7 + len, err);
	if (a < 0)
		return -1;
	if ((size_t)a < 7 + len)
		return past_end(t, off, "thread-info packet", 7 + len, a, err);
	if (tid_check(t, tid, off, err))
		return -1;
	name = xstrndup((const char *)t->buf + t->pos + 7, len);
	for (size_t i = 0; i < len; i++)
		if (name[i] == '\0')
			name[i] = '?';
	symtab_define_thread(t->st, tid, name, 1);
	free(name);
	t->pos += 7 + len;
	return 0;
}

/* METHOD-INFO: u1 1, u8 id, u2 len, "class\tname\tsig\tsource[\tline]\n". */
static int method_info(struct cg_trace *t, struct cg_error *err)
{
	uint64_t off = trace_off(t, t->pos), id;
	ssize_t a = trace_ensure(t, 11, err);
	size_t len;
	char *text, *f[5] = { 0 };
	int nf = 0, created;
	struct v2_meth *e;
	long line = 0;

	if (a < 0)
		return -1;
	if (a < 11)
		return past_end(t, off, "method-info packet header", 11, a, err);
	id = get_le64(t->buf + t->pos + 1);
	len = get_le16(t->buf + t->pos + 9);
	a = trace_ensure(t, 11 + len, err);
	if (a < 0)
		return -1;
	if ((size_t)a < 11 + len)
		return past_end(t, off, "method-info packet", 11 + len, a, err);
	text = xstrndup((const char *)t->buf + t->pos + 11, len);
	for (size_t i = 0; i < len; i++)
		if (text[i] == '\0')
			text[i] = '?';
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	f[nf++] = text;
	for (char *s = text; nf < 5 && (s = strchr(s, '\t')) != NULL;) {
		*s++ = '\0';
		f[nf++] = s;
	}
	if (nf == 5)
		line = strtol(f[4], NULL, 10);
	e = meth_get(t, id, off, &created);
	e->defined = 1;
	symtab_define_method_id(t->st, e->key, id, f[0], nf > 1 ? f[1] : "", nf > 2 ? f[2] : "",
				nf > 3 ? f[3] : "", (int)line);
	free(text);
	t->pos += 11 + len;
	return 0;
}

/* Is the block header at t->pos consistent with layout B (12 bytes) or A
 * (21/25 bytes): does its size fit its record count (2 to 30 bytes a record)
 * and land on the end of the file or on a packet type? */
static int block_fits(struct cg_trace *t, int gen, struct cg_error *err)
{
	size_t hsz = gen == GEN_A ? (t->v2->dual ? 25 : 21) : 12;
	ssize_t a = trace_ensure(t, hsz, err);
	const unsigned char *p;
	uint64_t size, count;

	if (a < (ssize_t)hsz)
		return 0;
	p = t->buf + t->pos;
	if (gen == GEN_A) {
		size = get_le16(p + hsz - 2);
		count = get_le16(p + hsz - 4);   /* records after the first */
	} else {
		size = get_le32(p + 8);
		count = (uint64_t)p[5] | (uint64_t)p[6] << 8 | (uint64_t)p[7] << 16;
	}
	if (size < 2 * count || size > 30 * count || hsz + size > PROBE_MAX)
		return 0;
	a = trace_ensure(t, hsz + (size_t)size + 1, err);
	if (a < 0)
		return 0;
	return (size_t)a == hsz + size || ((size_t)a > hsz + size && t->buf[t->pos + hsz + size] <= 3);
}

static int block_header(struct cg_trace *t, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	uint64_t off = trace_off(t, t->pos), size;
	size_t hsz = 12;
	const unsigned char *p;
	ssize_t a;

	if (v->gen == GEN_UNKNOWN) {
		if (block_fits(t, GEN_B, err))
			v->gen = GEN_B;
		else if (block_fits(t, GEN_A, err))
			v->gen = GEN_A;
		else
			v->gen = GEN_B;   /* and let the checks below say what is wrong */
		t->info.v2_gen = v->gen;
	}
	if (v->gen == GEN_A)
		hsz = v->dual ? 25 : 21;
	a = trace_ensure(t, hsz, err);
	if (a < 0)
		return -1;
	if ((size_t)a < hsz)
		return past_end(t, off, "event block header", hsz, a, err);
	p = t->buf + t->pos;
	v->tid = get_le32(p + 1);
	if (tid_check(t, v->tid, off, err))
		return -1;
	v->prev_ma = v->prev_wall = v->prev_cpu = v->prev_ta = v->prev_m = 0;
	if (v->gen == GEN_A) {
		/* u8 first method|action, [u4 cpu], [u4 wall], u2 count - 1, u2 size */
		const unsigned char *q = p + 13;
		uint64_t cpu = 0, wall;

		v->prev_ma = get_le64(p + 5);
		if (v->dual) {
			cpu = get_le32(q);
			q += 4;
		}
		wall = get_le32(q);
		q += 4;
		v->count = (uint64_t)get_le16(q) + 1;
		size = get_le16(q + 2);
		v->prev_wall = wall;
		v->prev_cpu = cpu;
		v->first.tid = v->tid;
		v->first.action = (uint8_t)(v->prev_ma & 3);
		v->first.method = meth_key(t, v->prev_ma & ~(uint64_t)3, off);
		v->first.t_wall = to_us(v, wall);
		v->first.t_cpu = v->dual ? to_us(v, cpu) : v->first.t_wall;
		v->first.offset = off;
		v->pending_first = 1;
		v->left = v->count - 1;
	} else {
		v->count = (uint64_t)p[5] | (uint64_t)p[6] << 8 | (uint64_t)p[7] << 16;
		size = get_le32(p + 8);
		v->left = v->count;
	}
	if (v->gen == GEN_C && !v->stacks)
		v->stacks = xcalloc(65536, sizeof(*v->stacks));
	v->blk_off = off;
	v->end = off + hsz + size;
	v->in_block = 1;
	t->pos += hsz;
	return 0;
}

/* The first method used but never defined, as an error; 0 when none. */
static int check_defined(struct cg_trace *t, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	const struct v2_meth *worst = NULL;

	for (size_t i = 0; i < v->nm; i++)
		if (!v->m[i].defined && (!worst || v->m[i].first_ref < worst->first_ref))
			worst = &v->m[i];
	if (!worst)
		return 0;
	cg_error_set(err, (int64_t)worst->first_ref,
		     "method id 0x%" PRIx64 " is used but no method-info packet defines it", worst->id);
	return -1;
}

/* SUMMARY: u1 3, u2 len, text "*version ... *end".  Last in the file. */
static int summary(struct cg_trace *t, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	uint64_t off = trace_off(t, t->pos);
	ssize_t a = trace_ensure(t, 3, err);
	size_t len, keep_len;
	int keep_eof, rc, version = t->info.version;
	const char *text;

	if (a < 0)
		return -1;
	if (a < 3)
		return past_end(t, off, "summary packet header", 3, a, err);
	len = get_le16(t->buf + t->pos + 1);
	a = trace_ensure(t, 3 + len, err);
	if (a < 0)
		return -1;
	if ((size_t)a < 3 + len) {
		cg_error_set(err, (int64_t)off + 1,
			     "summary length %zu runs past the end of the file (%zd bytes follow)",
			     len, a - 3);
		return -1;
	}
	t->pos += 3;
	keep_len = t->len;
	keep_eof = t->eof;
	t->len = t->pos + len;
	t->eof = 1;
	strbuf_reset(&t->key);
	t->info.version = 0;
	rc = trace_parse_key(t, 1, err);
	t->len = keep_len;
	t->eof = keep_eof;
	if (rc)
		return -1;
	if (t->info.version != version) {
		cg_error_set(err, (int64_t)off + 3,
			     "summary *version %d does not match the header's version %d",
			     t->info.version, version);
		return -1;
	}
	t->info.has_summary = 1;
	text = t->key.data ? t->key.data : "";
	if (v->gen != GEN_C) {
		int says_ns = strstr(text, "\nelapsed-time-nsec=") != NULL;
		int says_us = strstr(text, "\nelapsed-time-usec=") != NULL;

		if ((says_ns && v->unit != U_NS) || (says_us && v->unit != U_US)) {
			cg_error_set(err, (int64_t)off + 3,
				     "the summary gives elapsed-time-%s, but the header's start time "
				     "%" PRIu64 " was read as %s: this file's time unit cannot be told "
				     "from its header",
				     says_ns ? "nsec" : "usec", v->start_raw, v->unit == U_NS ? "ns" : "us");
			return -1;
		}
	}
	if (v->gen == GEN_C)
		t->info.clock = CG_CLOCK_WALL;
	else if (v->dual)
		t->info.clock = CG_CLOCK_DUAL;
	a = trace_ensure(t, 1, err);
	if (a < 0)
		return -1;
	if (a > 0) {
		cg_error_set(err, (int64_t)trace_off(t, t->pos), "data after the summary");
		return -1;
	}
	return 0;
}

int v2_open(struct cg_trace *t, struct cg_error *err)
{
	struct cg_v2 *v;
	ssize_t a = trace_ensure(t, HEADER_SIZE, err);
	const unsigned char *h;
	unsigned hv;

	if (a < 0)
		return -1;
	if (a < HEADER_SIZE) {
		cg_error_set(err, 0, "truncated V2 header (%zd of %d bytes)", a, HEADER_SIZE);
		return -1;
	}
	h = t->buf + t->pos;
	v = t->v2 = xcalloc(1, sizeof(*v));
	hv = get_le16(h + 4);
	v->streaming = (hv & 0xf0) == 0xf0;
	v->dual = (hv & 0x0f) == 5;
	v->start_raw = get_le64(h + 6);
	v->freq = get_le64(h + 22);
	v->nslots = 1024;
	v->slots = xcalloc(v->nslots, sizeof(*v->slots));
	v->tid_full = xcalloc(65536, sizeof(*v->tid_full));
	t->info.layout = v->streaming ? CG_LAYOUT_STREAMING : CG_LAYOUT_REGULAR;
	t->info.header_version = (int)hv;
	t->info.version = (int)(hv & 0x0f);
	t->info.record_size = 0;
	t->info.clock = v->dual ? CG_CLOCK_DUAL : CG_CLOCK_UNKNOWN;
	if (v->freq) {
		if (v->freq > MAX_FREQ) {
			cg_error_set(err, 22, "V2 header counter frequency %" PRIu64 " Hz is implausible "
					      "(corrupt header?)", v->freq);
			return -1;
		}
		/* Perfetto: time = header start (ns) + ticks * 10^9 / frequency. */
		v->gen = GEN_C;
		v->unit = U_TICKS;
		t->info.clock = CG_CLOCK_WALL;
		t->info.start_us = v->start_raw / 1000;
		t->info.v2_gen = GEN_C;
	} else {
		/* B wrote its start time in µs (Android 15 QPR1/QPR2) and later in
		 * ns.  CLOCK_MONOTONIC at or above 10^12 ns is 16.7 minutes of
		 * uptime; as µs it would be 11.6 days.  The summary confirms. */
		v->unit = v->start_raw >= NS_START ? U_NS : U_US;
		t->info.start_us = v->unit == U_NS ? v->start_raw / 1000 : v->start_raw;
	}
	t->info.v2_ns = v->unit == U_NS;
	t->pos += HEADER_SIZE;
	return 0;
}

int v2_next(struct cg_trace *t, struct cg_record *recs, size_t max, size_t *n,
	    struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	size_t k = 0;

	*n = 0;
	while (t->state == ST_RECORDS && k < max) {
		ssize_t a;
		int type;

		if (v->pending_first) {
			recs[k++] = v->first;
			v->pending_first = 0;
			continue;
		}
		if (v->in_block) {
			uint64_t cur = trace_off(t, t->pos), inblk, need;
			const unsigned char *p, *lim, *blk_end_ptr;

			if (v->left == 0) {
				if (cur != v->end) {
					cg_error_set(err, (int64_t)v->blk_off,
						     "event block: its record count (%" PRIu64 ") ends at offset %"
						     PRIu64 ", its size at offset %" PRIu64 " (%" PRIu64
						     " bytes left over)", v->count, cur, v->end, v->end - cur);
					goto fail;
				}
				v->in_block = 0;
				continue;
			}
			if (cur >= v->end) {
				cg_error_set(err, (int64_t)v->blk_off,
					     "event block: its size (%" PRIu64 " bytes) ends after %" PRIu64
					     " of its %" PRIu64 " records",
					     v->end - v->blk_off - (v->gen == GEN_A ? (v->dual ? 25 : 21) : 12),
					     v->count - v->left, v->count);
				goto fail;
			}
			inblk = v->end - cur;
			if (t->len - t->pos < inblk && t->len - t->pos < MAX_REC_BYTES) {
				need = inblk < CHUNK ? inblk : CHUNK;
				a = trace_ensure(t, (size_t)need, err);
				if (a < 0)
					goto fail;
				if ((uint64_t)a < need) {
					cg_error_set(err, (int64_t)v->blk_off,
						     "event block size %" PRIu64 " runs past the end of the "
						     "file at offset %" PRIu64,
						     v->end - v->blk_off - (v->gen == GEN_A ? (v->dual ? 25 : 21) : 12),
						     trace_off(t, t->len));
					goto fail;
				}
			}
			p = t->buf + t->pos;
			blk_end_ptr = p + inblk;
			lim = t->len - t->pos < inblk ? t->buf + t->len : blk_end_ptr;
			while (k < max && v->left > 0 && p < blk_end_ptr) {
				const unsigned char *q = p;
				uint64_t off = trace_off(t, (size_t)(p - t->buf));
				int rc = v->gen == GEN_C ? decode_c(t, &q, lim, off, &recs[k], err)
							 : decode_ab(t, &q, lim, off, &recs[k], err);

				if (rc < 0) {
					t->pos = (size_t)(p - t->buf);
					goto fail;
				}
				if (rc == 0) {
					if (lim == blk_end_ptr) {
						cg_error_set(err, (int64_t)trace_off(t, (size_t)(q - t->buf)),
							     "truncated LEB128 value at the end of an event block");
						t->pos = (size_t)(p - t->buf);
						goto fail;
					}
					break;
				}
				p = q;
				k++;
				v->left--;
			}
			t->pos = (size_t)(p - t->buf);
			continue;
		}
		a = trace_ensure(t, 1, err);
		if (a < 0)
			goto fail;
		if (a == 0) {
			t->info.truncated = 1;  /* no summary */
			t->state = ST_DONE;
			break;
		}
		type = t->buf[t->pos];
		switch (type) {
		case 0:
			if (thread_info(t, err))
				goto fail;
			break;
		case 1:
			if (method_info(t, err))
				goto fail;
			break;
		case 2:
			if (block_header(t, err))
				goto fail;
			break;
		case 3:
			if (summary(t, err))
				goto fail;
			t->state = ST_DONE;
			break;
		default:
			cg_error_set(err, (int64_t)trace_off(t, t->pos),
				     "unknown V2 packet type %d (corrupt file?)", type);
			goto fail;
		}
	}
	t->info.records += k;
	*n = k;
	if (t->state == ST_DONE) {
		if (check_defined(t, err))
			return -1;
		if (t->info.records_declared >= 0 &&
		    t->info.records < (uint64_t)t->info.records_declared)
			t->info.truncated = 1;
		return 0;
	}
	return 1;
fail:
	t->info.records += k;
	*n = k;
	return -1;
}

void v2_free(struct cg_v2 *v)
{
	if (!v)
		return;
	if (v->stacks)
		for (size_t i = 0; i < 65536; i++)
			free(v->stacks[i].key);
	free(v->stacks);
	free(v->tid_full);
	free(v->m);
	free(v->slots);
	free(v);
}

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
 * block.  B's unit, µs or ns, is the one its summary names; the summary is
 * the last packet, read before any record (trace_v2meta.c).
 *
 * Each 64-bit id gets a 32-bit key (what cg_record carries); the symtab keeps
 * the full id.  Thread ids are carried whole (32 bits).  Memory is bounded
 * by methods, threads and (C) stack depth.
 */
#include "read/trace_v2int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/symtab.h"
#include "util/util.h"

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

/* A LEB128 read stopped at `at` with rc (0: the block ends mid-value, -1:
 * a value longer than 10 bytes, an error at its offset).  Leaves *pp at
 * `at` and returns rc. */
static int leb_stop(int rc, const unsigned char *at, const unsigned char **pp, uint64_t off,
		    struct cg_error *err)
{
	if (rc < 0)
		cg_error_set(err, (int64_t)(off + (uint64_t)(at - *pp)),
			     "LEB128 value longer than 10 bytes in an event block");
	*pp = at;
	return rc;
}

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
	r->method = v2_meth_key(t, ma & ~(uint64_t)3, off);
	r->t_wall = to_us(v, wall);
	r->t_cpu = v->dual ? to_us(v, cpu) : r->t_wall;
	r->offset = off;
	*pp = p;
	return 1;
leb:
	return leb_stop(rc, at, pp, off, err);
}

static int decode_c(struct cg_trace *t, const unsigned char **pp, const unsigned char *lim,
		    uint64_t off, struct cg_record *r, struct cg_error *err)
{
	struct cg_v2 *v = t->v2;
	const unsigned char *p = *pp, *at;
	uint64_t d, ta, m = v->prev_m;
	struct v2_stack *s = &v->stacks[v->cur_stack];
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
		key = v2_meth_key(t, m, off);
		s->key = xgrow(s->key, &s->cap, s->n + 1, sizeof(*s->key));
		s->key[s->n++] = key;
	} else if (s->n) {
		key = s->key[--s->n];   /* exits carry no method */
	} else {
		key = v2_meth_key(t, m, off); /* as Perfetto: the block's last method */
	}
	r->tid = v->tid;
	r->action = (uint8_t)action;
	r->method = key;
	r->t_wall = r->t_cpu = to_us(v, ta >> 2);
	r->offset = off;
	*pp = p;
	return 1;
leb:
	return leb_stop(rc, at, pp, off, err);
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
		if (v2_set_unit(t, off, err))
			return -1;
	}
	if (v->gen == GEN_A)
		hsz = v->dual ? 25 : 21;
	a = trace_ensure(t, hsz, err);
	if (a < 0)
		return -1;
	if ((size_t)a < hsz)
		return v2_past_end(t, off, "event block header", hsz, a, err);
	p = t->buf + t->pos;
	v->tid = get_le32(p + 1);
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
		v->first.method = v2_meth_key(t, v->prev_ma & ~(uint64_t)3, off);
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
	if (v->gen == GEN_C)
		v->cur_stack = v2_stack_of(v, v->tid);
	v->blk_off = off;
	v->end = off + hsz + size;
	v->in_block = 1;
	t->pos += hsz;
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
	v->stack_tab.key4 = 1;
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
		t->pos += HEADER_SIZE;
		return 0;
	}
	/* B wrote µs (Android 15 QPR1/QPR2) and later ns, with nothing but the
	 * summary's elapsed-time key to tell them apart; A wrote µs.  Which
	 * layout this is shows at the first event block. */
	t->pos += HEADER_SIZE;
	if (v2_find_unit(t, err))
		return -1;
	if (v->unit != U_NONE)
		v2_set_start(t);
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
			if (v2_thread_info(t, err))
				goto fail;
			break;
		case 1:
			if (v2_method_info(t, err))
				goto fail;
			break;
		case 2:
			if (block_header(t, err))
				goto fail;
			break;
		case 3:
			if (v2_summary(t, err))
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
		if (v2_check_defined(t, err))
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
	for (size_t i = 0; i < v->nstacks; i++)
		free(v->stacks[i].key);
	free(v->stacks);
	itab_free(&v->stack_tab);
	free(v->m);
	free(v->slots);
	free(v);
}

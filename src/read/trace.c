/* trace.c - the dmtrace reader: binary header, records, streaming items
 * (the key text is trace_key.c's, the input window trace_buf.c's).  One
 * pass over a bounded buffer; every failure is returned with the byte
 * offset where it was found. */
#include "read/trace.h"
#include "read/trace_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/util.h"

#define BUF_MIN (1u << 20)
/* A streaming summary is read whole into the buffer; past this size the
 * input is not a plausible trace.  The largest real summaries (ART >= A14
 * lists every method again) are a few MB. */
#define MAX_SUMMARY (64u << 20)
#define MAX_RECORD_SIZE 64

static int set_record_layout(struct cg_trace *t, int version, int field, uint64_t off,
			     struct cg_error *err)
{
	int dual;

	if (version == 1) {
		t->rec_size = 9;
		t->tid_bytes = 1;
	} else if (version == 2 && t->info.layout != CG_LAYOUT_STREAMING) {
		t->rec_size = 10;
		t->tid_bytes = 2;
	} else {
		t->rec_size = field;
		t->tid_bytes = 2;
	}
	if (t->info.clock == CG_CLOCK_UNKNOWN && t->info.layout != CG_LAYOUT_STREAMING)
		t->info.clock = t->rec_size >= 14 ? CG_CLOCK_DUAL : CG_CLOCK_CPU;
	dual = t->info.clock == CG_CLOCK_DUAL ||
	       (t->info.layout == CG_LAYOUT_STREAMING && t->rec_size >= 14);
	if (t->rec_size < (dual ? 14 : 2 + t->tid_bytes + 6) || t->rec_size > MAX_RECORD_SIZE) {
		cg_error_set(err, (int64_t)off, "record size %d is invalid for a %s trace (corrupt header?)",
			     t->rec_size, dual ? "dual-clock" : "single-clock");
		return -1;
	}
	if (dual && t->info.clock == CG_CLOCK_UNKNOWN)
		t->info.clock = CG_CLOCK_DUAL;
	t->dual = dual;
	t->info.record_size = t->rec_size;
	return 0;
}

/* The 32-byte binary header (regular: after *end; streaming: at byte 0). */
static int parse_header(struct cg_trace *t, struct cg_error *err)
{
	uint64_t off = trace_off(t, t->pos);
	const unsigned char *h;
	ssize_t avail = trace_ensure(t, 32, err);
	int version, hv, data_off, field = 0;

	if (avail < 0)
		return -1;
	h = t->buf + t->pos;
	if (avail > 0 && avail < 4 && memcmp(h, "SLOW", (size_t)avail) == 0) {
		cg_error_set(err, (int64_t)off, "truncated binary header (%zd of 32 bytes)", avail);
		return -1;
	}
	if (avail < 4 || memcmp(h, "SLOW", 4) != 0) {
		char shown[5] = { 0 };
		int i;

		for (i = 0; i < 4 && i < avail; i++)
			shown[i] = isprint(h[i]) ? (char)h[i] : '.';
		cg_error_set(err, (int64_t)off,
			     avail == 0 ? "no binary data after the key section"
					: "bad magic \"%s\": expected SLOW after the key section",
			     shown);
		return -1;
	}
	if (avail < 8) {
		cg_error_set(err, (int64_t)off, "truncated binary header (%zd of 32 bytes)", avail);
		return -1;
	}
	hv = get_le16(h + 4);
	data_off = get_le16(h + 6);
	t->info.header_version = hv;
	if (t->info.layout == CG_LAYOUT_STREAMING) {
		version = hv & 0x0f;
		if ((hv & 0xf0) != 0xf0 || version == 4 || version == 5 || version > 5 ||
		    version == 0 || version == 1) {
			if (version == 4 || version == 5)
				cg_error_set(err, (int64_t)off + 4,
					     "trace format V2 (version 0x%x) is not supported yet", hv);
			else
				cg_error_set(err, (int64_t)off + 4, "unknown trace version 0x%x", hv);
			return -1;
		}
		t->info.version = version;
	} else {
		version = t->info.version;
		if (hv != version && (isprint(h[4]) || h[4] == '\n') && (isprint(h[5]) || h[5] == '\n')) {
			cg_error_set(err, (int64_t)off + 4,
				     "text follows SLOW where the binary header should be "
				     "(a key section without its data?)");
			return -1;
		}
		if (hv != version) {
			cg_error_set(err, (int64_t)off + 4,
				     "header version %d does not match *version %d (corrupt file?)", hv,
				     version);
			return -1;
		}
	}
	if (data_off < 16 || ((hv >= 3) && data_off < 18)) {
		cg_error_set(err, (int64_t)off + 6, "header data offset %d is too small (corrupt file?)",
			     data_off);
		return -1;
	}
	avail = trace_ensure(t, (size_t)data_off, err);
	if (avail < 0)
		return -1;
	if (avail < data_off) {
		cg_error_set(err, (int64_t)off, "truncated binary header (%zd of %d bytes)", avail,
			     data_off);
		return -1;
	}
	h = t->buf + t->pos; /* ensure() may have moved or reallocated the buffer */
	t->info.start_us = get_le64(h + 8);
	if (hv >= 3)
		field = get_le16(h + 16);
	if (set_record_layout(t, version, field, off + 16, err))
		return -1;
	t->pos += (size_t)data_off;
	return 0;
}

/* 4, 5, 0xF4, 0xF5: the V2 packet layout. */
static int is_v2_version(unsigned hv)
{
	return (hv & 0x0f) >= 4 && (hv & 0x0f) <= 5 && ((hv & 0xf0) == 0 || (hv & 0xf0) == 0xf0) &&
	       hv < 0x100;
}

/* A headerless file that starts like a V2 packet: a METHOD-INFO (u1 1, u8 id,
 * u2 len, text with tabs) or an event block (u1 2, u4 tid, u3 count, u4 size
 * within the file). */
static int looks_like_v2_packet(struct cg_trace *t)
{
	struct cg_error ignore;
	ssize_t avail = trace_ensure(t, 64, &ignore);
	const unsigned char *p = t->buf;

	if (avail < 12)
		return 0;
	if (p[0] == 1) {
		size_t len = get_le16(p + 9), i;

		for (i = 11; i < (size_t)avail && i < 11 + len; i++)
			if (p[i] == '\t')
				return 1;
		return 0;
	}
	return get_le32(p + 8) > 0 && (p[5] | p[6] | p[7]) != 0;
}

struct cg_trace *trace_open(struct cg_source *src, struct cg_error *err)
{
	return trace_open_renamed(src, NULL, NULL, err);
}

struct cg_trace *trace_open_renamed(struct cg_source *src, cg_rename_fn rename, void *ctx,
				    struct cg_error *err)
{
	struct cg_trace *t = xcalloc(1, sizeof(*t));
	ssize_t avail;

	t->src = src;
	t->st = symtab_create();
	symtab_set_rename(t->st, rename, ctx);
	t->cap = BUF_MIN;
	t->buf = xmalloc(t->cap);
	strbuf_init(&t->key);
	t->info.records_declared = -1;
	t->info.elapsed_us = -1;
	t->info.pid = -1;
	t->info.vm = "";
	t->info.gzip = source_kind(src) == 1;
	t->info.layout = source_kind(src) == 2 ? CG_LAYOUT_SPLIT : CG_LAYOUT_REGULAR;

	avail = trace_ensure(t, 9, err);
	if (avail < 0)
		goto fail;
	if (avail >= 6 && memcmp(t->buf, "SLOW", 4) == 0 && is_v2_version(get_le16(t->buf + 4))) {
		if (v2_open(t, err))
			goto fail;
		t->state = ST_RECORDS;
		return t;
	} else if (avail >= 6 && memcmp(t->buf, "SLOW", 4) == 0 && get_le16(t->buf + 4) == 0xf6) {
		cg_error_set(err, 4, "ART long-running-method dump (version 0xf6): not supported "
				     "(its layout is not a stable file format)");
		goto fail;
	} else if (avail >= 4 && memcmp(t->buf, "SLOW", 4) == 0) {
		t->info.layout = CG_LAYOUT_STREAMING;
	} else if (avail >= 1 && (t->buf[0] == 1 || t->buf[0] == 2) && looks_like_v2_packet(t)) {
		cg_error_set(err, 0, t->buf[0] == 1
				     ? "V2 method-info packet at the start, before any header: a "
				       "non-streaming V2 file of Android 15's first release, whose layout "
				       "is not supported"
				     : "V2 event block at the start, with no header: an ART TraceProfiler "
				       "dump, which is not supported");
		goto fail;
	} else if (avail >= 9 && memcmp(t->buf, "*version", 8) == 0 &&
		   (t->buf[8] == '\n' || t->buf[8] == '\r')) {
		if (trace_parse_key(t, 0, err))
			goto fail;
	} else {
		cg_error_set(err, 0, avail == 0 ? "empty file"
				     : "not an Android method trace (no *version or SLOW at the start)");
		goto fail;
	}
	if (parse_header(t, err))
		goto fail;
	t->state = ST_RECORDS;
	return t;
fail:
	trace_free(t);
	return NULL;
}

void trace_free(struct cg_trace *t)
{
	if (!t)
		return;
	v2_free(t->v2);
	source_free(t->spool);
	symtab_free(t->st);
	strbuf_free(&t->key);
	free(t->vm);
	free(t->buf);
	free(t);
}

static inline void decode(const struct cg_trace *t, const unsigned char *p, struct cg_record *r)
{
	const struct cg_raw_layout l = { (size_t)t->rec_size, (unsigned)t->tid_bytes, t->dual };

	trace_raw_decode(&l, p, r);
}

void trace_raw_layout(const struct cg_trace *t, struct cg_raw_layout *l)
{
	l->size = (size_t)t->rec_size;
	l->tid_bytes = (unsigned)t->tid_bytes;
	l->dual = t->dual;
}

/* Streaming escape items.  Returns 1 when an item was consumed, 0 when more
 * input is needed but the stream ended (truncated), -1 on error. */
static int streaming_item(struct cg_trace *t, struct cg_error *err)
{
	uint64_t off = trace_off(t, t->pos);
	const unsigned char *p;
	ssize_t avail = trace_ensure(t, 3, err);
	size_t len;
	int op;

	if (avail < 0)
		return -1;
	if (avail < 3)
		return 0;
	op = t->buf[t->pos + 2];
	if (op == 1 || op == 2) {
		size_t hdr = op == 1 ? 5 : 7;

		avail = trace_ensure(t, hdr, err);
		if (avail < 0)
			return -1;
		if ((size_t)avail < hdr)
			return 0;
		p = t->buf + t->pos;
		len = get_le16(p + hdr - 2);
		avail = trace_ensure(t, hdr + len, err);
		if (avail < 0)
			return -1;
		if ((size_t)avail < hdr + len)
			return 0;
		p = t->buf + t->pos;
		{
			char *s = xstrndup((const char *)p + hdr, len);
			int rc;

			mem_replace(s, len, '\0', '?');
			if (len > 0 && s[len - 1] == '\n')
				s[len - 1] = '\0';
			if (op == 1)
				rc = trace_parse_method_line(t, s, off + hdr, err);
			else
				rc = (symtab_define_thread(t->st, get_le16(p + 3), s, 1), 0);
			free(s);
			if (rc)
				return -1;
		}
		t->pos += hdr + len;
		return 1;
	}
	if (op == 3) {
		uint64_t slen;

		avail = trace_ensure(t, 7, err);
		if (avail < 0)
			return -1;
		if (avail < 7)
			return 0;
		slen = get_le32(t->buf + t->pos + 3);
		if (slen > MAX_SUMMARY) {
			cg_error_set(err, (int64_t)off + 3,
				     "summary length %llu is over the %u-byte limit (corrupt file?)",
				     (unsigned long long)slen, MAX_SUMMARY);
			return -1;
		}
		avail = trace_ensure(t, 7 + (size_t)slen, err);
		if (avail < 0)
			return -1;
		if ((size_t)avail < 7 + slen)
			return 0;
		/* Parse the summary as a key section confined to its own bytes. */
		t->pos += 7;
		if (trace_parse_summary(t, (size_t)slen, err))
			return -1;
		t->pos = t->pos > t->len ? t->len : t->pos;
		t->info.has_summary = 1;
		t->state = ST_DONE;
		return 1;
	}
	cg_error_set(err, (int64_t)off + 2, "unknown streaming item type %d (corrupt file?)", op);
	return -1;
}

int trace_next(struct cg_trace *t, struct cg_record *recs, size_t max, size_t *n,
	       struct cg_error *err)
{
	size_t k = 0;
	const size_t rs = (size_t)t->rec_size;

	if (t->v2)
		return v2_next(t, recs, max, n, err);
	*n = 0;
	while (t->state == ST_RECORDS && k < max) {
		const unsigned char *p;
		size_t avail = t->len - t->pos;

		if (avail < rs || (t->info.layout == CG_LAYOUT_STREAMING && avail < 2)) {
			ssize_t a = trace_ensure(t, rs, err);

			if (a < 0) {
				*n = k;
				return -1;
			}
			avail = (size_t)a;
			if (avail == 0) {
				if (t->info.layout == CG_LAYOUT_STREAMING)
					t->info.truncated = 1;
				t->state = ST_DONE;
				break;
			}
		}
		p = t->buf + t->pos;
		if (t->info.layout == CG_LAYOUT_STREAMING && avail >= 2 && get_le16(p) == 0) {
			int rc;

			if (k > 0)
				break; /* definitions apply only to later records */
			rc = streaming_item(t, err);
			if (rc < 0)
				return -1;
			if (rc == 0) {
				t->info.truncated = 1;
				t->state = ST_DONE;
			}
			continue;
		}
		if (avail < rs) {
			t->info.truncated = 1;
			t->state = ST_DONE;
			break;
		}
		/* Fast path: decode every whole record in the buffer. */
		{
			size_t whole = avail / rs;

			if (whole > max - k)
				whole = max - k;
			for (size_t i = 0; i < whole; i++, p += rs) {
				if (t->info.layout == CG_LAYOUT_STREAMING && get_le16(p) == 0)
					break;
				decode(t, p, &recs[k]);
				recs[k].offset = trace_off(t, t->pos);
				t->pos += rs;
				k++;
			}
		}
	}
	t->info.records += k;
	/* Cut at a record boundary: fewer records than num-method-calls, which
	 * every writer sets to the number of records it wrote. */
	if (t->state == ST_DONE && t->info.layout != CG_LAYOUT_STREAMING &&
	    t->info.records_declared >= 0 && t->info.records < (uint64_t)t->info.records_declared)
		t->info.truncated = 1;
	*n = k;
	return t->state == ST_DONE ? 0 : 1;
}

int trace_span(const struct cg_trace *t, uint64_t *first, uint64_t *count)
{
	uint64_t size, at;

	if (t->v2 || t->info.layout == CG_LAYOUT_STREAMING || t->state != ST_RECORDS ||
	    t->info.records != 0 || t->rec_size <= 0 || !source_span(t->src, &size))
		return 0;
	at = trace_off(t, t->pos);
	if (size < at)
		return 0;
	*first = at;
	*count = (size - at) / (uint64_t)t->rec_size;
	return 1;
}

ssize_t trace_read_raw_at(const struct cg_trace *t, uint64_t k, size_t n, unsigned char *buf,
			  uint64_t *off, struct cg_error *err)
{
	const size_t rs = (size_t)t->rec_size;
	ssize_t got;

	*off = trace_off(t, t->pos) + k * rs;
	got = source_pread(t->src, buf, n * rs, *off, err);
	if (got < 0)
		return -1;
	if ((size_t)got < n * rs) {
		cg_error_set(err, (int64_t)(*off + (size_t)got), "the file became shorter while read");
		return -1;
	}
	return (ssize_t)n;
}

ssize_t trace_read_at(const struct cg_trace *t, uint64_t k, size_t n, unsigned char *buf,
		      struct cg_record *recs, struct cg_error *err)
{
	const size_t rs = (size_t)t->rec_size;
	const unsigned char *p = buf;
	uint64_t off;
	size_t i;

	if (trace_read_raw_at(t, k, n, buf, &off, err) < 0)
		return -1;
	for (i = 0; i < n; i++, p += rs, off += rs) {
		decode(t, p, &recs[i]);
		recs[i].offset = off;
	}
	return (ssize_t)n;
}

void trace_skip(struct cg_trace *t, uint64_t n)
{
	uint64_t off = trace_off(t, t->pos) + n * (uint64_t)t->rec_size;

	if (off <= t->base + t->len) {
		t->pos = (size_t)(off - t->base);
	} else {
		source_seek(t->src, off);
		t->base = off;
		t->pos = t->len = 0;
		t->eof = 0;
	}
	t->info.records += n;
}

const struct cg_trace_info *trace_info(const struct cg_trace *t)
{
	return &t->info;
}

struct cg_symtab *trace_symtab(struct cg_trace *t)
{
	return t->st;
}

const char *trace_record_text(const struct cg_trace_info *in, char buf[32])
{
	if (in->record_size <= 0)
		return "packed records";
	snprintf(buf, 32, "%d-byte records", in->record_size);
	return buf;
}

const char *trace_layout_name(enum cg_layout l)
{
	switch (l) {
	case CG_LAYOUT_STREAMING: return "streaming";
	case CG_LAYOUT_SPLIT: return "legacy-split";
	default: return "regular";
	}
}

const char *trace_clock_name(enum cg_clock c)
{
	switch (c) {
	case CG_CLOCK_CPU: return "thread-cpu";
	case CG_CLOCK_WALL: return "wall";
	case CG_CLOCK_DUAL: return "dual";
	case CG_CLOCK_GLOBAL: return "global";
	default: return "unknown";
	}
}

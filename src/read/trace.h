/* trace.h - the Android method-trace reader (dmtrace "SLOW" format).
 *
 * Reads, in one streaming pass, every layout real devices write: regular
 * v1/v2/v3 (text key + binary records), the streaming layout (0xF2/0xF3,
 * methods and threads in-band, summary at the end), the legacy split pair and
 * gzip (both handled by source.c), and the V2 packet layout (versions 4, 5,
 * 0xF4, 0xF5; trace_v2.c) in the two generations whose layout is established
 * (docs/v2-format.md), with 64-bit method ids mapped to 32-bit record keys.
 * Other V2-era layouts (Android 15's first non-streaming V2 file, ART
 * TraceProfiler dumps, version 0xF6) are recognised and refused.
 *
 * The reader borrows the source and owns the symtab it fills; records are
 * delivered in batches and never all held in memory.  It never prints and
 * never exits: every failure is returned with a byte offset.
 */
#ifndef CG_TRACE_H
#define CG_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "read/source.h"
#include "read/symtab.h"
#include "util/util.h"

enum cg_layout { CG_LAYOUT_REGULAR, CG_LAYOUT_STREAMING, CG_LAYOUT_SPLIT };
enum cg_clock { CG_CLOCK_UNKNOWN, CG_CLOCK_CPU, CG_CLOCK_WALL, CG_CLOCK_DUAL, CG_CLOCK_GLOBAL };
enum cg_action { CG_ENTER = 0, CG_EXIT = 1, CG_UNWIND = 2, CG_ACTION3 = 3 };

/* One record as stored.  For single-clock traces t_cpu == t_wall == the one
 * time field; for dual traces the first field (thread CPU) and the second
 * (wall). */
struct cg_record {
	uint32_t tid;     /* thread id: 16 bits in v1-v3 (8 in v1), 32 in V2 */
	uint32_t method;  /* symtab key: the raw id, low 2 bits cleared (v1-v3), or
			   * the key the reader gave a 64-bit V2 id */
	uint32_t t_cpu;
	uint32_t t_wall;
	uint8_t action;
	uint64_t offset;  /* byte offset of the record in the input */
};

/* What the key/header/summary said.  Strings are owned by the reader. */
struct cg_trace_info {
	enum cg_layout layout;
	int version;          /* 1, 2 or 3 (the key's *version, low nibble in streaming) */
	int header_version;   /* as in the binary header (0xF3 for streaming v3) */
	enum cg_clock clock;  /* from clock=; streaming: from the summary, known at end */
	int record_size;
	uint64_t start_us;    /* header start time */
	int64_t records_declared; /* num-method-calls=, -1 when absent */
	int64_t elapsed_us;   /* elapsed-time-usec (or nsec/1000), -1 when absent */
	int64_t pid;          /* -1 when absent */
	const char *vm;       /* "" when absent */
	int overflow;         /* data-file-overflow=true */
	int has_summary;      /* streaming: the summary was read */
	int gzip;             /* input was gzip-compressed */
	int truncated;        /* the data ended mid-record or without a summary */
	uint64_t records;     /* records delivered so far */
	int v2_gen;           /* V2 block layout 'A', 'B' or 'C'; 0 for v1-v3 or before
			       * the first block */
	int v2_ns;            /* V2 'B' times read as ns (else µs), as the summary says */
};

struct cg_trace;

/* Read the key and header (regular) or the header (streaming).  Returns NULL
 * with err filled when the input is not a method trace, is a V2 trace, or is
 * damaged before the first record. */
struct cg_trace *trace_open(struct cg_source *src, struct cg_error *err);
/* The same, with every method renamed through rename (symtab_set_rename)
 * as it is defined: in the key, or in-band before the records that use
 * it.  ctx is borrowed for the trace's lifetime. */
struct cg_trace *trace_open_renamed(struct cg_source *src, cg_rename_fn rename, void *ctx,
				    struct cg_error *err);
void trace_free(struct cg_trace *t);

/* Deliver up to max records into recs; *n gets the count.  Returns 1 while
 * records may follow, 0 at the end (after the last batch, which may be
 * non-empty), -1 on a fatal error (err filled; *n records before it are still
 * valid).  A batch never spans an in-band method or thread definition, so a
 * record sees exactly the definitions written before it. */
int trace_next(struct cg_trace *t, struct cg_record *recs, size_t max, size_t *n,
	       struct cg_error *err);

/* Reading records out of order, from several threads: of a regular v1-v3
 * trace (or a legacy pair) whose records have not started to be delivered,
 * over a source that source_span accepts, the stream offset of the first
 * record and the count of whole records from there.  1, or 0 when records
 * must come through trace_next. */
int trace_span(const struct cg_trace *t, uint64_t *first, uint64_t *count);
/* Read and decode records k .. k+n-1 of the span (k = 0: its first) into
 * recs, with buf (n * record_size bytes) as scratch; safe from several
 * threads at once.  Returns n, or -1 (err filled) on a read error or when
 * the file is shorter than it was. */
ssize_t trace_read_at(const struct cg_trace *t, uint64_t k, size_t n, unsigned char *buf,
		      struct cg_record *recs, struct cg_error *err);
/* Where a record's fields lie in its bytes (v1-v3): a record read but not
 * decoded (trace_read_raw_at) is decoded where it lies by trace_raw_decode. */
struct cg_raw_layout {
	size_t size;          /* bytes per record */
	unsigned tid_bytes;   /* 1 (v1) or 2 */
	int dual;             /* cpu then wall time; else one time field */
};

static inline void trace_raw_decode(const struct cg_raw_layout *l, const unsigned char *p,
				    struct cg_record *r)
{
	uint32_t mv;

	if (l->tid_bytes == 1) {
		r->tid = p[0];
		p += 1;
	} else {
		r->tid = get_le16(p);
		p += 2;
	}
	mv = get_le32(p);
	r->action = (uint8_t)(mv & 3);
	r->method = mv & ~3u;
	r->t_cpu = get_le32(p + 4);
	r->t_wall = l->dual ? get_le32(p + 8) : r->t_cpu;
}

/* The layout of the trace's records. */
void trace_raw_layout(const struct cg_trace *t, struct cg_raw_layout *l);
/* Read records k .. k+n-1 of the span into buf (n * record size bytes),
 * undecoded; *off: the byte offset of record k.  Safe from several threads
 * at once.  Returns n, or -1 (err filled) as trace_read_at. */
ssize_t trace_read_raw_at(const struct cg_trace *t, uint64_t k, size_t n, unsigned char *buf,
			  uint64_t *off, struct cg_error *err);
/* The first n records of the span were read elsewhere: trace_next goes on
 * after them (and finds a partial record or a short count there). */
void trace_skip(struct cg_trace *t, uint64_t n);

const struct cg_trace_info *trace_info(const struct cg_trace *t);
struct cg_symtab *trace_symtab(struct cg_trace *t);

const char *trace_layout_name(enum cg_layout l);
/* "14-byte records", or "packed records" for V2 traces, whose records are
 * delta-encoded in blocks and have no fixed size; written into buf. */
const char *trace_record_text(const struct cg_trace_info *in, char buf[32]);
const char *trace_clock_name(enum cg_clock c);

#endif

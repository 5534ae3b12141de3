/* trace_v2int.h - the V2 packet reader's state, shared by trace_v2.c
 * (header, event blocks, records) and trace_v2meta.c (method ids, threads,
 * METHOD-INFO, THREAD-INFO and SUMMARY packets).  Private to the reader.
 */
#ifndef CG_TRACE_V2INT_H
#define CG_TRACE_V2INT_H

#include <stddef.h>
#include <stdint.h>

#include "read/trace_int.h"
#include "util/itab.h"

enum { GEN_UNKNOWN, GEN_A = 'A', GEN_B = 'B', GEN_C = 'C' };
enum { U_US, U_NS, U_TICKS, U_NONE };

#define HEADER_SIZE 32
#define MAX_REC_BYTES 30          /* three LEB128 values of at most 10 bytes */
#define CHUNK (1u << 20)
#define PROBE_MAX (16u << 20)     /* look-ahead allowed to tell A from B */
#define MAX_FREQ 1000000000000ULL /* 1 THz: above it the frequency is garbage */
#define SUMMARY_MAX (3 + 65535)   /* a summary packet: u1 3, u2 length, text */
#define MAX_STACK (1u << 24)

struct v2_meth {
	uint64_t id;
	uint64_t first_ref;   /* offset of the first record using it */
	uint32_t key;
	uint32_t defined;
};

/* C: a thread's open entries (tid first, as stack_tab reads it). */
struct v2_stack {
	uint32_t tid;
	uint32_t *key;
	size_t n, cap;
};

struct cg_v2 {
	int gen, unit, dual, streaming;
	uint64_t freq, start_raw;
	const char *no_unit;  /* unit U_NONE: why the file gives none */

	struct v2_meth *m;
	size_t nm, capm;
	uint32_t *slots;      /* open addressing: index + 1, 0 = empty */
	size_t nslots;
	uint64_t last_id;
	uint32_t last_key;
	int last_valid;

	struct v2_stack *stacks; /* C: each thread's open entries */
	size_t nstacks, cap_stacks;
	struct cg_itab stack_tab; /* tid -> index into stacks */
	uint32_t cur_stack;   /* C: the stack of the open block's thread */

	int in_block;
	uint32_t tid;
	uint64_t left, count, end, blk_off;
	uint64_t prev_ma, prev_wall, prev_cpu, prev_ta, prev_m;
	int pending_first;
	struct cg_record first;
};

/* The key of a method id used by a record at `off` (a new id gets the next
 * key and an "unknown" symtab entry until it is defined). */
uint32_t v2_meth_key_slow(struct cg_trace *t, uint64_t id, uint64_t off);

static inline uint32_t v2_meth_key(struct cg_trace *t, uint64_t id, uint64_t off)
{
	const struct cg_v2 *v = t->v2;

	if (v->last_valid && v->last_id == id)
		return v->last_key;
	return v2_meth_key_slow(t, id, off);
}

/* The header start time in µs, by v->unit (U_US or U_NS), into t->info. */
void v2_set_start(struct cg_trace *t);
/* At the first event block (at off), once v->gen is A or B: A is µs; B
 * keeps the unit v2_find_unit found, and without one is refused. */
int v2_set_unit(struct cg_trace *t, uint64_t off, struct cg_error *err);
/* C: the index in v->stacks of thread tid's stack, created empty when new. */
uint32_t v2_stack_of(struct cg_v2 *v, uint32_t tid);
/* Layouts A and B: the time unit the summary gives (v->unit U_US or U_NS,
 * or U_NONE with v->no_unit saying why), read before any record from the
 * packet that ends the file.  An input that cannot be read at any offset
 * (standard input, gzip) is first copied to an unnamed temporary file,
 * which the reader then reads from.  0, or -1 with err filled. */
int v2_find_unit(struct cg_trace *t, struct cg_error *err);
/* "WHAT needs N bytes but the file ends K bytes later" at off; returns -1. */
int v2_past_end(struct cg_trace *t, uint64_t off, const char *what, uint64_t need,
		ssize_t avail, struct cg_error *err);
/* The packet at t->pos (its type byte included); 0, or -1 with err filled. */
int v2_thread_info(struct cg_trace *t, struct cg_error *err);
int v2_method_info(struct cg_trace *t, struct cg_error *err);
int v2_summary(struct cg_trace *t, struct cg_error *err);
/* The first method used but never defined, as an error; 0 when none. */
int v2_check_defined(struct cg_trace *t, struct cg_error *err);

#endif

/* source_int.h - the inside of a source (source.h), shared by source.c
 * (files, standard input, memory, gzip, key+data pairs) and source_spool.c
 * (a copy of the input to seek in). */
#ifndef CG_SOURCE_INT_H
#define CG_SOURCE_INT_H

#include <pthread.h>
#include <stdint.h>
#include <zlib.h>

#include "read/source.h"
#include "util/util.h"

#define RAW_BLOCK (1u << 16)
/* A gzip stream that inflates to more than this many times the compressed
 * bytes consumed so far, past BOMB_MIN bytes, is treated as hostile rather
 * than read for ever.  Real traces compress 2-10x (the corpus: about 5x;
 * tracegen's benchmark traces: 2.3x); 100x needs near-constant data such as
 * runs of zeros (1030x) or one repeated record pair (410x).  8 MB is reached
 * in milliseconds and comes before the stack-depth limit that runs of zero
 * records (enter, method 0) would otherwise hit at about 14 MB. */
#define BOMB_RATIO 100u
#define BOMB_MIN (8u << 20)
#define RING 4
#define SLOT (1u << 20)

#define MAX_BREAKS 1024

/* Inflated bytes handed from the inflating thread to the reader.  A break is
 * where an inflate call ran out of input or ended a gzip member: a read on
 * one thread returned there, so the reader's reads end there too. */
struct gz_slot {
	unsigned char *data;
	size_t len;
	uint64_t consumed;  /* compressed bytes inflate had consumed at its end */
	uint64_t in_done;   /* raw bytes read by then (progress) */
	uint32_t brk[MAX_BREAKS];      /* break offsets in data, increasing */
	uint64_t brk_used[MAX_BREAKS]; /* compressed bytes consumed at each */
	size_t nbrk;
};

struct gz_thread {
	pthread_t thr;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct gz_slot slot[RING];
	uint64_t filled, taken; /* slots filled by the thread, taken by the reader */
	size_t pos, bi;         /* reader's position and next break in slot[taken % RING] */
	int done, failed, stop;
	struct cg_error err;    /* the error that follows the filled slots */
	uint64_t consumed, in_done; /* of the last slot the reader took */
};

struct cg_source {
	int fds[2];
	int nfds, cur;
	int owns_fds;
	const unsigned char *mem;
	size_t mem_len, mem_pos;

	unsigned char *pending; /* bytes read for sniffing, served first */
	size_t pend_len, pend_pos;

	int gzip;
	int split;
	z_stream z;
	int z_ready, z_end, z_break;
	unsigned char *zin;

	struct gz_thread *gt;
	uint64_t z_out;     /* decompressed bytes inflated (inflating thread) */

	uint64_t out_off;   /* decompressed bytes delivered */
	uint64_t in_done;   /* raw bytes consumed */
	uint64_t in_total;  /* raw size when known */
	uint64_t key_len;   /* a pair: the key's length, where its data starts */
	uint64_t limit;
};

/* A source of nothing yet: no descriptor, no memory. */
struct cg_source *source_new(void);

#endif

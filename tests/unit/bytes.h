/* bytes.h - little-endian integers appended to a strbuf, as trace files
 * hold them, for the unit tests that write records byte by byte. */
#ifndef CG_TEST_BYTES_H
#define CG_TEST_BYTES_H

#include <stdint.h>

#include "util/strbuf.h"

static inline void put16(struct strbuf *b, unsigned v)
{
	unsigned char p[2] = { (unsigned char)v, (unsigned char)(v >> 8) };

	strbuf_add(b, p, 2);
}

static inline void put32(struct strbuf *b, uint32_t v)
{
	put16(b, v & 0xffff);
	put16(b, v >> 16);
}

static inline void put64(struct strbuf *b, uint64_t v)
{
	put32(b, (uint32_t)v);
	put32(b, (uint32_t)(v >> 32));
}

#endif

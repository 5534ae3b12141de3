/* protobuf.h - the few protocol buffer encodings pprof's profile.proto
 * needs, appended to a strbuf: varints, tagged integers, length-delimited
 * bytes (strings and nested messages) and packed repeated integers.
 * Wire format: field key = field number << 3 | wire type (0 varint,
 * 2 length-delimited).  Negative values are never written.
 *
 * Nested messages are built in a separate strbuf and appended with
 * pb_bytes.  Nothing is allocated but the strbuf's own bytes. */
#ifndef CG_PROTOBUF_H
#define CG_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

void pb_varint(struct strbuf *sb, uint64_t v);
/* Field `field` as a varint (int64/uint64/bool); nothing when v is 0
 * unless always is set (proto3 leaves defaults out). */
void pb_uint(struct strbuf *sb, uint32_t field, uint64_t v, int always);
/* Field `field` as length-delimited bytes. */
void pb_bytes(struct strbuf *sb, uint32_t field, const void *p, size_t n);
/* Packed repeated varints; nothing when n is 0. */
void pb_packed(struct strbuf *sb, uint32_t field, const uint64_t *v, size_t n);

#endif

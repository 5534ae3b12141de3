/* util.h - allocation, errors and little-endian decoding shared by every module.
 *
 * Ownership: xmalloc and friends return memory the caller frees with free().
 * On exhaustion they call the hook main set with util_set_oom_hook (which
 * reports the file being read and ends the run with status 1), or abort when
 * none is set; nothing else here exits.
 */
#ifndef CG_UTIL_H
#define CG_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* A reader or model error: a message and, when it is known, the byte offset in
 * the (decompressed) input where the problem was found. */
struct cg_error {
	char msg[256];
	uint64_t offset;
	int has_offset;
};

/* Fill err (which may be NULL) with a message; offset < 0 means "no offset". */
void cg_error_set(struct cg_error *err, int64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Called with the size asked for when an allocation fails; must not return. */
void util_set_oom_hook(void (*hook)(size_t n));
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* count elements of size bytes at an address that is a multiple of align
 * (a power of two, a multiple of sizeof(void *)); free() frees them. */
void *xmalloc_aligned(size_t align, size_t count, size_t size);
/* size zeroed bytes on whole 64-byte cache lines that no other allocation
 * shares: for the state that one thread writes at every event while
 * another thread runs (the replay's observers), so that neither stalls on
 * a line the other wrote.  free() frees it. */
void *xcalloc_lines(size_t size);
/* The same for a large array read at random (the tables' method lines):
 * from XBIG_MIN bytes on, it starts on a 2 MiB boundary and its whole
 * 2 MiB pages are offered to the kernel as transparent huge pages, so that
 * one TLB entry covers 2 MiB, not 4 KiB.  free() frees it. */
#define XBIG_MIN (8u << 20)
void *xmalloc_big(size_t align, size_t count, size_t size);
/* A block of `bytes` that grows and shrinks, for the largest array read at
 * random, the calling-context tree's lines: p of old bytes (NULL, 0: none)
 * resized to `bytes`, its first min(old, bytes) bytes kept, 64-byte
 * aligned.  From XBIG_MIN bytes on, it is a mapping of its own on huge
 * pages, and Linux moves its pages rather than copying them when it grows,
 * so that growing takes no more memory than the block.  Freed only by
 * xbig_free with its size. */
void *xbig_resize(void *p, size_t old, size_t bytes);
void xbig_free(void *p, size_t bytes);
/* xgrow for such a block: room for at least need elements of size bytes,
 * *cap doubled from 64; the block is *cap * size bytes (xbig_free). */
void *xbig_grow(void *p, size_t *cap, size_t need, size_t size);
/* Grow an array to hold at least `need` elements of `size` bytes; *cap is
 * updated.  Doubling, so amortised O(1) per element. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Every byte `from` of p[0 .. n) made `to`: a NUL in a name read from a
 * trace shown as '?', a class's slashes as dots. */
void mem_replace(char *p, size_t n, char from, char to);

static inline uint16_t get_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

static inline uint64_t get_le64(const unsigned char *p)
{
	return (uint64_t)get_le32(p) | ((uint64_t)get_le32(p + 4) << 32);
}

/* Format integer microseconds as milliseconds with exactly three decimals
 * ("1234.567"); never rounds, never truncates: it is an exact decimal shift.
 * buf must hold at least 32 bytes.  Returns buf. */
char *fmt_ms(char *buf, uint64_t us);
/* Same for a signed difference ("-0.250"). */
char *fmt_ms_signed(char *buf, int64_t us);
/* Percentage part/whole with two decimals into buf (at least 16 bytes);
 * "0.00" when whole is 0.  The same text as printf's "%.2f" of
 * 100.0 * part / whole in doubles. */
char *fmt_pct(char *buf, uint64_t part, uint64_t whole);
/* printf's "%.2f" of d, where d is 100 * num / den (den > 0) computed in
 * doubles with a few roundings: the digits come from the exact integer
 * quotient, and from d itself only when that quotient lies too close to a
 * rounding boundary for d's error to be ruled out.  buf: at least 32
 * bytes.  Returns buf. */
char *fmt_hundredths(char *buf, uint64_t num, uint64_t den, double d);
/* v in decimal into buf (at least 21 bytes), NUL-terminated; its length. */
size_t fmt_u64(char *buf, uint64_t v);
/* v in lower-case hex without leading zeros ("%" PRIx64) into buf (at least
 * 17 bytes), NUL-terminated; its length. */
size_t fmt_hex(char *buf, uint64_t v);

/* 64-bit mixing hash (splitmix64 finaliser). */
static inline uint64_t hash64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

#endif

/* util.c - allocation that cannot fail silently, error filling, number
 * formatting.  The only exit below cli is allocation failure (util.h). */
#include "util/util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void cg_error_set(struct cg_error *err, int64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->has_offset = offset >= 0;
	err->offset = offset >= 0 ? (uint64_t)offset : 0;
}

/* Set once by main before anything is allocated; an allocation failure
 * can only be answered from here, so this one hook is global. */
static void (*oom_hook)(size_t);

void util_set_oom_hook(void (*hook)(size_t n))
{
	oom_hook = hook;
}

static void oom(size_t n)
{
	if (oom_hook)
		oom_hook(n);
	fprintf(stderr, "callgraph: out of memory (%zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		oom(count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

void *xmalloc_aligned(size_t align, size_t count, size_t size)
{
	size_t n = count * size;
	void *p = NULL;

	if ((size && count > SIZE_MAX / size) || posix_memalign(&p, align, n ? n : align) != 0)
		oom(n);
	return p;
}

void *xcalloc_lines(size_t size)
{
	size_t n = size + 63 < size ? size : (size + 63) & ~(size_t)63;
	void *p = xmalloc_aligned(64, 1, n);

	memset(p, 0, n);
	return p;
}

#define HUGE_PAGE ((size_t)2 << 20)

/* Offer the whole huge pages of [p, p + n) to the kernel; p on a 2 MiB
 * boundary.  A kernel without them refuses; nothing changes. */
static void huge_advise(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	(void)madvise(p, n & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *xmalloc_big(size_t align, size_t count, size_t size)
{
	void *p;

	if (size && count > SIZE_MAX / size)
		oom(SIZE_MAX);
	if (count * size < XBIG_MIN)
		return xmalloc_aligned(align, count, size);
	/* Only whole huge pages of the block: the rest of its last page may
	 * be the allocator's. */
	p = xmalloc_aligned(align > HUGE_PAGE ? align : HUGE_PAGE, count, size);
	huge_advise(p, count * size);
	return p;
}

#if defined(MREMAP_FIXED) && defined(MAP_ANONYMOUS)
/* n bytes in whole huge pages. */
static size_t big_len(size_t n)
{
	return (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/* A mapping of big_len(n) bytes on a 2 MiB boundary. */
static char *big_map(size_t n)
{
	size_t len = big_len(n);
	char *r, *a;

	if (n > SIZE_MAX - 2 * HUGE_PAGE)
		oom(n);
	r = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		oom(n);
	a = (char *)(((uintptr_t)r + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (a > r)
		munmap(r, (size_t)(a - r));
	if (r + len + HUGE_PAGE > a + len)
		munmap(a + len, (size_t)(r + len + HUGE_PAGE - (a + len)));
	huge_advise(a, len);
	return a;
}

void *xbig_resize(void *p, size_t old, size_t bytes)
{
	char *a;

	if (!p)
		old = 0;
	if (old >= XBIG_MIN && bytes >= XBIG_MIN && big_len(bytes) <= big_len(old)) {
		if (big_len(bytes) < big_len(old))
			munmap((char *)p + big_len(bytes), big_len(old) - big_len(bytes));
		return p;
	}
	a = bytes < XBIG_MIN ? xmalloc_aligned(64, 1, bytes ? bytes : 1) : big_map(bytes);
	/* A mapping that grows: its pages move, nothing is copied. */
	if (old >= XBIG_MIN && bytes >= XBIG_MIN &&
	    mremap(p, big_len(old), big_len(old), MREMAP_MAYMOVE | MREMAP_FIXED, a) != MAP_FAILED)
		return a;
	if (old)
		memcpy(a, p, old < bytes ? old : bytes);
	xbig_free(p, old);
	return a;
}

void xbig_free(void *p, size_t bytes)
{
	if (p && bytes >= XBIG_MIN)
		munmap(p, big_len(bytes));
	else
		free(p);
}
#else
/* Without mremap: aligned blocks, copied when they grow. */
void *xbig_resize(void *p, size_t old, size_t bytes)
{
	void *a = xmalloc_big(64, 1, bytes ? bytes : 1);

	if (p && old)
		memcpy(a, p, old < bytes ? old : bytes);
	free(p);
	return a;
}

void xbig_free(void *p, size_t bytes)
{
	(void)bytes;
	free(p);
}
#endif


/* A capacity of c elements of size bytes, at least least, doubled until
 * need fit (the allocation fails when their bytes cannot be counted). */
static size_t grown(size_t c, size_t need, size_t size, size_t least)
{
	if (c < least)
		c = least;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			oom(SIZE_MAX);
		c *= 2;
	}
	return c;
}

void *xbig_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t old = *cap * size;

	if (need <= *cap)
		return p;
	*cap = grown(*cap, need, size, 64);
	return xbig_resize(p, old, *cap * size);
}

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = grown(*cap, need, size, 16);
	return xrealloc(p, *cap * size);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void mem_replace(char *p, size_t n, char from, char to)
{
	char *end = p + n;

	if (!n)
		return;
	for (p = memchr(p, (unsigned char)from, n); p;
	     p = memchr(p + 1, (unsigned char)from, (size_t)(end - p - 1)))
		*p = to;
}

size_t fmt_u64(char *buf, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	char tmp[20], *p = tmp + sizeof(tmp);
	size_t n;

	/* Two digits per division, from the right. */
	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}

size_t fmt_hex(char *buf, uint64_t v)
{
	/* Digits: a quarter of the significant bits, rounded up. */
	size_t n = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1, i;

	for (i = n; i-- > 0; v >>= 4)
		buf[i] = "0123456789abcdef"[v & 15];
	buf[n] = '\0';
	return n;
}

/* v / 10^k "." the k digits of v % 10^k (k of 2 or 3), after prefix bytes
 * already in buf; returns buf. */
static char *fmt_fixed(char *buf, size_t prefix, uint64_t v, unsigned k)
{
	uint64_t scale = k == 3 ? 1000 : 100, frac = v % scale;
	size_t n = prefix + fmt_u64(buf + prefix, v / scale);
	unsigned i;

	buf[n++] = '.';
	for (i = k; i-- > 0;) {
		buf[n + i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	buf[n + k] = '\0';
	return buf;
}

char *fmt_ms(char *buf, uint64_t us)
{
	return fmt_fixed(buf, 0, us, 3);
}

char *fmt_ms_signed(char *buf, int64_t us)
{
	uint64_t mag = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;

	if (us < 0)
		buf[0] = '-';
	return fmt_fixed(buf, us < 0, mag, 3);
}

char *fmt_hundredths(char *buf, uint64_t num, uint64_t den, double d)
{
	uint64_t n, q, r, gap;

	/* 10000 * num / den = q + r / den hundredths; d is within a few
	 * units in its last place of it, under q * 2^-50 hundredths for the
	 * q allowed here.  Rounding to q or q + 1 is settled when r / den is
	 * farther than 2^-25 from one half; otherwise printf decides from d. */
	if (den == 0 || num > UINT64_MAX / 10000)
		goto exact_d;
	n = num * 10000;
	q = n / den;
	r = n % den;
	if (q >= (uint64_t)1 << 24)
		goto exact_d;
	/* r against den - r: twice r against den, without overflow. */
	gap = r > den - r ? r - (den - r) : (den - r) - r;
	if (gap <= (den >> 25) + 1)
		goto exact_d;
	return fmt_fixed(buf, 0, q + (r > den - r), 2);
exact_d:
	snprintf(buf, 32, "%.2f", d);
	return buf;
}

char *fmt_pct(char *buf, uint64_t part, uint64_t whole)
{
	if (whole == 0) {
		memcpy(buf, "0.00", 5);
		return buf;
	}
	return fmt_hundredths(buf, part, whole, 100.0 * (double)part / (double)whole);
}

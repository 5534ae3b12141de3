/* util.c - allocation that cannot fail silently, error filling, number
 * formatting.  The only exit below cli is allocation failure (util.h). */
#include "util/util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap;

	if (need <= c)
		return p;
	if (c < 16)
		c = 16;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			oom(SIZE_MAX);
		c *= 2;
	}
	*cap = c;
	return xrealloc(p, c * size);
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

char *fmt_ms(char *buf, uint64_t us)
{
	snprintf(buf, 32, "%" PRIu64 ".%03" PRIu64, us / 1000, us % 1000);
	return buf;
}

char *fmt_ms_signed(char *buf, int64_t us)
{
	uint64_t mag = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;

	snprintf(buf, 32, "%s%" PRIu64 ".%03" PRIu64, us < 0 ? "-" : "", mag / 1000, mag % 1000);
	return buf;
}

char *fmt_pct(char *buf, uint64_t part, uint64_t whole)
{
	if (whole == 0)
		snprintf(buf, 16, "0.00");
	else
		snprintf(buf, 16, "%.2f", 100.0 * (double)part / (double)whole);
	return buf;
}

/* termsafe.c - filter bytes bound for a terminal (see termsafe.h). */
#include "util/termsafe.h"

#include <string.h>

void termsafe_init(struct cg_termsafe *ts)
{
	memset(ts, 0, sizeof(*ts));
}

/* The length a lead byte announces (2 to 4), 1 for ASCII, 0 for a byte
 * that cannot start a sequence. */
static size_t lead_len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/* 1 when the k bytes at s (k = lead_len(s[0]) >= 2) are a well-formed
 * sequence that is not a C1 control: no overlong forms, surrogates or
 * code points past U+10FFFF. */
static int good_seq(const unsigned char *s, size_t k)
{
	unsigned cp = s[0] & (k == 2 ? 0x1f : k == 3 ? 0x0f : 0x07);
	size_t i;

	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (k == 2 && cp < 0xa0) /* U+0080..U+009F: C1 controls, e.g. CSI */
		return 0;
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return 1;
}

/* Filter the n bytes at s (all of them available); a sequence cut by the
 * end is left for the caller: returns how many bytes were consumed. */
static size_t filter(const unsigned char *s, size_t n, int last, int *rc,
		     int (*emit)(void *, const char *, size_t), void *ctx)
{
	size_t i = 0, run = 0;

	while (i < n && !*rc) {
		unsigned char c = s[i];
		size_t k = lead_len(c);

		if (k == 1 && (c >= 0x20 || c == '\t' || c == '\n') && c != 0x7f) {
			i++;
			continue;
		}
		if (k >= 2 && n - i < k) {
			/* Cut by the end: either the rest may still come, or it is
			 * already wrong in the bytes we have. */
			size_t j;
			int broken = 0;

			for (j = i + 1; j < n; j++)
				if ((s[j] & 0xc0) != 0x80)
					broken = 1;
			if (!last && !broken)
				break;
		} else if (k >= 2 && good_seq(s + i, k)) {
			i += k;
			continue;
		}
		if (i > run)
			*rc = emit(ctx, (const char *)s + run, i - run);
		if (!*rc)
			*rc = emit(ctx, "?", 1);
		run = ++i;
	}
	if (!*rc && i > run)
		*rc = emit(ctx, (const char *)s + run, i - run);
	return i;
}

int termsafe_feed(struct cg_termsafe *ts, const void *p, size_t n, int last,
		  int (*emit)(void *ctx, const char *bytes, size_t len), void *ctx)
{
	const unsigned char *s = p;
	int rc = 0;

	/* Complete the sequence the last call left, one byte at a time. */
	while (ts->npend > 0 && !rc) {
		size_t used;

		if (n == 0 && !last)
			return 0;
		if (n > 0) {
			ts->pend[ts->npend++] = *s++;
			n--;
		}
		used = filter(ts->pend, ts->npend, last && n == 0, &rc, emit, ctx);
		if (used == ts->npend) {
			ts->npend = 0;
		} else if (used > 0) {
			memmove(ts->pend, ts->pend + used, ts->npend - used);
			ts->npend -= used;
		}
		if (n == 0)
			break;
	}
	if (ts->npend == 0 && !rc) {
		size_t used = filter(s, n, last, &rc, emit, ctx);

		memcpy(ts->pend, s + used, n - used);
		ts->npend = n - used;
	}
	return rc;
}

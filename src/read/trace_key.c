/* trace_key.c - the text of a key section or streaming summary: *version
 * options, *threads and *methods lines, read line by line from the reader's
 * buffer (never held whole) into the symtab. */
#include "read/trace_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/util.h"

/* Real key lines are under 1 KB (a million-character name still fits a
 * line); past this size the input is not a plausible trace. */
#define MAX_LINE (4u << 20)

/* Next text line (without \n or \r\n) into *line (NUL-terminated in place of
 * the \n; NULs inside the line become '?'), also appended to t->key when
 * keep is set (a V2 summary, whose text is read again afterwards; a key
 * section or v1-v3 summary is not kept: a million-method key is tens of
 * megabytes).
 * Returns 1, 0 at end of input, -1 on error. */
static int next_line(struct cg_trace *t, int keep, char **line, size_t *linelen, uint64_t *off,
		     struct cg_error *err)
{
	size_t scanned = 0;

	for (;;) {
		unsigned char *nl = memchr(t->buf + t->pos + scanned, '\n',
					   t->len - t->pos - scanned);
		ssize_t avail;

		if (nl) {
			size_t n = (size_t)(nl - (t->buf + t->pos));
			char *s = (char *)t->buf + t->pos;

			*off = trace_off(t, t->pos);
			if (n > MAX_LINE) {
				cg_error_set(err, (int64_t)*off,
					     "key line longer than %u bytes (hard limit)", MAX_LINE);
				return -1;
			}
			if (keep)
				strbuf_add(&t->key, s, n + 1);
			mem_replace(s, n, '\0', '?');
			if (n > 0 && s[n - 1] == '\r')
				n--;
			s[n] = '\0';
			*line = s;
			*linelen = n;
			t->pos += (size_t)(nl - (t->buf + t->pos)) + 1;
			return 1;
		}
		scanned = t->len - t->pos;
		if (scanned > MAX_LINE) {
			cg_error_set(err, (int64_t)trace_off(t, t->pos),
				     "key line longer than %u bytes (hard limit)", MAX_LINE);
			return -1;
		}
		avail = trace_ensure(t, scanned + 1, err);
		if (avail < 0)
			return -1;
		if ((size_t)avail <= scanned)
			return 0;
	}
}

/* At most n-1 bytes of s for an error message, with control and non-ASCII
 * bytes shown as '?' so that hostile names cannot drive the terminal. */
const char *trace_excerpt(const char *s, char *buf, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && s[i]; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

static int parse_u64(const char *s, int base, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* The value of s when it is 1 to 8 hex digits and nothing else, the form
 * of nearly every id in a key; else -1, and strtoull decides. */
static int64_t hex_short(const char *s)
{
	uint32_t v = 0;
	size_t i;

	for (i = 0; i < 8 && s[i]; i++) {
		unsigned c = (unsigned char)s[i], d;

		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			return -1;
		v = v << 4 | d;
	}
	return i > 0 && !s[i] ? (int64_t)v : -1;
}

static int parse_method_id(const char *s, uint32_t *id)
{
	uint64_t v;
	int64_t h;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if ((h = hex_short(s)) >= 0)
		v = (uint64_t)h;
	else if (parse_u64(s, 16, &v) || v > UINT32_MAX)
		return -1;
	*id = (uint32_t)v & ~3u;
	return 0;
}

/* Split at tabs in place: up to max fields; returns the count. */
static int split_tabs(char *s, char **fields, int max)
{
	int n = 0;

	fields[n++] = s;
	while (n < max && (s = strchr(s, '\t')) != NULL) {
		*s++ = '\0';
		fields[n++] = s;
	}
	return n;
}

int trace_parse_method_line(struct cg_trace *t, char *line, uint64_t off, struct cg_error *err)
{
	char *f[6] = { 0 };
	int n = split_tabs(line, f, 6);
	char shown[48];
	uint32_t id;
	long lineno = 0;

	if (n == 1) {
		/* Very old keys separate the fields with spaces. */
		n = 0;
		for (char *tok = strtok(line, " "); tok && n < 6; tok = strtok(NULL, " "))
			f[n++] = tok;
	}
	if (n < 1 || parse_method_id(f[0], &id)) {
		cg_error_set(err, (int64_t)off, "bad method line (expected a hex id): \"%s\"",
			     trace_excerpt(f[0] ? f[0] : "", shown, 41));
		return -1;
	}
	if (n >= 6)
		lineno = strtol(f[5], NULL, 10);
	symtab_define_key_method(t->st, id, f[0], n > 1 ? f[1] : "", n > 2 ? f[2] : "",
				 n > 3 ? f[3] : "", n > 4 ? f[4] : "", (int)lineno);
	return 0;
}

static int parse_thread_line(struct cg_trace *t, char *line, uint64_t off, int replace,
			     struct cg_error *err)
{
	char *sep = line + strcspn(line, "\t ");
	char *name = *sep ? sep + 1 : sep;
	char shown[48];
	uint64_t tid;

	*sep = '\0';
	if (parse_u64(line, 10, &tid) || tid > UINT32_MAX) {
		cg_error_set(err, (int64_t)off, "bad thread line (expected a decimal id): \"%s\"",
			     trace_excerpt(line, shown, 41));
		return -1;
	}
	symtab_define_thread(t->st, (uint32_t)tid, name, replace);
	return 0;
}

static enum cg_clock parse_clock(const char *v)
{
	if (strcmp(v, "dual") == 0)
		return CG_CLOCK_DUAL;
	if (strcmp(v, "wall") == 0)
		return CG_CLOCK_WALL;
	if (strcmp(v, "thread-cpu") == 0)
		return CG_CLOCK_CPU;
	if (strcmp(v, "global") == 0)
		return CG_CLOCK_GLOBAL;
	return CG_CLOCK_UNKNOWN;
}

static void parse_option(struct cg_trace *t, char *line)
{
	char *eq = strchr(line, '=');
	const char *v;
	uint64_t n;

	if (!eq)
		return;
	*eq = '\0';
	v = eq + 1;
	if (strcmp(line, "clock") == 0)
		t->info.clock = parse_clock(v);
	else if (strcmp(line, "data-file-overflow") == 0)
		t->info.overflow = strcmp(v, "true") == 0;
	else if (strcmp(line, "num-method-calls") == 0 && !parse_u64(v, 10, &n))
		t->info.records_declared = (int64_t)(n > INT64_MAX ? INT64_MAX : n);
	else if (strcmp(line, "elapsed-time-usec") == 0 && !parse_u64(v, 10, &n))
		t->info.elapsed_us = (int64_t)(n > INT64_MAX ? INT64_MAX : n);
	else if (strcmp(line, "elapsed-time-nsec") == 0 && !parse_u64(v, 10, &n))
		t->info.elapsed_us = (int64_t)(n / 1000);
	else if (strcmp(line, "pid") == 0 && !parse_u64(v, 10, &n))
		t->info.pid = (int64_t)(n > INT64_MAX ? INT64_MAX : n);
	else if (strcmp(line, "vm") == 0) {
		free(t->vm);
		t->vm = xstrdup(v);
		t->info.vm = t->vm;
	}
}

static int check_version(const struct cg_trace *t, int64_t v, uint64_t off, struct cg_error *err)
{
	if (t->v2 && (v == 4 || v == 5))
		return 0;   /* a V2 summary */
	if (v == 4 || v == 5) {
		cg_error_set(err, (int64_t)off,
			     "V2 *version %d in a text key section: a non-streaming V2 file of "
			     "Android 15's first release, whose layout is not supported", (int)v);
		return -1;
	}
	if (v < 1 || v > 3) {
		cg_error_set(err, (int64_t)off, "unknown trace version %lld", (long long)v);
		return -1;
	}
	return 0;
}

enum section { SEC_NONE, SEC_VERSION, SEC_THREADS, SEC_METHODS, SEC_OTHER };

/* Parse a key section from the current position up to and including "*end".
 * `summary` selects streaming-summary rules: names from it never replace
 * in-band names, and its end is the end of its text. */
int trace_parse_key(struct cg_trace *t, int summary, struct cg_error *err)
{
	enum section sec = SEC_NONE;
	int want_version = 0;
	char shown[48];
	char *line;
	size_t len;
	uint64_t off;
	int rc;

	while ((rc = next_line(t, summary && t->v2, &line, &len, &off, err)) == 1) {
		if (want_version) {
			uint64_t v;

			if (parse_u64(line, 10, &v)) {
				cg_error_set(err, (int64_t)off, "bad *version number \"%s\"",
					     trace_excerpt(line, shown, 21));
				return -1;
			}
			if (check_version(t, (int64_t)(v > 1000 ? 1000 : v), off, err))
				return -1;
			t->info.version = (int)v;
			want_version = 0;
			continue;
		}
		if (line[0] == '*') {
			if (strcmp(line, "*version") == 0) {
				sec = SEC_VERSION;
				want_version = 1;
			} else if (strcmp(line, "*threads") == 0) {
				sec = SEC_THREADS;
			} else if (strcmp(line, "*methods") == 0) {
				sec = SEC_METHODS;
			} else if (strcmp(line, "*end") == 0) {
				if (t->info.version == 0) {
					cg_error_set(err, (int64_t)off, "key section has no *version");
					return -1;
				}
				return 0;
			} else {
				sec = SEC_OTHER;
			}
			continue;
		}
		if (sec == SEC_NONE) {
			cg_error_set(err, (int64_t)off, "not a method trace: expected *version, found \"%s\"",
				     trace_excerpt(line, shown, 21));
			return -1;
		}
		if (!summary && strncmp(line, "SLOW", 4) == 0) {
			/* The binary header, reached without an "*end" line. */
			cg_error_set(err, (int64_t)off, "key section has no *end line before the binary header");
			return -1;
		}
		if (len == 0)
			continue;
		if (sec == SEC_VERSION)
			parse_option(t, line);
		else if (sec == SEC_THREADS && parse_thread_line(t, line, off, !summary, err))
			return -1;
		else if (sec == SEC_METHODS && trace_parse_method_line(t, line, off, err))
			return -1;
	}
	if (rc < 0)
		return -1;
	cg_error_set(err, (int64_t)trace_off(t, t->pos),
		     summary ? "streaming summary has no *end line" : "key section has no *end line (truncated?)");
	return -1;
}

int trace_parse_summary(struct cg_trace *t, size_t len, struct cg_error *err)
{
	size_t keep_len = t->len;
	int keep_eof = t->eof, rc;

	t->len = t->pos + len;
	t->eof = 1;
	strbuf_reset(&t->key);
	t->info.version = 0;
	rc = trace_parse_key(t, 1, err);
	t->len = keep_len;
	t->eof = keep_eof;
	return rc ? -1 : 0;
}

/* gv_log.c - Graphviz's messages, kept off the terminal.
 *
 * libcgraph hands every message (libgvc's too) to one callback that takes no
 * context argument, so the messages of the call in progress are collected
 * here, in the file's only mutable state (Graphviz is not reentrant anyway).
 */
#include "render/graph/gv_log.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static struct {
	char line[512];   /* the message being received, or the last one */
	size_t len;
	int done;         /* line holds a whole message (its "\n" arrived) */
	char error[512];  /* the last message of level "Error", without prefix */
	struct strbuf *sink; /* other messages go here (gv_log_add), or nowhere */
} gv_log;

/* agusererrf: messages arrive in pieces ("Error", ": ", "text\n"); one
 * longer than the buffer is cut. */
static int gv_log_put(char *s)
{
	size_t n = strlen(s), room;
	int ends = n && s[n - 1] == '\n';

	if (gv_log.done) {
		gv_log.len = 0;
		gv_log.done = 0;
	}
	room = sizeof(gv_log.line) - 1 - gv_log.len;
	memcpy(gv_log.line + gv_log.len, s, n < room ? n : room);
	gv_log.len += n < room ? n : room;
	gv_log.line[gv_log.len] = '\0';
	if (!ends)
		return 0;
	gv_log.done = 1;
	if (strncmp(gv_log.line, "Error: ", 7) == 0)
		snprintf(gv_log.error, sizeof(gv_log.error), "%.*s",
			 (int)strcspn(gv_log.line + 7, "\n"), gv_log.line + 7);
	else if (gv_log.sink)
		gv_log_add(gv_log.sink, gv_log.line + (strncmp(gv_log.line, "Warning: ", 9) == 0 ? 9 : 0));
	return 0;
}

void gv_log_begin(struct gv_saved *saved, struct strbuf *sink)
{
	memset(&gv_log, 0, sizeof(gv_log));
	gv_log.sink = sink;
	saved->errf = agseterrf(gv_log_put);
	saved->level = agseterr(AGWARN);
	agreseterrors();
}

void gv_log_end(const struct gv_saved *saved)
{
	agseterrf(saved->errf);
	agseterr(saved->level);
}

const char *gv_log_message(const char *fallback)
{
	size_t n = gv_log.len;

	if (gv_log.error[0])
		return gv_log.error;
	while (n && (gv_log.line[n - 1] == '\n' || gv_log.line[n - 1] == ' '))
		gv_log.line[--n] = '\0';
	return n ? gv_log.line : fallback;
}

/* ---- standard error ----------------------------------------------------------
 * Graphviz's plugins write to file descriptor 2 themselves: glib's log
 * (Pango-CRITICAL, from threads too), fontconfig, GD.  While Graphviz runs,
 * descriptor 2 is a memory file; gv_log_stderr_end puts the real one back
 * and keeps what was written, one cleaned line per message. */

void gv_log_stderr_begin(struct gv_stderr *s)
{
	s->saved = -1;
	s->capture = -1;
	fflush(stderr);
	s->capture = memfd_create("callgraph-graphviz", MFD_CLOEXEC);
	if (s->capture < 0)
		s->capture = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (s->capture < 0)
		return;
	s->saved = fcntl(2, F_DUPFD_CLOEXEC, 3);
	if (s->saved < 0 || dup2(s->capture, 2) < 0) {
		if (s->saved >= 0)
			close(s->saved);
		close(s->capture);
		s->saved = s->capture = -1;
	}
}

/* One line of glib's log, "(process:123): Pango-CRITICAL **: 04:03:09.067:
 * text", as "Pango-CRITICAL: text" (no process id or clock time: the same
 * run gives the same bytes). */
static void clean_line(struct strbuf *out, const char *p, size_t n)
{
	const char *end = p + n, *q;
	size_t k;

	if (n && p[0] == '(' && (q = memchr(p, ')', n)) && q + 2 < end && q[1] == ':' && q[2] == ' ')
		p = q + 3;
	q = p;
	while (q + 3 < end && !(q[0] == ' ' && q[1] == '*' && q[2] == '*' && q[3] == ':'))
		q++;
	if (q + 3 < end) {
		const char *t = q + 4;

		strbuf_add(out, p, (size_t)(q - p));
		strbuf_putc(out, ':');
		while (t < end && *t == ' ')
			t++;
		/* A clock time "HH:MM:SS.mmm: ". */
		for (k = 0; t + k < end && ((t[k] >= '0' && t[k] <= '9') || t[k] == ':' || t[k] == '.'); k++)
			;
		if (k >= 8 && t[k - 1] == ':')
			t += k;
		else
			t = q + 4;
		p = t;
		while (p < end && *p == ' ')
			p++;
		strbuf_putc(out, ' ');
	}
	/* Cut long lines; control bytes become '?'. */
	for (k = 0; p + k < end && k < 300; k++)
		strbuf_putc(out, (unsigned char)p[k] < 0x20 || p[k] == 0x7f ? '?' : p[k]);
}

void gv_log_stderr_end(struct gv_stderr *s, struct strbuf *lines)
{
	char buf[4096];
	struct strbuf all;
	ssize_t got;
	const char *p, *nl;

	if (s->capture < 0)
		return;
	if (s->saved >= 0) {
		dup2(s->saved, 2);
		close(s->saved);
	}
	strbuf_init(&all);
	if (lseek(s->capture, 0, SEEK_SET) == 0) {
		while (all.len < 65536 && (got = read(s->capture, buf, sizeof(buf))) > 0)
			strbuf_add(&all, buf, (size_t)got);
	}
	close(s->capture);
	s->saved = s->capture = -1;
	for (p = all.data; p && p < all.data + all.len; p = nl + 1) {
		struct strbuf line;

		nl = memchr(p, '\n', (size_t)(all.data + all.len - p));
		if (!nl)
			nl = all.data + all.len;
		strbuf_init(&line);
		clean_line(&line, p, (size_t)(nl - p));
		if (line.len)
			gv_log_add(lines, line.data);
		strbuf_free(&line);
	}
	strbuf_free(&all);
}

void gv_log_add(struct strbuf *lines, const char *msg)
{
	size_t n = strlen(msg), count = 0;
	const char *p;

	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		n--;
	if (!n)
		return;
	/* Each message once, and at most GV_LOG_LINES of them. */
	for (p = lines->data; p && *p; p = strchr(p, '\n') + 1) {
		if (strncmp(p, msg, n) == 0 && p[n] == '\n')
			return;
		count++;
	}
	if (count >= GV_LOG_LINES)
		return;
	strbuf_add(lines, msg, n);
	strbuf_putc(lines, '\n');
}

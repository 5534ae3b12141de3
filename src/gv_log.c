/* gv_log.c - Graphviz's messages, kept off the terminal.
 *
 * libcgraph hands every message (libgvc's too) to one callback that takes no
 * context argument, so the messages of the call in progress are collected
 * here, in the file's only mutable state (Graphviz is not reentrant anyway).
 */
#include "gv_log.h"

#include <stdio.h>
#include <string.h>

static struct {
	char line[512];   /* the message being received, or the last one */
	size_t len;
	int done;         /* line holds a whole message (its "\n" arrived) */
	char error[512];  /* the last message of level "Error", without prefix */
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
	return 0;
}

void gv_log_begin(struct gv_saved *saved)
{
	memset(&gv_log, 0, sizeof(gv_log));
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

/* unnamed.h - unnamed temporary files: in $TMPDIR (or /tmp), with no name
 * (O_TMPFILE, else a name removed at once), so nothing is left behind, even
 * on SIGKILL. */
#ifndef CG_UNNAMED_H
#define CG_UNNAMED_H

#include <stddef.h>

/* A new unnamed file open for reading and writing; stem names the fallback's
 * short-lived file (callgraph-STEM.XXXXXX).  Its descriptor, or -1 with
 * errno set. */
int unnamed_open(const char *stem);

/* Write all n bytes of p to fd, again after EINTR: 0, or -1 with errno set
 * (ENOSPC when a write wrote nothing). */
int unnamed_write(int fd, const void *p, size_t n);

#endif

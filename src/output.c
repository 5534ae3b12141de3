/* output.c - atomic output files. */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int output_same_file(const char *path, const char *other)
{
	struct stat a, b;

	if (strcmp(path, "-") == 0 || strcmp(other, "-") == 0)
		return 0;
	if (stat(path, &a) != 0 || stat(other, &b) != 0)
		return 0;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

struct cg_staged {
	char *path;        /* the target, symlinks resolved; NULL for standard output */
	char *tmp;         /* the written temporary file beside it, or NULL */
	int fd;            /* a device, FIFO or socket, written at commit; else -1 */
	const void *data;  /* borrowed, for standard output and fd */
	size_t len;
};

static void staged_free(struct cg_staged *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->tmp);
	free(s->path);
	free(s);
}

struct cg_staged *output_stage(const char *path, const void *data, size_t len,
			       struct cg_error *err)
{
	struct cg_staged *s = xcalloc(1, sizeof(*s));
	char *real = NULL;
	struct stat st;
	mode_t mode, um;
	int fd;

	s->fd = -1;
	s->data = data;
	s->len = len;
	if (strcmp(path, "-") == 0)
		return s;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			cg_error_set(err, -1, "cannot write %s: is a directory", path);
			goto fail;
		}
		if (!S_ISREG(st.st_mode)) {
			/* A device, FIFO or socket cannot be replaced by a rename
			 * (that would turn /dev/null into a regular file): it is
			 * written straight to at commit. */
			s->fd = open(path, O_WRONLY | O_CLOEXEC);
			if (s->fd < 0) {
				cg_error_set(err, -1, "cannot write %s: %s", path, strerror(errno));
				goto fail;
			}
			s->path = xstrdup(path);
			return s;
		}
		mode = st.st_mode & 0777;
		/* Through a symlink, replace the file it names, not the link. */
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			real = realpath(path, NULL);
	} else {
		um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	s->path = real ? real : xstrdup(path);
	s->tmp = xmalloc(strlen(s->path) + 16);
	sprintf(s->tmp, "%s.tmpXXXXXX", s->path);
	fd = mkstemp(s->tmp);
	if (fd < 0) {
		cg_error_set(err, -1, "cannot create %s: %s", path, strerror(errno));
		goto fail;
	}
	/* No fsync: the rename protects against our own failures, which is the
	 * promise; durability across power loss is the file system's business. */
	if (write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0) {
		cg_error_set(err, -1, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		unlink(s->tmp);
		goto fail;
	}
	if (close(fd) != 0) {
		cg_error_set(err, -1, "cannot write %s: %s", path, strerror(errno));
		unlink(s->tmp);
		goto fail;
	}
	return s;
fail:
	free(s->tmp);
	s->tmp = NULL;
	staged_free(s);
	return NULL;
}

int output_commit(struct cg_staged *s, struct cg_error *err)
{
	int rc = 0;

	if (!s->path) {
		if (fwrite(s->data, 1, s->len, stdout) != s->len || fflush(stdout) != 0) {
			cg_error_set(err, -1, "cannot write standard output: %s", strerror(errno));
			rc = -1;
		}
	} else if (s->fd >= 0) {
		if (write_all(s->fd, s->data, s->len) != 0 || close(s->fd) != 0) {
			cg_error_set(err, -1, "cannot write %s: %s", s->path, strerror(errno));
			rc = -1;
		}
		s->fd = -1;
	} else if (rename(s->tmp, s->path) != 0) {
		cg_error_set(err, -1, "cannot write %s: %s", s->path, strerror(errno));
		unlink(s->tmp);
		rc = -1;
	}
	staged_free(s);
	return rc;
}

void output_abort(struct cg_staged *s)
{
	if (!s)
		return;
	if (s->tmp)
		unlink(s->tmp);
	staged_free(s);
}

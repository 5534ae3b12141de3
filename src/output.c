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

int output_write(const char *path, const void *data, size_t len, struct cg_error *err)
{
	char *tmp;
	int fd;
	struct stat st;
	mode_t mode, um;

	if (strcmp(path, "-") == 0) {
		if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
			cg_error_set(err, -1, "cannot write standard output: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			cg_error_set(err, -1, "cannot write %s: is a directory", path);
			return -1;
		}
		mode = st.st_mode & 0777;
	} else {
		um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	tmp = xmalloc(strlen(path) + 16);
	sprintf(tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		cg_error_set(err, -1, "cannot create %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	/* No fsync: the rename protects against our own failures, which is the
	 * promise; durability across power loss is the file system's business. */
	if (write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0) {
		cg_error_set(err, -1, "cannot write %s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (close(fd) != 0 || rename(tmp, path) != 0) {
		cg_error_set(err, -1, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

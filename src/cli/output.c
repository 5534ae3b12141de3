/* output.c - output files that appear whole or not at all (see output.h). */
#include "cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/termsafe.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif
#define MAX_LINKS 40   /* symlinks followed before giving up (as the kernel) */
#define MAX_NAMED OUTPUT_MAX_OPEN /* named temporary files open at once (outputs of one run) */

enum kind { K_STDOUT, K_DEVICE, K_FILE };

struct cg_staged {
	enum kind kind;
	char *name;        /* the path as given, for messages */
	char *path;        /* the target, symlinks resolved (K_DEVICE, K_FILE) */
	char *tmp;         /* K_FILE: the named temporary file, once it has a name */
	int fd;            /* K_DEVICE, K_FILE */
	int unnamed;       /* K_FILE: fd is an O_TMPFILE file with no name yet */
	mode_t mode;       /* K_FILE: the mode the target gets */
	int slot;          /* index in named[] while tmp exists, else -1 */
	int tty;           /* writes go through the terminal filter */
	struct cg_termsafe ts;
	struct cg_error failure; /* the first output_sink write that failed */
	int failed;
};

struct cg_output_set {
	struct cg_staged *out[OUTPUT_MAX_OPEN];
	size_t n;
};

/* The named temporary files that exist now, for the fatal-signal handler.
 * This is the one piece of mutable global state: a signal handler can reach
 * nothing else.  A slot is filled before its file is created and emptied
 * after it is renamed or removed; the handler reads only complete slots. */
static char *named[MAX_NAMED];
static volatile sig_atomic_t named_live[MAX_NAMED];

void output_signal_cleanup(void)
{
	int i;

	for (i = 0; i < MAX_NAMED; i++)
		if (named_live[i] && named[i])
			unlink(named[i]);
}

static int slot_take(const char *tmp)
{
	int i;

	for (i = 0; i < MAX_NAMED; i++) {
		if (!named_live[i]) {
			named[i] = (char *)tmp;
			named_live[i] = 1;
			return i;
		}
	}
	return -1;
}

static void slot_drop(struct cg_staged *s)
{
	if (s->slot >= 0) {
		named_live[s->slot] = 0;
		named[s->slot] = NULL;
		s->slot = -1;
	}
}

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

int output_same_as_fd(const char *path, int fd)
{
	struct stat a, b;

	if (strcmp(path, "-") == 0)
		return 0;
	if (stat(path, &a) != 0 || fstat(fd, &b) != 0 || !S_ISREG(b.st_mode))
		return 0;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The directory part of path ("." when there is none); caller frees. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* Follow path through symlinks, dangling or not, to the name that is to be
 * written: a chain ends at a non-link or at a missing name.  NULL with errno
 * ELOOP after too many links.  Caller frees. */
static char *resolve(const char *path)
{
	char *cur = xstrdup(path);
	int hops;

	for (hops = 0; hops < MAX_LINKS; hops++) {
		struct stat st;
		char *target, *dir, *next;
		ssize_t n;
		size_t cap = 256;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		for (;;) {
			target = xmalloc(cap);
			n = readlink(cur, target, cap);
			if (n < 0) {
				free(target);
				return cur;
			}
			if ((size_t)n < cap)
				break;
			free(target);
			cap *= 2;
		}
		target[n] = '\0';
		if (target[0] == '/') {
			next = target;
		} else {
			dir = dir_of(cur);
			next = xmalloc(strlen(dir) + (size_t)n + 2);
			sprintf(next, "%s/%s", dir, target);
			free(dir);
			free(target);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/* A temporary name beside target: TARGET.tmpXXXXXX, with the last part of
 * the name shortened when that would pass NAME_MAX.  Caller frees. */
static char *tmp_name(const char *target)
{
	const char *base = strrchr(target, '/');
	size_t dlen = base ? (size_t)(base - target) + 1 : 0, blen;
	char *t;

	base = base ? base + 1 : target;
	blen = strlen(base);
	if (blen > NAME_MAX - 10)
		blen = NAME_MAX - 10;
	t = xmalloc(dlen + blen + 11);
	memcpy(t, target, dlen);
	memcpy(t + dlen, base, blen);
	memcpy(t + dlen + blen, ".tmpXXXXXX", 11);
	return t;
}

static void staged_free(struct cg_staged *s)
{
	slot_drop(s);
	if (s->fd >= 0)
		close(s->fd);
	free(s->tmp);
	free(s->path);
	free(s->name);
	free(s);
}

/* Open a temporary file for s->path: unnamed where the file system allows,
 * else named (and registered for the signal handler). */
static int open_tmp(struct cg_staged *s, const char *shown, struct cg_error *err)
{
	char *dir = dir_of(s->path);

#if defined(O_TMPFILE) && !defined(CG_NO_TMPFILE) /* -DCG_NO_TMPFILE tests the fallback */
	s->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (s->fd >= 0) {
		free(dir);
		s->unnamed = 1;
		return 0;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
		cg_error_set(err, -1, "cannot create %s: %s", shown, strerror(errno));
		free(dir);
		return -1;
	}
#endif
	free(dir);
	s->tmp = tmp_name(s->path);
	s->slot = slot_take(s->tmp);
	s->fd = mkstemp(s->tmp);
	if (s->fd < 0) {
		cg_error_set(err, -1, "cannot create %s: %s", shown, strerror(errno));
		slot_drop(s);
		return -1;
	}
	return 0;
}

struct cg_staged *output_open(const char *path, struct cg_error *err)
{
	struct cg_staged *s = xcalloc(1, sizeof(*s));
	struct stat st;
	mode_t um;

	s->fd = -1;
	s->slot = -1;
	termsafe_init(&s->ts);
	if (strcmp(path, "-") == 0) {
		s->kind = K_STDOUT;
		s->tty = isatty(STDOUT_FILENO);
		return s;
	}
	s->name = xstrdup(path);
	s->path = resolve(path);
	if (!s->path) {
		cg_error_set(err, -1, "cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	if (stat(s->path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			cg_error_set(err, -1, "cannot write %s: is a directory", path);
			goto fail;
		}
		if (!S_ISREG(st.st_mode)) {
			/* A device, FIFO or socket cannot be replaced by a rename
			 * (that would turn /dev/null into a regular file): it is
			 * written in place. */
			s->kind = K_DEVICE;
			s->fd = open(s->path, O_WRONLY | O_CLOEXEC);
			if (s->fd < 0) {
				cg_error_set(err, -1, "cannot write %s: %s", path, strerror(errno));
				goto fail;
			}
			s->tty = isatty(s->fd);
			return s;
		}
		s->mode = st.st_mode & 07777;
	} else {
		um = umask(0);
		umask(um);
		s->mode = 0666 & ~um;
	}
	s->kind = K_FILE;
	if (open_tmp(s, path, err) != 0)
		goto fail;
	return s;
fail:
	staged_free(s);
	return NULL;
}

int output_is_staged(const struct cg_staged *s)
{
	return s->kind == K_FILE;
}

static int emit_stdout(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	return fwrite(p, 1, n, stdout) != n;
}

static int emit_fd(void *ctx, const char *p, size_t n)
{
	return write_all(*(int *)ctx, p, n);
}

static const char *shown_name(const struct cg_staged *s)
{
	return s->kind == K_STDOUT ? "standard output" : s->name;
}

int output_write(struct cg_staged *s, const void *data, size_t len, struct cg_error *err)
{
	int rc;

	if (s->kind == K_STDOUT)
		rc = s->tty ? termsafe_feed(&s->ts, data, len, 0, emit_stdout, NULL)
			    : emit_stdout(NULL, data, len);
	else
		rc = s->tty ? termsafe_feed(&s->ts, data, len, 0, emit_fd, &s->fd)
			    : write_all(s->fd, data, len);
	if (rc != 0) {
		cg_error_set(err, -1, "cannot write %s: %s", shown_name(s), strerror(errno));
		return -1;
	}
	return 0;
}

/* Give the unnamed file s->fd the name s->tmp (a fresh name beside the
 * target).  0, or -1 with errno set. */
static int link_tmp(struct cg_staged *s)
{
	char proc[64];
	unsigned long seed = (unsigned long)getpid() * 2654435761u ^ (unsigned long)time(NULL);
	int tries;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", s->fd);
	s->tmp = tmp_name(s->path);
	for (tries = 0; tries < 100; tries++) {
		char *x = s->tmp + strlen(s->tmp) - 6;
		int i, rc;

		for (i = 0; i < 6; i++, seed = seed * 6364136223846793005u + 1442695040888963407u)
			x[i] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[(seed >> 33) % 62];
		if (s->slot < 0)
			s->slot = slot_take(s->tmp);
		rc = linkat(AT_FDCWD, proc, AT_FDCWD, s->tmp, AT_SYMLINK_FOLLOW);
		if (rc != 0 && errno == ENOENT)
			rc = linkat(s->fd, "", AT_FDCWD, s->tmp, AT_EMPTY_PATH);
		if (rc == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	slot_drop(s);
	return -1;
}

int output_commit(struct cg_staged *s, struct cg_error *err)
{
	int rc = 0;

	if (s->kind == K_STDOUT) {
		if ((s->tty && termsafe_feed(&s->ts, "", 0, 1, emit_stdout, NULL) != 0) ||
		    fflush(stdout) != 0) {
			cg_error_set(err, -1, "cannot write standard output: %s", strerror(errno));
			rc = -1;
		}
	} else if (s->kind == K_DEVICE) {
		if ((s->tty && termsafe_feed(&s->ts, "", 0, 1, emit_fd, &s->fd) != 0) ||
		    close(s->fd) != 0) {
			cg_error_set(err, -1, "cannot write %s: %s", s->name, strerror(errno));
			rc = -1;
		}
		s->fd = -1;
	} else {
		/* No fsync: the rename protects against our own failures, which is
		 * the promise; durability across power loss is the file system's. */
		if (fchmod(s->fd, s->mode) != 0 || (s->unnamed && link_tmp(s) != 0)) {
			cg_error_set(err, -1, "cannot write %s: %s", s->name, strerror(errno));
			rc = -1;
		} else {
			int fd = s->fd;

			s->fd = -1;
			if (close(fd) != 0 || rename(s->tmp, s->path) != 0) {
				cg_error_set(err, -1, "cannot write %s: %s", s->name, strerror(errno));
				rc = -1;
			}
		}
		if (rc != 0 && s->tmp && s->slot >= 0)
			unlink(s->tmp);
		slot_drop(s);
	}
	staged_free(s);
	return rc;
}

void output_abort(struct cg_staged *s)
{
	if (!s)
		return;
	if (s->kind == K_FILE && s->slot >= 0)
		unlink(s->tmp);
	staged_free(s);
}

int output_sink(void *ctx, const void *data, size_t len)
{
	struct cg_staged *s = ctx;

	if (s->failed)
		return -1;
	if (output_write(s, data, len, &s->failure) < 0)
		s->failed = 1;
	return -s->failed;
}

const char *output_failure(const struct cg_staged *s)
{
	return s->failed ? s->failure.msg : NULL;
}

static ssize_t stream_write(void *cookie, const char *p, size_t n)
{
	return output_sink(cookie, p, n) ? -1 : (ssize_t)n;
}

FILE *output_stream(struct cg_staged *s)
{
	cookie_io_functions_t io = { NULL, stream_write, NULL, NULL };

	if (s->kind == K_STDOUT && !s->tty)
		return stdout;
	return fopencookie(s, "w", io);
}

int output_stream_close(struct cg_staged *s, FILE *f)
{
	(void)s;
	if (f == stdout)
		return fflush(stdout) == 0 ? 0 : -1;
	return fclose(f) == 0 ? 0 : -1;
}

struct cg_output_set *output_set_create(void)
{
	return xcalloc(1, sizeof(struct cg_output_set));
}

struct cg_staged *output_set_open(struct cg_output_set *set, const char *path,
				  struct cg_error *err)
{
	struct cg_staged *s;

	if (set->n >= OUTPUT_MAX_OPEN) {
		cg_error_set(err, -1, "cannot write %s: more than %d outputs", path, OUTPUT_MAX_OPEN);
		return NULL;
	}
	s = output_open(path, err);
	if (s)
		set->out[set->n++] = s;
	return s;
}

int output_set_commit(struct cg_output_set *set, struct cg_error *err)
{
	int rc = 0;
	size_t i;

	for (i = 0; i < set->n; i++) {
		if (rc)
			output_abort(set->out[i]);
		else if (output_commit(set->out[i], err) < 0)
			rc = -1;
	}
	free(set);
	return rc;
}

void output_set_abort(struct cg_output_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->n; i++)
		output_abort(set->out[i]);
	free(set);
}

/* source.c - trace bytes from a file, stdin, memory, gzip or a key+data pair.
 *
 * gzip is inflated on a thread of its own, RING buffers of SLOT bytes ahead
 * of the reader, so that decompression overlaps the replay.  The bytes, and
 * every error with its offset, are those of inflating on the reader's
 * thread: the inflating thread reports an error only after the reader has
 * taken every byte before it, and drops the output of the failing inflate
 * call as the one-thread reader did. */
#include "read/source.h"
#include "read/source_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>


static ssize_t raw_read(struct cg_source *s, void *buf, size_t n, struct cg_error *err)
{
	if (s->pend_pos < s->pend_len) {
		size_t k = s->pend_len - s->pend_pos;

		if (k > n)
			k = n;
		memcpy(buf, s->pending + s->pend_pos, k);
		s->pend_pos += k;
		return (ssize_t)k;
	}
	if (s->mem) {
		size_t k = s->mem_len - s->mem_pos;

		if (k > n)
			k = n;
		memcpy(buf, s->mem + s->mem_pos, k);
		s->mem_pos += k;
		s->in_done += k;
		return (ssize_t)k;
	}
	while (s->cur < s->nfds) {
		ssize_t r;
		int old;

		/* The inflating thread may be cancelled while it waits here, and
		 * only here. */
		if (s->gt)
			pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
		r = read(s->fds[s->cur], buf, n);
		if (s->gt)
			pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			cg_error_set(err, (int64_t)(s->gzip ? s->z_out : s->out_off), "read error: %s",
				     strerror(errno));
			return -1;
		}
		if (r > 0) {
			s->in_done += (uint64_t)r;
			return r;
		}
		s->cur++;
	}
	return 0;
}

static void sniff(struct cg_source *s, struct cg_error *err)
{
	unsigned char *p = xmalloc(RAW_BLOCK);
	size_t got = 0;

	/* Fill enough to see the gzip magic even from a slow pipe. */
	while (got < 2) {
		ssize_t r = raw_read(s, p + got, RAW_BLOCK - got, err);

		if (r <= 0)
			break;
		got += (size_t)r;
	}
	s->pending = p;
	s->pend_len = got;
	s->pend_pos = 0;
	s->gzip = got >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

struct cg_source *source_new(void)
{
	struct cg_source *s = xcalloc(1, sizeof(*s));

	s->fds[0] = s->fds[1] = -1;
	return s;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

static int open_fd(const char *path, struct cg_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		cg_error_set(err, -1, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		cg_error_set(err, -1, "is a directory");
		close(fd);
		return -1;
	}
#ifdef POSIX_FADV_SEQUENTIAL
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	return fd;
}

/* 1 when fd is a regular file, with its size in *size. */
static int regular_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	*size = (uint64_t)st.st_size;
	return 1;
}

/* fd's size, 0 when it is not a regular file. */
static uint64_t fd_size(int fd)
{
	uint64_t n;

	return regular_size(fd, &n) ? n : 0;
}

void source_pair_names(const char *path, char **key, char **data)
{
	size_t n = strlen(path);

	if (ends_with(path, ".key"))
		n -= 4;
	else if (ends_with(path, ".data"))
		n -= 5;
	*key = xmalloc(n + 6);
	*data = xmalloc(n + 6);
	sprintf(*key, "%.*s.key", (int)n, path);
	sprintf(*data, "%.*s.data", (int)n, path);
}

/* For a legacy pair, fill key and data paths (the caller frees them);
 * returns 1 when path names one, 0 when it does not (nothing to free), -1
 * (err filled, nothing to free) when it names half of one: NAME.key without
 * NAME.data beside it, or the reverse. */
static int split_paths(const char *path, char **key, char **data, struct cg_error *err)
{
	if (!ends_with(path, ".key") && !ends_with(path, ".data") && is_file(path))
		return 0;
	source_pair_names(path, key, data);
	if (is_file(*key) && is_file(*data))
		return 1;
	if (is_file(*key) != is_file(*data)) {
		cg_error_set(err, -1, "legacy %s file without its %s: %s not found",
			     is_file(*key) ? "key" : "data", is_file(*key) ? "data" : "key",
			     is_file(*key) ? *data : *key);
		free(*key);
		free(*data);
		return -1;
	}
	free(*key);
	free(*data);
	return 0;
}

struct cg_source *source_open(const char *path, struct cg_error *err)
{
	struct cg_source *s = source_new();
	char *key, *data;
	int pair;

	s->owns_fds = 1;
	if (strcmp(path, "-") == 0) {
		s->fds[0] = STDIN_FILENO;
		s->nfds = 1;
		s->owns_fds = 0;
	} else if ((pair = split_paths(path, &key, &data, err)) < 0) {
		goto fail;
	} else if (pair) {
		s->fds[0] = open_fd(key, err);
		s->fds[1] = s->fds[0] >= 0 ? open_fd(data, err) : -1;
		free(key);
		free(data);
		if (s->fds[1] < 0)
			goto fail;
		s->nfds = 2;
		s->split = 1;
	} else {
		s->fds[0] = open_fd(path, err);
		if (s->fds[0] < 0)
			goto fail;
		s->nfds = 1;
	}
	s->key_len = s->nfds == 2 ? fd_size(s->fds[0]) : 0;
	s->in_total = s->nfds == 2 ? s->key_len + fd_size(s->fds[1]) : fd_size(s->fds[0]);
	sniff(s, err);
	return s;
fail:
	source_free(s);
	return NULL;
}

struct cg_source *source_open_mem(const void *data, size_t len)
{
	struct cg_source *s = source_new();

	s->mem = data;
	s->mem_len = len;
	s->in_total = len;
	sniff(s, NULL);
	return s;
}

/* Free the inflating thread's state (the thread is joined or never ran). */
static void gz_thread_release(struct cg_source *s)
{
	struct gz_thread *g = s->gt;
	int i;

	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
	for (i = 0; i < RING; i++)
		free(g->slot[i].data);
	free(g);
	s->gt = NULL;
}

static void gz_stop(struct cg_source *s)
{
	struct gz_thread *g = s->gt;

	pthread_mutex_lock(&g->mu);
	g->stop = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	pthread_cancel(g->thr);  /* when it is blocked reading a pipe */
	pthread_join(g->thr, NULL);
	gz_thread_release(s);
}

void source_free(struct cg_source *s)
{
	int i;

	if (!s)
		return;
	if (s->gt)
		gz_stop(s);
	if (s->owns_fds)
		for (i = 0; i < 2; i++)
			if (s->fds[i] >= 0)
				close(s->fds[i]);
	if (s->z_ready)
		inflateEnd(&s->z);
	free(s->zin);
	free(s->pending);
	free(s);
}

/* After a gzip member: 1 when another member starts (its first bytes left
 * in the input buffer), 0 when the input ends or holds no gzip magic next,
 * -1 on a read error. */
static int next_member(struct cg_source *s, struct cg_error *err)
{
	/* Move what is left to the front so the magic can be completed. */
	memmove(s->zin, s->z.next_in, s->z.avail_in);
	s->z.next_in = s->zin;
	while (s->z.avail_in < 2) {
		ssize_t r = raw_read(s, s->zin + s->z.avail_in, RAW_BLOCK - s->z.avail_in, err);

		if (r < 0)
			return -1;
		if (r == 0)
			break;
		s->z.avail_in += (uInt)r;
	}
	if (s->z.avail_in >= 2 && s->zin[0] == 0x1f && s->zin[1] == 0x8b)
		return 1;
	s->z.avail_in = 0;
	return 0;
}

/* Inflate into buf: at least one byte, 0 at the end, -1 on an error (the
 * output of the failing inflate call is not counted). */
static ssize_t gz_read(struct cg_source *s, unsigned char *buf, size_t n, struct cg_error *err)
{
	s->z.next_out = buf;
	s->z.avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
	s->z_break = 0;
	while (s->z.next_out == buf) {
		int rc;

		if (s->z_end)
			break;
		if (s->z.avail_in == 0) {
			ssize_t r = raw_read(s, s->zin, RAW_BLOCK, err);

			if (r < 0)
				return -1;
			if (r == 0) {
				cg_error_set(err, (int64_t)(s->z_out + (size_t)(s->z.next_out - buf)),
					     "gzip data ends early (truncated .gz file)");
				return -1;
			}
			s->z.next_in = s->zin;
			s->z.avail_in = (uInt)r;
		}
		rc = inflate(&s->z, Z_NO_FLUSH);
		s->z_break = rc == Z_STREAM_END || s->z.avail_in == 0;
		if (rc == Z_STREAM_END) {
			/* Concatenated members are legal gzip: continue when another
			 * member (1f 8b) follows.  Anything else after a complete,
			 * checked member is ignored, as gzip -d does: zeros padding
			 * the file to a block size, or a stray byte. */
			int more = next_member(s, err);

			if (more < 0)
				return -1;
			if (!more) {
				s->z_end = 1;
				break;
			}
			inflateReset(&s->z);
			continue;
		}
		if (rc != Z_OK && rc != Z_BUF_ERROR) {
			cg_error_set(err, (int64_t)(s->z_out + (size_t)(s->z.next_out - buf)),
				     "corrupt gzip data (%s)", s->z.msg ? s->z.msg : "inflate failed");
			return -1;
		}
	}
	s->z_out += (size_t)(s->z.next_out - buf);
	return (ssize_t)(s->z.next_out - buf);
}

/* Compressed bytes inflate() has consumed: read-ahead excluded. */
static uint64_t gz_consumed(const struct cg_source *s)
{
	return s->in_done - s->z.avail_in - (s->pend_len - s->pend_pos);
}

/* The inflating thread: fills slots until the end, an error or stop. */
static void *gz_main(void *arg)
{
	struct cg_source *s = arg;
	struct gz_thread *g = s->gt;
	int old;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	for (;;) {
		struct gz_slot *sl;
		struct cg_error err = { { 0 }, 0, 0 };
		ssize_t r = 1;

		pthread_mutex_lock(&g->mu);
		while (g->filled - g->taken == RING && !g->stop)
			pthread_cond_wait(&g->cv, &g->mu);
		if (g->stop) {
			pthread_mutex_unlock(&g->mu);
			break;
		}
		pthread_mutex_unlock(&g->mu);
		/* This slot is the thread's until `filled` moves past it. */
		sl = &g->slot[g->filled % RING];
		sl->len = 0;
		sl->nbrk = 0;
		while (sl->len < SLOT && sl->nbrk < MAX_BREAKS &&
		       (r = gz_read(s, sl->data + sl->len, SLOT - sl->len, &err)) > 0) {
			sl->len += (size_t)r;
			if (s->z_break) {
				sl->brk[sl->nbrk] = (uint32_t)sl->len;
				sl->brk_used[sl->nbrk++] = gz_consumed(s);
			}
		}
		sl->consumed = gz_consumed(s);
		sl->in_done = s->in_done;
		pthread_mutex_lock(&g->mu);
		if (sl->len)
			g->filled++;
		if (r <= 0) {
			g->done = 1;
			g->failed = r < 0;
			g->err = err;
		}
		pthread_cond_broadcast(&g->cv);
		pthread_mutex_unlock(&g->mu);
		if (r <= 0)
			break;
	}
	return NULL;
}

static int gz_start(struct cg_source *s, struct cg_error *err)
{
	struct gz_thread *g;
	sigset_t all, old;
	int i, rc;

	memset(&s->z, 0, sizeof(s->z));
	if (inflateInit2(&s->z, 15 + 32) != Z_OK) {
		cg_error_set(err, 0, "cannot start gzip decompression");
		return -1;
	}
	s->z_ready = 1;
	s->zin = xmalloc(RAW_BLOCK);
	g = xcalloc(1, sizeof(*g));
	for (i = 0; i < RING; i++)
		g->slot[i].data = xmalloc(SLOT);
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	s->gt = g;
	/* Signals stay with the main thread (temp-file cleanup). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&g->thr, NULL, gz_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		gz_thread_release(s);
		cg_error_set(err, 0, "cannot start the gzip thread: %s", strerror(rc));
		return -1;
	}
	return 0;
}

/* The reader's side: what a read on one thread gave, n bytes or up to the
 * next break; an error only once every byte before it was taken. */
static ssize_t gz_take(struct cg_source *s, unsigned char *buf, size_t n, struct cg_error *err)
{
	struct gz_thread *g;
	size_t got = 0;

	if (!s->gt && gz_start(s, err))
		return -1;
	g = s->gt;
	while (got < n) {
		struct gz_slot *sl;
		size_t k;
		int at_break;

		pthread_mutex_lock(&g->mu);
		while (g->filled == g->taken && !g->done)
			pthread_cond_wait(&g->cv, &g->mu);
		if (g->filled == g->taken) {
			int failed = g->failed;

			if (failed && !got && err)
				*err = g->err;
			pthread_mutex_unlock(&g->mu);
			return failed && !got ? -1 : (ssize_t)got;
		}
		pthread_mutex_unlock(&g->mu);
		sl = &g->slot[g->taken % RING];
		while (g->bi < sl->nbrk && sl->brk[g->bi] <= g->pos)
			g->bi++;
		k = (g->bi < sl->nbrk ? sl->brk[g->bi] : sl->len) - g->pos;
		if (k > n - got)
			k = n - got;
		memcpy(buf + got, sl->data + g->pos, k);
		got += k;
		g->pos += k;
		at_break = g->bi < sl->nbrk && g->pos == sl->brk[g->bi];
		g->consumed = at_break ? sl->brk_used[g->bi] : sl->consumed;
		g->in_done = sl->in_done;
		if (g->pos == sl->len) {
			pthread_mutex_lock(&g->mu);
			g->taken++;
			g->pos = 0;
			g->bi = 0;
			pthread_cond_broadcast(&g->cv);
			pthread_mutex_unlock(&g->mu);
		}
		if (at_break)
			break;
	}
	return (ssize_t)got;
}

ssize_t source_read(struct cg_source *s, void *buf, size_t n, struct cg_error *err)
{
	ssize_t r = s->gzip ? gz_take(s, buf, n, err) : raw_read(s, buf, n, err);

	if (r > 0) {
		s->out_off += (uint64_t)r;
		if (s->gzip && s->out_off > BOMB_MIN &&
		    s->out_off / BOMB_RATIO > s->gt->consumed) {
			cg_error_set(err, (int64_t)s->out_off,
				     "gzip stream expands more than %ux (decompression bomb?); "
				     "decompress it first to read it anyway", BOMB_RATIO);
			return -1;
		}
		if (s->limit && s->out_off > s->limit) {
			cg_error_set(err, (int64_t)s->limit, "input larger than the %llu-byte limit",
				     (unsigned long long)s->limit);
			return -1;
		}
	}
	return r;
}

void source_progress(const struct cg_source *s, uint64_t *done, uint64_t *total)
{
	*done = s->gt ? s->gt->in_done : s->in_done - (s->pend_len - s->pend_pos);
	*total = s->in_total;
}

int source_kind(const struct cg_source *s)
{
	return s->gzip ? 1 : s->split ? 2 : 0;
}

int source_span(const struct cg_source *s, uint64_t *size)
{
	uint64_t a, b = 0;

	if (s->gzip || s->limit)
		return 0;
	if (s->mem) {
		*size = s->mem_len;
		return 1;
	}
	/* A pair reads as its key, then its data. */
	if (!s->owns_fds || s->nfds < 1 || !regular_size(s->fds[0], &a) ||
	    (s->nfds == 2 && !regular_size(s->fds[1], &b)))
		return 0;
	*size = a + b;
	return 1;
}

ssize_t source_pread(const struct cg_source *s, void *buf, size_t n, uint64_t off,
		     struct cg_error *err)
{
	size_t got = 0;

	if (s->mem) {
		if (off >= s->mem_len)
			return 0;
		if (n > s->mem_len - off)
			n = (size_t)(s->mem_len - off);
		memcpy(buf, s->mem + off, n);
		return (ssize_t)n;
	}
	while (got < n) {
		uint64_t at = off + got;
		int i = s->nfds == 2 && at >= s->key_len;
		ssize_t r = pread(s->fds[i], (char *)buf + got, n - got,
				  (off_t)(i ? at - s->key_len : at));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			cg_error_set(err, (int64_t)at, "read error: %s", strerror(errno));
			return -1;
		}
		if (r == 0)
			break; /* shorter than it was */
		got += (size_t)r;
	}
	return (ssize_t)got;
}

void source_seek(struct cg_source *s, uint64_t off)
{
	s->pend_pos = s->pend_len;
	if (s->mem) {
		s->mem_pos = off < s->mem_len ? (size_t)off : s->mem_len;
	} else if (s->nfds == 2 && off >= s->key_len) {
		s->cur = 1;
		lseek(s->fds[1], (off_t)(off - s->key_len), SEEK_SET);
	} else {
		s->cur = 0;
		lseek(s->fds[0], (off_t)off, SEEK_SET);
	}
	s->out_off = off;
	s->in_done = off;
}

void source_set_limit(struct cg_source *s, uint64_t max_bytes)
{
	s->limit = max_bytes;
}

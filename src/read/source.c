/* source.c - trace bytes from a file, stdin, memory, gzip or a key+data pair. */
#include "read/source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define RAW_BLOCK (1u << 16)
/* A gzip stream that inflates to more than this many times the compressed
 * bytes consumed so far, past BOMB_MIN bytes, is treated as hostile rather
 * than read for ever.  Real traces compress 2-10x (the corpus: about 5x;
 * tracegen's benchmark traces: 2.3x); 100x needs near-constant data such as
 * runs of zeros (1030x) or one repeated record pair (410x).  8 MB is reached
 * in milliseconds and comes before the stack-depth limit that runs of zero
 * records (enter, method 0) would otherwise hit at about 14 MB. */
#define BOMB_RATIO 100u
#define BOMB_MIN (8u << 20)

struct cg_source {
	int fds[2];
	int nfds, cur;
	int owns_fds;
	const unsigned char *mem;
	size_t mem_len, mem_pos;

	unsigned char *pending; /* bytes read for sniffing, served first */
	size_t pend_len, pend_pos;

	int gzip;
	int split;
	z_stream z;
	int z_ready, z_end;
	unsigned char *zin;

	uint64_t out_off;   /* decompressed bytes delivered */
	uint64_t in_done;   /* raw bytes consumed */
	uint64_t in_total;  /* raw size when known */
	uint64_t limit;
};

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
		ssize_t r = read(s->fds[s->cur], buf, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			cg_error_set(err, (int64_t)s->out_off, "read error: %s", strerror(errno));
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

static struct cg_source *source_new(void)
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

static uint64_t fd_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
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
	s->in_total = fd_size(s->fds[0]) + (s->nfds == 2 ? fd_size(s->fds[1]) : 0);
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

void source_free(struct cg_source *s)
{
	int i;

	if (!s)
		return;
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

static ssize_t gz_read(struct cg_source *s, unsigned char *buf, size_t n, struct cg_error *err)
{
	if (!s->z_ready) {
		memset(&s->z, 0, sizeof(s->z));
		if (inflateInit2(&s->z, 15 + 32) != Z_OK) {
			cg_error_set(err, 0, "cannot start gzip decompression");
			return -1;
		}
		s->zin = xmalloc(RAW_BLOCK);
		s->z_ready = 1;
	}
	s->z.next_out = buf;
	s->z.avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
	while (s->z.next_out == buf) {
		int rc;

		if (s->z_end)
			break;
		if (s->z.avail_in == 0) {
			ssize_t r = raw_read(s, s->zin, RAW_BLOCK, err);

			if (r < 0)
				return -1;
			if (r == 0) {
				cg_error_set(err, (int64_t)(s->out_off + (size_t)(s->z.next_out - buf)),
					     "gzip data ends early (truncated .gz file)");
				return -1;
			}
			s->z.next_in = s->zin;
			s->z.avail_in = (uInt)r;
		}
		rc = inflate(&s->z, Z_NO_FLUSH);
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
			cg_error_set(err, (int64_t)(s->out_off + (size_t)(s->z.next_out - buf)),
				     "corrupt gzip data (%s)", s->z.msg ? s->z.msg : "inflate failed");
			return -1;
		}
	}
	return (ssize_t)(s->z.next_out - buf);
}

ssize_t source_read(struct cg_source *s, void *buf, size_t n, struct cg_error *err)
{
	ssize_t r = s->gzip ? gz_read(s, buf, n, err) : raw_read(s, buf, n, err);

	if (r > 0) {
		s->out_off += (uint64_t)r;
		/* Compressed bytes inflate() has consumed: read-ahead excluded. */
		if (s->gzip && s->out_off > BOMB_MIN &&
		    s->out_off / BOMB_RATIO >
			    s->in_done - s->z.avail_in - (s->pend_len - s->pend_pos)) {
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
	*done = s->in_done - (s->pend_len - s->pend_pos);
	*total = s->in_total;
}

int source_kind(const struct cg_source *s)
{
	return s->gzip ? 1 : s->split ? 2 : 0;
}

void source_set_limit(struct cg_source *s, uint64_t max_bytes)
{
	s->limit = max_bytes;
}

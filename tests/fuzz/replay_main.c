/* replay_main.c - run the fuzz target over files, without libFuzzer.
 *
 * usage: fuzz_replay PATH...   (each PATH a file or a directory of files)
 *
 * Each input runs in a child process, so that a crash (or, under ASan, a
 * sanitizer abort or a leak report) is counted against that file and the
 * rest still run.  A file passes when the target returns and the child exits
 * 0.  Prints one line per failure and closes with
 * "fuzz-replay: N passed, N failed"; exit status 1 when any failed.
 * FUZZ_REPLAY_TIMEOUT (seconds, default 120) bounds one input.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct tally {
	unsigned long passed, failed;
};

/* Read the whole file into an exact-size buffer (so ASan sees overreads).
 * Returns 0 or -1. */
static int slurp(const char *path, unsigned char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return -1;
	for (;;) {
		size_t r;

		if (n == cap) {
			unsigned char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb)
				goto fail;
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f))
		goto fail;
	fclose(f);
	/* Exact size, so one byte past the input is outside the allocation. */
	*out = malloc(n ? n : 1);
	if (!*out) {
		free(buf);
		return -1;
	}
	if (n)
		memcpy(*out, buf, n);
	free(buf);
	*len = n;
	return 0;
fail:
	free(buf);
	fclose(f);
	return -1;
}

static void run_one(const char *path, unsigned timeout, struct tally *t)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("fuzz-replay: %s: fork: %s\n", path, strerror(errno));
		t->failed++;
		return;
	}
	if (pid == 0) {
		unsigned char *data;
		size_t len;

		alarm(timeout);
		if (slurp(path, &data, &len) != 0) {
			fprintf(stderr, "fuzz-replay: %s: cannot read: %s\n", path, strerror(errno));
			_exit(3);
		}
		LLVMFuzzerTestOneInput(data, len);
		free(data);
		exit(0); /* exit, not _exit: leak checkers report at exit */
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		t->passed++;
		return;
	}
	t->failed++;
	if (status == -1)
		printf("fuzz-replay: %s: lost the child\n", path);
	else if (WIFSIGNALED(status))
		printf("fuzz-replay: %s: killed by signal %d%s\n", path, WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
	else
		printf("fuzz-replay: %s: exit status %d\n", path, WEXITSTATUS(status));
}

static int skip_name(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static void run_path(const char *path, unsigned timeout, struct tally *t)
{
	struct stat st;
	struct dirent **names;
	int n, i;

	if (stat(path, &st) != 0) {
		printf("fuzz-replay: %s: %s\n", path, strerror(errno));
		t->failed++;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		run_one(path, timeout, t);
		return;
	}
	n = scandir(path, &names, skip_name, alphasort);
	if (n < 0) {
		printf("fuzz-replay: %s: %s\n", path, strerror(errno));
		t->failed++;
		return;
	}
	for (i = 0; i < n; i++) {
		size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
		char *child = malloc(len);

		if (child) {
			snprintf(child, len, "%s/%s", path, names[i]->d_name);
			run_path(child, timeout, t);
			free(child);
		} else {
			t->failed++;
		}
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	struct tally t = { 0, 0 };
	const char *env = getenv("FUZZ_REPLAY_TIMEOUT");
	unsigned timeout = env && atoi(env) > 0 ? (unsigned)atoi(env) : 120;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: fuzz_replay FILE_OR_DIR...\n");
		return 2;
	}
	for (i = 1; i < argc; i++)
		run_path(argv[i], timeout, &t);
	printf("fuzz-replay: %lu passed, %lu failed\n", t.passed, t.failed);
	return t.failed ? 1 : 0;
}

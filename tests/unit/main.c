/* Unit-test runner: runs every registered test (or those named on the
 * command line), each in a child process of its own, so that a test that
 * crashes or hangs cannot hide the results of the others.  Prints one line
 * per test, "PASS unit NAME", "FAIL unit NAME", "SIGNAL unit NAME: SIGSEGV"
 * or "SKIP unit NAME: reason", with a failing test's messages before its
 * line, and closes with "unit: N passed, N failed" (", N skipped" when a
 * test skipped).  A signal counts as a failure.  Each test has
 * CG_UNIT_TIMEOUT seconds (default 120), then it is killed with SIGALRM. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

#define MAX_TESTS 1024

struct unit_test {
	const char *name;
	unit_fn fn;
};

static struct unit_test tests[MAX_TESTS];
static int ntests;

void unit_register(const char *name, unit_fn fn)
{
	if (ntests < MAX_TESTS) {
		tests[ntests].name = name;
		tests[ntests].fn = fn;
		ntests++;
	} else {
		fprintf(stderr, "unit: more than %d tests; raise MAX_TESTS\n", MAX_TESTS);
		abort();
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct unit_test *)a)->name, ((const struct unit_test *)b)->name);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGABRT: return "SIGABRT";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGALRM: return "SIGALRM (timeout)";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	default: return "a signal";
	}
}

/* Copy the child's messages (read from f) to stdout, each line prefixed, so
 * they stay next to the result line.  Returns the first line, trimmed, in
 * first (for a SKIP reason). */
static void relay(FILE *f, const char *prefix, char *first, size_t cap)
{
	char line[1024];
	int n = 0;

	first[0] = '\0';
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (n++ == 0)
			snprintf(first, cap, "%s", line + strspn(line, " "));
		if (prefix)
			printf("%s%s\n", prefix, line + strspn(line, " "));
	}
}

/* Run test t in a child; 0 pass, 1 fail, 2 signal, 3 skip. */
static int run_one(const struct unit_test *t, unsigned timeout, char *why, size_t cap)
{
	FILE *msgs = tmpfile();
	char prefix[256];
	pid_t pid;
	int status, rc;

	why[0] = '\0';
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(why, cap, "cannot fork");
		if (msgs)
			fclose(msgs);
		return 1;
	}
	if (pid == 0) {
		if (msgs) {
			dup2(fileno(msgs), STDERR_FILENO);
			dup2(fileno(msgs), STDOUT_FILENO);
		}
		alarm(timeout);
		rc = t->fn();
		/* exit, not _exit: LeakSanitizer and valgrind check for leaks at
		 * exit, and a leak makes the child's status non-zero.  The parent
		 * flushed its buffers before the fork, so nothing is written twice. */
		exit(rc == UNIT_SKIPPED ? 77 : rc == 0 ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFSIGNALED(status)) {
		snprintf(why, cap, "%s", signal_name(WTERMSIG(status)));
		rc = 2;
	} else if (WEXITSTATUS(status) == 0) {
		rc = 0;
	} else if (WEXITSTATUS(status) == 77) {
		rc = 3;
	} else {
		rc = 1;
	}
	if (msgs) {
		char first[512];

		snprintf(prefix, sizeof(prefix), "%s unit %s: ", rc == 3 ? "SKIP" : rc == 2 ? "SIGNAL" : "FAIL",
			 t->name);
		relay(msgs, rc == 0 || rc == 3 ? NULL : prefix, first, sizeof(first));
		if (rc == 3)
			snprintf(why, cap, "%s", first);
		fclose(msgs);
	}
	return rc;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0, i, j;
	const char *env = getenv("CG_UNIT_TIMEOUT");
	unsigned timeout = env && atoi(env) > 0 ? (unsigned)atoi(env) : 120;

	qsort(tests, (size_t)ntests, sizeof(tests[0]), by_name);
	for (i = 0; i < ntests; i++) {
		int want = argc < 2;
		char why[512];

		for (j = 1; j < argc && !want; j++)
			want = strcmp(argv[j], tests[i].name) == 0;
		if (!want)
			continue;
		switch (run_one(&tests[i], timeout, why, sizeof(why))) {
		case 0:
			printf("PASS unit %s\n", tests[i].name);
			passed++;
			break;
		case 1:
			printf("FAIL unit %s%s%s\n", tests[i].name, why[0] ? ": " : "", why);
			failed++;
			break;
		case 2:
			printf("SIGNAL unit %s: %s\n", tests[i].name, why);
			failed++;
			break;
		default:
			printf("SKIP unit %s: %s\n", tests[i].name, why[0] ? why : "skipped");
			skipped++;
			break;
		}
	}
	if (skipped)
		printf("unit: %d passed, %d failed, %d skipped\n", passed, failed, skipped);
	else
		printf("unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

/* main.c - argv -> options -> run -> exit status (run.h names them). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/output.h"
#include "cli/run.h"

static void on_fatal_signal(int sig)
{
	output_signal_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Temporary files go when the run is interrupted; SIGXFSZ (ulimit -f) is
 * ignored so that the write fails with EFBIG and is reported. */
static void signals_setup(void)
{
	static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT };
	size_t i;

	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction sa, old;

		if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue; /* nohup and friends: keep ignoring */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal[i], &sa, NULL);
	}
	signal(SIGXFSZ, SIG_IGN);
}

/* Descriptors 0, 1 and 2 closed by the caller (">&-") get /dev/null, so
 * that no file we open takes their number; returns a bit per descriptor
 * that was closed. */
static int std_fds_setup(void)
{
	int fd, closed = 0;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
			int nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);

			closed |= 1 << fd;
			if (nfd >= 0 && nfd != fd) {
				dup2(nfd, fd);
				close(nfd);
			}
		}
	}
	return closed;
}

int main(int argc, char **argv)
{
	struct cg_opts o;
	int closed = std_fds_setup();
	enum cg_exit rc;

	run_install_oom_hook();
	signals_setup();
	switch (cli_parse(argc, argv, &o)) {
	case CLI_USAGE:
		return CG_EXIT_USAGE;
	case CLI_EXIT_OK: /* --help, --version */
		rc = CG_EXIT_OK;
		break;
	default:
		rc = run(&o, closed & 2);
		cli_free(&o);
		break;
	}
	/* The last word on standard output: a full disk or a closed pipe there
	 * is a failure even when every write seemed to pass. */
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (rc == CG_EXIT_OK)
			fprintf(stderr, "callgraph: cannot write standard output: %s\n", strerror(errno));
		rc = CG_EXIT_FAILURE;
	}
	return rc;
}

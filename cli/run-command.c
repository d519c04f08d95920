/* SPDX-License-Identifier: MIT */
/* tt_run_command(): a touchtape command in a child (see run-command.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "run-command.h"

/* In the child: stdio as @io says. false when a descriptor failed. */
static bool
set_stdio(const struct tt_run_io *io)
{
	if (io->in != TT_RUN_KEEP) {
		int in = io->in;
		if (in == TT_RUN_NULL)
			in = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (in < 0 || dup2(in, STDIN_FILENO) < 0)
			return false;
	}
	if (io->log) {
		int log = open(io->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		return log >= 0 && dup2(log, STDOUT_FILENO) >= 0 && dup2(log, STDERR_FILENO) >= 0;
	}
	return io->out == TT_RUN_KEEP || dup2(io->out, STDOUT_FILENO) >= 0;
}

int
tt_run_command(const char *const *argv, const struct tt_run_io *io, pid_t *pid)
{
	/* Nothing buffered here is written twice, by both processes. */
	fflush(NULL);
	pid_t child = fork();

	if (child < 0)
		return -errno;
	if (child > 0) {
		*pid = child;
		return 0;
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (set_stdio(io))
		execv("/proc/self/exe", (char *const *)argv);
	_exit(127);
}

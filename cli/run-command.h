/* SPDX-License-Identifier: MIT */
/* One way for a command to run another (print runs record, regress runs
 * replay, record and diff): touchtape's own binary executed afresh in a
 * child, so the child is exactly `touchtape CMD ...` as a shell would start
 * it, with its own signal handling, buffers and exit status. */
#pragma once

#include <sys/types.h>

#define TT_RUN_KEEP (-1)	/* this process's own descriptor */
#define TT_RUN_NULL (-2)	/* /dev/null */

struct tt_run_io {
	int in;			/* stdin: a descriptor, TT_RUN_KEEP or TT_RUN_NULL */
	int out;		/* stdout: a descriptor or TT_RUN_KEEP */
	const char *log;	/* when set: stdout and stderr appended to this
				 * file instead (created 0644) */
};

/* Starts touchtape with @argv ("touchtape", the command, its arguments,
 * NULL) in a child: the binary running now (/proc/self/exe, even if its
 * file was replaced meanwhile), SIGINT, SIGTERM and SIGHUP at their
 * defaults, stdio as @io says. A child that cannot set up or execute
 * exits 127. 0 and *pid the child, or -errno when it could not fork. */
int tt_run_command(const char *const *argv, const struct tt_run_io *io, pid_t *pid);

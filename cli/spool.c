/* SPDX-License-Identifier: MIT */
/* Holding back a command's output: see spool.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "spool.h"
#include "util-io.h"
#include "util-mem.h"

static int
open_unlinked(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_RDWR | O_TMPFILE | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(path, sizeof(path), "%s/touchtape-spool.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

void
tt_spool_hold(struct tt_spool *s, int fd)
{
	_cleanup_close_ int tmp = open_unlinked();

	*s = (struct tt_spool){ .fd = fd, .saved = -1 };
	if (tmp < 0)
		return;
	s->saved = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (s->saved >= 0 && dup2(tmp, fd) < 0) {
		close(s->saved);
		s->saved = -1;
	}
}

bool
tt_spool_holding(const struct tt_spool *s)
{
	return s->saved >= 0;
}

/* What was written to the held descriptor, onto the saved one. */
static int
copy_held(const struct tt_spool *s)
{
	char buf[65536];
	off_t off = 0;
	ssize_t n;
	int rc = 0;

	while (rc == 0 && (n = pread(s->fd, buf, sizeof(buf), off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		rc = tt_write_all(s->saved, buf, (size_t)n);
		off += n;
	}
	return rc;
}

int
tt_spool_release(struct tt_spool *s)
{
	int rc;

	if (!tt_spool_holding(s))
		return 0;
	rc = copy_held(s);
	tt_spool_discard(s);
	return rc;
}

void
tt_spool_discard(struct tt_spool *s)
{
	if (!tt_spool_holding(s))
		return;
	dup2(s->saved, s->fd);
	close(s->saved);
	s->saved = -1;
}

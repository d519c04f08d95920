/* SPDX-License-Identifier: MIT */
/* See util-io.h. */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "util-io.h"

int
tt_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

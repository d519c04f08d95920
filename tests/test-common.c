/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "test-common.h"
#include "util-mem.h"

int tt_test_failures;

int
tt_test_result(void)
{
	if (tt_test_failures) {
		fprintf(stderr, "%d check(s) failed\n", tt_test_failures);
		return 1;
	}
	return 0;
}

const char *
tt_test_tmpfile(const void *data, size_t len)
{
	static char path[256];
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, sizeof(path), "%s/tt-test-XXXXXX", dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		abort();
	}
	if (len && write(fd, data, len) != (ssize_t)len) {
		perror("write");
		abort();
	}
	close(fd);
	return path;
}

char *
tt_test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
		abort();
	}
	for (;;) {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = tt_reallocarray(buf, cap, 1);
		}
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

const char *
tt_test_srcdir(void)
{
	const char *s = getenv("abs_top_srcdir");
	return s ? s : ".";
}

/* SPDX-License-Identifier: MIT */
/* regress --bless: a case's re-recording becomes its NAME.expected.jsonl,
 * a golden file reviewed and committed like any other. It is written
 * beside the target and renamed into place, so that an interrupted run
 * leaves the old file whole; replacing one is always said. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "regress.h"

static int
copy_fd(int in, int out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));
			if (w < 0) {
				if (errno == EINTR)
					continue;
				return -errno;
			}
			off += w;
		}
	}
	return 0;
}

/* @from copied to a temporary file beside @to, then renamed onto it. */
static int
replace_file(const char *from, const char *to)
{
	_cleanup_free_ char *tmp = NULL;
	_cleanup_close_ int in = open(from, O_RDONLY | O_CLOEXEC);
	int out;
	int rc;

	if (in < 0)
		return -errno;
	if (asprintf(&tmp, "%s.XXXXXX", to) < 0)
		abort();
	if ((out = mkostemp(tmp, O_CLOEXEC)) < 0)
		return -errno;
	rc = copy_fd(in, out);
	if (rc == 0 && (fchmod(out, 0644) < 0 || fsync(out) < 0))
		rc = -errno;
	if (close(out) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, to) < 0)
		rc = -errno;
	if (rc < 0)
		unlink(tmp);
	return rc;
}

int
rg_bless(const struct rg_case *c, const char *replayed, char **said)
{
	struct stat st;
	bool existed = stat(c->bless_path, &st) == 0;
	int rc = replace_file(replayed, c->bless_path);

	if (rc < 0) {
		tt_error("%s: cannot write it: %s", c->bless_path, strerror(-rc));
		return rc;
	}
	if (asprintf(said, "%s %s", existed ? "replaced" : "wrote", c->bless_path) < 0)
		abort();
	return 0;
}

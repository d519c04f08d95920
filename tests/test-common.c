/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "reader.h"
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

const char *
tt_test_corpus(void)
{
	static char dir[4096];
	const char *env = getenv("TT_CORPUS");

	if (env && *env)
		return env;
	if (!dir[0])
		snprintf(dir, sizeof(dir), "%s/tests/corpus", tt_test_srcdir());
	return dir;
}

static void
on_read_warning(void *data, const char *msg)
{
	struct tt_test_read *res = data;

	if (!res->warnings++)
		snprintf(res->first_warning, sizeof(res->first_warning), "%s", msg);
}

int
tt_test_read_path(const char *path, const char *companion, struct tt_test_read *res)
{
	struct tt_reader *r = NULL;
	struct tt_record rec;
	char *why = NULL;
	int rc;

	memset(res, 0, sizeof(*res));
	rc = tt_reader_open_why(path, &r, &why);
	if (rc < 0) {
		snprintf(res->first_error, sizeof(res->first_error), "%s", why ? why : "");
		free(why);
		res->errors = 1;
		return rc;
	}
	if (companion)
		tt_reader_set_companion(r, companion);
	tt_reader_set_warn(r, on_read_warning, res);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc < 0) {
			if (!res->errors++)
				snprintf(res->first_error, sizeof(res->first_error), "%s", tt_reader_error(r));
			if (rc == -EIO)
				break;
			continue;
		}
		res->records++;
		switch (rec.type) {
		case TT_RECORD_FRAME:
			res->frames++;
			res->last_t = rec.frame->time_us;
			break;
		case TT_RECORD_DEVICE:
			res->devices++;
			res->mt = rec.device->mt_protocol;
			res->slots = rec.device->num_slots;
			snprintf(res->name, sizeof(res->name), "%s", rec.device->name);
			break;
		case TT_RECORD_MARKER:
			res->markers++;
			break;
		default:
			break;
		}
	}
	tt_reader_free(r);
	return 0;
}

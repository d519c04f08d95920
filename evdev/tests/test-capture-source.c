/* SPDX-License-Identifier: MIT */
/* The registry of record's capture sources: every phase reaches the
 * sources that have it in the order they were added, a source that fails
 * to start is freed and not registered, the drain stops at a write
 * error, the sources are freed last added first, and a source's marker
 * goes through the recorder's check (none once a write failed). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture-source.h"
#include "test-common.h"

/* What the fake sources did, one letter per call: "s" start, "b"
 * begin_file, "n" notes, "e" end_file, "p" poll, "d" drain, "f" free,
 * each followed by the source's tag. */
static char calls[256];

static void
note(const char *what, const void *data)
{
	size_t len = strlen(calls);

	snprintf(calls + len, sizeof(calls) - len, "%s%c", what, *(const char *)data);
}

static int fail_start;		/* the tag whose start fails */
static struct tt_source_ctx *failing_ctx;	/* its drain sets a write error here */

static int
fake_start(void *data, const struct tt_source_ctx *ctx)
{
	(void)ctx;
	note("s", data);
	return *(char *)data == fail_start ? -EIO : 0;
}

static int
fake_begin(void *data)
{
	note("b", data);
	return 0;
}

static int
fake_notes(void *data)
{
	note("n", data);
	return 0;
}

static void
fake_end(void *data)
{
	note("e", data);
}

static void
fake_poll(void *data)
{
	note("p", data);
}

static void
fake_drain(void *data)
{
	note("d", data);
	if (failing_ctx)
		failing_ctx->write_error = -ENOSPC;
}

static size_t
fake_ndevices(const void *data)
{
	return *(const char *)data == 'k' ? 3 : 0;
}

static void
fake_free(void *data)
{
	note("f", data);
}

/* A kernel source: devices, file phases, poll and drain. */
static const struct tt_source_ops kernel_ops = {
	.name = "kernel", .start = fake_start, .ndevices = fake_ndevices,
	.begin_file = fake_begin, .notes = fake_notes, .end_file = fake_end,
	.poll = fake_poll, .drain = fake_drain, .free = fake_free,
};

/* A layer above: a start and a drain. */
static const struct tt_source_ops layer_ops = {
	.name = "layer", .start = fake_start, .drain = fake_drain, .free = fake_free,
};

static char tag_k = 'k', tag_h = 'h', tag_x = 'x', tag_l = 'l';

static void
test_order(void)
{
	struct tt_source_ctx ctx = { 0 };
	struct tt_sources s = { 0 };

	calls[0] = '\0';
	fail_start = 0;
	failing_ctx = NULL;
	check_int_eq(tt_sources_add(&s, &kernel_ops, &tag_k, &ctx), 0);
	check_int_eq(tt_sources_add(&s, &kernel_ops, &tag_h, &ctx), 0);
	check_int_eq(tt_sources_add(&s, &layer_ops, &tag_l, &ctx), 0);
	check_str_eq(calls, "sksh" "sl");
	check_int_eq((int)tt_sources_ndevices(&s), 3);
	calls[0] = '\0';
	check_int_eq(tt_sources_begin_file(&s), 0);
	check_int_eq(tt_sources_notes(&s), 0);
	tt_sources_poll(&s);
	tt_sources_drain(&s, &ctx);
	tt_sources_end_file(&s);
	check_str_eq(calls, "bkbh" "nknh" "pkph" "dkdhdl" "ekeh");
	calls[0] = '\0';
	tt_sources_clear(&s);
	check_str_eq(calls, "flfhfk");
	check_int_eq((int)s.n, 0);
}

static void
test_failed_start(void)
{
	struct tt_source_ctx ctx = { 0 };
	struct tt_sources s = { 0 };

	calls[0] = '\0';
	fail_start = 'x';
	check_int_eq(tt_sources_add(&s, &kernel_ops, &tag_k, &ctx), 0);
	check_int_eq(tt_sources_add(&s, &layer_ops, &tag_x, &ctx), -EIO);
	/* Freed at once, never heard of again. */
	check_str_eq(calls, "sk" "sxfx");
	check_int_eq((int)s.n, 1);
	calls[0] = '\0';
	tt_sources_clear(&s);
	check_str_eq(calls, "fk");
}

static void
test_drain_stops_at_write_error(void)
{
	struct tt_source_ctx ctx = { 0 };
	struct tt_sources s = { 0 };

	fail_start = 0;
	failing_ctx = &ctx;
	tt_sources_add(&s, &kernel_ops, &tag_k, &ctx);
	tt_sources_add(&s, &layer_ops, &tag_l, &ctx);
	calls[0] = '\0';
	tt_sources_drain(&s, &ctx);
	check_str_eq(calls, "dk");
	failing_ctx = NULL;
	tt_sources_clear(&s);
}

static int nchecks;

static int
count_check(void *host, int rc)
{
	(void)host;
	nchecks++;
	return rc;
}

static void
test_marker(void)
{
	const char *path = tt_test_tmpfile("", 0);
	struct tt_source_ctx ctx = { .check = count_check, .start_us = 0 };
	_cleanup_free_ char *text = NULL;
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	check(fd >= 0);
	check_int_eq(tt_writer_new(fd, &ctx.writer), 0);
	check_int_eq(tt_source_marker(&ctx, TT_MARKER_NOTE, 2, "a note"), 0);
	check_int_eq(nchecks, 1);
	ctx.write_error = -ENOSPC;
	check_int_eq(tt_source_marker(&ctx, TT_MARKER_NOTE, -1, "never"), -ENOSPC);
	check_int_eq(nchecks, 1);
	tt_writer_free(ctx.writer);
	text = tt_test_slurp(path, NULL);
	check_contains(text, "a note");
	check(strstr(text, "never") == NULL);
	close(fd);
	unlink(path);
}

int
main(void)
{
	RUN(test_order);
	RUN(test_failed_start);
	RUN(test_drain_stops_at_write_error);
	RUN(test_marker);
	return tt_test_result();
}

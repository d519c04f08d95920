/* SPDX-License-Identifier: MIT */
/* convert --format trace: the file through the trace (trace.h), into the
 * output convert writes every format to (cli/output.h). */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "convert-trace.h"
#include "gzip-out.h"
#include "log.h"
#include "output.h"
#include "reader.h"
#include "spool.h"
#include "trace.h"

struct trace_run {
	struct tt_read_options *ro;
	struct tt_reader *r;
	struct tt_trace *t;
	const char *name;
	size_t bad;		/* lines that could not be read */
	bool stopped;		/* reading stopped early */
};

static void
on_warn(void *data, const char *message)
{
	(void)data;
	tt_error("%s", message);
}

static void
feed_all(struct trace_run *run)
{
	struct tt_record rec;
	int rc;

	while ((rc = tt_reader_next(run->r, &rec)) != 0) {
		if (rc < 0) {
			tt_error("%s", tt_reader_error(run->r));
			tt_trace_reader_error(run->t, run->name, tt_reader_error(run->r));
			run->bad++;
			if (rc == -EIO) {
				run->stopped = true;
				return;
			}
			continue;
		}
		if (!tt_read_options_keep(run->ro, &rec))
			continue;
		(void)tt_read_options_note(run->ro, run->r, &rec);
		tt_trace_feed(run->t, &rec);
	}
}

/* The trace on @fd: 0, or a negative errno (writing failed). */
static int
write_trace(struct trace_run *run, int fd)
{
	_cleanup_(tt_gz_out_freep) struct tt_gz_out *gz = NULL;
	_cleanup_(tt_trace_freep) struct tt_trace *t = NULL;
	FILE *f;
	int rc;

	if (run->name && tt_gz_path(run->name) && (rc = tt_gz_out_new(fd, &gz)) < 0)
		return rc;
	f = fdopen(dup(gz ? tt_gz_out_fd(gz) : fd), "w");
	if (!f)
		return -errno;
	if ((rc = tt_trace_new(f, &t)) == 0) {
		run->t = t;
		feed_all(run);
		rc = tt_trace_finish(t, NULL);
		run->t = NULL;
	}
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc == 0 && gz)
		rc = tt_gz_out_finish(gz);
	return rc;
}

static bool
input_good(struct trace_run *run, const char *in)
{
	if (run->stopped)
		return false;
	return tt_read_options_finish(run->ro, run->r) == 0 && tt_read_options_check_reached(run->ro, in) == 0;
}

int
convert_trace(const char *in, const char *out, struct tt_read_options *ro)
{
	const char *inputs[] = { in, ro->desc, NULL };
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	_cleanup_(tt_output_freep) struct tt_output *o = NULL;
	struct trace_run run = { .ro = ro, .name = out };
	struct tt_spool hold;
	bool to_stdout = !out || strcmp(out, "-") == 0;
	int rc;

	if (tt_open_recording_opts(in, ro, &r) < 0)
		return TT_EXIT_TROUBLE;
	tt_reader_set_warn(r, on_warn, NULL);
	if (tt_output_open(out, inputs, &o) < 0)
		return TT_EXIT_TROUBLE;
	if (to_stdout)
		tt_spool_hold(&hold, tt_output_fd(o));
	run.r = r;
	rc = write_trace(&run, tt_output_fd(o));
	if (rc < 0)
		tt_error("%s: %s", tt_output_name(o), strerror(-rc));
	bool good = rc == 0 && input_good(&run, in);

	if (to_stdout && good && (rc = tt_spool_release(&hold)) < 0)
		tt_error("%s: %s", tt_output_name(o), strerror(-rc));
	else if (to_stdout && !good)
		tt_spool_discard(&hold);
	if (!good || rc < 0 || tt_output_commit(o) < 0)
		return TT_EXIT_TROUBLE;
	if (run.bad || tt_reader_nerrors(r)) {
		tt_error("%s: %zu error%s in the input; the output holds what could be read", in,
			 tt_reader_nerrors(r), tt_reader_nerrors(r) == 1 ? "" : "s");
		return TT_EXIT_FAILURE;
	}
	return TT_EXIT_OK;
}

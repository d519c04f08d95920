/* SPDX-License-Identifier: MIT */
/* tt_detect_run(): a whole file through the shared pass, for commands
 * that need only its diagnostics and numbers. */
#include "config.h"

#include <errno.h>

#include "detect-run.h"
#include "reader.h"

struct run {
	struct tt_detect *d;
	const char *name;
};

static void
on_warn(void *data, const char *message)
{
	struct run *run = data;

	tt_detect_reader_warning(run->d, run->name, message);
}

int
tt_detect_run(struct tt_reader *r, const struct tt_detect_options *opts,
	      tt_diag_fn fn, void *diag_data, struct tt_stats *stats)
{
	_cleanup_(tt_detect_freep) struct tt_detect *d = tt_detect_new(opts, NULL, NULL, fn, diag_data);
	struct run run = { .d = d, .name = tt_reader_name(r) };
	struct tt_record rec;
	int rc, status = 0;

	tt_reader_set_warn(r, on_warn, &run);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc >= 0) {
			tt_detect_feed(d, &rec);
			continue;
		}
		tt_detect_reader_error(d, run.name, tt_reader_error(r));
		if (rc == -EIO) {
			status = rc;
			break;
		}
	}
	tt_detect_finish(d);
	tt_reader_set_warn(r, NULL, NULL);
	if (stats)
		*stats = *tt_detect_stats(d);
	return status;
}

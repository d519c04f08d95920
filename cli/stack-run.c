/* SPDX-License-Identifier: MIT */
/* tt_stack_run(): a whole file through the layer stack, for commands
 * that need only its diagnostics and numbers. */
#include "config.h"

#include <errno.h>

#include "stack-run.h"
#include "stack.h"
#include "reader.h"

struct run {
	struct tt_stack *s;
	const char *name;
};

static void
on_warn(void *data, const char *message)
{
	struct run *run = data;

	tt_stack_reader_warning(run->s, run->name, message);
}

int
tt_stack_run(struct tt_reader *r, const struct tt_detect_options *opts,
	      tt_diag_fn fn, void *diag_data, struct tt_stats *stats)
{
	_cleanup_(tt_stack_freep) struct tt_stack *s = tt_stack_new(opts, fn, diag_data);
	struct run run = { .s = s, .name = tt_reader_name(r) };
	struct tt_record rec;
	int rc, status = 0;

	tt_reader_set_warn(r, on_warn, &run);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc >= 0) {
			tt_stack_feed(s, &rec);
			continue;
		}
		tt_stack_reader_error(s, run.name, tt_reader_error(r));
		if (rc == -EIO) {
			status = rc;
			break;
		}
	}
	tt_stack_finish(s);
	tt_reader_set_warn(r, NULL, NULL);
	if (stats)
		*stats = *tt_stack_stats(s);
	return status;
}

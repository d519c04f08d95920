/* SPDX-License-Identifier: MIT */
/* touchtape validate --privacy: what in a file may identify a person or a
 * machine (lib/analysis/privacy.h), one line each, before it is attached to a bug. */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "commands.h"
#include "privacy.h"
#include "reader.h"
#include "validate-privacy.h"

struct privacy_ctx {
	const char *name;
	bool quiet;
};

static void
on_finding(void *userdata, const struct tt_record *rec, const char *what)
{
	struct privacy_ctx *c = userdata;

	if (!c->quiet)
		fprintf(stderr, "touchtape validate: %s:%zu: %s\n", c->name, rec->line, what);
}

int
tt_validate_privacy(const char *path, const struct tt_read_options *ro, bool quiet)
{
	_cleanup_(tt_reader_freep) struct tt_reader *r = NULL;
	_cleanup_(tt_privacy_freep) struct tt_privacy *p = tt_privacy_new();
	struct privacy_ctx c = { .name = path, .quiet = quiet };
	struct tt_record rec;
	size_t findings = 0;
	int rc;

	if (tt_open_recording_opts(path, ro, &r) < 0)
		return TT_EXIT_TROUBLE;
	c.name = tt_reader_name(r);
	while ((rc = tt_reader_next(r, &rec)) != 0) {
		if (rc == -EIO)
			break;
		if (rc > 0)
			findings += tt_privacy_check(p, &rec, on_finding, &c);
	}
	printf("%s: %zu privacy finding%s\n", c.name, findings, findings == 1 ? "" : "s");
	if (rc == -EIO) {
		fprintf(stderr, "touchtape validate: %s\n", tt_reader_error(r));
		return TT_EXIT_TROUBLE;
	}
	return findings ? TT_EXIT_FAILURE : TT_EXIT_OK;
}

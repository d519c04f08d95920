/* SPDX-License-Identifier: MIT */
/*
 * Semantic checks over a stream of records: what the JSON schema cannot
 * say. Used by `validate`, by `replay` before it creates anything, and by
 * `analyze` for its anomaly list. Feed records in file order; each
 * problem is reported through the callback with its line.
 */
#pragma once

#include <stddef.h>

#include "timeline.h"

enum tt_severity {
	TT_SEV_WARNING,
	TT_SEV_ERROR,
};

/* What kind of problem: stable names for JSON output and tests. */
enum tt_check {
	TT_CHECK_TIME_BACKWARDS,	/* error */
	TT_CHECK_NO_SYN_REPORT,		/* error: frame not ended by SYN_REPORT */
	TT_CHECK_SLOT_RANGE,		/* error: ABS_MT_SLOT beyond the slots */
	TT_CHECK_TRACKING_ID_REUSED,	/* error: same ID active in two slots */
	TT_CHECK_TRACKING_ID_REPLACED,	/* warning: ID changed without release */
	TT_CHECK_VALUE_RANGE,		/* warning: value outside absinfo (real
					   devices do it; the kernel does not clamp) */
	TT_CHECK_UNSUPPORTED_CODE,	/* error: code the device does not have */
	TT_CHECK_XI_UPDATE_BEFORE_BEGIN,	/* error */
	TT_CHECK_XI_BEGIN_TWICE,	/* error */
	TT_CHECK_XI_END_TWICE,		/* error: end without an active sequence */
	TT_CHECK_NO_DEVICES,		/* warning: a recording without devices */
	TT_CHECK_DUPLICATE_DEVICE,	/* error: a device id declared twice */
	TT_CHECK_SYN_DROPPED,		/* warning: events were lost in recording */
	TT_CHECK_COUNT,
};

const char *tt_check_name(enum tt_check check);
enum tt_severity tt_check_severity(enum tt_check check);

struct tt_diag {
	enum tt_check check;
	enum tt_severity severity;
	size_t line;
	int64_t time_us;
	int64_t device;		/* device record id or XI deviceid, -1 */
	char message[256];
};

typedef void (*tt_diag_fn)(void *userdata, const struct tt_diag *diag);

struct tt_checker;

struct tt_checker *tt_checker_new(tt_diag_fn fn, void *userdata);
void tt_checker_free(struct tt_checker *c);
void tt_checker_feed(struct tt_checker *c, const struct tt_record *rec);
/* End of input: reports what is still open where that is a problem. */
void tt_checker_finish(struct tt_checker *c);
size_t tt_checker_count(const struct tt_checker *c, enum tt_severity sev);

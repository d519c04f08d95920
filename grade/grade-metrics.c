/* SPDX-License-Identifier: MIT */
/* The grade's names: metrics with their units, exercises, verdicts. */
#include "config.h"

#include <string.h>

#include "grade.h"

static const struct {
	const char *name;
	const char *unit;
} metrics[TT_GRADE_METRIC_COUNT] = {
	[TT_GRADE_REPORT_RATE] = { "report-rate", "Hz" },
	[TT_GRADE_REPORT_RATE_ONE] = { "report-rate-one-contact", "Hz" },
	[TT_GRADE_REPORT_RATE_MOST] = { "report-rate-most-contacts", "Hz" },
	[TT_GRADE_STATIONARY_JITTER] = { "stationary-jitter", "mm" },
	[TT_GRADE_LINEARITY_MAX] = { "linearity-max", "mm" },
	[TT_GRADE_LINEARITY_RMS] = { "linearity-rms", "mm" },
	[TT_GRADE_REVERSED_MOTION] = { "reversed-motion", "mm" },
	[TT_GRADE_GAP_RATIO] = { "gap-ratio", "ratio" },
	[TT_GRADE_EDGE_LEFT] = { "edge-reach-left", "mm" },
	[TT_GRADE_EDGE_RIGHT] = { "edge-reach-right", "mm" },
	[TT_GRADE_EDGE_TOP] = { "edge-reach-top", "mm" },
	[TT_GRADE_EDGE_BOTTOM] = { "edge-reach-bottom", "mm" },
	[TT_GRADE_MAX_CONTACTS] = { "max-contacts", "contacts" },
	[TT_GRADE_FINGER_SEPARATION] = { "finger-separation", "mm" },
	[TT_GRADE_HID_TO_KERNEL] = { "hid-to-kernel", "ms" },
	[TT_GRADE_KERNEL_TO_CLIENT] = { "kernel-to-client", "ms" },
};

const char *
tt_grade_metric_name(enum tt_grade_metric m)
{
	return m < TT_GRADE_METRIC_COUNT ? metrics[m].name : "?";
}

const char *
tt_grade_metric_unit(enum tt_grade_metric m)
{
	return m < TT_GRADE_METRIC_COUNT ? metrics[m].unit : "";
}

int
tt_grade_metric_decimals(enum tt_grade_metric m)
{
	if (m == TT_GRADE_MAX_CONTACTS)
		return 0;
	return strcmp(tt_grade_metric_unit(m), "Hz") == 0 ? 1 : 2;
}

int
tt_grade_metric_from_name(const char *name)
{
	for (int m = 0; m < TT_GRADE_METRIC_COUNT; m++) {
		if (strcmp(metrics[m].name, name) == 0)
			return m;
	}
	return -1;
}

static const char *const exercises[TT_GUIDE_COUNT] = {
	[TT_GUIDE_NONE] = "",
	[TT_GUIDE_STATIONARY] = "stationary",
	[TT_GUIDE_LINE] = "line",
	[TT_GUIDE_EDGE] = "edge",
	[TT_GUIDE_SEPARATION] = "separation",
	[TT_GUIDE_TAP] = "tap",
	[TT_GUIDE_CONTACTS] = "contacts",
};

const char *
tt_guide_exercise_name(enum tt_guide_exercise e)
{
	return e < TT_GUIDE_COUNT ? exercises[e] : "";
}

enum tt_guide_exercise
tt_guide_exercise_from_name(const char *name)
{
	for (int e = 1; name && e < TT_GUIDE_COUNT; e++) {
		if (strcmp(exercises[e], name) == 0)
			return (enum tt_guide_exercise)e;
	}
	return TT_GUIDE_NONE;
}

const char *
tt_grade_verdict_name(enum tt_grade_verdict v)
{
	switch (v) {
	case TT_VERDICT_PASS: return "pass";
	case TT_VERDICT_FAIL: return "fail";
	case TT_VERDICT_INFO: return "info";
	case TT_VERDICT_NOT_MEASURABLE: return "not-measurable";
	}
	return "?";
}

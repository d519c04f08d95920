/* SPDX-License-Identifier: MIT */
/*
 * Grading a touch device against published quality limits: the metrics
 * measured from any recording (grade-measure.c, a layer of the stack), the
 * profiles that give their limits (grade-profile.c), the verdicts
 * (grade-judge.c) and their table and JSON (grade-report.c).
 *
 * Every metric has one definition, written in touchtape-analyze(1),
 * GRADING; the comments at each computation say how it follows it.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grade-stroke.h"
#include "json-emit.h"
#include "stack.h"
#include "util-mem.h"

enum tt_grade_metric {
	TT_GRADE_REPORT_RATE = 0,
	TT_GRADE_REPORT_RATE_ONE,	/* frames with exactly one contact down */
	TT_GRADE_REPORT_RATE_MOST,	/* frames with the most contacts seen */
	TT_GRADE_STATIONARY_JITTER,
	TT_GRADE_LINEARITY_MAX,
	TT_GRADE_LINEARITY_RMS,
	TT_GRADE_REVERSED_MOTION,
	TT_GRADE_GAP_RATIO,
	TT_GRADE_EDGE_LEFT,
	TT_GRADE_EDGE_RIGHT,
	TT_GRADE_EDGE_TOP,
	TT_GRADE_EDGE_BOTTOM,
	TT_GRADE_MAX_CONTACTS,
	TT_GRADE_FINGER_SEPARATION,
	TT_GRADE_HID_TO_KERNEL,
	TT_GRADE_KERNEL_TO_CLIENT,
	TT_GRADE_METRIC_COUNT,
};

/* A metric's name as printed and as a profile's key, and its unit. */
const char *tt_grade_metric_name(enum tt_grade_metric m);
const char *tt_grade_metric_unit(enum tt_grade_metric m);
/* The decimals a value is shown with, and judged at: a limit of 60 Hz
 * passes a rate shown as 60.0 Hz. */
int tt_grade_metric_decimals(enum tt_grade_metric m);
/* The metric called @name, or -1. */
int tt_grade_metric_from_name(const char *name);

/* ---- profiles (grade-profile.c) ---- */

struct tt_grade_limit {
	bool has_min, has_max;
	double min, max;
	/* The minimum is the display's refresh rate (--refresh). */
	bool min_is_refresh;
};

struct tt_grade_profile {
	char *name;
	char *title;	/* one line: what the limits are */
	char *source;	/* where they come from ("; " between several) */
	struct tt_grade_limit limits[TT_GRADE_METRIC_COUNT];
};

void tt_grade_profile_free(struct tt_grade_profile *p);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_grade_profile *, tt_grade_profile_free);

/* Parses the profile @text of file @file. 0 and *@out set; -EINVAL with
 * *@error set to "FILE:LINE: what" (the caller frees it). */
int tt_grade_profile_parse(const char *file, const char *text, struct tt_grade_profile **out, char **error);
/* The profile @arg names: a built-in one (touchscreen, touchpad,
 * chromeos) or a file (a path with a '/' or an existing file). 0 and *@out
 * set; -ENOENT (no such profile or file), -EINVAL (a bad file), with
 * *@error set as above. */
int tt_grade_profile_load(const char *arg, struct tt_grade_profile **out, char **error);

/* ---- measuring (grade-measure.c) ---- */

/* The exercises of a guided recording (marker kinds guide-begin and
 * guide-end, their text the exercise). */
enum tt_guide_exercise {
	TT_GUIDE_NONE = 0,
	TT_GUIDE_STATIONARY,
	TT_GUIDE_LINE,
	TT_GUIDE_EDGE,
	TT_GUIDE_SEPARATION,
	TT_GUIDE_TAP,
	TT_GUIDE_CONTACTS,
	TT_GUIDE_COUNT,
};
const char *tt_guide_exercise_name(enum tt_guide_exercise e);
enum tt_guide_exercise tt_guide_exercise_from_name(const char *name);

/* What was measured of one metric on one device. */
struct tt_grade_value {
	bool measured;
	double value;
	const char *why;	/* when not measured: why (a static string) */
	int64_t from_us, to_us;	/* where in the recording; -1 unknown */
	size_t line;		/* a line of the file there, 0 unknown */
	int64_t aux;		/* max-contacts: the slots the device declares (0 unknown) */
};

struct tt_grade;

/* A grade layer added to @stack: measures every evdev touch device. */
struct tt_grade *tt_grade_new(struct tt_stack *stack);
void tt_grade_free(struct tt_grade *g);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct tt_grade *, tt_grade_free);

/* After tt_stack_finish: the device graded (@only >= 0: that one, else
 * the one with the most touches). 0 and *@id set, or -ENODATA when no
 * touch device has a touch. */
int tt_grade_pick_device(const struct tt_grade *g, int64_t only, uint32_t *id);
/* The measured values of device @id (TT_GRADE_METRIC_COUNT entries). */
int tt_grade_values(const struct tt_grade *g, uint32_t id, struct tt_grade_value *out);
const struct tt_device *tt_grade_device(const struct tt_grade *g, uint32_t id);

/* The pressure and touch size a device gave: every value, and each
 * touch's highest (for the quirks libinput takes, grade-suggest.c). */
enum tt_grade_range_axis {
	TT_GRADE_RANGE_PRESSURE = 0,	/* ABS_MT_PRESSURE */
	TT_GRADE_RANGE_TOUCH_MAJOR,	/* ABS_MT_TOUCH_MAJOR */
	TT_GRADE_RANGE_COUNT,
};
struct tt_grade_range {
	uint64_t touches;	/* touches that gave the axis; 0: none */
	int32_t min, max;	/* of every value */
	int32_t peak_min, peak_max;	/* of each touch's highest */
};
/* The samples of the touch stationary-jitter was measured on (valid
 * while @g lives); how many, 0 without one. */
size_t tt_grade_still_samples(const struct tt_grade *g, uint32_t id, const struct tt_grade_point **out);
/* TT_GRADE_RANGE_COUNT entries for device @id: 0, or -ENODATA. */
int tt_grade_ranges(const struct tt_grade *g, uint32_t id, struct tt_grade_range *out);
/* True when the recording has guide markers. */
bool tt_grade_guided(const struct tt_grade *g);

/* ---- verdicts (grade-judge.c) and output (grade-report.c) ---- */

enum tt_grade_verdict {
	TT_VERDICT_PASS = 0,
	TT_VERDICT_FAIL,
	TT_VERDICT_INFO,
	TT_VERDICT_NOT_MEASURABLE,
};
const char *tt_grade_verdict_name(enum tt_grade_verdict v);

struct tt_grade_result {
	enum tt_grade_metric metric;
	struct tt_grade_value v;
	struct tt_grade_limit limit;	/* refresh resolved into min */
	enum tt_grade_verdict verdict;
};

/* Judges @values against @p, with @refresh_hz the display's refresh
 * rate for limits given as "refresh". Fills @out (TT_GRADE_METRIC_COUNT
 * entries); returns the number of failing metrics. */
unsigned tt_grade_judge(const struct tt_grade_profile *p, double refresh_hz,
			const struct tt_grade_value *values, struct tt_grade_result *out);

/* A whole grade: the device picked, its verdicts. What analyze, inspect
 * --summary and diff --grade print from. */
struct tt_grade_outcome {
	const struct tt_grade_profile *profile;
	bool graded;		/* a touch device had a touch */
	const struct tt_device *device;
	struct tt_grade_range range[TT_GRADE_RANGE_COUNT];
	const struct tt_grade_point *still;	/* tt_grade_still_samples() */
	size_t nstill;
	unsigned nfail;
	struct tt_grade_result res[TT_GRADE_METRIC_COUNT];
};

/* After tt_stack_finish: picks the device (tt_grade_pick_device), takes
 * its values and judges them. @out->graded false when there was nothing
 * to grade. */
void tt_grade_conclude(const struct tt_grade *g, const struct tt_grade_profile *p, double refresh_hz,
		       int64_t only_device, struct tt_grade_outcome *out);

/* What would mend a failing metric, or what libinput would take: kind
 * "hwdb" (an entry of /etc/udev/hwdb.d/) or "quirk" (a section of
 * /etc/libinput/local-overrides.quirks), why, and the lines. */
struct tt_grade_suggestion {
	const char *kind;
	char why[192];
	char text[640];
	double expected;	/* hwdb: the jitter with it (mm); -1 otherwise */
};
#define TT_GRADE_MAX_SUGGESTIONS 2
/* Fills @out (room for @max, at least TT_GRADE_MAX_SUGGESTIONS); returns
 * how many. */
size_t tt_grade_suggest(const struct tt_grade_outcome *o, struct tt_grade_suggestion *out, size_t max);

/* The table (or "nothing to grade") and the suggestions. */
void tt_grade_report_text(const struct tt_grade_outcome *o, FILE *out);
/* The member "grade" of an open object: profile, device (null when
 * nothing was graded) and the metrics; @failing_only: only those that
 * failed, as "failing" (inspect --summary). */
void tt_grade_report_json(const struct tt_grade_outcome *o, bool failing_only, struct tt_json_emit *j);
/* One line: how many metrics failed, and which with value and limit. */
void tt_grade_report_failing_text(const struct tt_grade_outcome *o, FILE *out);

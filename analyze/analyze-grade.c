/* SPDX-License-Identifier: MIT */
/* analyze --grade: the grade layer on the pass whose numbers analyze
 * reports (the --from/--to window's, when there is one), and its verdicts
 * in the report. The measuring and judging live in grade/. */
#include "config.h"

#include <stdio.h>

#include "analyze-private.h"

void
grade_start(struct analyze *a)
{
	if (a->profile)
		a->grade = tt_grade_new(a->window ? a->window : a->detect);
}

void
grade_conclude(struct analyze *a)
{
	struct tt_grade_value values[TT_GRADE_METRIC_COUNT];

	if (!a->grade || tt_grade_pick_device(a->grade, a->opts.only_device, &a->graded_device) < 0 ||
	    tt_grade_values(a->grade, a->graded_device, values) < 0)
		return;
	a->graded = true;
	a->grade_fails = tt_grade_judge(a->profile, a->refresh_hz, values, a->grade_res);
}

void
grade_text(struct analyze *a)
{
	if (!a->profile)
		return;
	if (!a->graded) {
		printf("grade (%s): no touch device with a touch in the recording: nothing to grade\n",
		       a->profile->name);
		return;
	}
	tt_grade_report_text(a->profile, tt_grade_device(a->grade, a->graded_device), a->grade_res, stdout);
}

void
grade_json(struct analyze *a)
{
	struct tt_json_emit *j = &a->report;

	if (!a->profile)
		return;
	tt_json_emit_key(j, "grade");
	tt_json_emit_object_begin(j);
	if (a->graded) {
		tt_grade_report_json(a->profile, tt_grade_device(a->grade, a->graded_device), a->grade_res, j);
	} else {
		tt_json_emit_member_string(j, "profile", a->profile->name);
		tt_json_emit_key(j, "device");
		tt_json_emit_null(j);
		tt_json_emit_key(j, "metrics");
		tt_json_emit_array_begin(j);
		tt_json_emit_array_end(j);
	}
	tt_json_emit_object_end(j);
}

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
	if (a->profile)
		tt_grade_conclude(a->grade, a->profile, a->refresh_hz, a->opts.only_device, &a->graded);
}

void
grade_text(struct analyze *a)
{
	if (a->profile)
		tt_grade_report_text(&a->graded, stdout);
}

void
grade_json(struct analyze *a)
{
	if (a->profile)
		tt_grade_report_json(&a->graded, false, &a->report);
}
